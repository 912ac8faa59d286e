// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/textfmt"
)

// This file turns catalog types and values into the framework's: schema
// attributes, attribute types and tftypes values. Everything else in the
// provider is built from internal/capacity's catalog through it.

// attrType is the framework type of a catalog type. Every number is a
// Terraform number, so that results leave the provider decimal-clean.
func attrType(t capacity.Type) attr.Type {
	switch t.Kind {
	case capacity.KindBool:
		return types.BoolType
	case capacity.KindString:
		return types.StringType
	case capacity.KindList:
		return types.ListType{ElemType: attrType(*t.Elem)}
	case capacity.KindMap:
		return types.MapType{ElemType: attrType(*t.Elem)}
	case capacity.KindObject:
		return types.ObjectType{AttrTypes: attrTypes(t.Attrs)}
	}
	return types.NumberType
}

func attrTypes(attrs []capacity.Attr) map[string]attr.Type {
	out := make(map[string]attr.Type, len(attrs))
	for _, a := range attrs {
		out[a.Name] = attrType(a.Type)
	}
	return out
}

// tfType is the wire type of a catalog type.
func tfType(t capacity.Type) tftypes.Type {
	switch t.Kind {
	case capacity.KindBool:
		return tftypes.Bool
	case capacity.KindString:
		return tftypes.String
	case capacity.KindList:
		return tftypes.List{ElementType: tfType(*t.Elem)}
	case capacity.KindMap:
		return tftypes.Map{ElementType: tfType(*t.Elem)}
	case capacity.KindObject:
		at := make(map[string]tftypes.Type, len(t.Attrs))
		for _, a := range t.Attrs {
			at[a.Name] = tfType(a.Type)
		}
		return tftypes.Object{AttributeTypes: at}
	}
	return tftypes.Number
}

// tfValue is a catalog value on the wire; nil is null. Numbers are the
// shortest decimal their float64 rounds to at 15 significant digits, held
// at Terraform's own precision, so 0.28000000000000003 reaches Terraform
// as 0.28 and 0.28 × 100 is 28 there.
func tfValue(t capacity.Type, v any) tftypes.Value {
	typ := tfType(t)
	if v == nil {
		return tftypes.NewValue(typ, nil)
	}
	switch t.Kind {
	case capacity.KindNumber:
		return tftypes.NewValue(typ, bigNumber(v))
	case capacity.KindBool, capacity.KindString:
		if s, ok := v.(string); ok && capacity.HoldsPlaceholder(s) {
			return tftypes.NewValue(typ, tftypes.UnknownValue)
		}
		return tftypes.NewValue(typ, v)
	case capacity.KindList:
		items, _ := v.([]any)
		vals := make([]tftypes.Value, len(items))
		for i, item := range items {
			vals[i] = tfValue(*t.Elem, item)
		}
		return tftypes.NewValue(typ, vals)
	case capacity.KindMap:
		m, _ := v.(map[string]any)
		vals := make(map[string]tftypes.Value, len(m))
		for k, item := range m {
			vals[k] = tfValue(*t.Elem, item)
		}
		return tftypes.NewValue(typ, vals)
	case capacity.KindObject:
		m, _ := v.(map[string]any)
		vals := make(map[string]tftypes.Value, len(t.Attrs))
		for _, a := range t.Attrs {
			vals[a.Name] = tfValue(a.Type, m[a.Name])
		}
		return tftypes.NewValue(typ, vals)
	}
	panic(fmt.Sprintf("catalog value of kind %d", t.Kind))
}

// bigNumber is a catalog number (float64 or int64) as Terraform's number.
func bigNumber(v any) *big.Float {
	switch n := v.(type) {
	case *big.Float:
		return n // a value given, kept as it came
	case int64:
		return new(big.Float).SetInt64(n)
	case float64:
		if n == math.Trunc(n) && math.Abs(n) < 1e15 {
			// A whole number of at most 15 digits is its own decimal:
			// the value ParseFloat would give, without writing and
			// parsing it (TestBigNumberOfWholeFloats).
			return new(big.Float).SetPrec(512).SetFloat64(n)
		}
		f, _, err := big.ParseFloat(capacity.Decimal(n), 10, 512, big.ToNearestEven)
		if err != nil {
			return big.NewFloat(n)
		}
		return f
	}
	panic(fmt.Sprintf("catalog number of type %T", v))
}

// dataSourceSchema is a formula's data source schema: its inputs as
// arguments (optional ones with a default or a computed value are also
// computed, so state holds the value used), its outputs as computed
// attributes.
func dataSourceSchema(f *capacity.Formula) schema.Schema {
	attrs := make(map[string]schema.Attribute, len(f.Inputs)+len(f.Outputs))
	for i := range f.Inputs {
		in := &f.Inputs[i]
		optional := !in.Required
		computed := optional && (in.Default != nil || in.Computed)
		desc := in.Doc()
		switch in.Type.Kind {
		case capacity.KindString:
			attrs[in.Name] = schema.StringAttribute{Required: in.Required, Optional: optional, Computed: computed, MarkdownDescription: desc}
		case capacity.KindList:
			attrs[in.Name] = schema.ListAttribute{ElementType: attrType(*in.Type.Elem), Required: in.Required, Optional: optional, Computed: computed,
				MarkdownDescription: desc}
		default:
			attrs[in.Name] = schema.NumberAttribute{Required: in.Required, Optional: optional, Computed: computed, MarkdownDescription: desc}
		}
	}
	for _, out := range f.Outputs {
		attrs[out.Name] = computedAttribute(out.Type, out.Description)
	}
	return schema.Schema{MarkdownDescription: f.Description, Attributes: attrs}
}

func computedAttribute(t capacity.Type, desc string) schema.Attribute {
	switch t.Kind {
	case capacity.KindBool:
		return schema.BoolAttribute{Computed: true, MarkdownDescription: desc}
	case capacity.KindString:
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	case capacity.KindMap:
		return schema.MapAttribute{Computed: true, ElementType: attrType(*t.Elem), MarkdownDescription: desc}
	case capacity.KindObject:
		return schema.SingleNestedAttribute{Computed: true, MarkdownDescription: desc, Attributes: nestedAttributes(t.Attrs)}
	case capacity.KindList:
		if t.Elem.Kind == capacity.KindObject {
			return schema.ListNestedAttribute{Computed: true, MarkdownDescription: desc,
				NestedObject: schema.NestedAttributeObject{Attributes: nestedAttributes(t.Elem.Attrs)}}
		}
		return schema.ListAttribute{Computed: true, ElementType: attrType(*t.Elem), MarkdownDescription: desc}
	}
	return schema.NumberAttribute{Computed: true, MarkdownDescription: desc}
}

func nestedAttributes(attrs []capacity.Attr) map[string]schema.Attribute {
	out := make(map[string]schema.Attribute, len(attrs))
	for _, a := range attrs {
		out[a.Name] = computedAttribute(a.Type, a.Description)
	}
	return out
}

// checkInput checks a configured input at plan as internal/capacity does,
// so that the data sources and the functions reject the same values with
// the same words: a number within its range, a string among its values,
// a list long enough with every entry a number within the range. Unknown
// and null values pass (a required input's null is the CLI's to report).
func checkInput(diags *diag.Diagnostics, in *capacity.Input, v tftypes.Value) {
	if !v.IsKnown() || v.IsNull() {
		return
	}
	// The paths are built only for a diagnostic: valid input, the common
	// case on every plan, allocates none.
	root := func() path.Path { return path.Root(in.Name) }
	invalid := func(p path.Path, reason string) {
		diags.AddAttributeError(p, "Invalid Attribute Value", "Attribute "+p.String()+" "+reason)
	}
	switch in.Type.Kind {
	case capacity.KindString:
		var s string
		if v.As(&s) == nil {
			if err := in.CheckString(s); err != nil {
				invalid(root(), err.Reason)
			}
		}
	case capacity.KindList:
		var elems []tftypes.Value
		if v.As(&elems) != nil {
			return
		}
		if len(elems) < in.MinItems {
			p := root()
			diags.AddAttributeError(p, "Invalid Attribute Value",
				fmt.Sprintf("Attribute %s list must contain at least %d elements, got: %d", p, in.MinItems, len(elems)))
			return
		}
		for i, e := range elems {
			var n big.Float
			switch {
			case !e.IsKnown():
			case e.IsNull():
				ep := root().AtListIndex(i)
				diags.AddAttributeError(ep, "Invalid Attribute Value", "Attribute "+ep.String()+" must not be null")
			case e.As(&n) == nil:
				if _, err := in.CheckNumber(&n); err != nil {
					invalid(root().AtListIndex(i), err.Reason)
				}
			}
		}
	default:
		var n big.Float
		if v.As(&n) == nil {
			if _, err := in.CheckNumber(&n); err != nil {
				invalid(root(), err.Reason)
			}
		}
	}
}

// inputRule says what checkInput accepts of an input.
func inputRule(in *capacity.Input) string {
	switch in.Type.Kind {
	case capacity.KindString:
		return in.Name + ": value must be one of " + strings.Join(in.OneOf, ", ")
	case capacity.KindList:
		return in.Name + ": every entry " + in.Range.Rule()
	}
	return in.Name + ": value must be " + in.Range.Rule()
}

// readInput converts a configured value of an input to a catalog
// argument. Numbers given as strings are read as Terraform converts them,
// so an object built from tags ("400") works. known is false for an
// unknown value; a null value returns nil.
func readInput(in *capacity.Input, v tftypes.Value) (arg any, known bool, err *capacity.InputError) {
	if !v.IsKnown() {
		return nil, false, nil
	}
	if v.IsNull() {
		return nil, true, nil
	}
	switch in.Type.Kind {
	case capacity.KindString:
		var s string
		switch {
		case v.Type().Is(tftypes.String):
			_ = v.As(&s)
		case v.Type().Is(tftypes.Number):
			var n big.Float
			_ = v.As(&n)
			s = numberString(&n)
		case v.Type().Is(tftypes.Bool):
			var b bool
			_ = v.As(&b)
			s = fmt.Sprint(b)
		default:
			return nil, true, &capacity.InputError{Field: in.Name, Reason: "must be a string, got " + typeName(v.Type())}
		}
		return s, true, in.CheckString(s)
	case capacity.KindList:
		if !v.Type().Is(tftypes.List{}) && !v.Type().Is(tftypes.Tuple{}) && !v.Type().Is(tftypes.Set{}) {
			return nil, true, &capacity.InputError{Field: in.Name, Reason: "must be a list of numbers, got " + typeName(v.Type())}
		}
		var elems []tftypes.Value
		_ = v.As(&elems)
		if len(elems) < in.MinItems {
			return nil, true, &capacity.InputError{Field: in.Name, Reason: fmt.Sprintf("list must contain at least %d elements, got: %d", in.MinItems, len(elems))}
		}
		out := make([]float64, len(elems))
		for i, e := range elems {
			elem := *in
			elem.Name = fmt.Sprintf("%s[%d]", in.Name, i)
			f, ok, err := readNumber(&elem, e)
			if err != nil || !ok {
				return nil, ok, err
			}
			out[i] = f
		}
		return out, true, nil
	}
	f, ok, err := readNumber(in, v)
	if err != nil || !ok {
		return nil, ok, err
	}
	return f, true, nil
}

// maxNumberText is the longest number readNumber reads from a string:
// far more digits than a float64 holds (17), or than tostring() writes of
// a number (a 512-bit fraction, about 160).
const maxNumberText = 1000

func readNumber(in *capacity.Input, v tftypes.Value) (float64, bool, *capacity.InputError) {
	if !v.IsKnown() {
		return 0, false, nil
	}
	var n big.Float
	switch {
	case v.IsNull():
		return 0, true, &capacity.InputError{Field: in.Name, Reason: "must not be null"}
	case v.Type().Is(tftypes.Number):
		_ = v.As(&n)
	case v.Type().Is(tftypes.String):
		var s string
		_ = v.As(&s)
		// Reading a decimal costs the square of its length: a number
		// longer than any float64 needs is refused unread.
		if len(strings.TrimSpace(s)) > maxNumberText {
			return 0, true, &capacity.InputError{Field: in.Name, Reason: fmt.Sprintf("must be a number of at most %d characters, got a string of %d", maxNumberText, len(s))}
		}
		if _, ok := n.SetPrec(512).SetString(strings.TrimSpace(s)); !ok {
			// "15m" where seconds are taken: say what it is in seconds.
			if in.Unit == "seconds" {
				if secs, err := textfmt.Seconds(s); err == nil {
					return 0, true, &capacity.InputError{Field: in.Name, Reason: fmt.Sprintf("must be a number of seconds, got the string %s: write %s",
						capacity.Quote(s), capacity.Decimal(secs))}
				}
			}
			return 0, true, &capacity.InputError{Field: in.Name, Reason: "must be a number, got the string " + capacity.Quote(s)}
		}
	default:
		return 0, true, &capacity.InputError{Field: in.Name, Reason: "must be a number, got " + typeName(v.Type())}
	}
	f, err := in.CheckNumber(&n)
	return f, true, err
}

// numberString is a number given for a string, as Terraform converts it;
// one beyond float64's range as NumberText writes it, not in all its
// digits.
func numberString(n *big.Float) string {
	if capacity.Writable(n) {
		return n.Text('f', -1)
	}
	return capacity.NumberText(n)
}

// typeName names a Terraform type as a user writes it, never as a Go type.
func typeName(t tftypes.Type) string {
	switch {
	case t.Is(tftypes.String):
		return "a string"
	case t.Is(tftypes.Number):
		return "a number"
	case t.Is(tftypes.Bool):
		return "a bool"
	case t.Is(tftypes.List{}):
		return "a list"
	case t.Is(tftypes.Tuple{}):
		return "a tuple"
	case t.Is(tftypes.Set{}):
		return "a set"
	case t.Is(tftypes.Map{}):
		return "a map"
	case t.Is(tftypes.Object{}):
		return "an object"
	}
	return "a value of another type"
}

// presence answers a formula's rules from configured values: an unknown
// value is set, but may still turn out null, and its number is not known.
type presence map[string]tftypes.Value

func (p presence) IsSet(name string) bool {
	v, ok := p[name]
	return ok && (!v.IsKnown() || !v.IsNull())
}

func (p presence) IsKnown(name string) bool {
	v, ok := p[name]
	return !ok || v.IsKnown()
}

func (p presence) Number(name string) (float64, bool) {
	v, ok := p[name]
	if !ok || !v.IsKnown() || v.IsNull() || !v.Type().Is(tftypes.Number) {
		return 0, false
	}
	var n big.Float
	if v.As(&n) != nil {
		return 0, false
	}
	f, _ := n.Float64()
	return f, true
}

// errorPath is where an input error belongs: the attribute it names, or
// the whole configuration.
func errorPath(err *capacity.InputError) (path.Path, bool) {
	if err.Field == "" {
		return path.Empty(), false
	}
	name, _, _ := strings.Cut(err.Field, "[")
	return path.Root(name), true
}
