// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
)

// hclFront is the HCL front end: it walks a root module's instances from
// its root, evaluates the blocks of the resources the linter reads as
// each instance of them, and hands each to the builder as a
// resourceInstance, through the builder's intake alone.
type hclFront struct {
	to          intake
	interesting map[*Module]bool
}

// readHCL hands to the module instances from root down, and their
// resources.
func readHCL(to intake, root *instance) {
	f := &hclFront{to: to, interesting: map[*Module]bool{}}
	f.walk(root)
	to.addDocuments(root.documents)
}

// hasInteresting reports whether a module or any module it calls declares
// a resource the linter models; other subtrees are never evaluated.
func (f *hclFront) hasInteresting(m *Module) bool {
	if v, ok := f.interesting[m]; ok {
		return v
	}
	f.interesting[m] = false // guards against cycles
	found := false
	for _, r := range m.Resources {
		if r.Mode == "resource" && resourceSchemas[r.Type] != nil {
			found = true
			break
		}
	}
	for _, c := range m.Calls {
		// A call the walk cannot enter is reported as not checked.
		if !found && (c.Child == nil || f.hasInteresting(c.Child)) {
			found = true
		}
	}
	f.interesting[m] = found
	return found
}

func (f *hclFront) walk(in *instance) {
	if !f.hasInteresting(in.mod) {
		return
	}
	f.to.addModuleInstance(in)
	for _, r := range in.mod.Resources {
		schema := resourceSchemas[r.Type]
		if r.Mode != "resource" || schema == nil {
			continue
		}
		if schema.linkOnly {
			f.to.addLinkOnly(func() []*resourceInstance { return in.resourceInstances(r, schema) })
			continue
		}
		for _, res := range in.resourceInstances(r, schema) {
			f.to.addResource(res)
		}
	}
	for _, c := range in.mod.Calls {
		switch {
		case c.Child == nil:
			// A call whose count or for_each is known to make no instance
			// declares nothing: its source not being here hides nothing.
			if c.Count != nil || c.ForEach != nil {
				if e := in.expansionOf("module."+c.Name, c.Count, c.ForEach); e.known && len(e.instances) == 0 {
					continue
				}
			}
			f.to.addSkip(in.moduleNotRead(c))
		case c.Count == nil && c.ForEach == nil:
			f.walk(in.child(c, nil))
		default:
			e := in.expansionOf("module."+c.Name, c.Count, c.ForEach)
			if !e.known {
				f.to.addSkip(Skip{Rule: skipLink, Range: toRange(e.expr.Range()), Address: in.absAddr("module." + c.Name),
					Reason: notToldApart(e, in.absAddr("module."+c.Name))})
				f.walk(in.child(c, nil))
				continue
			}
			for i := range e.instances {
				f.walk(in.child(c, &e.instances[i]))
			}
		}
	}
}

// notToldApart says that the instances of addr, whose expansion e is
// not known, are checked as one.
func notToldApart(e expansion, addr string) string {
	return fmt.Sprintf("the %s of %s %s, so its instances are not told apart: it is checked once, as if each instance were unknown", e.meta(), addr, e.why)
}

// resourceInstances are the instances of a resource, or the resource once,
// marked as such, when its count or for_each is not known.
func (in *instance) resourceInstances(r *Resource, schema *blockSchema) []*resourceInstance {
	if r.Count == nil && r.ForEach == nil {
		return []*resourceInstance{in.resourceInstance(r, schema, nil)}
	}
	e := in.expansionOf(r.LocalAddr(), r.Count, r.ForEach)
	if !e.known {
		res := in.resourceInstance(r, schema, nil)
		res.unexpanded = &unexpandedSkip{
			Skip: Skip{Rule: skipLink, Range: toRange(e.expr.Range()), Address: res.addr, Reason: notToldApart(e, res.addr)},
			meta: e.meta(), why: e.why,
		}
		return []*resourceInstance{res}
	}
	out := make([]*resourceInstance, len(e.instances))
	for i := range e.instances {
		out[i] = in.resourceInstance(r, schema, &e.instances[i])
	}
	return out
}

// moduleNotRead is the skip of a module call whose source the linter
// cannot read.
func (in *instance) moduleNotRead(c *ModuleCall) Skip {
	addr := in.absAddr("module." + c.Name)
	var reason string
	switch {
	case c.NotLoaded != "":
		reason = fmt.Sprintf("%s (source %q) was not loaded: %s, so nothing it declares was checked", addr, c.Source, c.NotLoaded)
	case c.Source == "":
		reason = fmt.Sprintf("%s has no source the linter can read, so nothing it declares was checked", addr)
	case isLocalSource(c.Source):
		reason = fmt.Sprintf("%s: its source %q is not a directory here, so nothing it declares was checked", addr, c.Source)
	default:
		reason = fmt.Sprintf("%s (source %q) is not installed, so nothing it declares was checked: "+
			"run terraform init (the linter reads .terraform/modules/modules.json), or lint a plan", addr, c.Source)
	}
	return Skip{Rule: skipModule, Range: toRange(c.DefRange), Reason: reason, Address: addr}
}

// documents are the aws_iam_policy_document data sources of the module
// instances evaluated from this one down, by address, each with the
// reader of its instances.
func (in *instance) documents(yield func(string, documentReader) bool) {
	for _, r := range in.mod.Resources {
		if r.Mode == "data" && dataSchemas[r.Type] != nil && r.Body != nil {
			if !yield(in.absAddr(r.LocalAddr()), in.documentReader(r)) {
				return
			}
		}
	}
	for _, c := range in.children {
		for addr, read := range c.documents {
			if !yield(addr, read) {
				return
			}
		}
	}
}

// resourceInstance is one instance of a resource as the builder reads it:
// its body with its dynamic blocks expanded as that instance, each
// argument evaluated as that instance when the builder reads it.
func (in *instance) resourceInstance(r *Resource, schema *blockSchema, rep *repetition) *resourceInstance {
	outer := in.rep
	in.rep = rep
	defer func() { in.rep = outer }()
	body := in.blockOf(rep, decode(in.expandResource(r, schema), schema, r.DefRange))
	if !r.static && r.Body != nil {
		body.dynamic = dynamicTypes(r.Body, schema)
	}
	return &resourceInstance{typ: r.Type, addr: in.absAddr(r.LocalAddr()) + rep.suffix(), module: in.addr, defRange: r.DefRange, body: body}
}

// blockOf is a decoded block whose arguments are evaluated as the
// resource instance rep of this module instance.
func (in *instance) blockOf(rep *repetition, n *node) *block {
	out := &block{args: make(map[string]*arg, len(n.attrs)), blocks: make(map[string][]*block, len(n.blocks)), rng: n.rng, unknown: n.unknown}
	for name, a := range n.attrs {
		out.args[name] = &arg{rng: a.Range, valueRange: a.Expr.Range(), hcl: &hclExpr{in: in, rep: rep, expr: a.Expr}, explains: true}
	}
	for typ, bs := range n.blocks {
		for _, nb := range bs {
			out.blocks[typ] = append(out.blocks[typ], in.blockOf(rep, nb))
		}
	}
	return out
}

// dynamicSchema finds dynamic blocks.
var dynamicSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "dynamic", LabelNames: []string{"type"}}}}

// dynamicTypes are the block types a dynamic block of body generates, in
// it or in one of its blocks of the schema ("outer.inner").
func dynamicTypes(body hcl.Body, s *blockSchema) []string {
	var out []string
	if c, _, _ := body.PartialContent(dynamicSchema); c != nil {
		for _, b := range c.Blocks {
			out = append(out, b.Labels[0])
		}
	}
	for w := range s.blocks {
		inner, _, _ := body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: w}}})
		if inner == nil {
			continue
		}
		for _, b := range inner.Blocks {
			if c, _, _ := b.Body.PartialContent(dynamicSchema); c != nil {
				for _, d := range c.Blocks {
					out = append(out, w+"."+d.Labels[0])
				}
			}
		}
	}
	return out
}

// documentReader reads the instances of an aws_iam_policy_document data
// source of this module instance.
func (in *instance) documentReader(r *Resource) documentReader {
	return func() []*block {
		reps := []*repetition{nil}
		if r.Count != nil || r.ForEach != nil {
			if e := in.expansionOf(r.LocalAddr(), r.Count, r.ForEach); e.known {
				reps = reps[:0]
				for i := range e.instances {
					reps = append(reps, &e.instances[i])
				}
			}
		}
		out := make([]*block, 0, len(reps))
		for _, rep := range reps {
			out = append(out, in.resourceInstance(r, dataSchemas[r.Type], rep).body)
		}
		return out
	}
}

// expandResource is a resource's body with its dynamic blocks expanded
// as Terraform expands them, their for_each evaluated as instance in;
// within each generated block the iterator is in scope of every
// expression. The loader has looked through the body for dynamic blocks
// once (a body without one is returned as it is), and what their
// for_each and labels read is found once too, for every instance of
// every root that reaches the resource (s is the schema of its type, the
// same for each).
func (in *instance) expandResource(r *Resource, s *blockSchema) hcl.Body {
	if r.static {
		return r.Body
	}
	r.dynamic.once.Do(func() { r.dynamic.reads = forEachVariables(dynblock.WalkExpandVariables(r.Body), s) })
	return dynblock.Expand(r.Body, in.contextFor(r.dynamic.reads))
}

// forEachVariables are the traversals the for_each and labels of a body's
// dynamic blocks read, nested ones included.
func forEachVariables(node dynblock.WalkVariablesNode, s *blockSchema) []hcl.Traversal {
	if s == nil {
		s = &blockSchema{}
	}
	vars, children := node.Visit(s.bodySchema())
	for _, c := range children {
		vars = append(vars, forEachVariables(c.Node, s.blocks[c.BlockTypeName])...)
	}
	return vars
}
