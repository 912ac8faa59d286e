// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"iter"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// The front ends and the builder meet here: a front end hands the
// builder, through intake, one resourceInstance per resource instance it
// reads; the builder reads nothing else of a front end, and a front end
// nothing else of the builder (TestFrontEndWalls).

// intake is what a front end hands the builder: resource instances, the
// module instances it evaluated, and what it could not read. Front ends
// (hclfront.go, plan.go) see the builder through it alone.
type intake interface {
	// addResource models a resource instance the rules read.
	addResource(res *resourceInstance)
	// addLinkOnly keeps the reader of a resource read only to link
	// others (a role, a topic): it is read when there is a queue to link.
	addLinkOnly(read func() []*resourceInstance)
	// addDocuments keeps the aws_iam_policy_document data sources a
	// policy may name, listed when one does.
	addDocuments(docs iter.Seq2[string, documentReader])
	// addModuleInstance records a module instance evaluated, for placing
	// findings at the module calls that reach them and naming instances.
	addModuleInstance(in *instance)
	// addSkip reports what the front end could not read.
	addSkip(s Skip)
	// addDataArgs records the arguments of a queuecap data source read
	// without evaluating its HCL (a plan's), as the rates a value
	// computed from it declares.
	addDataArgs(addr string, r Rates)
	// placeAt says that what is written at rng belongs to the resource
	// instance addr (a plan's instances share their configuration's
	// ranges).
	placeAt(rng hcl.Range, addr string)
}

// documentReader reads an aws_iam_policy_document data source: the body
// of each of its instances.
type documentReader func() []*block

// The linter never passes over silently what it cannot check: a module it
// cannot read, or a mapping, target, policy, alarm or tag it cannot tie to
// the queue or fleet it is about, becomes a skip with its place and what to
// do about it. These skips belong to no rule: every rule depends on the
// links.
const (
	skipLink   = "link"
	skipModule = "module"
	// skipCoverage is a queue the capacity rules could not check at all:
	// no consumer is linked to it, or it declares no arrival rate.
	skipCoverage = "coverage"
)

// A resourceInstance is one instance of a resource the linter reads, as a
// front end hands it to the builder: the HCL front end (hclfront.go) from
// a module instance's evaluated blocks, the plan front end (plan.go) from
// a plan's planned values. The builder reads nothing else of either.
type resourceInstance struct {
	typ  string // aws_sqs_queue
	addr string // module.a.aws_sqs_queue.q["x"]
	// module is the address of the module instance it is declared in, ""
	// for the root module: an address a tag writes inside a module is
	// relative to it.
	module   string
	defRange hcl.Range // its block's header in the configuration, else its address
	body     *block
	// unexpanded, when the resource's count or for_each is not known, is
	// the skip that says its instances are checked as one.
	unexpanded *unexpandedSkip
}

// unexpandedSkip is the skip of a resource whose instances are checked as
// one, with its meta-argument and why that is not known ("count", "comes
// from var.n, which has no value here"), which a skip saying the resource
// is not checked at all says too (skipUnlinked).
type unexpandedSkip struct {
	Skip
	meta, why string
}

// A block is a resource instance's body, or a block nested in it: the
// arguments of the linter's schema that are set, the nested blocks by
// type, and where it is written.
type block struct {
	args   map[string]*arg
	blocks map[string][]*block
	rng    hcl.Range // the block's header, or the resource's for its body
	// dynamic are the block types a dynamic block of the configuration
	// generates, in the body ("step_adjustment") or in a block of it
	// ("step_scaling_policy_configuration.step_adjustment"): they are
	// expanded, but their number is not what is written.
	dynamic []string
	// unknown is true for a block a dynamic block generates from a
	// for_each not known before apply (node.unknown).
	unknown bool
}

// An arg is one argument: its value, computed when first read, with the
// origins of what it was derived from as marks; and where it is written.
type arg struct {
	rng        hcl.Range // name = value
	valueRange hcl.Range // the value
	val        cty.Value
	evaluated  bool
	// hcl is the argument's expression in the configuration and the
	// module instance it is evaluated in, nil when the front end has none
	// to offer: what a jsonencode(...) in it encodes and where the
	// entries of a map it writes are (entryRanges) are read from it.
	hcl *hclExpr
	// explains is whether hcl's references say why the value is not
	// known before apply. A plan's value is unknown for reasons its HCL,
	// evaluated without the plan's state, does not know.
	explains bool
}

// typeGuessed marks an argument's value whose type its front end does not
// know (a plan's value set by an expression unknown until apply): a
// string that is a guess is no string Terraform built (mayBeQueueARN).
type typeGuessed struct{}

// hclExpr is an expression of the configuration as one instance of its
// module evaluates it.
type hclExpr struct {
	in   *instance
	rep  *repetition // the resource instance; nil for one without count or for_each
	expr hcl.Expression
}

// value is the argument's value, null for an absent one.
func (a *arg) value() cty.Value {
	if a == nil {
		return cty.NullVal(cty.DynamicPseudoType)
	}
	if !a.evaluated {
		a.val, a.evaluated = a.hcl.in.evalWith(a.hcl.expr, a.hcl.rep), true
	}
	return a.val
}

// whyUnknown says why the value is not known before apply when the
// configuration's references explain it, else "".
func (a *arg) whyUnknown() string {
	if a == nil || !a.explains || a.hcl == nil {
		return ""
	}
	return asInstance(a.hcl, func() string { return a.hcl.in.unknownBecause(a.hcl.expr) })
}

// object is the value a jsonencode(...) of the argument's configuration
// encodes (jsonencodeObject), cty.NilVal when there is none.
func (a *arg) object() cty.Value {
	if a == nil || a.hcl == nil {
		return cty.NilVal
	}
	return asInstance(a.hcl, func() cty.Value { return jsonencodeObject(a.hcl.in, a.hcl.expr, 0) })
}

// entryRanges are where the entries of a map the argument writes in place
// are, by key: a tag is placed at its value.
func (a *arg) entryRanges() map[string]hcl.Range {
	out := map[string]hcl.Range{}
	if a == nil || a.hcl == nil {
		return out
	}
	pairs, diags := hcl.ExprMap(a.hcl.expr)
	if diags.HasErrors() {
		return out
	}
	for _, kv := range pairs {
		if k, diags := kv.Key.Value(nil); !diags.HasErrors() && k.Type() == cty.String && k.IsKnown() && !k.IsNull() {
			out[k.AsString()] = kv.Value.Range()
		}
	}
	return out
}

// asInstance runs f as e's resource instance.
func asInstance[T any](e *hclExpr, f func() T) T {
	outer := e.in.rep
	e.in.rep = e.rep
	defer func() { e.in.rep = outer }()
	return f()
}

// arg is the argument name, nil when it is not set.
func (b *block) arg(name string) *arg {
	if b == nil {
		return nil
	}
	return b.args[name]
}

// has reports whether the argument name is written.
func (b *block) has(name string) bool { return b.arg(name) != nil }

// val is the value of the argument name, null when it is not set.
func (b *block) val(name string) cty.Value { return b.arg(name).value() }

// ref is the argument name and its value, to say later why it links
// nothing.
func (b *block) ref(name string) ref {
	a := b.arg(name)
	return ref{arg: a, val: a.value()}
}

// first is the first nested block of a type, nil when there is none.
func (b *block) first(typ string) *block {
	if bs := b.blocks[typ]; len(bs) > 0 {
		return bs[0]
	}
	return nil
}

// generates reports whether a dynamic block generates blocks of type
// name, in this block or in one of its blocks of the types within.
func (b *block) generates(name string, within ...string) bool {
	for _, d := range b.dynamic {
		if d == name {
			return true
		}
		for _, w := range within {
			if d == w+"."+name {
				return true
			}
		}
	}
	return false
}

// ref is one written reference: the argument, nil when it is not set,
// and its value.
type ref struct {
	arg *arg
	val cty.Value
}
