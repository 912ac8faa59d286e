package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

var _ datasource.DataSource = (*waitTimeDataSource)(nil)

func newWaitTimeDataSource() datasource.DataSource { return &waitTimeDataSource{} }

// waitTimeDataSource reports the steady-state wait of an M/M/c queue.
type waitTimeDataSource struct{}

type waitTimeModel struct {
	ArrivalRate       types.Number `tfsdk:"arrival_rate"`
	PerConsumerRate   types.Number `tfsdk:"per_consumer_rate"`
	Consumers         types.Int64  `tfsdk:"consumers"`
	Percentile        types.Number `tfsdk:"percentile"`
	TargetWaitSeconds types.Number `tfsdk:"target_wait_seconds"`

	Utilization           types.Float64 `tfsdk:"utilization"`
	Stable                types.Bool    `tfsdk:"stable"`
	ProbabilityOfWait     types.Float64 `tfsdk:"probability_of_wait"`
	MeanWaitSeconds       types.Float64 `tfsdk:"mean_wait_seconds"`
	PercentileWaitSeconds types.Float64 `tfsdk:"percentile_wait_seconds"`
	MinConsumersForTarget types.Int64   `tfsdk:"min_consumers_for_target"`
}

func (d *waitTimeDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_wait_time"
}

func (d *waitTimeDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "How long messages wait at steady state, beyond the fluid model: the M/M/c queue (Poisson arrivals, exponential service, " +
			"`consumers` servers) and its Erlang C formula. A fleet with a surplus still queues messages by chance, and the wait rises steeply as utilization nears 1: the utilization cliff.\n\n" +
			"With the offered load `a = arrival_rate / per_consumer_rate` and `ρ = a / consumers`, the probability of waiting comes from the Erlang B recursion " +
			"`B(0) = 1, B(n) = a·B(n−1) / (n + a·B(n−1))` as `C = B(c) / (1 − ρ(1 − B(c)))`; it forms no factorial or power, so it stays accurate for fleets of " +
			"hundreds of thousands of consumers. The mean wait is `C / (consumers × per_consumer_rate − arrival_rate)`, " +
			"and since `P(wait > t) = C × e^(−(cμ − λ)t)`, the `percentile` wait is `max(0, ln(C / (1 − percentile)) / (cμ − λ))`.\n\n" +
			"When `ρ ≥ 1` the queue has no steady state (it grows without bound): `stable = false` and the wait figures are null.",
		Attributes: map[string]schema.Attribute{
			"arrival_rate":      arrivalRateAttribute(),
			"per_consumer_rate": requiredNumber(aboveZero, perConsumerRateDescription),
			"consumers": schema.Int64Attribute{
				Required:            true,
				MarkdownDescription: waitConsumersDescription,
				Validators:          []validator.Int64{int64validator.AtLeast(1)},
			},
			"percentile": defaultedNumber(openFraction, percentileDescription+" Default `0.99`."),
			"target_wait_seconds": optionalNumber(aboveZero,
				"Longest acceptable `percentile` wait, in seconds. Greater than 0. Enables `min_consumers_for_target`."),

			"utilization": computedNumber("Share of the fleet's capacity used, `ρ = arrival_rate / (consumers × per_consumer_rate)`, a fraction."),
			"stable": schema.BoolAttribute{
				Computed:            true,
				MarkdownDescription: "Whether the queue has a steady state, `utilization < 1`.",
			},
			"probability_of_wait":     computedNumber("Probability that a message waits at all, Erlang C `C(consumers, a)`, a fraction. Null when not `stable`."),
			"mean_wait_seconds":       computedNumber("Mean time a message waits before a consumer takes it, in seconds. Null when not `stable`."),
			"percentile_wait_seconds": computedNumber("Wait that `percentile` of messages do not exceed, in seconds: `0` when at least that share never waits. Null when not `stable`."),
			"min_consumers_for_target": schema.Int64Attribute{
				Computed:            true,
				MarkdownDescription: "Smallest fleet whose `percentile` wait is at most `target_wait_seconds`, a whole number. Null without `target_wait_seconds`.",
			},
		},
	}
}

func (d *waitTimeDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m waitTimeModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	m.Percentile = withDefault(m.Percentile, capacity.DefaultWaitPercentile)
	out, err := capacity.WaitTime(capacity.WaitInput{
		ArrivalRate:       float64Of(m.ArrivalRate),
		PerConsumerRate:   float64Of(m.PerConsumerRate),
		Consumers:         m.Consumers.ValueInt64(),
		Percentile:        float64Of(m.Percentile),
		TargetWaitSeconds: float64Of(m.TargetWaitSeconds),
	})
	if err != nil {
		addCapacityError(&resp.Diagnostics, err)
		return
	}
	m.Utilization = types.Float64Value(out.Utilization)
	m.Stable = types.BoolValue(out.Stable)
	m.ProbabilityOfWait = types.Float64PointerValue(out.ProbabilityOfWait)
	m.MeanWaitSeconds = types.Float64PointerValue(out.MeanWaitSeconds)
	m.PercentileWaitSeconds = types.Float64PointerValue(out.PercentileWaitSeconds)
	m.MinConsumersForTarget = types.Int64PointerValue(out.MinConsumersForTarget)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
