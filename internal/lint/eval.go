// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// origin marks a value with the absolute address of the resource or data
// source it came from. Marks survive interpolation, function calls,
// conditionals and module boundaries, so `QueueName = var.queue_name` in a
// child module still says which aws_sqs_queue the name belongs to.
type origin string

// evalState tracks lazy evaluation of locals and outputs, so that a cycle
// (which Terraform rejects anyway) reads as unknown instead of recursing.
type evalState uint8

const (
	unevaluated evalState = iota
	inProgress
	evaluated
)

type memo struct {
	state evalState
	val   cty.Value
}

// instance is one module instance being evaluated. Values are computed on
// demand: only what the rules ask for, and what that depends on, is ever
// evaluated, so large configurations without queues cost a parse only.
type instance struct {
	mod  *Module
	addr string // "" for the root, "module.a.module.b" below it
	root *instance
	// vars are the root module's input values. A called module's inputs
	// are instead evaluated on demand from call's arguments in parent and
	// memoized in inputs: evaluating them all when the module is first
	// reached would recurse forever when two sibling modules read each
	// other's outputs, which Terraform allows.
	vars   map[string]cty.Value
	parent *instance
	call   *ModuleCall
	inputs map[string]*memo
	locals map[string]*memo
	// outputs memoizes this instance's own outputs, read by its parent.
	outputs  map[string]*memo
	children map[string]*instance
	data     map[string]*memo // queuecap_* data source results
	calls    map[string]*ModuleCall
	// dataArgs, on the root instance only, holds the arguments of every
	// queuecap data source and provider function call evaluated so far,
	// by absolute address (or call key).
	dataArgs map[string]Rates
	// funcs (root only) holds the functions expressions may call (see
	// functionContext); evalRange (root only) is the expression being
	// evaluated, where a provider function call's rates are declared.
	funcs     *hcl.EvalContext
	evalRange hcl.Range
	// rep is the instance of a repeated resource being evaluated (its
	// count.index or each), nil outside one; callRep is, for an instance
	// of a module call with count or for_each, that call's instance, with
	// which its arguments are evaluated in the parent.
	rep, callRep *repetition
	// path is this instance's `path` object, and workspace (root only)
	// terraform.workspace, each worked out on first use.
	path      cty.Value
	workspace string
	// expansions memoizes what count and for_each make of each resource
	// and module call, by local address.
	expansions map[string]*expansionMemo
	// host (root only) is the tool the linter runs inside, nil for none.
	host Host
	// limits (root only) are the root module's evaluation budgets.
	limits *evalLimits
	// runs (root only) are the catalog's results by formula and
	// arguments: a data source under count, or a function called in a
	// for expression, computes once per distinct arguments.
	runs map[string]catalogRun
	// repeated memoizes what a reference to a repeated managed resource
	// evaluates to, by local address: it is the same for every reference.
	repeated map[string]cty.Value
}

type expansionMemo struct {
	state evalState
	e     expansion
}

// expansionOf is what count or for_each makes of a resource ("aws_x.y",
// "data.t.n") or a module call ("module.n"), once. A block that depends
// on itself reads as not known.
func (in *instance) expansionOf(local string, count, forEach hcl.Expression) expansion {
	m := in.expansions[local]
	if m == nil {
		m = &expansionMemo{}
		in.expansions[local] = m
	}
	l, item := in.root.limits, evalItem{in: in, kind: "count", name: local}
	if count == nil {
		item.kind = "for_each"
	}
	switch m.state {
	case evaluated:
		return m.e
	case inProgress:
		l.start(item) // a cycle
		e := expansion{repeated: true, count: count != nil, expr: forEach, why: "depends on itself"}
		if count != nil {
			e.expr = count
		}
		return e
	}
	started := l.start(item)
	m.state = inProgress
	m.e = in.expand(local, count, forEach)
	m.state = evaluated
	if started {
		l.done()
	}
	return m.e
}

func newInstance(mod *Module, addr string, root *instance, vars map[string]cty.Value) *instance {
	in := &instance{
		mod: mod, addr: addr, root: root, vars: vars,
		inputs:     make(map[string]*memo),
		locals:     make(map[string]*memo),
		outputs:    make(map[string]*memo),
		children:   make(map[string]*instance),
		data:       make(map[string]*memo),
		calls:      make(map[string]*ModuleCall, len(mod.Calls)),
		expansions: map[string]*expansionMemo{},
	}
	if root == nil {
		in.root = in
		in.dataArgs = make(map[string]Rates)
		in.limits = newEvalLimits()
	}
	for _, c := range mod.Calls {
		in.calls[c.Name] = c
	}
	return in
}

// reject keeps an error Terraform reports too, found in this instance.
func (in *instance) reject(rng hcl.Range, summary, detail string) {
	in.root.limits.reject(inInstance(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: rng.Ptr()}, in.addr))
}

// absAddr is a local address made absolute.
func (in *instance) absAddr(local string) string {
	if in.addr == "" {
		return local
	}
	return in.addr + "." + local
}

// eval evaluates an expression in this instance. A value that cannot be
// known before apply, or an expression that does not evaluate, is unknown.
func (in *instance) eval(expr hcl.Expression) cty.Value {
	if expr == nil {
		return cty.NullVal(cty.DynamicPseudoType)
	}
	l := in.root.limits
	at, ok := l.enter(expr.Range())
	if !ok {
		return cty.DynamicVal
	}
	defer l.leave(at)
	traversals := expr.Variables()
	ctx := in.contextFor(traversals)
	if !l.ok() {
		return cty.DynamicVal
	}
	outer := in.root.evalRange
	in.root.evalRange = expr.Range()
	v, diags := expr.Value(ctx)
	in.root.evalRange = outer
	if !l.checkDepth(v, expr.Range()) {
		return cty.DynamicVal
	}
	switch {
	case diags.HasErrors():
		l.rejectFailures(diags, in.addr)
		// Unknown, but still derived from what it references: a redrive
		// policy built with templatefile() names its dead-letter queue.
		v = cty.DynamicVal.WithMarks(contextMarks(ctx, traversals))
	case !v.IsWhollyKnown() && len(origins(v)) == 0:
		// A for expression over a value not known before apply,
		// element(), lookup() and merge() return a bare unknown,
		// dropping its marks: element(split(":", aws_sqs_queue.q.arn), 5)
		// still names the queue.
		v = v.WithMarks(contextMarks(ctx, traversals))
	}
	return in.hostValue(expr, traversals, v)
}

// contextMarks are the origins of the values an expression's traversals
// reach: each.value.event_source_arn carries the origin of that attribute
// alone, not of everything else each.value holds. A traversal that does not
// resolve (an index into an unknown value) counts its root's origins.
func contextMarks(ctx *hcl.EvalContext, traversals []hcl.Traversal) cty.ValueMarks {
	marks := cty.ValueMarks{}
	add := func(v cty.Value) {
		_, pvm := v.UnmarkDeepWithPaths()
		for _, p := range pvm {
			for m := range p.Marks {
				if _, ok := m.(origin); ok {
					marks[m] = struct{}{}
				}
			}
		}
	}
	for _, t := range traversals {
		if v, diags := t.TraverseAbs(ctx); !diags.HasErrors() {
			add(v)
		} else if root, ok := ctx.Variables[t.RootName()]; ok {
			add(root)
		}
	}
	return marks
}

// contextFor builds an evaluation context holding exactly the names the
// traversals refer to, evaluating each on demand.
func (in *instance) contextFor(traversals []hcl.Traversal) *hcl.EvalContext {
	ctx := in.functionContext().NewChild()
	if len(traversals) == 0 {
		ctx.Variables = noVariables
		return ctx
	}
	scopes := map[string]map[string]cty.Value{}
	put := func(scope, name string, v cty.Value) {
		if scopes[scope] == nil {
			scopes[scope] = map[string]cty.Value{}
		}
		scopes[scope][name] = v
	}
	var data map[string]map[string]cty.Value // allocated for the few that name a data source
	vars := map[string]cty.Value{}
	var modules map[string][]hcl.Traversal // allocated for the few expressions that name a module
	for _, t := range traversals {
		root := t.RootName()
		name, ok := attrName(t, 1)
		switch root {
		case "var":
			if ok {
				put(root, name, in.variable(name))
			}
		case "local":
			if ok {
				put(root, name, in.local(name))
			}
		case "module":
			if ok {
				if modules == nil {
					modules = map[string][]hcl.Traversal{}
				}
				modules[name] = append(modules[name], t)
			}
		case "data":
			if dname, ok2 := attrName(t, 2); ok && ok2 {
				if data == nil {
					data = map[string]map[string]cty.Value{}
				}
				if data[name] == nil {
					data[name] = map[string]cty.Value{}
				}
				data[name][dname] = in.dataValue(name, dname)
			}
		case "path":
			vars["path"] = in.pathValue()
		case "terraform":
			if in.root.workspace == "" {
				in.root.workspace = workspace(in.root.mod.Dir) // once per root: it reads the environment and a file
			}
			vars["terraform"] = cty.ObjectVal(map[string]cty.Value{"workspace": cty.StringVal(in.root.workspace)})
		case "count":
			vars[root], _ = in.rep.vars()
		case "each":
			_, vars[root] = in.rep.vars()
		case "self":
			vars[root] = cty.DynamicVal
		default:
			if ok {
				put(root, name, in.resourceValue(root+"."+name))
			}
		}
	}
	for name, ts := range modules {
		put("module", name, in.moduleValue(name, ts))
	}
	for scope, members := range scopes {
		vars[scope] = cty.ObjectVal(members)
	}
	if len(data) > 0 {
		types := make(map[string]cty.Value, len(data))
		for typ, members := range data {
			types[typ] = cty.ObjectVal(members)
		}
		vars["data"] = cty.ObjectVal(types)
	}
	ctx.Variables = vars
	return ctx
}

// noVariables are the variables of an expression that names none; never
// written to.
var noVariables = map[string]cty.Value{}

// attrName returns the attribute name at position i of a traversal.
func attrName(t hcl.Traversal, i int) (string, bool) {
	if len(t) <= i {
		return "", false
	}
	switch s := t[i].(type) {
	case hcl.TraverseAttr:
		return s.Name, true
	case hcl.TraverseIndex:
		if s.Key.Type() == cty.String && s.Key.IsKnown() && !s.Key.IsNull() {
			return s.Key.AsString(), true
		}
	}
	return "", false
}

// resourceValue is what a reference to a managed resource evaluates to: an
// unknown value (its attributes are known only after apply) marked with
// where it came from.
func (in *instance) resourceValue(local string) cty.Value {
	r, ok := in.mod.resource(local)
	if !ok {
		return cty.DynamicVal
	}
	base := cty.DynamicVal.Mark(origin(in.absAddr(local)))
	if !r.Repeated || (r.Count == nil && r.ForEach == nil) {
		return base
	}
	if v, ok := in.repeated[local]; ok {
		return v
	}
	v := repeatedValue(in.expansionOf(local, r.Count, r.ForEach), func(rep *repetition) cty.Value {
		return cty.DynamicVal.Mark(origin(in.absAddr(local) + rep.suffix()))
	}, base)
	if in.repeated == nil {
		in.repeated = map[string]cty.Value{}
	}
	in.repeated[local] = v
	return v
}

// dataValue is `data.TYPE.NAME`: computed for queuecap_* data sources,
// unknown and marked for any other.
func (in *instance) dataValue(typ, name string) cty.Value {
	local := "data." + typ + "." + name
	r, ok := in.mod.resource(local)
	if !ok {
		return cty.DynamicVal
	}
	marked := cty.DynamicVal.Mark(origin(in.absAddr(local)))
	if !isQueuecapData(typ) {
		return marked
	}
	one := func(rep *repetition) cty.Value {
		addr := in.absAddr(local) + rep.suffix()
		instMarked := cty.DynamicVal.Mark(origin(addr))
		return in.memoize(in.data, local+rep.suffix(), "", instMarked, func() cty.Value {
			if v := in.queuecapData(r, rep); v != cty.NilVal {
				return v.Mark(origin(addr))
			}
			return instMarked
		})
	}
	if !r.Repeated {
		return one(nil)
	}
	// Every instance's value, once: a reference such as
	// data.t.n[count.index] from each of 10,000 instances would build
	// it 10,000 times.
	return in.memoize(in.data, local, "", marked, func() cty.Value {
		return repeatedValue(in.expansionOf(local, r.Count, r.ForEach), one, marked)
	})
}

// memoize evaluates memos[name], the value at kind+name ("local.", "x"),
// once. A reference back to a name still being evaluated is a cycle,
// which Terraform rejects: an error, and it reads as cycleValue instead of
// recursing.
func (in *instance) memoize(memos map[string]*memo, name, kind string, cycleValue cty.Value, compute func() cty.Value) cty.Value {
	m := memos[name]
	if m == nil {
		m = &memo{}
		memos[name] = m
	}
	l := in.root.limits
	switch m.state {
	case evaluated:
		return m.val
	case inProgress:
		l.start(evalItem{in, kind, name}) // a cycle
		return cycleValue
	}
	started := l.start(evalItem{in, kind, name})
	m.state = inProgress
	m.val = compute()
	m.state = evaluated
	if started {
		l.done()
	}
	return m.val
}

func (in *instance) local(name string) cty.Value {
	return in.memoize(in.locals, name, "local.", cty.DynamicVal, func() cty.Value {
		if attr, ok := in.mod.Locals[name]; ok {
			return in.eval(attr.Expr)
		}
		return cty.DynamicVal
	})
}

// moduleValue is `module.NAME`, holding the outputs the traversals ask
// for (of each instance they name, for a call with count or for_each).
func (in *instance) moduleValue(name string, ts []hcl.Traversal) cty.Value {
	call, ok := in.calls[name]
	if !ok || call.Child == nil {
		return cty.DynamicVal
	}
	outputsOf := func(child *instance, at int) cty.Value {
		outs := map[string]cty.Value{}
		for _, t := range ts {
			if out, ok := attrName(t, at); ok {
				outs[out] = child.output(out)
			} else if len(t) <= at {
				// The module itself, as in [for q in module.queues : q.arn]:
				// what the expression reads of it is not in the traversal.
				for out := range child.mod.Outputs {
					outs[out] = child.output(out)
				}
			}
		}
		if len(outs) == 0 {
			return cty.DynamicVal
		}
		return cty.ObjectVal(outs)
	}
	if !call.Repeated {
		return outputsOf(in.child(call, nil), 2)
	}
	e := in.expansionOf("module."+name, call.Count, call.ForEach)
	return repeatedValue(e, func(rep *repetition) cty.Value {
		return outputsOf(in.child(call, rep), 3)
	}, cty.DynamicVal)
}

// child returns an instance of a called module (rep is nil for a call
// without count or for_each), evaluating its input variables in this
// instance.
func (in *instance) child(call *ModuleCall, rep *repetition) *instance {
	key := call.Name + rep.suffix()
	if c, ok := in.children[key]; ok {
		return c
	}
	addr := "module." + key
	if in.addr != "" {
		addr = in.addr + "." + addr
	}
	c := newInstance(call.Child, addr, in.root, nil)
	c.parent, c.call, c.callRep = in, call, rep
	in.children[key] = c
	return c
}

// variable is `var.NAME`: a root input as given, or a called module's
// input evaluated in the calling module, else the variable's default.
func (in *instance) variable(name string) cty.Value {
	if in.parent == nil {
		if v, ok := in.vars[name]; ok {
			return v
		}
		if decl, ok := in.mod.Variables[name]; ok {
			return variableDefault(decl)
		}
		return cty.DynamicVal
	}
	return in.memoize(in.inputs, name, "var.", cty.DynamicVal, func() cty.Value {
		decl, ok := in.mod.Variables[name]
		if !ok {
			return cty.DynamicVal
		}
		if arg, ok := in.call.Args[name]; ok {
			return convertVariable(decl, in.parent.evalWith(arg.Expr, in.callRep))
		}
		return variableDefault(decl)
	})
}

func (in *instance) output(name string) cty.Value {
	return in.memoize(in.outputs, name, "output.", cty.DynamicVal, func() cty.Value {
		if attr, ok := in.mod.Outputs[name]; ok {
			return in.eval(attr.Expr)
		}
		return cty.DynamicVal
	})
}

// variableDefault is a variable's default, or unknown without one.
func variableDefault(v *Variable) cty.Value {
	return v.defaultValue()
}

// convertVariable is a module argument as the variable receives it, as
// Terraform does: the defaults of its optional attributes applied, and
// converted to its declared type ("4000" from a tfvars file becomes the
// number 4000). A value that does not convert is left as given.
func convertVariable(v *Variable, val cty.Value) cty.Value {
	return v.convert(val)
}

// convertTo converts val to ty, leaving it as given when ty is
// cty.NilType, val is null, or it does not convert.
func convertTo(ty cty.Type, val cty.Value) cty.Value {
	if ty == cty.NilType || val.IsNull() {
		return val
	}
	if out, err := convert.Convert(val, ty); err == nil {
		return out
	}
	return val
}

// origins lists the resources a value was derived from.
func origins(v cty.Value) []string {
	_, pvm := v.UnmarkDeepWithPaths()
	var out []string
	for _, p := range pvm {
		for m := range p.Marks {
			if o, ok := m.(origin); ok {
				out = append(out, string(o))
			}
		}
	}
	return out
}
