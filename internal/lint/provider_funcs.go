package lint

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// providerPrefix is how a configuration calls queuecap's provider
// functions: provider::queuecap::required_consumers(…).
const providerPrefix = "provider::queuecap::"

// evalFunctions are the functions an expression of this root may call:
// Terraform's built-ins, those that read files from this root's directory,
// and queuecap's provider functions, which compute
// with the catalog exactly as the provider does, so that
// `max_size = provider::queuecap::required_consumers(…)` is checked like
// `max_size = data.queuecap_consumers.x.required_consumers`. Built once
// per root, since each call records the rates it was given there.
func (in *instance) evalFunctions() map[string]function.Function {
	root := in.root
	if root.funcs == nil {
		root.funcs = maps.Clone(functions)
		maps.Copy(root.funcs, root.fileFunctions())
		for _, fn := range capacity.Functions {
			root.funcs[providerPrefix+fn.Name] = root.providerFunction(fn)
		}
	}
	return root.funcs
}

// providerFunction is one catalog function as a cty function. Its result
// is marked with an origin under which the arguments are kept as declared
// rates, as a data source's are: a fleet sized by the call declares them.
func (root *instance) providerFunction(fn *capacity.Function) function.Function {
	if fn.Object != nil {
		return root.objectFunction(fn)
	}
	spec := &function.Spec{Type: function.StaticReturnType(ctyType(fn.Result.Type))}
	for _, p := range fn.Params {
		spec.Params = append(spec.Params, function.Parameter{Name: p.Name, Type: cty.Number})
	}
	spec.Impl = func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		given := make(map[string]any, len(args))
		for i, v := range args {
			f, err := fn.Params[i].CheckNumber(v.AsBigFloat())
			if err != nil {
				return cty.NilVal, function.NewArgError(i, err)
			}
			given[fn.Params[i].Name] = f
		}
		out, err := fn.Compute(given)
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
// arguments as one object or map, its whole result as one object.
func (root *instance) objectFunction(fn *capacity.Function) function.Function {
	f := fn.Object
	retType := ctyType(f.ObjectType())
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "inputs", Type: cty.DynamicPseudoType, AllowUnknown: true}},
		Type:   function.StaticReturnType(retType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			obj := args[0]
			if !obj.IsKnown() {
				return cty.UnknownVal(retType), nil
			}
			if !obj.Type().IsObjectType() && !obj.Type().IsMapType() {
				return cty.NilVal, function.NewArgErrorf(0, "inputs must be an object or a map of queuecap_%s arguments, got %s", f.Name, obj.Type().FriendlyName())
			}
			given := map[string]any{}
			for it := obj.ElementIterator(); it.Next(); {
				k, v := it.Element()
				input := f.Input(k.AsString())
				if input == nil {
					return cty.NilVal, function.NewArgErrorf(0, "inputs has no argument %q", k.AsString())
				}
				a, ok := catalogArg(input, v)
				if !ok && input.PassThrough {
					// Only labels: the provider computes the rest at plan.
					a, ok = capacity.Placeholder(input.Name), true
				}
				if !ok {
					return cty.UnknownVal(retType), nil
				}
				if a != nil {
					given[input.Name] = a
				}
			}
			res, bound, err := f.Run(given)
			if err != nil {
				return cty.NilVal, function.NewArgErrorf(0, "%s", capacity.Within("inputs", err))
			}
			return formulaObject(f, bound, res).Mark(origin(root.recordCall(fn.Name, given))), nil
		},
	})
}

// recordCall keeps a call's arguments as declared rates, under a key that
// marks its result, at the range of the expression being evaluated.
func (root *instance) recordCall(name string, given map[string]any) string {
	key := fmt.Sprintf("%s%s#%d", providerPrefix, name, len(root.dataArgs))
	root.dataArgs[key] = ratesOfArgs(given, root.evalRange, providerPrefix+name)
	return key
}
