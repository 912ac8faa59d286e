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

var _ datasource.DataSource = (*retryStormDataSource)(nil)

func newRetryStormDataSource() datasource.DataSource { return &retryStormDataSource{} }

// retryStormDataSource simulates a backlog under a retry storm and finds
// the smallest fleet that survives it.
type retryStormDataSource struct{}

type retryStormModel struct {
	ArrivalRate          types.Number `tfsdk:"arrival_rate"`
	PerConsumerRate      types.Number `tfsdk:"per_consumer_rate"`
	Consumers            types.Int64  `tfsdk:"consumers"`
	Backlog              types.Number `tfsdk:"backlog"`
	RetriesPerTimeout    types.Number `tfsdk:"retries_per_timeout"`
	TimeoutWindowSeconds types.Number `tfsdk:"timeout_window_seconds"`
	MaxSeconds           types.Int64  `tfsdk:"max_seconds"`
	RTOSeconds           types.Int64  `tfsdk:"rto_seconds"`

	Drains                       types.Bool    `tfsdk:"drains"`
	DrainSeconds                 types.Float64 `tfsdk:"drain_seconds"`
	Steps                        types.Int64   `tfsdk:"steps"`
	PeakDepth                    types.Float64 `tfsdk:"peak_depth"`
	FinalDepth                   types.Float64 `tfsdk:"final_depth"`
	PeakEffectiveArrivalRate     types.Float64 `tfsdk:"peak_effective_arrival_rate"`
	MinConsumersToDrain          types.Int64   `tfsdk:"min_consumers_to_drain"`
	MinConsumersToDrainWithinRTO types.Int64   `tfsdk:"min_consumers_to_drain_within_rto"`
}

func (d *retryStormDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_retry_storm"
}

func (d *retryStormDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	count := func(description string) schema.Int64Attribute {
		return schema.Int64Attribute{Computed: true, MarkdownDescription: description}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Whether a fleet drains a backlog through a retry storm, the metastable failure the fluid model of `queuecap_drain` cannot see. " +
			"Producers retry messages that wait longer than their timeout, so the deeper the queue, the more arrives. " +
			"The simulation steps one second at a time:\n\n" +
			"```\n" +
			"timeout_prob = min(1, depth / (arrival_rate × timeout_window_seconds))\n" +
			"arrivals     = arrival_rate × (1 + retries_per_timeout × timeout_prob)\n" +
			"depth        = max(0, depth + arrivals − consumers × per_consumer_rate)\n" +
			"```\n\n" +
			"starting from `backlog` at t = 0, recording the depth at t = 0, 1, …, `max_seconds − 1` and stopping at the first depth of 0. " +
			"For example, 10,000 msg/s arrive, a consumer completes 400 msg/s and 3.6 M messages wait. " +
			"25 consumers (the steady state) never drain; 32 drain in 1,287 steps (depth 0 at t = 1,286 s, about 21 minutes) without retries, " +
			"but never with 1.5 retries per timeout: past a depth of 300,000 every message times out, arrivals reach 25,000 msg/s against a capacity of 12,800, " +
			"and the depth climbs to about 4.4 × 10^8 in ten hours. Under that storm the fleet needs `min_consumers_to_drain` = 63 consumers, not 26.",
		Attributes: map[string]schema.Attribute{
			"arrival_rate":      arrivalRateAttribute(),
			"per_consumer_rate": requiredNumber(aboveZero, perConsumerRateDescription),
			"consumers": schema.Int64Attribute{
				Required:            true,
				MarkdownDescription: "Consumers in the fleet, a whole number of at least 0.",
				Validators:          []validator.Int64{int64validator.AtLeast(0)},
			},
			"backlog":             requiredNumber(atLeastZero, stormBacklogDescription),
			"retries_per_timeout": requiredNumber(atLeastZero, retriesPerTimeoutDescription),
			"timeout_window_seconds": defaultedNumber(aboveZero,
				timeoutWindowDescription+" Default `30`."),
			"max_seconds": schema.Int64Attribute{
				Optional:            true,
				Computed:            true,
				MarkdownDescription: maxSecondsDescription + " Default `36000` (ten hours).",
				Validators:          []validator.Int64{int64validator.Between(1, capacity.MaxStormSeconds)},
			},
			"rto_seconds": schema.Int64Attribute{
				Optional: true,
				MarkdownDescription: "Time allowed to clear the backlog, a whole number of seconds from 1 to 864000. " +
					"The depth must reach 0 by t = `rto_seconds`, as the headroom formula counts it. Enables `min_consumers_to_drain_within_rto`.",
				Validators: []validator.Int64{int64validator.Between(1, capacity.MaxStormSeconds)},
			},

			"drains": schema.BoolAttribute{
				Computed:            true,
				MarkdownDescription: "Whether the depth reaches 0 within `max_seconds`.",
			},
			"drain_seconds": computedNumber("First second t at which the depth is 0, a whole number of seconds (`0` without a backlog). Null when the backlog does not drain within `max_seconds`."),
			"steps": count("Seconds recorded, t = 0 included: `drain_seconds + 1` when the backlog drains, else `max_seconds`. " +
				"A backlog whose depth reaches 0 at t = 1,286 s took 1,287 steps."),
			"peak_depth":  computedNumber("Deepest the queue gets over the recorded seconds, in messages."),
			"final_depth": computedNumber("Depth at the last recorded second, in messages: 0 when the backlog drains."),
			"peak_effective_arrival_rate": computedNumber("Highest arrival rate the retries drive, `arrival_rate × (1 + retries_per_timeout × timeout_prob)`, in messages per second. " +
				"`arrival_rate × (1 + retries_per_timeout)` once every message times out."),
			"min_consumers_to_drain": count("Smallest fleet that drains the backlog within `max_seconds` under the same storm, a whole number. " +
				"Found by binary search (draining is monotone in the fleet size) up to a fleet that provably drains, `(arrival_rate × (1 + retries_per_timeout) + backlog / (max_seconds − 1)) / per_consumer_rate`."),
			"min_consumers_to_drain_within_rto": count("Smallest fleet that drains the backlog within `rto_seconds` under the same storm, a whole number. Null without `rto_seconds`."),
		},
	}
}

func (d *retryStormDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m retryStormModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	m.TimeoutWindowSeconds = withDefault(m.TimeoutWindowSeconds, capacity.DefaultTimeoutWindowSeconds)
	if m.MaxSeconds.IsNull() {
		m.MaxSeconds = types.Int64Value(capacity.DefaultStormMaxSeconds)
	}
	in := capacity.StormInput{
		ArrivalRate:          float64Of(m.ArrivalRate),
		PerConsumerRate:      float64Of(m.PerConsumerRate),
		Consumers:            m.Consumers.ValueInt64(),
		Backlog:              float64Of(m.Backlog),
		RetriesPerTimeout:    float64Of(m.RetriesPerTimeout),
		TimeoutWindowSeconds: float64Of(m.TimeoutWindowSeconds),
		MaxSeconds:           m.MaxSeconds.ValueInt64(),
	}
	out, err := capacity.SimulateStorm(in, nil)
	if err != nil {
		addCapacityError(&resp.Diagnostics, err)
		return
	}
	minConsumers, err := capacity.MinConsumersToDrain(in, 0)
	if err != nil {
		addCapacityError(&resp.Diagnostics, err)
		return
	}
	m.MinConsumersToDrainWithinRTO = types.Int64Null()
	if !m.RTOSeconds.IsNull() {
		withinRTO, err := capacity.MinConsumersToDrain(in, m.RTOSeconds.ValueInt64())
		if err != nil {
			addCapacityError(&resp.Diagnostics, err)
			return
		}
		m.MinConsumersToDrainWithinRTO = types.Int64Value(withinRTO)
	}
	m.Drains = types.BoolValue(out.Drains)
	m.DrainSeconds = types.Float64PointerValue(out.DrainSeconds)
	m.Steps = types.Int64Value(out.Steps)
	m.PeakDepth = types.Float64Value(out.PeakDepth)
	m.FinalDepth = types.Float64Value(out.FinalDepth)
	m.PeakEffectiveArrivalRate = types.Float64Value(out.PeakEffectiveArrivalRate)
	m.MinConsumersToDrain = types.Int64Value(minConsumers)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
