// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// providerPrefix is how a configuration calls queuecap's provider
// functions: provider::queuecap::required_consumers(…).
const providerPrefix = "provider::queuecap::"

// builtinContext holds Terraform's built-in functions, which every root
// module shares (see functionContext).
var builtinContext = &hcl.EvalContext{Functions: withCoreNames(functions)}

// coreNamespace is the namespace of the built-in functions: Terraform 1.8+
// and OpenTofu also call abs core::abs, which no provider can take over.
const coreNamespace = "core::"

// withCoreNames is fns with each function under its core:: name too.
func withCoreNames(fns map[string]function.Function) map[string]function.Function {
	out := maps.Clone(fns)
	for name, fn := range fns {
		out[coreNamespace+name] = fn
	}
	return out
}

// functionContext holds the functions an expression of this root may
// call: Terraform's built-ins (in its parent, builtinContext), those that
// read files from this root's directory, and queuecap's provider
// functions, which compute with the catalog exactly as the provider does,
// so that `max_size = provider::queuecap::required_consumers(…)` is
// checked like `max_size = data.queuecap_consumers.x.required_consumers`.
// The root's own are built once per root, since each call records the
// rates it was given there; an expression is evaluated in a child of it.
func (in *instance) functionContext() *hcl.EvalContext {
	root := in.root
	if root.funcs == nil {
		root.funcs = builtinContext.NewChild()
		root.funcs.Functions = root.fileFunctions()
		maps.Copy(root.funcs.Functions, root.budgetedFunctions())
		root.funcs.Functions = withCoreNames(root.funcs.Functions)
		for _, fn := range capacity.Functions {
			root.funcs.Functions[providerPrefix+fn.Name] = root.providerFunction(fn)
		}
	}
	return root.funcs
}

// evalFunctions are functionContext's functions in one map, the root's
// own over the built-ins.
func (in *instance) evalFunctions() map[string]function.Function {
	fns := maps.Clone(builtinContext.Functions)
	maps.Copy(fns, in.functionContext().Functions)
	return fns
}

// signature is a number function's parameters and result type.
type signature struct {
	params []function.Parameter
	result cty.Type
}

// signatures are worked out once: each root module builds its own provider
// functions (their calls record rates in it), with the same signatures.
var signatures sync.Map // *capacity.Function → signature

func signatureOf(fn *capacity.Function) signature {
	if s, ok := signatures.Load(fn); ok {
		return s.(signature) //nolint:forcetypeassert // signatures holds only signature
	}
	s := signature{result: ctyType(fn.Result.Type)}
	for _, p := range fn.Params {
		s.params = append(s.params, function.Parameter{Name: p.Name, Type: cty.Number})
	}
	signatures.Store(fn, s)
	return s
}

// providerFunction is one catalog function as a cty function. Its result
// is marked with an origin under which the arguments are kept as declared
// rates, as a data source's are: a fleet sized by the call declares them.
func (root *instance) providerFunction(fn *capacity.Function) function.Function {
	if fn.Object != nil {
		return root.objectFunction(fn)
	}
	sig := signatureOf(fn)
	spec := &function.Spec{Type: function.StaticReturnType(sig.result), Params: sig.params}
	spec.Impl = func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		given := make(map[string]any, len(args))
		for i, v := range args {
			f, err := fn.Params[i].CheckNumber(v.AsBigFloat())
			if err != nil {
				return cty.NilVal, function.NewArgError(i, err)
			}
			given[fn.Params[i].Name] = f
		}
		out, err := root.compute(fn, given)
		if err != nil {
			var ie *capacity.InputError
			if errors.As(err, &ie) {
				if i := slices.IndexFunc(fn.Params, func(p capacity.Input) bool { return p.Name == ie.Field }); i >= 0 {
					return cty.NilVal, function.NewArgError(i, err)
				}
			}
			return cty.NilVal, err
		}
		return ctyValue(fn.Result.Type, out).Mark(origin(root.recordCall(fn.Name, given))), nil
	}
	return function.New(spec)
}

// objectFunction is an object function (capacity_plan): the formula's
// arguments as one object or map, its whole result as one object. The
// result carries the marks of the arguments, except that a PassThrough
// input's (a queue name's origin) marks only the strings built from it:
// alarm_plan's thresholds do not come from the queue it names, and a
// depth alarm's dimensions lead to that queue alone, not also to the
// dead-letter queue named beside it.
func (root *instance) objectFunction(fn *capacity.Function) function.Function {
	f := fn.Object
	retType := objectTypeOf(f).cty
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "inputs", Type: cty.DynamicPseudoType, AllowUnknown: true, AllowMarked: true}},
		Type:   function.StaticReturnType(retType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			obj, objMarks := args[0].Unmark()
			marks := []cty.ValueMarks{objMarks}
			if !obj.IsKnown() {
				return cty.UnknownVal(retType).WithMarks(marks...), nil
			}
			if !obj.Type().IsObjectType() && !obj.Type().IsMapType() {
				return cty.NilVal, function.NewArgErrorf(0, "inputs must be an object or a map of queuecap_%s arguments, got %s", f.Name, obj.Type().FriendlyName())
			}
			given := map[string]any{}
			labels := map[string]label{}
			for it := obj.ElementIterator(); it.Next(); {
				k, v := it.Element()
				input := f.Input(k.AsString())
				if input == nil {
					return cty.NilVal, function.NewArgErrorf(0, "inputs has no argument %q", k.AsString())
				}
				plain, vMarks := v.UnmarkDeep()
				a, ok := catalogArg(input, plain)
				if reason, bad := knownInvalid(input, plain); !ok && bad {
					return cty.NilVal, function.NewArgErrorf(0, "inputs.%s %s", input.Name, reason)
				}
				if input.PassThrough && (!ok || a != nil) {
					// Only labels: computed with a placeholder, which
					// becomes the value (or unknown) with its own marks.
					s, _ := a.(string)
					labels[input.Name] = label{value: s, known: ok, marks: vMarks}
					given[input.Name] = capacity.Placeholder(input.Name)
					continue
				}
				marks = append(marks, vMarks)
				if !ok {
					return cty.UnknownVal(retType).WithMarks(marks...), nil
				}
				if a != nil {
					given[input.Name] = a
				}
			}
			res, bound, err := root.run(f, given)
			if err != nil {
				return cty.NilVal, function.NewArgErrorf(0, "%s", capacity.Within("inputs", err))
			}
			out, err := withLabels(formulaObject(f, bound, res), labels)
			if err != nil {
				return cty.NilVal, err
			}
			return out.WithMarks(marks...).Mark(origin(root.recordCall(fn.Name, given))), nil
		},
	})
}

// label is a PassThrough argument: its value when known, and its marks.
type label struct {
	value string
	known bool
	marks cty.ValueMarks
}

// withLabels puts each PassThrough argument in the strings of a result
// built from its placeholder: the value with the argument's marks, or an
// unknown string when the argument is unknown.
func withLabels(v cty.Value, labels map[string]label) (cty.Value, error) {
	if len(labels) == 0 {
		return v, nil
	}
	return cty.Transform(v, func(_ cty.Path, v cty.Value) (cty.Value, error) {
		if !v.Type().Equals(cty.String) || !v.IsKnown() || v.IsNull() || !capacity.HoldsPlaceholder(v.AsString()) {
			return v, nil
		}
		s, known := v.AsString(), true
		var marks []cty.ValueMarks
		for name, l := range labels {
			if p := capacity.Placeholder(name); strings.Contains(s, p) {
				s, known, marks = strings.ReplaceAll(s, p, l.value), known && l.known, append(marks, l.marks)
			}
		}
		if !known {
			return cty.UnknownVal(cty.String).WithMarks(marks...), nil
		}
		return cty.StringVal(s).WithMarks(marks...), nil
	})
}

// recordCall keeps a call's arguments as declared rates, under a key that
// marks its result, at the range of the expression being evaluated.
func (root *instance) recordCall(name string, given map[string]any) string {
	key := fmt.Sprintf("%s%s#%d", providerPrefix, name, len(root.dataArgs))
	root.dataArgs[key] = ratesOfArgs(given, root.evalRange, providerPrefix+name)
	return key
}
