package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/numbervalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

var (
	_ datasource.DataSource                     = (*drainDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*drainDataSource)(nil)
)

func newDrainDataSource() datasource.DataSource { return &drainDataSource{} }

// drainDataSource says where a backlog stands and when it clears.
type drainDataSource struct{}

type drainModel struct {
	Backlog             types.Number `tfsdk:"backlog"`
	ArrivalRate         types.Number `tfsdk:"arrival_rate"`
	CompletionRate      types.Number `tfsdk:"completion_rate"`
	Consumers           types.Int64  `tfsdk:"consumers"`
	PerConsumerRate     types.Number `tfsdk:"per_consumer_rate"`
	RetryRate           types.Number `tfsdk:"retry_rate"`
	AvgRetries          types.Number `tfsdk:"avg_retries"`
	TTLSeconds          types.Number `tfsdk:"ttl_seconds"`
	ArrivalForecast     types.List   `tfsdk:"arrival_forecast"`
	ForecastStepSeconds types.Number `tfsdk:"forecast_step_seconds"`

	EffectiveArrivalRate types.Float64 `tfsdk:"effective_arrival_rate"`
	NetRate              types.Float64 `tfsdk:"net_rate"`
	Drains               types.Bool    `tfsdk:"drains"`
	DrainSeconds         types.Float64 `tfsdk:"drain_seconds"`
	WaitSeconds          types.Float64 `tfsdk:"wait_seconds"`
	ShouldShed           types.Bool    `tfsdk:"should_shed"`
	ForecastDrains       types.Bool    `tfsdk:"forecast_drains"`
	ForecastDrainSeconds types.Float64 `tfsdk:"forecast_drain_seconds"`
}

func (d *drainDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_drain"
}

func (d *drainDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Where a backlog stands and when it clears. The drain time is `backlog / (completion_rate − effective_arrival_rate)`: " +
			"dividing by the completion rate alone is the common mistake. When completions do not exceed arrivals the backlog never drains, " +
			"reported as `drains = false` with `drain_seconds = null`. " +
			"Give the fleet's completion rate either as `completion_rate` or as `consumers` × `per_consumer_rate`, not both. " +
			"With `arrival_forecast` the drain is also stepped through expected arrival rates, for an ETA that follows the daily curve.",
		Attributes: map[string]schema.Attribute{
			"backlog":      requiredNumber(atLeastZero, backlogDescription),
			"arrival_rate": arrivalRateAttribute(),
			"completion_rate": defaultedNumber(aboveZero,
				"Messages the fleet completes per second. Greater than 0. Give either this or `consumers` with `per_consumer_rate`; "+
					"when those are given instead it is computed as `consumers × per_consumer_rate` (0 when `consumers` is 0)."),
			"consumers": schema.Int64Attribute{
				Optional:            true,
				MarkdownDescription: "Consumers in the fleet, a whole number of at least 0. Requires `per_consumer_rate`; conflicts with `completion_rate`.",
				Validators:          []validator.Int64{int64validator.AtLeast(0)},
			},
			"per_consumer_rate": optionalNumber(aboveZero, perConsumerRateDescription+" Requires `consumers`; conflicts with `completion_rate`."),
			"retry_rate":        retryRateAttribute(),
			"avg_retries":       avgRetriesAttribute(),
			"ttl_seconds": optionalNumber(aboveZero,
				"Age in seconds after which a message is worthless or expires. Greater than 0. Enables `should_shed`."),
			"arrival_forecast": schema.ListAttribute{
				ElementType: types.NumberType,
				Optional:    true,
				MarkdownDescription: "Expected base arrival rates in messages per second, one per `forecast_step_seconds` starting now " +
					"(for example last week's rates at the same hours). At least one entry; every entry at least 0. Retries amplify each entry like `arrival_rate`.",
				Validators: []validator.List{
					listvalidator.SizeAtLeast(1),
					listvalidator.NoNullValues(),
					listvalidator.ValueNumbersAre(atLeastZero),
				},
			},
			"forecast_step_seconds": schema.NumberAttribute{
				Optional:            true,
				Computed:            true,
				MarkdownDescription: "Length of one `arrival_forecast` step, in seconds. Greater than 0; default `300`. Requires `arrival_forecast`.",
				Validators: []validator.Number{
					aboveZero,
					numbervalidator.AlsoRequires(path.MatchRoot("arrival_forecast")),
				},
			},

			"effective_arrival_rate": effectiveArrivalRateAttribute(),
			"net_rate":               computedNumber("`completion_rate − effective_arrival_rate`, in messages per second. The backlog shrinks only when this is positive."),
			"drains": schema.BoolAttribute{
				Computed:            true,
				MarkdownDescription: "Whether the backlog ever drains at constant rates: `true` when it is empty or `net_rate` is positive.",
			},
			"drain_seconds": computedNumber("Time to clear the backlog at constant rates, `backlog / net_rate`, in seconds. Null when it never drains."),
			"wait_seconds":  computedNumber("Wait of a message arriving now behind the backlog (FIFO), `backlog / completion_rate`, in seconds. Null when nothing completes."),
			"should_shed": schema.BoolAttribute{
				Computed:            true,
				MarkdownDescription: "Whether to shed rather than drain: the backlog never drains or takes longer than `ttl_seconds`, so most of it is worthless by the time it is processed. Null without `ttl_seconds`.",
			},
			"forecast_drains": schema.BoolAttribute{
				Computed:            true,
				MarkdownDescription: "Whether the backlog clears within the forecast's horizon (`length(arrival_forecast) × forecast_step_seconds`). Null without a forecast.",
			},
			"forecast_drain_seconds": computedNumber("Time to clear the backlog when arrivals follow `arrival_forecast`, interpolated within the step where it empties, in seconds. Null without a forecast or when it does not clear within the horizon."),
		},
	}
}

func (d *drainDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{completionForm{}}
}

func (d *drainDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m drainModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if m.CompletionRate.IsNull() {
		c, err := capacity.FleetCapacity(m.Consumers.ValueInt64(), float64Of(m.PerConsumerRate))
		if err != nil {
			addCapacityError(&resp.Diagnostics, err)
			return
		}
		m.CompletionRate = numberValue(c)
	}
	in := capacity.DrainInput{
		Backlog:        float64Of(m.Backlog),
		ArrivalRate:    float64Of(m.ArrivalRate),
		CompletionRate: float64Of(m.CompletionRate),
		Retries:        retries(&m.RetryRate, &m.AvgRetries),
		TTLSeconds:     float64Of(m.TTLSeconds),
	}
	if !m.ArrivalForecast.IsNull() {
		m.ForecastStepSeconds = withDefault(m.ForecastStepSeconds, capacity.DefaultForecastStepSeconds)
		in.ForecastStepSeconds = float64Of(m.ForecastStepSeconds)
		var forecast []types.Number
		resp.Diagnostics.Append(m.ArrivalForecast.ElementsAs(ctx, &forecast, false)...)
		if resp.Diagnostics.HasError() {
			return
		}
		for _, rate := range forecast {
			in.Forecast = append(in.Forecast, float64Of(rate))
		}
	}
	out, err := capacity.DrainBacklog(in)
	if err != nil {
		addCapacityError(&resp.Diagnostics, err)
		return
	}
	m.EffectiveArrivalRate = types.Float64Value(out.EffectiveArrivalRate)
	m.NetRate = types.Float64Value(out.NetRate)
	m.Drains = types.BoolValue(out.Drains)
	m.DrainSeconds = types.Float64PointerValue(out.DrainSeconds)
	m.WaitSeconds = types.Float64PointerValue(out.WaitSeconds)
	m.ShouldShed = types.BoolPointerValue(out.ShouldShed)
	m.ForecastDrains = types.BoolPointerValue(out.ForecastDrains)
	m.ForecastDrainSeconds = types.Float64PointerValue(out.ForecastDrainSeconds)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
