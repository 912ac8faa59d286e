package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

var _ datasource.DataSource = (*ttlBacklogDataSource)(nil)

func newTTLBacklogDataSource() datasource.DataSource { return &ttlBacklogDataSource{} }

// ttlBacklogDataSource bounds an incident's backlog by the message TTL.
type ttlBacklogDataSource struct{}

type ttlBacklogModel struct {
	ArrivalRate            types.Number `tfsdk:"arrival_rate"`
	IncidentSeconds        types.Number `tfsdk:"incident_seconds"`
	TTLSeconds             types.Number `tfsdk:"ttl_seconds"`
	DegradedCompletionRate types.Number `tfsdk:"degraded_completion_rate"`
	RetryRate              types.Number `tfsdk:"retry_rate"`
	AvgRetries             types.Number `tfsdk:"avg_retries"`

	EffectiveArrivalRate types.Float64 `tfsdk:"effective_arrival_rate"`
	UnboundedBacklog     types.Float64 `tfsdk:"unbounded_backlog"`
	TTLBoundedBacklog    types.Float64 `tfsdk:"ttl_bounded_backlog"`
	TTLBoundApplies      types.Bool    `tfsdk:"ttl_bound_applies"`
}

func (d *ttlBacklogDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_ttl_backlog"
}

func (d *ttlBacklogDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Worst-case backlog of an incident, with and without a TTL bound. " +
			"While the fleet completes only `degraded_completion_rate`, the backlog grows to `max(0, λ_eff − degraded) × incident_seconds`. " +
			"If messages older than `ttl_seconds` are dropped (shed or expired), the backlog stops growing at `λ_eff × ttl_seconds`: " +
			"shedding bounds the backlog by the TTL window instead of the incident's length, which shrinks the headroom to buy. " +
			"Feed `ttl_bounded_backlog` into `queuecap_consumers.max_backlog`.",
		Attributes: map[string]schema.Attribute{
			"arrival_rate":             arrivalRateAttribute(),
			"incident_seconds":         requiredNumber(atLeastZero, incidentSecondsDesc),
			"ttl_seconds":              requiredNumber(aboveZero, ttlDroppedDescription),
			"degraded_completion_rate": defaultedNumber(atLeastZero, degradedRateDescription),
			"retry_rate":               retryRateAttribute(),
			"avg_retries":              avgRetriesAttribute(),

			"effective_arrival_rate": effectiveArrivalRateAttribute(),
			"unbounded_backlog":      computedNumber("Backlog at the end of the incident with nothing dropped, `max(0, λ_eff − degraded_completion_rate) × incident_seconds`, in messages."),
			"ttl_bounded_backlog":    computedNumber("Worst backlog when messages older than the TTL are dropped, `min(unbounded_backlog, λ_eff × ttl_seconds)`, in messages."),
			"ttl_bound_applies": schema.BoolAttribute{
				Computed:            true,
				MarkdownDescription: "Whether the TTL bound is the smaller one, so dropping stale messages caps the backlog below the unbounded figure.",
			},
		},
	}
}

func (d *ttlBacklogDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m ttlBacklogModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	m.DegradedCompletionRate = withDefault(m.DegradedCompletionRate, 0)
	out, err := capacity.BacklogWithTTL(capacity.TTLInput{
		ArrivalRate:            float64Of(m.ArrivalRate),
		IncidentSeconds:        float64Of(m.IncidentSeconds),
		TTLSeconds:             float64Of(m.TTLSeconds),
		DegradedCompletionRate: float64Of(m.DegradedCompletionRate),
		Retries:                retries(&m.RetryRate, &m.AvgRetries),
	})
	if err != nil {
		addCapacityError(&resp.Diagnostics, err)
		return
	}
	m.EffectiveArrivalRate = types.Float64Value(out.EffectiveArrivalRate)
	m.UnboundedBacklog = types.Float64Value(out.UnboundedBacklog)
	m.TTLBoundedBacklog = types.Float64Value(out.TTLBoundedBacklog)
	m.TTLBoundApplies = types.BoolValue(out.TTLBoundApplies)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
