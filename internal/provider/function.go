package provider

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// numberParam is one number argument of a provider function. Its name is
// the data source attribute it mirrors, so capacity errors map back to it.
type numberParam struct {
	name        string
	rng         numberRange
	description string
	whole       bool // a count: a whole number
}

// numberFunction is a provider function from numbers to one number: every
// formula function but capacity_plan. Each is a thin adapter over
// internal/capacity that returns exactly what its data source returns.
type numberFunction struct {
	name, summary, description string
	params                     []numberParam
	// result is Float64Return or Int64Return.
	result function.Return
	// compute returns the result; nil for null (never drains).
	compute func(args []float64) (*float64, error)
}

var _ function.Function = (*numberFunction)(nil)

func (f *numberFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = f.name
}

func (f *numberFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	params := make([]function.Parameter, len(f.params))
	for i, p := range f.params {
		params[i] = function.NumberParameter{Name: p.name, MarkdownDescription: p.description, Validators: []function.NumberParameterValidator{p.rng}}
	}
	resp.Definition = function.Definition{Summary: f.summary, MarkdownDescription: f.description, Parameters: params, Return: f.result}
}

func (f *numberFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	values := make([]types.Number, len(f.params))
	targets := make([]any, len(values))
	for i := range values {
		targets[i] = &values[i]
	}
	if resp.Error = req.Arguments.Get(ctx, targets...); resp.Error != nil {
		return
	}
	args := make([]float64, len(values))
	for i, v := range values {
		args[i] = float64Of(v)
		if !f.params[i].whole {
			continue
		}
		// Checked as a float first: converting 1e30 to int64 is undefined.
		if args[i] != math.Trunc(args[i]) {
			resp.Error = function.NewArgumentFuncError(int64(i), f.params[i].name+" must be a whole number, got: "+v.ValueBigFloat().Text('g', 10))
			return
		}
		if args[i] > capacity.MaxCount {
			resp.Error = function.NewArgumentFuncError(int64(i), fmt.Sprintf("%s must be at most %d, got: %s", f.params[i].name, int64(capacity.MaxCount), v.ValueBigFloat().Text('g', 10)))
			return
		}
	}
	out, err := f.compute(args)
	if err != nil {
		resp.Error = capacityFuncError(err, f.params)
		return
	}
	switch f.result.(type) {
	case function.Int64Return:
		if out == nil {
			resp.Error = resp.Result.Set(ctx, types.Int64Null())
		} else {
			resp.Error = resp.Result.Set(ctx, types.Int64Value(int64(*out)))
		}
	default:
		resp.Error = resp.Result.Set(ctx, types.Float64PointerValue(out))
	}
}

// capacityFuncError turns an error from internal/capacity into a function
// error on the argument it names.
func capacityFuncError(err error, params []numberParam) *function.FuncError {
	var in *capacity.InputError
	if errors.As(err, &in) {
		if i := slices.IndexFunc(params, func(p numberParam) bool { return p.name == in.Field }); i >= 0 {
			return function.NewArgumentFuncError(int64(i), in.Error())
		}
	}
	return function.NewFuncError(err.Error())
}

func ptr(v float64) *float64 { return &v }
