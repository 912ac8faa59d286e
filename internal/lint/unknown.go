// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// unknownBecause says why an expression is not known before apply when one
// of its references explains it: a module that is not installed or not
// expanded, a root variable without a value, a data source read at apply.
// "" when none does.
func (in *instance) unknownBecause(expr hcl.Expression) string {
	return in.unknownBecauseWithin(expr, maxPolicyHops)
}

// unknownBecauseWithin is unknownBecause, following at most hops local
// values that are not known themselves to the reference that explains
// them (local.prod built from var.environment).
func (in *instance) unknownBecauseWithin(expr hcl.Expression, hops int) string {
	for _, t := range expr.Variables() {
		switch t.RootName() {
		case "local":
			name, ok := attrName(t, 1)
			if !ok || hops == 0 {
				continue
			}
			if a := in.mod.Locals[name]; a != nil && !in.local(name).IsWhollyKnown() {
				if why := in.unknownBecauseWithin(a.Expr, hops-1); why != "" {
					// The local written here and what explains it, not
					// every local in between.
					if rest, ok := strings.CutPrefix(why, "comes from local."); ok {
						if _, after, ok := strings.Cut(rest, ", which "); ok {
							why = after
						}
					}
					return fmt.Sprintf("comes from local.%s, which %s", name, why)
				}
			}
		case "module":
			name, ok := attrName(t, 1)
			if !ok {
				continue
			}
			c := in.calls[name]
			if c != nil && c.Child == nil {
				if c.NotLoaded != "" {
					return fmt.Sprintf("comes from module.%s, which was not loaded: %s", name, c.NotLoaded)
				}
				return fmt.Sprintf("comes from module.%s, which is not installed: run terraform init, or lint a plan", name)
			}
			if c != nil && (c.Count != nil || c.ForEach != nil) {
				// A repeated module whose instances are not known is
				// unknown as a whole: say why they are not.
				if e := in.expansionOf("module."+name, c.Count, c.ForEach); !e.known && e.why != "" {
					return fmt.Sprintf("comes from module.%s, whose %s %s", name, e.meta(), e.why)
				}
			}
		case "var":
			name, ok := attrName(t, 1)
			if !ok {
				continue
			}
			if _, declared := in.mod.Variables[name]; !declared {
				// Terraform would refuse the reference; a wrapper such as
				// Terragrunt may add the declaration to the directory it
				// generates, and --var cannot set an undeclared variable.
				return fmt.Sprintf("comes from var.%s, which %s does not declare (a wrapper such as Terragrunt may add it where it runs Terraform: lint that directory, or a plan)", name, in.moduleName())
			}
			if in.parent == nil {
				if !in.variable(name).IsWhollyKnown() {
					return fmt.Sprintf("comes from var.%s, which has no value here (set it with --var, a tfvars file or TF_VAR_%s)", name, name)
				}
			} else if v := in.variable(name); !v.IsWhollyKnown() {
				arg, ok := in.call.Args[name]
				if !ok {
					// A required input the call leaves out: Terraform would
					// refuse to plan it.
					return fmt.Sprintf("comes from var.%s, which %s does not set and which has no default", name, in.addr)
				}
				// As the call's instance: its each.value is explained
				// by the call's for_each.
				call := &hclExpr{in: in.parent, rep: in.callRep, expr: arg.Expr}
				if why := asInstance(call, func() string { return in.parent.unknownBecause(arg.Expr) }); why != "" {
					return why
				}
			}
		case "each":
			// each.value comes from the for_each of the instance being
			// explained, evaluated in this module instance.
			if in.rep != nil && in.rep.forEach != nil && hops > 0 {
				if why := in.unknownBecauseWithin(in.rep.forEach, hops-1); why != "" {
					return why
				}
			}
		case "data":
			typ, ok := attrName(t, 1)
			if !ok {
				continue
			}
			if !isQueuecapData(typ) {
				return fmt.Sprintf("comes from data.%s, which the linter does not read (Terraform reads it when it plans: lint the plan to check it)", typ)
			}
			if name, ok := attrName(t, 2); ok && hops > 0 {
				if why := in.queuecapDataUnknown(typ, name, hops); why != "" {
					return why
				}
			}
		default:
			if hops == 0 {
				continue
			}
			if why := in.resourceAttrUnknown(expr, t, hops); why != "" {
				return why
			}
		}
	}
	return ""
}

// resourceAttrUnknown explains a reference to an attribute of a resource
// of this module (aws_appautoscaling_target.t[count.index].resource_id)
// by what its configuration sets it from: "comes from
// aws_appautoscaling_target.t.resource_id, which comes from var.cluster,
// which has no value here"; "" when that explains nothing.
func (in *instance) resourceAttrUnknown(expr hcl.Expression, t hcl.Traversal, hops int) string {
	name, ok := attrName(t, 1)
	if !ok {
		return ""
	}
	r, ok := in.mod.resource(t.RootName() + "." + name)
	if !ok || r.Body == nil {
		return ""
	}
	// The attribute after any index (t[0].resource_id), else the one read
	// after a dynamic index, where the traversal stops.
	attr := ""
	for _, step := range t[2:] {
		if a, ok := step.(hcl.TraverseAttr); ok {
			attr = a.Name
			break
		}
	}
	if attr == "" {
		attr = referencedAttr(expr, t)
	}
	if attr == "" {
		return ""
	}
	content, _, _ := r.Body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: attr}}})
	a := content.Attributes[attr]
	if a == nil {
		return ""
	}
	why := in.unknownBecauseWithin(a.Expr, hops-1)
	if why == "" {
		return ""
	}
	return fmt.Sprintf("comes from %s.%s, which %s", r.LocalAddr(), attr, why)
}

// sameResource reports whether two traversals start with the same
// resource type and name.
func sameResource(a, b hcl.Traversal) bool {
	na, oka := attrName(a, 1)
	nb, okb := attrName(b, 1)
	return a.RootName() == b.RootName() && oka && okb && na == nb
}

// referencedAttr is the attribute read from the resource t names when expr
// indexes it first: in `aws_appautoscaling_target.t[count.index].resource_id`
// the traversal stops at the index, and the attribute is the relative
// traversal's.
func referencedAttr(expr hcl.Expression, t hcl.Traversal) string {
	sx, ok := expr.(hclsyntax.Expression)
	if !ok {
		return ""
	}
	var found string
	_ = hclsyntax.VisitAll(sx, func(n hclsyntax.Node) hcl.Diagnostics {
		rel, ok := n.(*hclsyntax.RelativeTraversalExpr)
		if !ok || found != "" || len(rel.Traversal) == 0 {
			return nil
		}
		idx, ok := rel.Source.(*hclsyntax.IndexExpr)
		if !ok {
			return nil
		}
		if src, ok := idx.Collection.(*hclsyntax.ScopeTraversalExpr); ok && sameResource(src.Traversal, t) {
			if a, ok := rel.Traversal[0].(hcl.TraverseAttr); ok {
				found = a.Name
			}
		}
		return nil
	})
	return found
}

// moduleName names the module instance in a message: its address, or for
// the root module its directory.
func (in *instance) moduleName() string {
	if in.addr != "" {
		return in.addr
	}
	return "the root module in " + in.mod.Dir
}

// queuecapDataUnknown says why a queuecap_* data source's results are not
// known before apply: an argument that refers to a managed resource defers
// the whole read to apply, as Terraform defers every data source that
// depends on a resource with changes to make (on the first apply, all of
// them); an argument unknown for another reason says that reason. "" when
// no argument explains it.
func (in *instance) queuecapDataUnknown(typ, name string, hops int) string {
	r, ok := in.mod.resource("data." + typ + "." + name)
	if !ok || r.Body == nil {
		return ""
	}
	f := queuecapFormula(typ)
	schema := &hcl.BodySchema{}
	for _, input := range f.Inputs {
		schema.Attributes = append(schema.Attributes, hcl.AttributeSchema{Name: input.Name})
	}
	content, _, _ := r.Body.PartialContent(schema)
	if content == nil {
		return ""
	}
	addr := "data." + typ + "." + name
	for _, input := range f.Inputs {
		attr, ok := content.Attributes[input.Name]
		if !ok {
			continue
		}
		for _, v := range attr.Expr.Variables() {
			if managed := in.managedResource(v); managed != "" {
				fix := "a literal or a local"
				if fn := objectFunctionName(f); fn != "" {
					fix += ", or call provider::queuecap::" + fn + " instead, which Terraform calls at plan"
				}
				return fmt.Sprintf("comes from %s, which Terraform reads only at apply: its %s refers to %s, a resource with changes to make "+
					"(on the first apply, every one), and a data source that depends on one is deferred. Set %s from %s",
					addr, input.Name, managed, input.Name, fix)
			}
		}
		if why := in.unknownBecauseWithin(attr.Expr, hops-1); why != "" {
			return fmt.Sprintf("comes from %s, whose %s %s", addr, input.Name, why)
		}
	}
	return ""
}

// managedResource is the address of the managed resource of this module a
// reference reads (aws_sqs_queue.orders), or "".
func (in *instance) managedResource(t hcl.Traversal) string {
	switch t.RootName() {
	case "data", "var", "local", "module", "count", "each", "path", "terraform", "self":
		return ""
	}
	name, ok := attrName(t, 1)
	if !ok {
		return ""
	}
	if r, ok := in.mod.resource(t.RootName() + "." + name); ok && r.Mode == "resource" {
		return r.LocalAddr()
	}
	return ""
}

// objectFunctionName is the provider function that takes a formula's
// arguments as one object and returns its whole result, or "".
func objectFunctionName(f *capacity.Formula) string {
	for _, fn := range capacity.Functions {
		if fn.Object == f {
			return fn.Name
		}
	}
	return ""
}
