package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

var (
	_ datasource.DataSource                     = (*consumersDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*consumersDataSource)(nil)
)

func newConsumersDataSource() datasource.DataSource { return &consumersDataSource{} }

// consumersDataSource sizes a fleet with the headroom formula.
type consumersDataSource struct{}

type consumersModel struct {
	ArrivalRate     types.Number `tfsdk:"arrival_rate"`
	PerConsumerRate types.Number `tfsdk:"per_consumer_rate"`
	MaxBacklog      types.Number `tfsdk:"max_backlog"`
	RTOSeconds      types.Number `tfsdk:"rto_seconds"`
	RetryRate       types.Number `tfsdk:"retry_rate"`
	AvgRetries      types.Number `tfsdk:"avg_retries"`
	MinHeadroom     types.Number `tfsdk:"min_headroom"`

	EffectiveArrivalRate types.Float64 `tfsdk:"effective_arrival_rate"`
	SteadyStateConsumers types.Int64   `tfsdk:"steady_state_consumers"`
	RequiredConsumers    types.Int64   `tfsdk:"required_consumers"`
	Capacity             types.Float64 `tfsdk:"capacity"`
	Surplus              types.Float64 `tfsdk:"surplus"`
	Utilization          types.Float64 `tfsdk:"utilization"`
	Headroom             types.Float64 `tfsdk:"headroom"`
	Overhead             types.Float64 `tfsdk:"overhead"`
	DrainSeconds         types.Float64 `tfsdk:"drain_seconds"`
}

func (d *consumersDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_consumers"
}

func (d *consumersDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Sizes a consumer fleet with the headroom formula: enough consumers to absorb the effective arrival rate " +
			"**and** clear `max_backlog` within `rto_seconds`, " +
			"`required_consumers = ceil(λ_eff / μ + max_backlog / (μ × rto_seconds))`, " +
			"raised to `ceil(λ_eff × (1 + min_headroom) / μ)` when that is larger. " +
			"A fleet sized for the steady state alone (`steady_state_consumers`) has zero surplus, so any backlog never drains.",
		Attributes: map[string]schema.Attribute{
			"arrival_rate":      arrivalRateAttribute(),
			"per_consumer_rate": requiredNumber(aboveZero, perConsumerRateDescription),
			"max_backlog":       defaultedNumber(atLeastZero, maxBacklogDescription),
			"rto_seconds":       optionalNumber(aboveZero, rtoSecondsDescription),
			"retry_rate":        retryRateAttribute(),
			"avg_retries":       avgRetriesAttribute(),
			"min_headroom":      defaultedNumber(atLeastZero, minHeadroomDescription),

			"effective_arrival_rate": effectiveArrivalRateAttribute(),
			"steady_state_consumers": schema.Int64Attribute{
				Computed:            true,
				MarkdownDescription: "Consumers that just keep up with arrivals, `ceil(λ_eff / μ)`, a whole number. Such a fleet has no surplus to clear a backlog.",
			},
			"required_consumers": schema.Int64Attribute{
				Computed:            true,
				MarkdownDescription: "Consumers the headroom formula requires, a whole number: the fleet's maximum size.",
			},
			"capacity":      computedNumber("Completion rate of the required fleet, `required_consumers × per_consumer_rate`, in messages per second."),
			"surplus":       computedNumber("Capacity left after arrivals, `capacity − effective_arrival_rate`, in messages per second: the rate at which a backlog drains."),
			"utilization":   computedNumber("Share of capacity used by arrivals, `effective_arrival_rate / capacity`, a fraction (`0` with no arrivals)."),
			"headroom":      computedNumber("Spare capacity as a fraction of the effective arrival rate, `surplus / effective_arrival_rate`. Null when the effective arrival rate is 0."),
			"overhead":      computedNumber("Extra consumers over the steady state, `required_consumers / steady_state_consumers − 1`, a fraction. Null when the steady state needs no consumers."),
			"drain_seconds": computedNumber("Time for the required fleet to clear `max_backlog`, `max_backlog / surplus`, in seconds; at most `rto_seconds`. `0` without a backlog."),
		},
	}
}

func (d *consumersDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{requiredWhenPositive{trigger: "max_backlog", required: "rto_seconds"}}
}

func (d *consumersDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m consumersModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	m.MaxBacklog = withDefault(m.MaxBacklog, 0)
	m.MinHeadroom = withDefault(m.MinHeadroom, 0)
	in := capacity.SizingInput{
		ArrivalRate:     float64Of(m.ArrivalRate),
		PerConsumerRate: float64Of(m.PerConsumerRate),
		MaxBacklog:      float64Of(m.MaxBacklog),
		RTOSeconds:      float64Of(m.RTOSeconds),
		Retries:         retries(&m.RetryRate, &m.AvgRetries),
		MinHeadroom:     float64Of(m.MinHeadroom),
	}
	out, err := capacity.Size(in)
	if err != nil {
		addCapacityError(&resp.Diagnostics, err)
		return
	}
	m.EffectiveArrivalRate = types.Float64Value(out.EffectiveArrivalRate)
	m.SteadyStateConsumers = types.Int64Value(out.SteadyStateConsumers)
	m.RequiredConsumers = types.Int64Value(out.RequiredConsumers)
	m.Capacity = types.Float64Value(out.Capacity)
	m.Surplus = types.Float64Value(out.Surplus)
	m.Utilization = types.Float64Value(out.Utilization)
	m.Headroom = types.Float64PointerValue(out.Headroom)
	m.Overhead = types.Float64PointerValue(out.Overhead)
	m.DrainSeconds = types.Float64PointerValue(out.DrainSeconds)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
