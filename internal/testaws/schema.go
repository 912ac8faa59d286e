// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package testaws

import (
	"fmt"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	pschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tfprotov5"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// A block declares a resource's schema the way the AWS provider's
// `terraform providers schema -json` shows it: attribute names, types,
// required/optional/computed, nested blocks with their nesting and item
// limits. It is the one description the framework schema, the item limits
// patched into GetProviderSchema and the plan-time behaviour are read from.
type block struct {
	attrs  attrs
	blocks blocks
}

type (
	attrs  = map[string]attribute
	blocks = map[string]nestedBlock
)

type attribute struct {
	typ                          attr.Type
	required, optional, computed bool
	deprecated                   bool
	// def is the SDKv2 Default: the AWS provider plans it when the
	// configuration leaves the attribute null, so it is in the plan JSON.
	def any
	// forceNew marks a change that replaces the resource.
	forceNew bool
}

type nesting int

const (
	nestList nesting = iota
	nestSet
	nestSingle
)

type nestedBlock struct {
	nesting    nesting
	min, max   int64
	deprecated bool
	block
}

var (
	str     attr.Type = types.StringType
	num     attr.Type = types.NumberType
	boolean attr.Type = types.BoolType
)

func listOf(t attr.Type) attr.Type { return types.ListType{ElemType: t} }
func setOf(t attr.Type) attr.Type  { return types.SetType{ElemType: t} }
func mapOf(t attr.Type) attr.Type  { return types.MapType{ElemType: t} }

func required(t attr.Type) attribute { return attribute{typ: t, required: true} }
func optional(t attr.Type) attribute { return attribute{typ: t, optional: true} }
func computed(t attr.Type) attribute { return attribute{typ: t, computed: true} }
func optionalComputed(t attr.Type) attribute {
	return attribute{typ: t, optional: true, computed: true}
}

func (a attribute) withDefault(v any) attribute { a.def = v; return a }
func (a attribute) replaces() attribute         { a.forceNew = true; return a }
func (a attribute) deprecate() attribute        { a.deprecated = true; return a }

func list(minItems, maxItems int64, b block) nestedBlock {
	return nestedBlock{nesting: nestList, min: minItems, max: maxItems, block: b}
}

// set is a set block: the AWS sets in these schemas have no minimum.
func set(maxItems int64, b block) nestedBlock {
	return nestedBlock{nesting: nestSet, max: maxItems, block: b}
}
func single(b block) nestedBlock { return nestedBlock{nesting: nestSingle, block: b} }

func (n nestedBlock) deprecate() nestedBlock { n.deprecated = true; return n }

// Attributes most AWS resources share.
var (
	idAttr      = optionalComputed(str)
	regionAttr  = optionalComputed(str)
	tagsAttr    = optional(mapOf(str))
	tagsAllAttr = optionalComputed(mapOf(str))
)

// timeouts is the SDKv2 timeouts block for the given operations.
func timeouts(ops ...string) nestedBlock {
	b := block{attrs: attrs{}}
	for _, op := range ops {
		b.attrs[op] = optional(str)
	}
	return single(b)
}

const deprecated = "Deprecated in the AWS provider."

func deprecation(on bool) string {
	if on {
		return deprecated
	}
	return ""
}

func (b block) resourceSchema(version int64) rschema.Schema {
	s := b.resourceBlock()
	return rschema.Schema{Version: version, Attributes: s.Attributes, Blocks: s.Blocks}
}

func (b block) resourceBlock() rschema.NestedBlockObject {
	o := rschema.NestedBlockObject{Attributes: map[string]rschema.Attribute{}, Blocks: map[string]rschema.Block{}}
	for name, a := range b.attrs {
		o.Attributes[name] = a.resourceAttribute()
	}
	for name, n := range b.blocks {
		obj, msg := n.resourceBlock(), deprecation(n.deprecated)
		switch n.nesting {
		case nestList:
			o.Blocks[name] = rschema.ListNestedBlock{NestedObject: obj, DeprecationMessage: msg}
		case nestSet:
			o.Blocks[name] = rschema.SetNestedBlock{NestedObject: obj, DeprecationMessage: msg}
		case nestSingle:
			o.Blocks[name] = rschema.SingleNestedBlock{Attributes: obj.Attributes, Blocks: obj.Blocks, DeprecationMessage: msg}
		}
	}
	return o
}

func (a attribute) resourceAttribute() rschema.Attribute {
	msg := deprecation(a.deprecated)
	switch t := a.typ.(type) {
	case basetypes.StringType:
		return rschema.StringAttribute{Required: a.required, Optional: a.optional, Computed: a.computed, DeprecationMessage: msg}
	case basetypes.NumberType:
		return rschema.NumberAttribute{Required: a.required, Optional: a.optional, Computed: a.computed, DeprecationMessage: msg}
	case basetypes.BoolType:
		return rschema.BoolAttribute{Required: a.required, Optional: a.optional, Computed: a.computed, DeprecationMessage: msg}
	case types.ListType:
		return rschema.ListAttribute{ElementType: t.ElemType, Required: a.required, Optional: a.optional, Computed: a.computed, DeprecationMessage: msg}
	case types.SetType:
		return rschema.SetAttribute{ElementType: t.ElemType, Required: a.required, Optional: a.optional, Computed: a.computed, DeprecationMessage: msg}
	case types.MapType:
		return rschema.MapAttribute{ElementType: t.ElemType, Required: a.required, Optional: a.optional, Computed: a.computed, DeprecationMessage: msg}
	}
	panic(fmt.Sprintf("testaws: no attribute for type %s", a.typ))
}

func (b block) dataSourceBlock() dschema.NestedBlockObject {
	o := dschema.NestedBlockObject{Attributes: map[string]dschema.Attribute{}, Blocks: map[string]dschema.Block{}}
	for name, a := range b.attrs {
		o.Attributes[name] = a.dataSourceAttribute()
	}
	for name, n := range b.blocks {
		obj := n.dataSourceBlock()
		switch n.nesting {
		case nestList:
			o.Blocks[name] = dschema.ListNestedBlock{NestedObject: obj}
		case nestSet:
			o.Blocks[name] = dschema.SetNestedBlock{NestedObject: obj}
		case nestSingle:
			o.Blocks[name] = dschema.SingleNestedBlock{Attributes: obj.Attributes, Blocks: obj.Blocks}
		}
	}
	return o
}

func (a attribute) dataSourceAttribute() dschema.Attribute {
	msg := deprecation(a.deprecated)
	switch t := a.typ.(type) {
	case basetypes.StringType:
		return dschema.StringAttribute{Required: a.required, Optional: a.optional, Computed: a.computed, DeprecationMessage: msg}
	case basetypes.NumberType:
		return dschema.NumberAttribute{Required: a.required, Optional: a.optional, Computed: a.computed, DeprecationMessage: msg}
	case basetypes.BoolType:
		return dschema.BoolAttribute{Required: a.required, Optional: a.optional, Computed: a.computed, DeprecationMessage: msg}
	case types.ListType:
		return dschema.ListAttribute{ElementType: t.ElemType, Required: a.required, Optional: a.optional, Computed: a.computed, DeprecationMessage: msg}
	case types.SetType:
		return dschema.SetAttribute{ElementType: t.ElemType, Required: a.required, Optional: a.optional, Computed: a.computed, DeprecationMessage: msg}
	case types.MapType:
		return dschema.MapAttribute{ElementType: t.ElemType, Required: a.required, Optional: a.optional, Computed: a.computed, DeprecationMessage: msg}
	}
	panic(fmt.Sprintf("testaws: no attribute for type %s", a.typ))
}

func (b block) providerBlock() pschema.NestedBlockObject {
	o := pschema.NestedBlockObject{Attributes: map[string]pschema.Attribute{}, Blocks: map[string]pschema.Block{}}
	for name, a := range b.attrs {
		switch t := a.typ.(type) {
		case basetypes.StringType:
			o.Attributes[name] = pschema.StringAttribute{Optional: true}
		case basetypes.NumberType:
			o.Attributes[name] = pschema.NumberAttribute{Optional: true}
		case basetypes.BoolType:
			o.Attributes[name] = pschema.BoolAttribute{Optional: true}
		case types.ListType:
			o.Attributes[name] = pschema.ListAttribute{ElementType: t.ElemType, Optional: true}
		case types.SetType:
			o.Attributes[name] = pschema.SetAttribute{ElementType: t.ElemType, Optional: true}
		case types.MapType:
			o.Attributes[name] = pschema.MapAttribute{ElementType: t.ElemType, Optional: true}
		}
	}
	for name, n := range b.blocks {
		o.Blocks[name] = pschema.ListNestedBlock{NestedObject: n.providerBlock()}
	}
	return o
}

// patchItemLimits sets the MinItems and MaxItems the framework leaves out
// of the schema it serves (it checks limits with validators instead), so
// that Terraform sees the AWS provider's limits and enforces them itself.
func (b block) patchItemLimits(s *tfprotov5.SchemaBlock) {
	if s == nil {
		return
	}
	for _, nb := range s.BlockTypes {
		n, ok := b.blocks[nb.TypeName]
		if !ok {
			continue
		}
		nb.MinItems, nb.MaxItems = n.min, n.max
		n.patchItemLimits(nb.Block)
	}
}

// defaultValue is an SDKv2 Default as a Terraform value.
func defaultValue(v any) tftypes.Value {
	switch v := v.(type) {
	case string:
		return tftypes.NewValue(tftypes.String, v)
	case bool:
		return tftypes.NewValue(tftypes.Bool, v)
	case int:
		return tftypes.NewValue(tftypes.Number, big.NewFloat(float64(v)))
	}
	panic(fmt.Sprintf("testaws: no default of type %T", v))
}
