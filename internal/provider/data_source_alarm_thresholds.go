package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

var _ datasource.DataSource = (*alarmThresholdsDataSource)(nil)

func newAlarmThresholdsDataSource() datasource.DataSource { return &alarmThresholdsDataSource{} }

// alarmThresholdsDataSource generates CloudWatch alarm thresholds and
// metric math from declared rates.
type alarmThresholdsDataSource struct{}

type alarmThresholdsModel struct {
	ArrivalRate            types.Number `tfsdk:"arrival_rate"`
	SLASeconds             types.Number `tfsdk:"sla_seconds"`
	PerConsumerRate        types.Number `tfsdk:"per_consumer_rate"`
	RTOSeconds             types.Number `tfsdk:"rto_seconds"`
	TTLSeconds             types.Number `tfsdk:"ttl_seconds"`
	ProvisioningLagSeconds types.Number `tfsdk:"provisioning_lag_seconds"`
	QueueName              types.String `tfsdk:"queue_name"`
	DeadLetterQueueName    types.String `tfsdk:"dead_letter_queue_name"`
	Fleet                  types.String `tfsdk:"fleet"`
	PeriodSeconds          types.Number `tfsdk:"period_seconds"`

	MaxDepth                 types.Float64 `tfsdk:"max_depth"`
	OldestMessageAgeSeconds  types.Float64 `tfsdk:"oldest_message_age_seconds"`
	SLAExceedsTTL            types.Bool    `tfsdk:"sla_exceeds_ttl"`
	BacklogPerConsumerTarget types.Float64 `tfsdk:"backlog_per_consumer_target"`
	BacklogPerConsumerMetric types.String  `tfsdk:"backlog_per_consumer_metric"`
	ProjectedDepthExpression types.String  `tfsdk:"projected_depth_expression"`
	ProjectedDepthThreshold  types.Float64 `tfsdk:"projected_depth_threshold"`
	DrainSecondsExpression   types.String  `tfsdk:"drain_seconds_expression"`
	DrainSecondsThreshold    types.Float64 `tfsdk:"drain_seconds_threshold"`
	NotDrainingExpression    types.String  `tfsdk:"not_draining_expression"`
	NotDrainingDepthFloor    types.Float64 `tfsdk:"not_draining_depth_floor"`
	Alarms                   types.List    `tfsdk:"alarms"`
}

// The object types of `alarms`, declared once for the schema and the values.
var (
	metricAttrTypes = map[string]attr.Type{
		"metric_name": types.StringType,
		"namespace":   types.StringType,
		"stat":        types.StringType,
		"period":      types.Int64Type,
		"dimensions":  types.MapType{ElemType: types.StringType},
	}
	metricQueryAttrTypes = map[string]attr.Type{
		"id":          types.StringType,
		"expression":  types.StringType,
		"label":       types.StringType,
		"return_data": types.BoolType,
		"metric":      types.ObjectType{AttrTypes: metricAttrTypes},
	}
	alarmAttrTypes = map[string]attr.Type{
		"name":                types.StringType,
		"description":         types.StringType,
		"comparison_operator": types.StringType,
		"threshold":           types.Float64Type,
		"evaluation_periods":  types.Int64Type,
		"datapoints_to_alarm": types.Int64Type,
		"metric_name":         types.StringType,
		"namespace":           types.StringType,
		"statistic":           types.StringType,
		"period":              types.Int64Type,
		"dimensions":          types.MapType{ElemType: types.StringType},
		"metric_queries":      types.ListType{ElemType: types.ObjectType{AttrTypes: metricQueryAttrTypes}},
	}
)

func (d *alarmThresholdsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_alarm_thresholds"
}

func (d *alarmThresholdsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	str := func(description string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: description}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "CloudWatch alarm thresholds and metric math for an SQS queue, derived from declared rates instead of hand-picked constants. " +
			"`alarms` lists one object per recommended `aws_cloudwatch_metric_alarm`, shaped so that `for_each` over it with a `dynamic \"metric_query\"` block builds the alarms without glue code.\n\n" +
			"The alarms and why each exists:\n\n" +
			"* `depth_above_sla`: `ApproximateNumberOfMessagesVisible` above `arrival_rate × sla_seconds`. By Little's law a message arriving behind that many messages waits longer than the SLA.\n" +
			"* `oldest_message_above_sla`: `ApproximateAgeOfOldestMessage` above `sla_seconds`: the SLA is breached for at least one message.\n" +
			"* `projected_depth_above_sla`: depth projected by the provisioning lag, `depth + RATE(depth) × provisioning_lag_seconds`, above the SLA depth. Depth alone is too late by construction: consumers started when it crosses the threshold arrive `provisioning_lag_seconds` later.\n" +
			"* `drain_slower_than_rto`: the backlog over the net drain rate, `depth × PERIOD(deleted) / (deleted − sent)`, above `rto_seconds` for three periods. The expression is 0 while completions do not beat arrivals; `not_draining` covers that case.\n" +
			"* `not_draining`: completions (`NumberOfMessagesDeleted`) not above arrivals (`NumberOfMessagesSent`) for 15 minutes while more than `not_draining_depth_floor` messages wait.\n" +
			"* `dead_letter_queue_not_empty` (with `dead_letter_queue_name`): any visible message in the dead-letter queue; `NumberOfMessagesSent` does not count redrives.\n\n" +
			"The metric math uses only documented CloudWatch metric math: arithmetic, comparison and logical operators (`<=`, `>`, `AND`), `IF`, `RATE` (per-second rate of change) and `PERIOD` (a metric's period in seconds).",
		Attributes: map[string]schema.Attribute{
			"arrival_rate":      arrivalRateAttribute(),
			"sla_seconds":       requiredNumber(aboveZero, slaSecondsDescription),
			"per_consumer_rate": requiredNumber(aboveZero, perConsumerRateDescription),
			"rto_seconds":       requiredNumber(aboveZero, "Time allowed to clear a backlog, in seconds. Greater than 0. The threshold of `drain_slower_than_rto`."),
			"ttl_seconds":       optionalNumber(aboveZero, "Age in seconds after which a message is worthless or expires. Greater than 0. Enables `sla_exceeds_ttl`."),
			"provisioning_lag_seconds": defaultedNumber(atLeastZero,
				"Time for a new consumer to start taking work, in seconds. At least 0; default `180`. How far ahead `projected_depth_expression` projects."),
			"queue_name": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Name of the SQS queue, the `QueueName` dimension of every metric. Without it the metrics carry no dimensions.",
			},
			"dead_letter_queue_name": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Name of the queue's dead-letter queue. Adds the `dead_letter_queue_not_empty` alarm.",
			},
			"fleet": schema.StringAttribute{
				Optional:            true,
				Computed:            true,
				MarkdownDescription: "The consumer fleet's kind, `\"ec2\"` (an auto scaling group) or `\"ecs\"` (a service); default `\"ec2\"`. Picks the consumer count metric of `backlog_per_consumer_metric`: `GroupInServiceInstances` or `RunningTaskCount`.",
				Validators:          []validator.String{stringvalidator.OneOf(capacity.FleetEC2, capacity.FleetECS)},
			},
			"period_seconds": defaultedNumber(aboveZero,
				"Period of every metric, in seconds: 10, 20, 30 or a multiple of 60 up to 86400. Default `60`."),

			"max_depth":                  computedNumber("Deepest the queue may be under the SLA, `arrival_rate × sla_seconds`, in messages: the depth alarm's threshold."),
			"oldest_message_age_seconds": computedNumber("Threshold of the age alarm on `ApproximateAgeOfOldestMessage`: `sla_seconds`."),
			"sla_exceeds_ttl": schema.BoolAttribute{
				Computed:            true,
				MarkdownDescription: "Whether `sla_seconds` is at or beyond `ttl_seconds`: messages then expire before the age alarm fires. Null without `ttl_seconds`.",
			},
			"backlog_per_consumer_target": computedNumber("Target value for target tracking on backlog per consumer, `sla_seconds × per_consumer_rate` messages per consumer (AWS's acceptable latency over processing time per message)."),
			"backlog_per_consumer_metric": str("Consumer count metric to divide `ApproximateNumberOfMessagesVisible` by for backlog per consumer: `GroupInServiceInstances` (namespace `AWS/AutoScaling`) or `RunningTaskCount` (namespace `ECS/ContainerInsights`)."),
			"projected_depth_expression":  str("Metric math projecting depth by the provisioning lag, over the query ID `depth`: `depth + RATE(depth) * provisioning_lag_seconds`."),
			"projected_depth_threshold":   computedNumber("Threshold of `projected_depth_expression`: `max_depth`."),
			"drain_seconds_expression":    str("Metric math for the seconds to drain the backlog at the current net rate, over the query IDs `depth`, `sent` and `deleted`; 0 while the queue is not draining."),
			"drain_seconds_threshold":     computedNumber("Threshold of `drain_seconds_expression`: `rto_seconds`."),
			"not_draining_expression":     str("Metric math that is 1 while completions do not exceed arrivals and more than `not_draining_depth_floor` messages wait, else 0."),
			"not_draining_depth_floor":    computedNumber("Depth below which not draining is noise: what one consumer clears in one period, `per_consumer_rate × period_seconds`."),
			"alarms": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The recommended alarms, one object each. Single-metric alarms set `metric_name`, `namespace`, `statistic`, `period` and `dimensions`, and have no `metric_queries`; metric math alarms leave those null and list `metric_queries`.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name":                str("Short name of the alarm, unique within the list: use it in `alarm_name`."),
					"description":         str("Why the alarm exists, with its numbers: use it as `alarm_description`."),
					"comparison_operator": str("`comparison_operator` of the alarm."),
					"threshold":           computedNumber("`threshold` of the alarm."),
					"evaluation_periods":  schema.Int64Attribute{Computed: true, MarkdownDescription: "`evaluation_periods` of the alarm."},
					"datapoints_to_alarm": schema.Int64Attribute{Computed: true, MarkdownDescription: "`datapoints_to_alarm` of the alarm."},
					"metric_name":         str("`metric_name` of a single-metric alarm; null for metric math."),
					"namespace":           str("`namespace` of a single-metric alarm; null for metric math."),
					"statistic":           str("`statistic` of a single-metric alarm; null for metric math."),
					"period":              schema.Int64Attribute{Computed: true, MarkdownDescription: "`period` in seconds of a single-metric alarm; null for metric math."},
					"dimensions":          schema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "`dimensions` of a single-metric alarm; null for metric math."},
					"metric_queries": schema.ListNestedAttribute{
						Computed:            true,
						MarkdownDescription: "The `metric_query` blocks of a metric math alarm; empty for a single-metric alarm.",
						NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
							"id":          str("`id` of the query."),
							"expression":  str("`expression` of an expression query; null for a metric."),
							"label":       str("`label` of the query."),
							"return_data": schema.BoolAttribute{Computed: true, MarkdownDescription: "`return_data`: true for the query the alarm compares."},
							"metric": schema.SingleNestedAttribute{
								Computed:            true,
								MarkdownDescription: "The `metric` block of a metric query; null for an expression.",
								Attributes: map[string]schema.Attribute{
									"metric_name": str("`metric_name`."),
									"namespace":   str("`namespace`."),
									"stat":        str("`stat`."),
									"period":      schema.Int64Attribute{Computed: true, MarkdownDescription: "`period` in seconds."},
									"dimensions":  schema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "`dimensions`."},
								},
							},
						}},
					},
				}},
			},
		},
	}
}

func (d *alarmThresholdsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m alarmThresholdsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	m.ProvisioningLagSeconds = withDefault(m.ProvisioningLagSeconds, capacity.DefaultProvisioningLagSeconds)
	m.PeriodSeconds = withDefault(m.PeriodSeconds, capacity.DefaultPeriodSeconds)
	if m.Fleet.IsNull() {
		m.Fleet = types.StringValue(capacity.FleetEC2)
	}
	plan, err := capacity.AlarmThresholds(capacity.AlarmInput{
		ArrivalRate:            float64Of(m.ArrivalRate),
		SLASeconds:             float64Of(m.SLASeconds),
		PerConsumerRate:        float64Of(m.PerConsumerRate),
		RTOSeconds:             float64Of(m.RTOSeconds),
		TTLSeconds:             float64Of(m.TTLSeconds),
		ProvisioningLagSeconds: float64Of(m.ProvisioningLagSeconds),
		PeriodSeconds:          float64Of(m.PeriodSeconds),
		QueueName:              m.QueueName.ValueString(),
		DeadLetterQueueName:    m.DeadLetterQueueName.ValueString(),
		Fleet:                  m.Fleet.ValueString(),
	})
	if err != nil {
		addCapacityError(&resp.Diagnostics, err)
		return
	}
	m.MaxDepth = types.Float64Value(plan.MaxDepth)
	m.OldestMessageAgeSeconds = types.Float64Value(plan.OldestMessageAgeSeconds)
	m.SLAExceedsTTL = types.BoolPointerValue(plan.SLAExceedsTTL)
	m.BacklogPerConsumerTarget = types.Float64Value(plan.BacklogPerConsumerTarget)
	m.BacklogPerConsumerMetric = types.StringValue(plan.ConsumerCountMetric)
	m.ProjectedDepthExpression = types.StringValue(plan.ProjectedDepthExpression)
	m.ProjectedDepthThreshold = types.Float64Value(plan.ProjectedDepthThreshold)
	m.DrainSecondsExpression = types.StringValue(plan.DrainSecondsExpression)
	m.DrainSecondsThreshold = types.Float64Value(plan.DrainSecondsThreshold)
	m.NotDrainingExpression = types.StringValue(plan.NotDrainingExpression)
	m.NotDrainingDepthFloor = types.Float64Value(plan.NotDrainingDepthFloor)
	m.Alarms = alarmsValue(plan.Alarms, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func alarmsValue(alarms []capacity.Alarm, diags *diag.Diagnostics) types.List {
	elemType := types.ObjectType{AttrTypes: alarmAttrTypes}
	queryType := types.ObjectType{AttrTypes: metricQueryAttrTypes}
	values := make([]attr.Value, 0, len(alarms))
	for _, a := range alarms {
		queries := make([]attr.Value, 0, len(a.Queries))
		for _, q := range a.Queries {
			expr := types.StringNull()
			if q.Expression != "" {
				expr = types.StringValue(q.Expression)
			}
			queries = append(queries, objectValue(metricQueryAttrTypes, map[string]attr.Value{
				"id": types.StringValue(q.ID), "expression": expr, "label": types.StringValue(q.Label),
				"return_data": types.BoolValue(q.ReturnData), "metric": metricValue(q.Metric, diags),
			}, diags))
		}
		fields := map[string]attr.Value{
			"name": types.StringValue(a.Name), "description": types.StringValue(a.Description),
			"comparison_operator": types.StringValue(a.ComparisonOperator), "threshold": types.Float64Value(a.Threshold),
			"evaluation_periods": types.Int64Value(a.EvaluationPeriods), "datapoints_to_alarm": types.Int64Value(a.DatapointsToAlarm),
			"metric_name": types.StringNull(), "namespace": types.StringNull(), "statistic": types.StringNull(),
			"period": types.Int64Null(), "dimensions": types.MapNull(types.StringType),
			"metric_queries": listValue(queryType, queries, diags),
		}
		if a.Metric != nil {
			fields["metric_name"] = types.StringValue(a.Metric.Name)
			fields["namespace"] = types.StringValue(a.Metric.Namespace)
			fields["statistic"] = types.StringValue(a.Metric.Stat)
			fields["period"] = types.Int64Value(a.Metric.Period)
			fields["dimensions"] = dimensionsValue(a.Metric.Dimensions, diags)
		}
		values = append(values, objectValue(alarmAttrTypes, fields, diags))
	}
	return listValue(elemType, values, diags)
}

func metricValue(m *capacity.Metric, diags *diag.Diagnostics) types.Object {
	if m == nil {
		return types.ObjectNull(metricAttrTypes)
	}
	return objectValue(metricAttrTypes, map[string]attr.Value{
		"metric_name": types.StringValue(m.Name), "namespace": types.StringValue(m.Namespace),
		"stat": types.StringValue(m.Stat), "period": types.Int64Value(m.Period), "dimensions": dimensionsValue(m.Dimensions, diags),
	}, diags)
}

func dimensionsValue(dims map[string]string, diags *diag.Diagnostics) types.Map {
	v, d := types.MapValueFrom(context.Background(), types.StringType, dims)
	diags.Append(d...)
	return v
}

func objectValue(attrTypes map[string]attr.Type, fields map[string]attr.Value, diags *diag.Diagnostics) types.Object {
	v, d := types.ObjectValue(attrTypes, fields)
	diags.Append(d...)
	return v
}

func listValue(elem attr.Type, values []attr.Value, diags *diag.Diagnostics) types.List {
	v, d := types.ListValue(elem, values)
	diags.Append(d...)
	return v
}
