package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

var _ datasource.DataSource = (*replayBudgetDataSource)(nil)

func newReplayBudgetDataSource() datasource.DataSource { return &replayBudgetDataSource{} }

// replayBudgetDataSource says how fast a dead-letter queue may be redriven
// beside live work.
type replayBudgetDataSource struct{}

type replayBudgetModel struct {
	DownstreamLimit types.Number `tfsdk:"downstream_limit"`
	LiveUsage       types.Number `tfsdk:"live_usage"`
	RetryUsage      types.Number `tfsdk:"retry_usage"`
	CallsPerJob     types.Number `tfsdk:"calls_per_job"`
	SafetyMargin    types.Number `tfsdk:"safety_margin"`
	DLQDepth        types.Number `tfsdk:"dlq_depth"`

	ReplayCallsPerSecond types.Float64 `tfsdk:"replay_calls_per_second"`
	ReplayJobsPerSecond  types.Float64 `tfsdk:"replay_jobs_per_second"`
	ReplaySeconds        types.Float64 `tfsdk:"replay_seconds"`
}

func (d *replayBudgetDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_replay_budget"
}

func (d *replayBudgetDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "How fast a dead-letter queue may be replayed (redriven) without starving live work. " +
			"The replay shares a downstream limit with live traffic and its retries, so it gets only what they leave, minus a safety margin:\n\n" +
			"```\n" +
			"replay_calls_per_second = downstream_limit − live_usage − retry_usage − safety_margin × downstream_limit\n" +
			"replay_jobs_per_second  = replay_calls_per_second / calls_per_job\n" +
			"```\n\n" +
			"A replay must never assume the whole downstream limit. Example: a limit of 1,000 calls/s, 700 used by live work and 100 by retries, " +
			"jobs of 2 calls and no margin leave 200 calls/s, at most 100 jobs/s. When nothing is left the rates are 0 and the read " +
			"returns a warning naming the numbers: replaying now would take capacity from live work.",
		Attributes: map[string]schema.Attribute{
			"downstream_limit": requiredNumber(aboveZero, downstreamLimitDesc),
			"live_usage":       requiredNumber(atLeastZero, liveUsageDescription),
			"retry_usage":      requiredNumber(atLeastZero, retryUsageDescription),
			"calls_per_job":    defaultedNumber(aboveZero, callsPerJobDescription+" Default `1`."),
			"safety_margin":    defaultedNumber(fraction, safetyMarginDescription+" Default `0.1`."),
			"dlq_depth":        optionalNumber(atLeastZero, "Messages in the dead-letter queue to replay. At least 0. Enables `replay_seconds`."),

			"replay_calls_per_second": computedNumber("Downstream calls per second left for the replay, `downstream_limit × (1 − safety_margin) − live_usage − retry_usage`; `0` when there is no room."),
			"replay_jobs_per_second":  computedNumber("Jobs per second the replay may run, `replay_calls_per_second / calls_per_job`; `0` (with a warning) when there is no room."),
			"replay_seconds":          computedNumber("Time to replay `dlq_depth` messages at `replay_jobs_per_second`, in seconds. Null without `dlq_depth` or without room to replay."),
		},
	}
}

func (d *replayBudgetDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m replayBudgetModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	m.CallsPerJob = withDefault(m.CallsPerJob, capacity.DefaultCallsPerJob)
	m.SafetyMargin = withDefault(m.SafetyMargin, capacity.DefaultReplaySafetyMargin)
	in := capacity.ReplayInput{
		DownstreamLimit: float64Of(m.DownstreamLimit),
		LiveUsage:       float64Of(m.LiveUsage),
		RetryUsage:      float64Of(m.RetryUsage),
		CallsPerJob:     float64Of(m.CallsPerJob),
		SafetyMargin:    float64Of(m.SafetyMargin),
	}
	if !m.DLQDepth.IsNull() {
		depth := float64Of(m.DLQDepth)
		in.DLQDepth = &depth
	}
	out, err := capacity.ReplayBudget(in)
	if err != nil {
		addCapacityError(&resp.Diagnostics, err)
		return
	}
	if out.NoRoom {
		resp.Diagnostics.AddWarning("No room to replay the dead-letter queue", fmt.Sprintf(
			"live_usage (%g calls/s) plus retry_usage (%g calls/s) leave no room under downstream_limit (%g calls/s) "+
				"once safety_margin (%g of the limit) is kept free, so replay_jobs_per_second is 0: replaying now would take capacity from live work. "+
				"Replay once live or retry traffic falls, or raise the downstream limit.",
			in.LiveUsage, in.RetryUsage, in.DownstreamLimit, in.SafetyMargin))
	}
	m.ReplayCallsPerSecond = types.Float64Value(out.CallsPerSecond)
	m.ReplayJobsPerSecond = types.Float64Value(out.JobsPerSecond)
	m.ReplaySeconds = types.Float64PointerValue(out.ReplaySeconds)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
