package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

var _ datasource.DataSource = (*slaDepthDataSource)(nil)

func newSLADepthDataSource() datasource.DataSource { return &slaDepthDataSource{} }

// slaDepthDataSource applies Little's law to an SLA.
type slaDepthDataSource struct{}

type slaDepthModel struct {
	ArrivalRate types.Number  `tfsdk:"arrival_rate"`
	SLASeconds  types.Number  `tfsdk:"sla_seconds"`
	MaxDepth    types.Float64 `tfsdk:"max_depth"`
}

func (d *slaDepthDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_sla_depth"
}

func (d *slaDepthDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Little's law applied to an SLA: a message arriving behind `D` messages waits `D / λ`, " +
			"so a queue deeper than `max_depth = arrival_rate × sla_seconds` has already breached the SLA. " +
			"Use it as the depth alarm threshold; an alarm set higher fires only after the breach.",
		Attributes: map[string]schema.Attribute{
			"arrival_rate": arrivalRateAttribute(),
			"sla_seconds":  requiredNumber(aboveZero, slaSecondsDescription),
			"max_depth":    computedNumber("Deepest the queue may be without breaching the SLA, `arrival_rate × sla_seconds`, in messages."),
		},
	}
}

func (d *slaDepthDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m slaDepthModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	depth, err := capacity.SLAMaxDepth(float64Of(m.ArrivalRate), float64Of(m.SLASeconds))
	if err != nil {
		addCapacityError(&resp.Diagnostics, err)
		return
	}
	m.MaxDepth = types.Float64Value(depth)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
