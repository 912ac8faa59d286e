// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// formulaFunction is the provider function of one catalog function. Its
// definition is built once. Every parameter accepts unknown values, so the
// known ones are still validated at plan (required_consumers(unknown, 0, …)
// fails naming per_consumer_rate, as the data source does) and the result
// is unknown until every argument is known.
type formulaFunction struct {
	fn  *capacity.Function
	def function.Definition
	// result is the object result's type (object functions only).
	result     capacity.Type
	resultType types.ObjectType
}

var _ function.Function = (*formulaFunction)(nil)

func newFunction(fn *capacity.Function) *formulaFunction {
	f := &formulaFunction{fn: fn}
	f.def = function.Definition{Summary: fn.Summary, MarkdownDescription: fn.Description}
	if fn.Object != nil {
		f.result = fn.Object.ObjectType()
		f.resultType = types.ObjectType{AttrTypes: attrTypes(f.result.Attrs)}
		f.def.Parameters = []function.Parameter{function.DynamicParameter{
			Name:               "inputs",
			AllowUnknownValues: true,
			MarkdownDescription: fmt.Sprintf("An object (or a map) with the `queuecap_%s` arguments; numbers may be strings. For example `%s`.",
				fn.Object.Name, objectExample(fn.Object)),
		}}
		f.def.Return = function.ObjectReturn{AttributeTypes: f.resultType.AttrTypes}
		return f
	}
	for i := range fn.Params {
		p := &fn.Params[i]
		f.def.Parameters = append(f.def.Parameters, function.NumberParameter{Name: p.Name, MarkdownDescription: p.Doc(),
			AllowUnknownValues: true, Validators: []function.NumberParameterValidator{paramValidator{p}}})
	}
	f.def.Return = function.NumberReturn{}
	return f
}

// functions are every catalog function's provider function, built once.
var functions = func() []*formulaFunction {
	out := make([]*formulaFunction, len(capacity.Functions))
	for i, fn := range capacity.Functions {
		out[i] = newFunction(fn)
	}
	return out
}()

func objectExample(f *capacity.Formula) string {
	if f == capacity.Consumers {
		return "{ arrival_rate = 10000, per_consumer_rate = 400, max_backlog = 5e6, rto_seconds = 1800 }"
	}
	var parts []string
	for _, in := range f.Inputs {
		if in.Required {
			parts = append(parts, in.Name+" = …")
		}
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

func (f *formulaFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = f.fn.Name
}

func (f *formulaFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = f.def
}

func (f *formulaFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	if f.fn.Object != nil {
		f.runObject(ctx, req, resp)
		return
	}
	args := make(capacity.Args, len(f.fn.Params))
	known := true
	// The arguments as the framework decoded them: reading them into
	// types.Number targets instead would convert each back to a Terraform
	// value and reflect it into the target.
	raw := make([]attr.Value, len(f.fn.Params))
	for i := range raw {
		if resp.Error = req.Arguments.GetArgument(ctx, i, &raw[i]); resp.Error != nil {
			return
		}
		v, ok := raw[i].(types.Number)
		if !ok {
			resp.Error = function.NewArgumentFuncError(int64(i), fmt.Sprintf("expected a number, got %T", raw[i]))
			return
		}
		if v.IsUnknown() {
			known = false
			continue
		}
		// The validators have checked every known argument.
		n, err := f.fn.Params[i].CheckNumber(v.ValueBigFloat())
		if err != nil {
			resp.Error = function.NewArgumentFuncError(int64(i), err.Error())
			return
		}
		args[f.fn.Params[i].Name] = n
	}
	if !known {
		resp.Error = resp.Result.Set(ctx, types.NumberUnknown())
		return
	}
	out, err := f.fn.Compute(args)
	if err != nil {
		resp.Error = f.funcError(err)
		return
	}
	if out == nil {
		resp.Error = resp.Result.Set(ctx, types.NumberNull())
		return
	}
	resp.Error = resp.Result.Set(ctx, types.NumberValue(bigNumber(out)))
}

// funcError puts an error from internal/capacity on the argument it names.
func (f *formulaFunction) funcError(err error) *function.FuncError {
	var in *capacity.InputError
	if errors.As(err, &in) {
		if i := slices.IndexFunc(f.fn.Params, func(p capacity.Input) bool { return p.Name == in.Field }); i >= 0 {
			return function.NewArgumentFuncError(int64(i), in.Error())
		}
	}
	return function.NewFuncError(err.Error())
}

// runObject runs an object function: the formula's arguments in, its
// inputs (with defaults) and outputs out, as its data source's state.
func (f *formulaFunction) runObject(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	formula := f.fn.Object
	var arg types.Dynamic
	if resp.Error = req.Arguments.Get(ctx, &arg); resp.Error != nil {
		return
	}
	fail := func(format string, a ...any) {
		resp.Error = function.NewArgumentFuncError(0, fmt.Sprintf(format, a...))
	}
	if arg.IsUnknown() || arg.IsUnderlyingValueUnknown() {
		resp.Error = resp.Result.Set(ctx, types.ObjectUnknown(f.resultType.AttrTypes))
		return
	}
	if arg.IsNull() || arg.IsUnderlyingValueNull() {
		fail("inputs must be an object of queuecap_%s arguments, got null", formula.Name)
		return
	}
	raw, err := arg.UnderlyingValue().ToTerraformValue(ctx)
	if err != nil {
		resp.Error = function.NewFuncError(err.Error())
		return
	}
	if !raw.Type().Is(tftypes.Object{}) && !raw.Type().Is(tftypes.Map{}) {
		fail("inputs must be an object or a map of queuecap_%s arguments, got %s", formula.Name, typeName(raw.Type()))
		return
	}
	var given map[string]tftypes.Value
	_ = raw.As(&given)
	names := make([]string, len(formula.Inputs))
	for i, in := range formula.Inputs {
		names[i] = in.Name
	}
	keys := make([]string, 0, len(given))
	for k := range given {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	args := make(capacity.Args, len(given))
	known := true
	for _, name := range keys {
		in := formula.Input(name)
		if in == nil {
			fail("inputs has no argument %s; queuecap_%s takes %s", capacity.Quote(name), formula.Name, strings.Join(names, ", "))
			return
		}
		v, ok, ierr := readInput(in, given[name])
		if ierr != nil {
			fail("%s", capacity.Within("inputs", ierr))
			return
		}
		if !ok {
			if in.PassThrough {
				// A label such as a queue name: the numbers do not depend
				// on it, so they stay known and only its strings are not.
				args[name] = capacity.Placeholder(name)
				continue
			}
			known = false
			continue
		}
		if v != nil {
			args[name] = v
		}
	}
	for _, in := range formula.Inputs {
		if in.Required && !presence(given).IsSet(in.Name) {
			fail("inputs.%s is required", in.Name)
			return
		}
	}
	for _, r := range formula.Rules {
		if ierr := r.Check(presence(given)); ierr != nil {
			fail("%s", capacity.Within("inputs", ierr))
			return
		}
	}
	if !known {
		resp.Error = resp.Result.Set(ctx, types.ObjectUnknown(f.resultType.AttrTypes))
		return
	}
	args = formula.WithDefaults(args)
	res, cerr := formula.Compute(args)
	if cerr != nil {
		fail("%s", capacity.Within("inputs", cerr))
		return
	}
	values := make(map[string]any, len(formula.Inputs)+len(formula.Outputs))
	for name, v := range args {
		values[name] = v
		// A number given is echoed as given, as a data source keeps its
		// configuration: 0.12345678901234567 is not cut to 15 digits.
		if g, ok := given[name]; ok && g.IsKnown() && !g.IsNull() && g.Type().Is(tftypes.Number) {
			var n big.Float
			if g.As(&n) == nil {
				values[name] = &n
			}
		}
	}
	for _, in := range formula.Inputs {
		if in.Computed && !args.Has(in.Name) {
			values[in.Name] = res.Values[in.Name]
		}
	}
	for name, v := range res.Values {
		if formula.Output(name) != nil {
			values[name] = v
		}
	}
	obj, oerr := f.resultType.ValueFromTerraform(ctx, tfValue(f.result, listsAsAny(values)))
	if oerr != nil {
		resp.Error = function.NewFuncError(oerr.Error())
		return
	}
	resp.Error = resp.Result.Set(ctx, obj)
}

// listsAsAny turns list inputs ([]float64) into the []any tfValue takes.
func listsAsAny(values map[string]any) map[string]any {
	for k, v := range values {
		if l, ok := v.([]float64); ok {
			items := make([]any, len(l))
			for i, f := range l {
				items[i] = f
			}
			values[k] = items
		}
	}
	return values
}

// paramValidator rejects what the data sources reject, with the
// argument's position.
type paramValidator struct{ in *capacity.Input }

var _ function.NumberParameterValidator = paramValidator{}

func (v paramValidator) ValidateParameterNumber(_ context.Context, req function.NumberParameterValidatorRequest, resp *function.NumberParameterValidatorResponse) {
	if req.Value.IsNull() || req.Value.IsUnknown() {
		return
	}
	if _, err := v.in.CheckNumber(req.Value.ValueBigFloat()); err != nil {
		resp.Error = function.NewArgumentFuncError(req.ArgumentPosition, err.Error())
	}
}
