package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// capacityPlanInputs are the queuecap_consumers arguments capacity_plan
// accepts, in the order of the data source's documentation.
var capacityPlanInputs = []numberParam{
	{name: "arrival_rate", rng: atLeastZero},
	{name: "per_consumer_rate", rng: aboveZero},
	{name: "max_backlog", rng: atLeastZero},
	{name: "rto_seconds", rng: aboveZero},
	{name: "retry_rate", rng: fraction},
	{name: "avg_retries", rng: atLeastZero},
	{name: "min_headroom", rng: atLeastZero},
}

// capacityPlanAttrTypes is the result object: the inputs with their
// defaults filled in, then every queuecap_consumers result.
var capacityPlanAttrTypes = map[string]attr.Type{
	"arrival_rate":           types.Float64Type,
	"per_consumer_rate":      types.Float64Type,
	"max_backlog":            types.Float64Type,
	"rto_seconds":            types.Float64Type,
	"retry_rate":             types.Float64Type,
	"avg_retries":            types.Float64Type,
	"min_headroom":           types.Float64Type,
	"effective_arrival_rate": types.Float64Type,
	"steady_state_consumers": types.Int64Type,
	"required_consumers":     types.Int64Type,
	"capacity":               types.Float64Type,
	"surplus":                types.Float64Type,
	"utilization":            types.Float64Type,
	"headroom":               types.Float64Type,
	"overhead":               types.Float64Type,
	"drain_seconds":          types.Float64Type,
}

type capacityPlanFunction struct{}

var _ function.Function = capacityPlanFunction{}

func newCapacityPlanFunction() function.Function { return capacityPlanFunction{} }

func (capacityPlanFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "capacity_plan"
}

func (capacityPlanFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "The whole queuecap_consumers sizing as one call",
		MarkdownDescription: "Takes the arguments of the `queuecap_consumers` data source as one object " +
			"(`arrival_rate` and `per_consumer_rate` required; `max_backlog`, `rto_seconds`, `retry_rate`, `avg_retries` and `min_headroom` optional with the same defaults and rules) " +
			"and returns its whole result as one object: the inputs with defaults filled in, `effective_arrival_rate`, `steady_state_consumers`, `required_consumers`, " +
			"`capacity`, `surplus`, `utilization`, `headroom`, `overhead` and `drain_seconds`, each exactly as the data source computes it.",
		Parameters: []function.Parameter{function.DynamicParameter{
			Name:                "inputs",
			MarkdownDescription: "An object with the `queuecap_consumers` arguments, for example `{ arrival_rate = 10000, per_consumer_rate = 400, max_backlog = 5e6, rto_seconds = 1800 }`.",
		}},
		Return: function.ObjectReturn{AttributeTypes: capacityPlanAttrTypes},
	}
}

func (capacityPlanFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var arg types.Dynamic
	if resp.Error = req.Arguments.Get(ctx, &arg); resp.Error != nil {
		return
	}
	obj, ok := arg.UnderlyingValue().(basetypes.ObjectValue)
	if !ok {
		resp.Error = function.NewArgumentFuncError(0, fmt.Sprintf("inputs must be an object of queuecap_consumers arguments, got %s", arg.UnderlyingValue().Type(ctx)))
		return
	}
	in, known, funcErr := readCapacityPlanInputs(obj)
	if resp.Error = funcErr; funcErr != nil {
		return
	}
	if !known {
		resp.Error = resp.Result.Set(ctx, types.ObjectUnknown(capacityPlanAttrTypes))
		return
	}
	s, err := capacity.Size(in)
	if err != nil {
		resp.Error = function.NewArgumentFuncError(0, "inputs."+err.Error())
		return
	}
	result, diags := types.ObjectValue(capacityPlanAttrTypes, map[string]attr.Value{
		"arrival_rate":           types.Float64Value(in.ArrivalRate),
		"per_consumer_rate":      types.Float64Value(in.PerConsumerRate),
		"max_backlog":            types.Float64Value(in.MaxBacklog),
		"rto_seconds":            optionalFloat(in.RTOSeconds),
		"retry_rate":             types.Float64Value(in.Retries.Rate),
		"avg_retries":            types.Float64Value(in.Retries.Average),
		"min_headroom":           types.Float64Value(in.MinHeadroom),
		"effective_arrival_rate": types.Float64Value(s.EffectiveArrivalRate),
		"steady_state_consumers": types.Int64Value(s.SteadyStateConsumers),
		"required_consumers":     types.Int64Value(s.RequiredConsumers),
		"capacity":               types.Float64Value(s.Capacity),
		"surplus":                types.Float64Value(s.Surplus),
		"utilization":            types.Float64Value(s.Utilization),
		"headroom":               types.Float64PointerValue(s.Headroom),
		"overhead":               types.Float64PointerValue(s.Overhead),
		"drain_seconds":          types.Float64PointerValue(s.DrainSeconds),
	})
	if diags.HasError() {
		resp.Error = function.FuncErrorFromDiags(ctx, diags)
		return
	}
	resp.Error = resp.Result.Set(ctx, result)
}

// readCapacityPlanInputs validates the object as the data source validates
// its configuration. known is false when any argument is unknown.
func readCapacityPlanInputs(obj basetypes.ObjectValue) (capacity.SizingInput, bool, *function.FuncError) {
	var in capacity.SizingInput
	allowed := make([]string, len(capacityPlanInputs))
	for i, p := range capacityPlanInputs {
		allowed[i] = p.name
	}
	values := map[string]float64{}
	known := true
	for name, v := range obj.Attributes() {
		i := slices.Index(allowed, name)
		if i < 0 {
			return in, false, function.NewArgumentFuncError(0, fmt.Sprintf("inputs has no argument %q; queuecap_consumers takes %s", name, strings.Join(allowed, ", ")))
		}
		if v.IsUnknown() {
			known = false
			continue
		}
		if v.IsNull() {
			continue
		}
		n, ok := v.(basetypes.NumberValue)
		if !ok {
			return in, false, function.NewArgumentFuncError(0, fmt.Sprintf("inputs.%s must be a number", name))
		}
		f, problem := capacityPlanInputs[i].rng.check(n.ValueBigFloat())
		if problem != "" {
			return in, false, function.NewArgumentFuncError(0, "inputs."+name+" "+problem)
		}
		values[name] = f
	}
	for _, required := range []string{"arrival_rate", "per_consumer_rate"} {
		if v, ok := obj.Attributes()[required]; !ok || v.IsNull() {
			return in, false, function.NewArgumentFuncError(0, "inputs."+required+" is required")
		}
	}
	if _, hasRTO := values["rto_seconds"]; known && values["max_backlog"] > 0 && !hasRTO {
		return in, false, function.NewArgumentFuncError(0, "inputs.rto_seconds is required when max_backlog is greater than 0")
	}
	in = capacity.SizingInput{
		ArrivalRate: values["arrival_rate"], PerConsumerRate: values["per_consumer_rate"],
		MaxBacklog: values["max_backlog"], RTOSeconds: values["rto_seconds"],
		Retries:     capacity.Retries{Rate: values["retry_rate"], Average: values["avg_retries"]},
		MinHeadroom: values["min_headroom"],
	}
	return in, known, nil
}

func optionalFloat(v float64) types.Float64 {
	if v == 0 {
		return types.Float64Null()
	}
	return types.Float64Value(v)
}
