package provider

import (
	"context"
	"fmt"
	"math"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// numberRange validates a number input: it must be a finite float64 and lie
// within its bounds. Inputs are Terraform numbers (arbitrary precision), not
// framework Float64s, so that 1/0 or 1e400 fail here with the attribute's
// name and a reason instead of as a conversion error blamed on the provider.
type numberRange struct {
	min          float64
	exclusive    bool    // min itself is not allowed
	max          float64 // +Inf for no upper bound
	exclusiveMax bool    // max itself is not allowed
}

var (
	atLeastZero = numberRange{min: 0, max: math.Inf(1)}
	atLeastOne  = numberRange{min: 1, max: math.Inf(1)}
	aboveZero   = numberRange{min: 0, exclusive: true, max: math.Inf(1)}
	fraction    = numberRange{min: 0, max: 1}
	// openFraction is a probability that can be neither 0 nor 1, such as a
	// percentile.
	openFraction = numberRange{min: 0, exclusive: true, max: 1, exclusiveMax: true}
)

func (v numberRange) Description(context.Context) string {
	switch {
	case v.exclusive && v.exclusiveMax:
		return fmt.Sprintf("value must be greater than %g and less than %g", v.min, v.max)
	case !math.IsInf(v.max, 1):
		return fmt.Sprintf("value must be between %g and %g", v.min, v.max)
	case v.exclusive:
		return fmt.Sprintf("value must be greater than %g", v.min)
	default:
		return fmt.Sprintf("value must be at least %g", v.min)
	}
}

func (v numberRange) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v numberRange) ValidateNumber(ctx context.Context, req validator.NumberRequest, resp *validator.NumberResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, problem := v.check(req.ConfigValue.ValueBigFloat()); problem != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Attribute Value", "Attribute "+req.Path.String()+" "+problem)
	}
}

// check reads a number and says what is wrong with it, if anything. The
// data sources' validators and the provider functions share it, so both
// reject the same values with the same words.
func (v numberRange) check(value *big.Float) (float64, string) {
	f, ok := toFloat64(value)
	if !ok {
		return 0, "must be a finite number within the float64 range (magnitude between about 4.9e-324 and 1.8e308), got: " + value.Text('g', 10)
	}
	if f < v.min || (v.exclusive && f == v.min) || f > v.max || (v.exclusiveMax && f == v.max) {
		return 0, fmt.Sprintf("%s, got: %g", v.Description(context.Background()), f)
	}
	return f, ""
}

// toFloat64 converts a Terraform number, failing for infinities and for
// magnitudes that overflow or underflow a float64.
func toFloat64(v *big.Float) (float64, bool) {
	if v == nil || v.IsInf() {
		return 0, false
	}
	f, acc := v.Float64()
	if math.IsInf(f, 0) || (f == 0 && acc != big.Exact) {
		return 0, false
	}
	return f, true
}

// float64Of reads a validated number input; null reads as 0.
func float64Of(v types.Number) float64 {
	if v.IsNull() || v.IsUnknown() {
		return 0
	}
	f, _ := toFloat64(v.ValueBigFloat())
	return f
}

// requiredWhenPositive makes attribute `required` mandatory once `trigger`
// is configured above zero: max_backlog needs an rto_seconds to be cleared
// within.
type requiredWhenPositive struct {
	trigger, required string
}

var _ datasource.ConfigValidator = requiredWhenPositive{}

func (v requiredWhenPositive) Description(context.Context) string {
	return fmt.Sprintf("%s is required when %s is greater than 0", v.required, v.trigger)
}

func (v requiredWhenPositive) MarkdownDescription(context.Context) string {
	return fmt.Sprintf("`%s` is required when `%s` is greater than 0", v.required, v.trigger)
}

func (v requiredWhenPositive) ValidateDataSource(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var trigger, required types.Number
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root(v.trigger), &trigger)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root(v.required), &required)...)
	if resp.Diagnostics.HasError() || trigger.IsNull() || trigger.IsUnknown() || !required.IsNull() {
		return
	}
	if trigger.ValueBigFloat().Sign() > 0 {
		resp.Diagnostics.AddAttributeError(path.Root(v.required), "Missing Required Attribute",
			fmt.Sprintf("%s is %s: %s, the time allowed to clear that backlog.", v.trigger, trigger.ValueBigFloat().Text('g', 10), v.Description(ctx)))
	}
}

// completionForm requires the drain's completion rate in exactly one form:
// completion_rate, or consumers together with per_consumer_rate. One
// validator states the rule in one sentence, where three generic ones would
// each report a fragment of it.
type completionForm struct{}

var _ datasource.ConfigValidator = completionForm{}

const completionFormRule = "give the fleet's completion rate either as completion_rate, or as consumers together with per_consumer_rate, not both"

func (completionForm) Description(context.Context) string { return completionFormRule }

func (completionForm) MarkdownDescription(context.Context) string {
	return "give the fleet's completion rate either as `completion_rate`, or as `consumers` together with `per_consumer_rate`, not both"
}

func (completionForm) ValidateDataSource(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var completion, perConsumer types.Number
	var consumers types.Int64
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("completion_rate"), &completion)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("consumers"), &consumers)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("per_consumer_rate"), &perConsumer)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// Unknown counts as set: the form of the configuration is known at plan
	// even when a value is not.
	hasCompletion, hasConsumers, hasPerConsumer := !completion.IsNull(), !consumers.IsNull(), !perConsumer.IsNull()
	const summary = "Invalid Attribute Combination"
	switch {
	case hasCompletion && (hasConsumers || hasPerConsumer):
		resp.Diagnostics.AddAttributeError(path.Root("completion_rate"), summary,
			"completion_rate is set together with consumers or per_consumer_rate: "+completionFormRule+".")
	case !hasCompletion && !hasConsumers && !hasPerConsumer:
		resp.Diagnostics.AddError("Missing Completion Rate", "No completion rate is set: "+completionFormRule+".")
	case hasConsumers && !hasPerConsumer:
		resp.Diagnostics.AddAttributeError(path.Root("consumers"), summary,
			"consumers is set without per_consumer_rate: "+completionFormRule+".")
	case hasPerConsumer && !hasConsumers:
		resp.Diagnostics.AddAttributeError(path.Root("per_consumer_rate"), summary,
			"per_consumer_rate is set without consumers: "+completionFormRule+".")
	}
}

var _ function.NumberParameterValidator = numberRange{}

// ValidateParameterNumber lets provider functions reject what the data
// sources reject, with the argument's position.
func (v numberRange) ValidateParameterNumber(_ context.Context, req function.NumberParameterValidatorRequest, resp *function.NumberParameterValidatorResponse) {
	if req.Value.IsNull() || req.Value.IsUnknown() {
		return
	}
	if _, problem := v.check(req.Value.ValueBigFloat()); problem != "" {
		resp.Error = function.NewArgumentFuncError(req.ArgumentPosition, problem)
	}
}
