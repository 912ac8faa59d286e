// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// queuecapFormula is the catalog formula of a queuecap_* data source type,
// or nil.
func queuecapFormula(typ string) *capacity.Formula {
	name, ok := strings.CutPrefix(typ, "queuecap_")
	if !ok {
		return nil
	}
	return capacity.FormulaNamed(name)
}

func isQueuecapData(typ string) bool { return queuecapFormula(typ) != nil }

// queuecapData computes a queuecap data source's results from the catalog,
// with the code the provider runs at plan. It returns cty.NilVal when they
// cannot be known (an argument that is set is not known before apply) or
// the provider would reject the arguments.
func (in *instance) queuecapData(r *Resource, rep *repetition) cty.Value {
	outer := in.rep
	in.rep = rep
	defer func() { in.rep = outer }()
	f := queuecapFormula(r.Type)
	schema := &hcl.BodySchema{}
	for _, input := range f.Inputs {
		schema.Attributes = append(schema.Attributes, hcl.AttributeSchema{Name: input.Name})
	}
	content, _, _ := r.Body.PartialContent(schema)
	if content == nil {
		return cty.NilVal
	}
	addr := in.absAddr(r.LocalAddr()) + rep.suffix()
	// Terraform reads a data source at plan when its arguments are known,
	// and the provider's errors fail the plan: so they are errors here.
	invalid := func(rng hcl.Range, detail string) cty.Value {
		in.root.limits.reject(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid Attribute Value",
			Detail: detail + " (" + addr + ")", Subject: rng.Ptr()})
		return cty.NilVal
	}
	raw := make(map[string]any, len(content.Attributes))
	for i := range f.Inputs { // in order, so that the first error is always the same
		input := &f.Inputs[i]
		attr, ok := content.Attributes[input.Name]
		if !ok {
			continue
		}
		v := in.eval(attr.Expr)
		a, ok := catalogArg(input, v)
		if reason, bad := knownInvalid(input, v); !ok && bad {
			return invalid(attr.Expr.Range(), "Attribute "+input.Name+" "+reason)
		}
		if !ok {
			return cty.NilVal
		}
		if a != nil {
			raw[input.Name] = a
		}
	}
	res, args, err := in.root.run(f, raw)
	if err != nil {
		rng := r.DefRange
		var ie *capacity.InputError
		if errors.As(err, &ie) {
			name, _, _ := strings.Cut(ie.Field, "[")
			if attr, ok := content.Attributes[name]; ok {
				rng = attr.Expr.Range()
			}
			if ie.Field != "" {
				return invalid(rng, "Attribute "+err.Error())
			}
		}
		return invalid(rng, err.Error())
	}
	// Keep the arguments as given: a fleet sized from this data source
	// declares its rates through them.
	in.root.dataArgs[addr] = ratesOfArgs(raw, r.DefRange, addr)
	return formulaObject(f, args, res)
}

// catalogRun is one run of a catalog formula or function.
type catalogRun struct {
	res  capacity.Result
	args capacity.Args
	out  any
	err  error
}

// run is f.Run(raw), computed once per root module for the same
// arguments.
func (root *instance) run(f *capacity.Formula, raw map[string]any) (capacity.Result, capacity.Args, error) {
	key := runKey("data "+f.Name, raw)
	r, ok := root.runs[key]
	if !ok {
		r.res, r.args, r.err = f.Run(raw)
		root.keepRun(key, r)
	}
	return r.res, r.args, r.err
}

// compute is fn.Compute(given), computed once per root module for the
// same arguments.
func (root *instance) compute(fn *capacity.Function, given capacity.Args) (any, error) {
	key := runKey("function "+fn.Name, given)
	r, ok := root.runs[key]
	if !ok {
		r.out, r.err = fn.Compute(given)
		root.keepRun(key, r)
	}
	return r.out, r.err
}

func (root *instance) keepRun(key string, r catalogRun) {
	if root.runs == nil {
		root.runs = map[string]catalogRun{}
	}
	root.runs[key] = r
}

// runKey names a formula's or function's run by its arguments.
func runKey(name string, args map[string]any) string {
	var b strings.Builder
	b.WriteString(name)
	for _, k := range sortedKeys(args) {
		b.WriteString("\x00" + k + "=")
		switch v := args[k].(type) {
		case float64:
			b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		case string:
			b.WriteString(strconv.Quote(v))
		case []float64:
			for _, f := range v {
				b.WriteString(strconv.FormatFloat(f, 'g', -1, 64) + ",")
			}
		default:
			fmt.Fprintf(&b, "%#v", v)
		}
	}
	return b.String()
}

// knownInvalid is why the provider rejects a known number that
// catalogArg does not read: one beyond float64's range, as 1/0 is.
func knownInvalid(input *capacity.Input, v cty.Value) (string, bool) {
	plain, _ := v.UnmarkDeep()
	if input.Type.Kind != capacity.KindNumber || !plain.IsWhollyKnown() || plain.IsNull() || plain.Type() != cty.Number {
		return "", false
	}
	if _, err := input.CheckNumber(plain.AsBigFloat()); err != nil {
		return err.Reason, true
	}
	return "", false
}

// catalogArg reads one argument of a catalog input from its value: nil for
// null, ok false when it is not known or not of the input's type.
func catalogArg(input *capacity.Input, v cty.Value) (any, bool) {
	plain, _ := v.UnmarkDeep()
	if plain.IsKnown() && plain.IsNull() {
		return nil, true
	}
	switch input.Type.Kind {
	case capacity.KindList:
		return numberList(v)
	case capacity.KindString:
		if !plain.IsKnown() {
			return nil, false
		}
		s, err := convert.Convert(plain, cty.String)
		if err != nil || s.IsNull() {
			return nil, false
		}
		return s.AsString(), true
	}
	f, ok := number(v)
	if !ok {
		return nil, false
	}
	return f, true
}

// ratesOfArgs are the rates among a formula's arguments.
func ratesOfArgs(args map[string]any, rng hcl.Range, from string) Rates {
	var rates Rates
	for name, v := range args {
		if f, isNum := v.(float64); isNum {
			if field := rates.Field(name); field != nil {
				*field = model.KnownNum(f, rng, from)
			}
		}
	}
	return rates
}

// formulaObject is a formula's whole result as Terraform sees it: its
// inputs with defaults filled in, then its outputs.
func formulaObject(f *capacity.Formula, args capacity.Args, res capacity.Result) cty.Value {
	t := objectTypeOf(f).catalog
	values := make(map[string]any, len(t.Attrs))
	for name, v := range args {
		values[name] = v
	}
	for _, input := range f.Inputs {
		if input.Computed && !args.Has(input.Name) {
			values[input.Name] = res.Values[input.Name]
		}
	}
	for _, out := range f.Outputs {
		values[out.Name] = res.Values[out.Name]
	}
	return ctyValue(t, values)
}

// objectType is a formula's whole result type, as the catalog and as cty
// have it.
type objectType struct {
	catalog capacity.Type
	cty     cty.Type
}

// objectTypes are the formulas' object types, each worked out once:
// Formula.ObjectType writes every input's description, and each root
// module builds the provider functions that return them.
var objectTypes sync.Map // *capacity.Formula → objectType

func objectTypeOf(f *capacity.Formula) objectType {
	if t, ok := objectTypes.Load(f); ok {
		return t.(objectType) //nolint:forcetypeassert // objectTypes holds only objectType
	}
	ct := f.ObjectType()
	t := objectType{catalog: ct, cty: ctyType(ct)}
	objectTypes.Store(f, t)
	return t
}

// ctyType is the cty type of a catalog type.
func ctyType(t capacity.Type) cty.Type {
	switch t.Kind {
	case capacity.KindBool:
		return cty.Bool
	case capacity.KindString:
		return cty.String
	case capacity.KindList:
		return cty.List(ctyType(*t.Elem))
	case capacity.KindMap:
		return cty.Map(ctyType(*t.Elem))
	case capacity.KindObject:
		attrs := make(map[string]cty.Type, len(t.Attrs))
		for _, a := range t.Attrs {
			attrs[a.Name] = ctyType(a.Type)
		}
		return cty.Object(attrs)
	}
	return cty.Number
}

// ctyValue is a catalog value as cty, numbers decimal-clean as the
// provider sends them: 0.28000000000000003 is 0.28.
func ctyValue(t capacity.Type, v any) cty.Value {
	if v == nil {
		return cty.NullVal(ctyType(t))
	}
	switch t.Kind {
	case capacity.KindNumber:
		switch n := v.(type) {
		case int64:
			return cty.NumberIntVal(n)
		case float64:
			if d, err := cty.ParseNumberVal(capacity.Decimal(n)); err == nil {
				return d
			}
			return cty.NumberFloatVal(n)
		}
	case capacity.KindBool:
		if b, ok := v.(bool); ok {
			return cty.BoolVal(b)
		}
	case capacity.KindString:
		if s, ok := v.(string); ok {
			return cty.StringVal(s)
		}
	case capacity.KindList:
		var items []cty.Value
		switch l := v.(type) {
		case []any:
			for _, item := range l {
				items = append(items, ctyValue(*t.Elem, item))
			}
		case []float64:
			for _, item := range l {
				items = append(items, ctyValue(*t.Elem, item))
			}
		}
		if len(items) == 0 {
			return cty.ListValEmpty(ctyType(*t.Elem))
		}
		return cty.ListVal(items)
	case capacity.KindMap:
		m, _ := v.(map[string]any)
		if len(m) == 0 {
			return cty.MapValEmpty(ctyType(*t.Elem))
		}
		vals := make(map[string]cty.Value, len(m))
		for k, item := range m {
			vals[k] = ctyValue(*t.Elem, item)
		}
		return cty.MapVal(vals)
	case capacity.KindObject:
		m, _ := v.(map[string]any)
		vals := make(map[string]cty.Value, len(t.Attrs))
		for _, a := range t.Attrs {
			vals[a.Name] = ctyValue(a.Type, m[a.Name])
		}
		return cty.ObjectVal(vals)
	}
	return cty.NullVal(ctyType(t))
}

// number reads a known, finite number, converting strings as Terraform does
// ("400" from a tag is 400). Marks are ignored.
func number(v cty.Value) (float64, bool) {
	v, _ = v.UnmarkDeep()
	if !v.IsWhollyKnown() || v.IsNull() {
		return 0, false
	}
	if v.Type() == cty.String {
		v = cty.StringVal(strings.TrimSpace(v.AsString()))
	}
	n, err := convert.Convert(v, cty.Number)
	if err != nil || n.IsNull() {
		return 0, false
	}
	f, _ := n.AsBigFloat().Float64()
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

func numberList(v cty.Value) ([]float64, bool) {
	v, _ = v.UnmarkDeep()
	if !v.IsWhollyKnown() || v.IsNull() || !v.CanIterateElements() {
		return nil, false
	}
	var out []float64
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		f, ok := number(e)
		if !ok {
			return nil, false
		}
		out = append(out, f)
	}
	return out, true
}
