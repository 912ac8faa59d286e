// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity

import "fmt"

// DefaultMinHeadroom is the spare capacity the headroom formula adds when
// none is asked for. It is 0 everywhere (provider, functions, CLI and
// linter): the formula's own answer, with a warning when that answer has
// no surplus to drain a backlog with.
const DefaultMinHeadroom = 0

// Inputs shared by several formulas, declared once.
var (
	inArrivalRate = Input{Name: "arrival_rate", Type: Number, Unit: "messages per second", Range: AtLeastZero, Required: true,
		Description: "Base arrival rate λ into the queue, in messages per second."}
	inPerConsumerRate = Input{Name: "per_consumer_rate", Type: Number, Unit: "messages per second", Range: AboveZero, Required: true,
		Description: "Messages one consumer (instance, task or concurrent invocation) completes per second, μ."}
	inRetryRate = Input{Name: "retry_rate", Type: Number, Unit: "a fraction", Range: Fraction, Default: 0.0,
		Description: "Share of messages that are retried, a fraction.",
		Note:        "With `avg_retries` it raises the effective arrival rate to `arrival_rate × (1 + retry_rate × avg_retries)`."}
	inAvgRetries = Input{Name: "avg_retries", Type: Number, Unit: "retries", Range: AtLeastZero, Default: 0.0,
		Description: "Retries per retried message, a count."}
	inSLASeconds = Input{Name: "sla_seconds", Type: Number, Unit: "seconds", Range: AboveZero, Required: true,
		Description: "The longest a message may wait, in seconds."}
	inMaxBacklog = Input{Name: "max_backlog", Type: Number, Unit: "messages", Range: AtLeastZero, Default: 0.0,
		Description: "Worst backlog the fleet must clear, in messages.", Note: "When greater than 0, `rto_seconds` is required."}
	inRTOSeconds = Input{Name: "rto_seconds", Type: Number, Unit: "seconds", Range: AboveZero,
		Description: "Time allowed to clear `max_backlog`, in seconds.", Note: "Required when `max_backlog` is greater than 0."}
	inMinHeadroom = Input{Name: "min_headroom", Type: Number, Unit: "a fraction", Range: AtLeastZero, Default: float64(DefaultMinHeadroom),
		Description: "Minimum spare capacity as a fraction of the effective arrival rate (`0.2` is 20 %).",
		Note:        "The fleet is raised to at least `ceil(λ_eff × (1 + min_headroom) / μ)`."}
	inBacklog = Input{Name: "backlog", Type: Number, Unit: "messages", Range: AtLeastZero, Required: true,
		Description: "Messages waiting now."}
	inTTLSeconds = Input{Name: "ttl_seconds", Type: Number, Unit: "seconds", Range: AboveZero,
		Description: "Age in seconds after which a message is worthless or expires."}
	inStormConsumers = Input{Name: "consumers", Type: Whole, Unit: "consumers", Range: AtLeastZero, Required: true,
		Description: "Consumers in the fleet."}
)

var retryRules = []Input{inRetryRate, inAvgRetries}

func retriesOf(a Args) Retries {
	return Retries{Rate: a.Num("retry_rate"), Average: a.Num("avg_retries")}
}

// optional is a pointer output: nil is null.
func optional[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// Consumers sizes a fleet with the headroom formula.
var Consumers = &Formula{
	Name:    "consumers",
	Answers: "consumers to keep up and to clear `max_backlog` within `rto_seconds`; capacity, surplus, utilization, headroom, overhead, drain time",
	Description: "Sizes a consumer fleet with the headroom formula: enough consumers to absorb the effective arrival rate " +
		"**and** clear `max_backlog` within `rto_seconds`, " +
		"`required_consumers = ceil(λ_eff / μ + max_backlog / (μ × rto_seconds))`, " +
		"raised to `ceil(λ_eff × (1 + min_headroom) / μ)` when that is larger. " +
		lagDoc + " " +
		"A fleet sized for the steady state alone (`steady_state_consumers`) has zero surplus, so any backlog never drains: " +
		"when `required_consumers` leaves no surplus, the read returns a warning saying so. " +
		"So does a sizing whose inputs probably carry the wrong unit: a fleet more than six times the steady state, or an RTO shorter than one message's processing time " +
		"(`rto_seconds = 15` meant as minutes sizes 2,250 consumers for 2,500 msg/s at 90 msg/s each; the warning says to write 900, which needs 65).",
	Inputs: append([]Input{inArrivalRate, inPerConsumerRate, inMaxBacklog, inRTOSeconds}, append(retryRules, inMinHeadroom, inProvisioningLag, inMinConsumers)...),
	Outputs: []Output{
		{Name: "effective_arrival_rate", Type: Number, Description: effectiveArrivalDoc},
		{Name: "steady_state_consumers", Type: Whole, Description: "Consumers that just keep up with arrivals, `ceil(λ_eff / μ)`, a whole number. Such a fleet has no surplus to clear a backlog."},
		{Name: "required_consumers", Type: Whole, Description: "Consumers the headroom formula requires, a whole number: the fleet's maximum size."},
		{Name: "capacity", Type: Number, Description: "Completion rate of the required fleet, `required_consumers × per_consumer_rate`, in messages per second."},
		{Name: "surplus", Type: Number, Description: "Capacity left after arrivals, `capacity − effective_arrival_rate`, in messages per second: the rate at which a backlog drains."},
		{Name: "utilization", Type: Number, Description: "Share of capacity used by arrivals, `effective_arrival_rate / capacity`, a fraction (`0` with no arrivals)."},
		{Name: "headroom", Type: Number, Description: "Spare capacity as a fraction of the effective arrival rate, `surplus / effective_arrival_rate`. Null when the effective arrival rate is 0."},
		{Name: "overhead", Type: Number, Description: "Extra consumers over the steady state, `required_consumers / steady_state_consumers − 1`, a fraction. Null when the steady state needs no consumers."},
		{Name: "drain_seconds", Type: Number, Description: drainWithLagDoc},
	},
	Rules: []Rule{RequiredWhenPositive{Trigger: "max_backlog", Required: "rto_seconds", Why: "the time allowed to clear that backlog"}},
	Compute: func(a Args) (Result, error) {
		in := sizingInput(a)
		s, err := Size(in)
		if err != nil {
			return Result{}, err
		}
		r := Result{Values: Values{
			"effective_arrival_rate": s.EffectiveArrivalRate, "steady_state_consumers": s.SteadyStateConsumers,
			"required_consumers": s.RequiredConsumers, "capacity": s.Capacity, "surplus": s.Surplus, "utilization": s.Utilization,
			"headroom": optional(s.Headroom), "overhead": optional(s.Overhead), "drain_seconds": optional(s.DrainSeconds),
		}}
		if w := ZeroSurplusWarning(in, s); w != nil {
			r.Warnings = append(r.Warnings, *w)
		}
		r.Warnings = append(r.Warnings, SizingWarnings(in, s)...)
		return r, nil
	},
}

// The SLA against the TTL, as queuecap_alarm_thresholds and
// queuecap_prometheus_rules both document it.
const (
	slaExceedsTTLNote = "Enables `sla_exceeds_ttl`; the data source (and `queuecap calc`) warns when `sla_seconds` is at or beyond it."
	slaExceedsTTLDoc  = "Whether `sla_seconds` is at or beyond `ttl_seconds`: messages then expire before the age alarm fires " +
		"(and the TTL holds the depth at or below `max_depth`), and the data source warns. Null without `ttl_seconds`."
)

const effectiveArrivalDoc = "Arrival rate including retries, `arrival_rate × (1 + retry_rate × avg_retries)`, in messages per second."

// ZeroSurplusWarning warns of a sizing whose required fleet has no
// surplus: λ_eff / μ is a whole number and neither a backlog nor a
// headroom was asked for, so the fleet keeps up but never drains a
// backlog. nil when the fleet has a surplus or there are no arrivals.
func ZeroSurplusWarning(in SizingInput, s Sizing) *Warning {
	if s.EffectiveArrivalRate == 0 || s.Surplus > 0 || in.MaxBacklog > 0 {
		return nil
	}
	withHeadroom, err := Size(SizingInput{ArrivalRate: in.ArrivalRate, PerConsumerRate: in.PerConsumerRate, Retries: in.Retries, MinHeadroom: 0.2})
	more := ""
	if err == nil {
		more = fmt.Sprintf(" (min_headroom = 0.2 gives %d consumers)", withHeadroom.RequiredConsumers)
	}
	return &Warning{
		Summary: "The required fleet has zero surplus and never drains a backlog",
		Detail: fmt.Sprintf("required_consumers = %d: %d × %s msg/s = %s msg/s, exactly the effective arrival rate, so the surplus is 0 "+
			"and any backlog (a deploy, a consumer crash, a burst) never drains. Set max_backlog and rto_seconds to size for the backlog "+
			"to recover from, or min_headroom for spare capacity%s.",
			s.RequiredConsumers, s.RequiredConsumers, Decimal(in.PerConsumerRate), Decimal(s.Capacity), more),
	}
}

// DrainFormula says where a backlog stands and when it clears.
var DrainFormula = &Formula{
	Name:    "drain",
	Answers: "whether and when a backlog drains (`drains = false`, `drain_seconds = null` when it never does), the wait of a message arriving now, whether to shed, an ETA along an arrival forecast",
	Description: "Where a backlog stands and when it clears. The drain time is `backlog / (completion_rate − effective_arrival_rate)`: " +
		"dividing by the completion rate alone is the common mistake. When completions do not exceed arrivals the backlog never drains, " +
		"reported as `drains = false` with `drain_seconds = null`. " +
		"Give the fleet's completion rate either as `completion_rate` or as `consumers` × `per_consumer_rate`, not both. " +
		"With `arrival_forecast` the drain is also stepped through expected arrival rates, for an ETA that follows the daily curve.",
	Inputs: []Input{
		inBacklog,
		inArrivalRate,
		{Name: "completion_rate", Type: Number, Unit: "messages per second", Range: AboveZero, Computed: true,
			Description: "Messages the fleet completes per second.",
			Note: "Give either this or `consumers` with `per_consumer_rate`; " +
				"when those are given instead it is computed as `consumers × per_consumer_rate` (0 when `consumers` is 0)."},
		{Name: "consumers", Type: Whole, Unit: "consumers", Range: AtLeastZero,
			Description: "Consumers in the fleet.", Note: "Requires `per_consumer_rate`; conflicts with `completion_rate`."},
		withNote(optionalInput(inPerConsumerRate), "Requires `consumers`; conflicts with `completion_rate`."),
		inRetryRate, inAvgRetries,
		withNote(inTTLSeconds, "Enables `should_shed`."),
		{Name: "arrival_forecast", Type: ListOf(Number), Unit: "messages per second", Range: AtLeastZero, MinItems: 1,
			Description: "Expected base arrival rates in messages per second, one per `forecast_step_seconds` starting now " +
				"(for example last week's rates at the same hours).",
			Note: "Retries amplify each entry like `arrival_rate`."},
		{Name: "forecast_step_seconds", Type: Number, Unit: "seconds", Range: AboveZero, Default: float64(DefaultForecastStepSeconds), DefaultWith: "arrival_forecast",
			Description: "Length of one `arrival_forecast` step, in seconds.", Note: "Requires `arrival_forecast`."},
	},
	Outputs: []Output{
		{Name: "effective_arrival_rate", Type: Number, Description: effectiveArrivalDoc},
		{Name: "net_rate", Type: Number, Description: "`completion_rate − effective_arrival_rate`, in messages per second. The backlog shrinks only when this is positive."},
		{Name: "drains", Type: Bool, Description: "Whether the backlog ever drains at constant rates: `true` when it is empty or `net_rate` is positive."},
		{Name: "drain_seconds", Type: Number, Description: "Time to clear the backlog at constant rates, `backlog / net_rate`, in seconds. Null when it never drains."},
		{Name: "wait_seconds", Type: Number, Description: "Wait of a message arriving now behind the backlog (FIFO), `backlog / completion_rate`, in seconds. Null when nothing completes."},
		{Name: "should_shed", Type: Bool, Description: "Whether to shed rather than drain: the backlog never drains or takes longer than `ttl_seconds`, so most of it is worthless by the time it is processed. Null without `ttl_seconds`."},
		{Name: "forecast_drains", Type: Bool, Description: "Whether the backlog clears within the forecast's horizon (`length(arrival_forecast) × forecast_step_seconds`). Null without a forecast."},
		{Name: "forecast_drain_seconds", Type: Number, Description: "Time to clear the backlog when arrivals follow `arrival_forecast`, interpolated within the step where it empties, in seconds. Null without a forecast or when it does not clear within the horizon."},
	},
	Rules: []Rule{
		OneForm{Forms: [][]string{{"completion_rate"}, {"consumers", "per_consumer_rate"}}, What: "the fleet's completion rate", Noun: "completion rate"},
		AlsoRequires{Input: "forecast_step_seconds", Needs: "arrival_forecast"},
	},
	Compute: func(a Args) (Result, error) {
		completion := a.Num("completion_rate")
		var fleet *FleetSize
		if !a.Has("completion_rate") {
			c, err := FleetCapacity(a.Count("consumers"), a.Num("per_consumer_rate"))
			if err != nil {
				return Result{}, err
			}
			completion, fleet = c, &FleetSize{Count: a.Count("consumers"), PerConsumerRate: a.Num("per_consumer_rate")}
		}
		in := DrainInput{Backlog: a.Num("backlog"), ArrivalRate: a.Num("arrival_rate"), CompletionRate: completion,
			Retries: retriesOf(a), TTLSeconds: a.Num("ttl_seconds"), Fleet: fleet}
		if a.Has("arrival_forecast") {
			in.Forecast, in.ForecastStepSeconds = a.Nums("arrival_forecast"), a.Num("forecast_step_seconds")
		}
		d, err := DrainBacklog(in)
		if err != nil {
			return Result{}, err
		}
		return Result{Values: Values{
			"completion_rate": d.CompletionRate, "effective_arrival_rate": d.EffectiveArrivalRate, "net_rate": d.NetRate,
			"drains": d.Drains, "drain_seconds": optional(d.DrainSeconds), "wait_seconds": optional(d.WaitSeconds),
			"should_shed": optional(d.ShouldShed), "forecast_drains": optional(d.ForecastDrains),
			"forecast_drain_seconds": optional(d.ForecastDrainSeconds),
		}}, nil
	},
}

func withNote(in Input, note string) Input { in.Note = note; return in }

func optionalInput(in Input) Input { in.Required = false; return in }

// SLADepth is Little's law applied to an SLA.
var SLADepth = &Formula{
	Name:    "sla_depth",
	Answers: "Little's law: the deepest a queue may be under an SLA, `arrival_rate × sla_seconds`",
	Description: "Little's law applied to an SLA: a message arriving behind `D` messages waits `D / λ`, " +
		"so a queue deeper than `max_depth = arrival_rate × sla_seconds` has already breached the SLA. " +
		"Use it as the depth alarm threshold; an alarm set higher fires only after the breach.",
	Inputs: []Input{inArrivalRate, inSLASeconds},
	Outputs: []Output{
		{Name: "max_depth", Type: Number, Description: "Deepest the queue may be without breaching the SLA, `arrival_rate × sla_seconds`, in messages."},
	},
	Compute: func(a Args) (Result, error) {
		d, err := SLAMaxDepth(a.Num("arrival_rate"), a.Num("sla_seconds"))
		return Result{Values: Values{"max_depth": d}}, err
	},
}

// TTLBacklogFormula is the worst backlog of an incident, with and without
// a TTL bound.
var TTLBacklogFormula = &Formula{
	Name:    "ttl_backlog",
	Answers: "an incident's backlog with and without the TTL bound",
	Description: "Worst-case backlog of an incident, with and without a TTL bound. " +
		"While the fleet completes only `degraded_completion_rate`, the backlog grows to `max(0, λ_eff − degraded) × incident_seconds`. " +
		"If messages older than `ttl_seconds` are dropped (shed or expired), the backlog stops growing at `λ_eff × ttl_seconds`: " +
		"shedding bounds the backlog by the TTL window instead of the incident's length, which shrinks the headroom to buy. " +
		"Feed `ttl_bounded_backlog` into `queuecap_consumers.max_backlog`.",
	Inputs: []Input{
		inArrivalRate,
		{Name: "incident_seconds", Type: Number, Unit: "seconds", Range: AtLeastZero, Required: true, Description: "Length of the incident, in seconds."},
		{Name: "ttl_seconds", Type: Number, Unit: "seconds", Range: AboveZero, Required: true, Description: "Age in seconds after which a message is dropped."},
		{Name: "degraded_completion_rate", Type: Number, Unit: "messages per second", Range: AtLeastZero, Default: 0.0,
			Description: "Messages per second the fleet still completes during the incident; `0` is a full outage."},
		inRetryRate, inAvgRetries,
	},
	Outputs: []Output{
		{Name: "effective_arrival_rate", Type: Number, Description: effectiveArrivalDoc},
		{Name: "unbounded_backlog", Type: Number, Description: "Backlog at the end of the incident with nothing dropped, `max(0, λ_eff − degraded_completion_rate) × incident_seconds`, in messages."},
		{Name: "ttl_bounded_backlog", Type: Number, Description: "Worst backlog when messages older than the TTL are dropped, `min(unbounded_backlog, λ_eff × ttl_seconds)`, in messages."},
		{Name: "ttl_bound_applies", Type: Bool, Description: "Whether the TTL bound is the smaller one, so dropping stale messages caps the backlog below the unbounded figure."},
	},
	Compute: func(a Args) (Result, error) {
		t, err := BacklogWithTTL(TTLInput{ArrivalRate: a.Num("arrival_rate"), IncidentSeconds: a.Num("incident_seconds"),
			TTLSeconds: a.Num("ttl_seconds"), DegradedCompletionRate: a.Num("degraded_completion_rate"), Retries: retriesOf(a)})
		return Result{Values: Values{"effective_arrival_rate": t.EffectiveArrivalRate, "unbounded_backlog": t.UnboundedBacklog,
			"ttl_bounded_backlog": t.TTLBoundedBacklog, "ttl_bound_applies": t.TTLBoundApplies}}, err
	},
}

// The object types of queuecap_alarm_thresholds' alarms.
var (
	dimensionsType = MapOf(String)
	metricObject   = ObjectOf(
		Attr{Name: "metric_name", Type: String, Description: "`metric_name`."},
		Attr{Name: "namespace", Type: String, Description: "`namespace`."},
		Attr{Name: "stat", Type: String, Description: "`stat`."},
		Attr{Name: "period", Type: Whole, Description: "`period` in seconds."},
		Attr{Name: "dimensions", Type: dimensionsType, Description: "`dimensions`."},
	)
	metricQueryObject = ObjectOf(
		Attr{Name: "id", Type: String, Description: "`id` of the query."},
		Attr{Name: "expression", Type: String, Description: "`expression` of an expression query; null for a metric."},
		Attr{Name: "label", Type: String, Description: "`label` of the query."},
		Attr{Name: "return_data", Type: Bool, Description: "`return_data`: true for the query the alarm compares."},
		Attr{Name: "metric", Type: metricObject, Description: "The `metric` block of a metric query; null for an expression."},
	)
	alarmObject = ObjectOf(
		Attr{Name: "name", Type: String, Description: "Short name of the alarm, unique within the list: use it in `alarm_name`."},
		Attr{Name: "description", Type: String, Description: "Why the alarm exists, with its numbers: use it as `alarm_description`."},
		Attr{Name: "comparison_operator", Type: String, Description: "`comparison_operator` of the alarm."},
		Attr{Name: "threshold", Type: Number, Description: "`threshold` of the alarm, in the unit of what it compares: messages for `depth_above_sla`, `projected_depth_above_sla` and `dead_letter_queue_not_empty`, " +
			"seconds for `oldest_message_above_sla` and `drain_slower_than_rto`, and `1` (a true condition) for `not_draining`."},
		Attr{Name: "evaluation_periods", Type: Whole, Description: "`evaluation_periods` of the alarm."},
		Attr{Name: "datapoints_to_alarm", Type: Whole, Description: "`datapoints_to_alarm` of the alarm."},
		Attr{Name: "treat_missing_data", Type: String, Description: "`treat_missing_data` of the alarm: `\"notBreaching\"` for every alarm, because SQS publishes a queue's metrics only while it is active " +
			"(it holds messages, or an API call touched it in the last six hours) and `ApproximateAgeOfOldestMessage` only while a message waits, so a missing datapoint is an empty, idle queue. " +
			"`\"missing\"` would leave such an alarm in `INSUFFICIENT_DATA`, `\"breaching\"` would page for an idle queue. The alarm's `description` says why for that alarm."},
		Attr{Name: "metric_name", Type: String, Description: "`metric_name` of a single-metric alarm; null for metric math."},
		Attr{Name: "namespace", Type: String, Description: "`namespace` of a single-metric alarm; null for metric math."},
		Attr{Name: "statistic", Type: String, Description: "`statistic` of a single-metric alarm; null for metric math."},
		Attr{Name: "period", Type: Whole, Description: "`period` in seconds of a single-metric alarm; null for metric math."},
		Attr{Name: "dimensions", Type: dimensionsType, Description: "`dimensions` of a single-metric alarm; null for metric math."},
		Attr{Name: "metric_queries", Type: ListOf(metricQueryObject), Description: "The `metric_query` blocks of a metric math alarm; empty for a single-metric alarm."},
	)
)

// AlarmThresholdsFormula derives CloudWatch alarms from declared rates.
var AlarmThresholdsFormula = &Formula{
	Name:    "alarm_thresholds",
	Answers: "CloudWatch alarms (depth, age, projected depth with `RATE()`, drain time against the RTO, not draining, dead-letter queue) and the backlog-per-instance target, ready for `for_each`",
	Description: "CloudWatch alarm thresholds and metric math for an SQS queue, derived from declared rates instead of hand-picked constants. " +
		"`alarms` lists one object per recommended `aws_cloudwatch_metric_alarm`, shaped so that `for_each` over it with a `dynamic \"metric_query\"` block builds the alarms without glue code. " +
		"Give `queue_name` a name known at plan: Terraform and OpenTofu defer reading a data source until apply whenever any of its arguments is unknown, " +
		"so with `queue_name = aws_sqs_queue.q.name` of a queue not yet created every output is unknown at plan and `for_each` over `alarms` fails. " +
		"The `alarm_plan` function returns the same result with the queue names unknown and everything else known.\n\n" +
		"The alarms and why each exists:\n\n" +
		"* `depth_above_sla`: `ApproximateNumberOfMessagesVisible` above `effective_arrival_rate × sla_seconds`, where `effective_arrival_rate = arrival_rate × (1 + retry_rate × avg_retries)` counts retried messages again, as `queuecap_consumers` does. By Little's law a message arriving behind that many messages waits longer than the SLA.\n" +
		"* `oldest_message_above_sla`: `ApproximateAgeOfOldestMessage` above `sla_seconds`: the SLA is breached for at least one message.\n" +
		"* `projected_depth_above_sla`: depth projected by the provisioning lag, `depth + RATE(depth) × provisioning_lag_seconds`, above the SLA depth. Depth alone is too late by construction: consumers started when it crosses the threshold arrive `provisioning_lag_seconds` later.\n" +
		"* `drain_slower_than_rto`: the backlog over the net drain rate, `depth × PERIOD(deleted) / (deleted − sent)`, above `rto_seconds` for three periods. The expression is 0 while completions do not beat arrivals; `not_draining` covers that case.\n" +
		"* `not_draining`: completions (`NumberOfMessagesDeleted`) not above arrivals (`NumberOfMessagesSent`) for 15 minutes while more than `not_draining_depth_floor` messages wait.\n" +
		"* `dead_letter_queue_not_empty` (with `dead_letter_queue_name`): any visible message in the dead-letter queue; `NumberOfMessagesSent` does not count redrives.\n\n" +
		"Every alarm sets `treat_missing_data = \"notBreaching\"`: SQS publishes a queue's metrics only while it is active (it holds messages, or an API call touched it in the last six hours), " +
		"so a missing datapoint is an empty, idle queue; each alarm's `description` says what that means for it.\n\n" +
		"The metric math uses only documented CloudWatch metric math: arithmetic, comparison and logical operators (`<=`, `>`, `AND`), `IF`, `RATE` (per-second rate of change) and `PERIOD` (a metric's period in seconds).",
	Inputs: []Input{
		inArrivalRate, inSLASeconds, inPerConsumerRate,
		{Name: "rto_seconds", Type: Number, Unit: "seconds", Range: AboveZero, Required: true,
			Description: "Time allowed to clear a backlog, in seconds.", Note: "The threshold of `drain_slower_than_rto`."},
		withNote(inRetryRate, "With `avg_retries` it raises the arrival rate the SLA depth counts to `arrival_rate × (1 + retry_rate × avg_retries)`: retried messages arrive again."),
		inAvgRetries,
		withNote(inTTLSeconds, slaExceedsTTLNote),
		{Name: "provisioning_lag_seconds", Type: Number, Unit: "seconds", Range: AtLeastZero, Default: float64(DefaultProvisioningLagSeconds),
			Description: "Time for a new consumer to start taking work, in seconds.", Note: "How far ahead `projected_depth_expression` projects."},
		{Name: "queue_name", Type: String, PassThrough: true, Description: "Name of the SQS queue, the `QueueName` dimension of every metric. Without it the metrics carry no dimensions. " +
			"The `alarm_plan` function accepts it unknown (`aws_sqs_queue.q.name` before apply): only the dimensions are then unknown."},
		{Name: "dead_letter_queue_name", Type: String, PassThrough: true, Description: "Name of the queue's dead-letter queue. Adds the `dead_letter_queue_not_empty` alarm. " +
			"The `alarm_plan` function accepts it unknown: the alarm is then listed, with unknown dimensions."},
		{Name: "fleet", Type: String, OneOf: []string{FleetEC2, FleetECS}, Default: FleetEC2,
			Description: "The consumer fleet's kind, `\"ec2\"` (an auto scaling group) or `\"ecs\"` (a service).",
			Note:        "Picks the consumer count metric of `backlog_per_consumer_metric`: `GroupInServiceInstances` or `RunningTaskCount`."},
		{Name: "period_seconds", Type: Number, Unit: "seconds", Range: AboveZero, Default: float64(DefaultPeriodSeconds),
			Description: "Period of every metric, in seconds: 10, 20, 30 or a multiple of 60 up to 86400."},
	},
	Outputs: []Output{
		{Name: "effective_arrival_rate", Type: Number, Description: effectiveArrivalDoc},
		{Name: "max_depth", Type: Number, Description: "Deepest the queue may be under the SLA, `effective_arrival_rate × sla_seconds`, in messages: the depth alarm's threshold. Without retries it is `arrival_rate × sla_seconds`."},
		{Name: "oldest_message_age_seconds", Type: Number, Description: "Threshold of the age alarm on `ApproximateAgeOfOldestMessage`, in seconds: `sla_seconds`."},
		{Name: "sla_exceeds_ttl", Type: Bool, Description: slaExceedsTTLDoc},
		{Name: "backlog_per_consumer_target", Type: Number, Description: "Target value for target tracking on backlog per consumer, `sla_seconds × per_consumer_rate` messages per consumer (AWS's acceptable latency over processing time per message)."},
		{Name: "backlog_per_consumer_metric", Type: String, Description: "Consumer count metric to divide `ApproximateNumberOfMessagesVisible` by for backlog per consumer: `GroupInServiceInstances` (namespace `AWS/AutoScaling`) or `RunningTaskCount` (namespace `ECS/ContainerInsights`)."},
		{Name: "projected_depth_expression", Type: String, Description: "Metric math projecting depth by the provisioning lag, over the query ID `depth`: `depth + RATE(depth) * provisioning_lag_seconds`."},
		{Name: "projected_depth_threshold", Type: Number, Description: "Threshold of `projected_depth_expression`, in messages: `max_depth`."},
		{Name: "drain_seconds_expression", Type: String, Description: "Metric math for the seconds to drain the backlog at the current net rate, over the query IDs `depth`, `sent` and `deleted`; 0 while the queue is not draining."},
		{Name: "drain_seconds_threshold", Type: Number, Description: "Threshold of `drain_seconds_expression`, in seconds: `rto_seconds`."},
		{Name: "not_draining_expression", Type: String, Description: "Metric math that is 1 while completions do not exceed arrivals and more than `not_draining_depth_floor` messages wait, else 0."},
		{Name: "not_draining_depth_floor", Type: Number, Description: "Depth below which not draining is noise, in messages: what one consumer clears in one period, `per_consumer_rate × period_seconds`."},
		{Name: "alarms", Type: ListOf(alarmObject), Description: "The recommended alarms, one object each. Single-metric alarms set `metric_name`, `namespace`, `statistic`, `period` and `dimensions`, and have no `metric_queries`; metric math alarms leave those null and list `metric_queries`."},
	},
	Compute: func(a Args) (Result, error) {
		p, err := AlarmThresholds(AlarmInput{ArrivalRate: a.Num("arrival_rate"), Retries: retriesOf(a), SLASeconds: a.Num("sla_seconds"),
			PerConsumerRate: a.Num("per_consumer_rate"), RTOSeconds: a.Num("rto_seconds"), TTLSeconds: a.Num("ttl_seconds"),
			ProvisioningLagSeconds: a.Num("provisioning_lag_seconds"), PeriodSeconds: a.Num("period_seconds"),
			QueueName: a.Str("queue_name"), DeadLetterQueueName: a.Str("dead_letter_queue_name"), Fleet: a.Str("fleet")})
		if err != nil {
			return Result{}, err
		}
		alarms := make([]any, len(p.Alarms))
		for i, al := range p.Alarms {
			alarms[i] = alarmValue(al)
		}
		r := Result{Values: Values{
			"effective_arrival_rate": p.EffectiveArrivalRate, "max_depth": p.MaxDepth, "oldest_message_age_seconds": p.OldestMessageAgeSeconds, "sla_exceeds_ttl": optional(p.SLAExceedsTTL),
			"backlog_per_consumer_target": p.BacklogPerConsumerTarget, "backlog_per_consumer_metric": p.ConsumerCountMetric,
			"projected_depth_expression": p.ProjectedDepthExpression, "projected_depth_threshold": p.ProjectedDepthThreshold,
			"drain_seconds_expression": p.DrainSecondsExpression, "drain_seconds_threshold": p.DrainSecondsThreshold,
			"not_draining_expression": p.NotDrainingExpression, "not_draining_depth_floor": p.NotDrainingDepthFloor,
			"alarms": alarms,
		}}
		if w := SLAExceedsTTLWarning(a.Num("sla_seconds"), a.Num("ttl_seconds")); w != nil {
			r.Warnings = append(r.Warnings, *w)
		}
		if w := SLAShorterThanServiceWarning(a.Num("sla_seconds"), a.Num("per_consumer_rate")); w != nil {
			r.Warnings = append(r.Warnings, *w)
		}
		return r, nil
	},
}

func alarmValue(a Alarm) map[string]any {
	queries := make([]any, len(a.Queries))
	for i, q := range a.Queries {
		var expr any
		if q.Expression != "" {
			expr = q.Expression
		}
		queries[i] = map[string]any{"id": q.ID, "expression": expr, "label": q.Label, "return_data": q.ReturnData, "metric": metricValue(q.Metric)}
	}
	v := map[string]any{
		"name": a.Name, "description": a.Description, "comparison_operator": a.ComparisonOperator, "threshold": a.Threshold,
		"evaluation_periods": a.EvaluationPeriods, "datapoints_to_alarm": a.DatapointsToAlarm, "treat_missing_data": a.TreatMissingData,
		"metric_name": nil, "namespace": nil, "statistic": nil, "period": nil, "dimensions": nil, "metric_queries": queries,
	}
	if m := a.Metric; m != nil {
		v["metric_name"], v["namespace"], v["statistic"], v["period"], v["dimensions"] = m.Name, m.Namespace, m.Stat, m.Period, dimensionsValue(m.Dimensions)
	}
	return v
}

func metricValue(m *Metric) any {
	if m == nil {
		return nil
	}
	return map[string]any{"metric_name": m.Name, "namespace": m.Namespace, "stat": m.Stat, "period": m.Period, "dimensions": dimensionsValue(m.Dimensions)}
}

func dimensionsValue(dims map[string]string) map[string]any {
	out := make(map[string]any, len(dims))
	for k, v := range dims {
		out[k] = v
	}
	return out
}

// RetryStorm simulates a backlog through a retry storm.
var RetryStorm = &Formula{
	Name:    "retry_storm",
	Answers: "whether the fleet drains a backlog when timed-out messages are retried (the metastable failure), peak depth and arrivals, and the smallest fleet that drains under the same storm (within the RTO too)",
	Description: "Whether a fleet drains a backlog through a retry storm, the metastable failure the fluid model of `queuecap_drain` cannot see. " +
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
	Inputs: []Input{
		inArrivalRate, inPerConsumerRate, inStormConsumers,
		{Name: "backlog", Type: Number, Unit: "messages", Range: AtLeastZero, Required: true, Description: "Messages waiting at t = 0."},
		inRetriesPerTimeout,
		withDefault(inTimeoutWindow, float64(DefaultTimeoutWindowSeconds)),
		{Name: "max_seconds", Type: Whole, Unit: "seconds", Range: Between(1, MaxStormSeconds), Default: float64(DefaultStormMaxSeconds),
			Description: "Length of the simulation in seconds, at most ten days: " +
				"the depth is recorded at t = 0, 1, …, `max_seconds − 1`, so a backlog drains within it when its depth reaches 0 at one of those seconds.",
			Note: "`36000` is ten hours."},
		inStormRTO,
	},
	Outputs: []Output{
		{Name: "drains", Type: Bool, Description: "Whether the depth reaches 0 within `max_seconds`."},
		{Name: "drain_seconds", Type: Number, Description: "First second t at which the depth is 0, a whole number of seconds (`0` without a backlog). Null when the backlog does not drain within `max_seconds`."},
		{Name: "steps", Type: Whole, Description: "Seconds recorded, t = 0 included: `drain_seconds + 1` when the backlog drains, else `max_seconds`. " +
			"A backlog whose depth reaches 0 at t = 1,286 s took 1,287 steps."},
		{Name: "peak_depth", Type: Number, Description: "Deepest the queue gets over the recorded seconds, in messages."},
		{Name: "final_depth", Type: Number, Description: "Depth at the last recorded second, in messages: 0 when the backlog drains."},
		{Name: "peak_effective_arrival_rate", Type: Number, Description: "Highest arrival rate the retries drive, `arrival_rate × (1 + retries_per_timeout × timeout_prob)`, in messages per second. " +
			"`arrival_rate × (1 + retries_per_timeout)` once every message times out."},
		{Name: "min_consumers_to_drain", Type: Whole, Description: "Smallest fleet that drains the backlog within `max_seconds` under the same storm, a whole number. " +
			"Null when `max_seconds` is 1 and there is a backlog: only t = 0 is recorded, so no fleet drains it. " +
			"Found by binary search (draining is monotone in the fleet size) up to a fleet that provably drains, `(arrival_rate × (1 + retries_per_timeout) + backlog / (max_seconds − 1)) / per_consumer_rate`."},
		{Name: "min_consumers_to_drain_within_rto", Type: Whole, Description: "Smallest fleet that drains the backlog within `rto_seconds` under the same storm, a whole number: " +
			"the depth reaches 0 by t = `rto_seconds`. The `min_consumers_to_drain` function answers the same question. Null without `rto_seconds`."},
	},
	Compute: func(a Args) (Result, error) {
		in := stormInput(a)
		st, err := SimulateStorm(in, nil)
		if err != nil {
			return Result{}, err
		}
		// With max_seconds = 1 only t = 0 is recorded: no fleet drains a
		// backlog within it, and min_consumers_to_drain is null.
		var minAll any
		if in.Backlog == 0 || in.MaxSeconds > 1 {
			if minAll, err = MinConsumersToDrain(in, 0); err != nil {
				return Result{}, err
			}
		}
		v := Values{"drains": st.Drains, "drain_seconds": optional(st.DrainSeconds), "steps": st.Steps, "peak_depth": st.PeakDepth,
			"final_depth": st.FinalDepth, "peak_effective_arrival_rate": st.PeakEffectiveArrivalRate, "min_consumers_to_drain": minAll,
			"min_consumers_to_drain_within_rto": nil}
		if a.Has("rto_seconds") {
			if v["min_consumers_to_drain_within_rto"], err = MinConsumersToDrain(in, a.Count("rto_seconds")); err != nil {
				return Result{}, err
			}
		}
		return Result{Values: v}, nil
	},
}

var (
	inRetriesPerTimeout = Input{Name: "retries_per_timeout", Type: Number, Unit: "retries", Range: AtLeastZero, Required: true,
		Description: "Retries a producer sends for each message that times out (waits longer than `timeout_window_seconds`), " +
			"a count such as `1.5`.", Note: "`0` is a fleet without a retry storm."}
	inTimeoutWindow = Input{Name: "timeout_window_seconds", Type: Number, Unit: "seconds", Range: AboveZero,
		Description: "Timeout window W, in seconds: the producer gives up on a message that has waited this long and retries it."}
	inStormRTO = Input{Name: "rto_seconds", Type: Whole, Unit: "seconds", Range: Between(1, MaxStormSeconds),
		Description: "Time allowed to clear the backlog, in seconds. The depth must reach 0 by t = `rto_seconds`, as the headroom formula counts it.",
		Note:        "Enables `min_consumers_to_drain_within_rto`."}
)

func withDefault(in Input, def any) Input { in.Required, in.Default = false, def; return in }

func stormInput(a Args) StormInput {
	return StormInput{ArrivalRate: a.Num("arrival_rate"), PerConsumerRate: a.Num("per_consumer_rate"), Consumers: a.Count("consumers"),
		Backlog: a.Num("backlog"), RetriesPerTimeout: a.Num("retries_per_timeout"), TimeoutWindowSeconds: a.Num("timeout_window_seconds"),
		MaxSeconds: a.Count("max_seconds")}
}

// WaitTimeFormula is the steady-state wait of an M/M/c queue.
var WaitTimeFormula = &Formula{
	Name:    "wait_time",
	Answers: "M/M/c (Erlang C) steady state: probability of waiting, mean and percentile wait, the smallest fleet meeting a target wait",
	Description: "How long messages wait at steady state, beyond the fluid model: the M/M/c queue (Poisson arrivals, exponential service, " +
		"`consumers` servers) and its Erlang C formula. A fleet with a surplus still queues messages by chance, and the wait rises steeply as utilization nears 1: the utilization cliff.\n\n" +
		"With the offered load `a = arrival_rate / per_consumer_rate` and `ρ = a / consumers`, the probability of waiting comes from the Erlang B recursion " +
		"`B(0) = 1, B(n) = a·B(n−1) / (n + a·B(n−1))` as `C = B(c) / (1 − ρ(1 − B(c)))`; it forms no factorial or power, so it stays accurate for fleets of " +
		"hundreds of thousands of consumers. The mean wait is `C / (consumers × per_consumer_rate − arrival_rate)`, " +
		"and since `P(wait > t) = C × e^(−(cμ − λ)t)`, the `percentile` wait is `max(0, ln(C / (1 − percentile)) / (cμ − λ))`.\n\n" +
		"When `ρ ≥ 1` the queue has no steady state (it grows without bound): `stable = false` and the wait figures are null.",
	Inputs: []Input{
		inArrivalRate, inPerConsumerRate,
		{Name: "consumers", Type: Whole, Unit: "consumers", Range: Between(1, maxErlangConsumers), Required: true,
			Description: "Consumers in the fleet, the servers c of the M/M/c queue."},
		{Name: "percentile", Type: Number, Unit: "a fraction", Range: OpenFraction, Default: DefaultWaitPercentile,
			Description: "Percentile of the wait to report, a fraction (`0.99` is p99)."},
		{Name: "target_wait_seconds", Type: Number, Unit: "seconds", Range: AboveZero,
			Description: "Longest acceptable `percentile` wait, in seconds.", Note: "Enables `min_consumers_for_target`."},
	},
	Outputs: []Output{
		{Name: "utilization", Type: Number, Description: "Share of the fleet's capacity used, `ρ = arrival_rate / (consumers × per_consumer_rate)`, a fraction, " +
			"exact and then written to 15 significant digits, like every figure: a fleet stable by less than that (a 16-digit arrival rate) reads `1` beside `stable = true`."},
		{Name: "stable", Type: Bool, Description: "Whether the queue has a steady state, `utilization < 1`."},
		{Name: "probability_of_wait", Type: Number, Description: "Probability that a message waits at all, Erlang C `C(consumers, a)`, a fraction. Null when not `stable`."},
		{Name: "mean_wait_seconds", Type: Number, Description: "Mean time a message waits before a consumer takes it, in seconds. Null when not `stable`."},
		{Name: "percentile_wait_seconds", Type: Number, Description: "Wait that `percentile` of messages do not exceed, in seconds: `0` when at least that share never waits. Null when not `stable`."},
		{Name: "min_consumers_for_target", Type: Whole, Description: "Smallest fleet whose `percentile` wait is at most `target_wait_seconds`, a whole number. Null without `target_wait_seconds`."},
	},
	Compute: func(a Args) (Result, error) {
		w, err := WaitTime(WaitInput{ArrivalRate: a.Num("arrival_rate"), PerConsumerRate: a.Num("per_consumer_rate"), Consumers: a.Count("consumers"),
			Percentile: a.Num("percentile"), TargetWaitSeconds: a.Num("target_wait_seconds")})
		return Result{Values: Values{"utilization": w.Utilization, "stable": w.Stable, "probability_of_wait": optional(w.ProbabilityOfWait),
			"mean_wait_seconds": optional(w.MeanWaitSeconds), "percentile_wait_seconds": optional(w.PercentileWaitSeconds),
			"min_consumers_for_target": optional(w.MinConsumersForTarget)}}, err
	},
}

// ReplayBudgetFormula is how fast a dead-letter queue may be replayed.
var ReplayBudgetFormula = &Formula{
	Name:    "replay_budget",
	Answers: "how fast a dead-letter queue may be replayed beside live work and retries within a shared downstream limit",
	Description: "How fast a dead-letter queue may be replayed (redriven) without starving live work. " +
		"The replay shares a downstream limit with live traffic and its retries, so it gets only what they leave, minus a safety margin:\n\n" +
		"```\n" +
		"replay_calls_per_second = downstream_limit − live_usage − retry_usage − safety_margin × downstream_limit\n" +
		"replay_jobs_per_second  = replay_calls_per_second / calls_per_job\n" +
		"```\n\n" +
		"A replay must never assume the whole downstream limit. Example: a limit of 1,000 calls/s, 700 used by live work and 100 by retries, " +
		"jobs of 2 calls and no margin leave 200 calls/s, at most 100 jobs/s. When nothing is left the rates are 0 and the read " +
		"returns a warning naming the numbers: replaying now would take capacity from live work.",
	Inputs: []Input{
		{Name: "downstream_limit", Type: Number, Unit: "calls per second", Range: AboveZero, Required: true,
			Description: "Calls per second the shared downstream (an API, a database, a partner) accepts, U."},
		{Name: "live_usage", Type: Number, Unit: "calls per second", Range: AtLeastZero, Required: true,
			Description: "Calls per second live work already makes downstream."},
		{Name: "retry_usage", Type: Number, Unit: "calls per second", Range: AtLeastZero, Required: true,
			Description: "Calls per second the retries of live work make downstream."},
		{Name: "calls_per_job", Type: Number, Unit: "calls", Range: AboveZero, Default: float64(DefaultCallsPerJob),
			Description: "Downstream calls one replayed job makes."},
		{Name: "safety_margin", Type: Number, Unit: "a fraction", Range: Fraction, Default: DefaultReplaySafetyMargin,
			Description: "Share of `downstream_limit` kept free as a safety margin, a fraction (`0.1` keeps 10 % of the limit unused)."},
		{Name: "dlq_depth", Type: Number, Unit: "messages", Range: AtLeastZero,
			Description: "Messages in the dead-letter queue to replay.", Note: "Enables `replay_seconds`."},
	},
	Outputs: []Output{
		{Name: "replay_calls_per_second", Type: Number, Description: "Downstream calls per second left for the replay, `downstream_limit × (1 − safety_margin) − live_usage − retry_usage`; `0` when there is no room."},
		{Name: "replay_jobs_per_second", Type: Number, Description: "Jobs per second the replay may run, `replay_calls_per_second / calls_per_job`; `0` (with a warning) when there is no room."},
		{Name: "replay_seconds", Type: Number, Description: "Time to replay `dlq_depth` messages at `replay_jobs_per_second`, in seconds. Null without `dlq_depth` or without room to replay."},
	},
	Compute: func(a Args) (Result, error) {
		in := ReplayInput{DownstreamLimit: a.Num("downstream_limit"), LiveUsage: a.Num("live_usage"), RetryUsage: a.Num("retry_usage"),
			CallsPerJob: a.Num("calls_per_job"), SafetyMargin: a.Num("safety_margin")}
		if a.Has("dlq_depth") {
			d := a.Num("dlq_depth")
			in.DLQDepth = &d
		}
		rb, err := ReplayBudget(in)
		if err != nil {
			return Result{}, err
		}
		r := Result{Values: Values{"replay_calls_per_second": rb.CallsPerSecond, "replay_jobs_per_second": rb.JobsPerSecond,
			"replay_seconds": optional(rb.ReplaySeconds)}}
		if rb.NoRoom {
			r.Warnings = append(r.Warnings, Warning{Summary: "No room to replay the dead-letter queue", Detail: fmt.Sprintf(
				"live_usage (%s calls/s) plus retry_usage (%s calls/s) leave no room under downstream_limit (%s calls/s) "+
					"once safety_margin (%s of the limit) is kept free, so replay_jobs_per_second is 0: replaying now would take capacity from live work. "+
					"Replay once live or retry traffic falls, or raise the downstream limit.",
				Decimal(in.LiveUsage), Decimal(in.RetryUsage), Decimal(in.DownstreamLimit), Decimal(in.SafetyMargin))})
		}
		return r, nil
	},
}

// Formulas are the catalog's formulas, one data source each, in the order
// the provider lists them.
var Formulas = []*Formula{Consumers, DrainFormula, SLADepth, TTLBacklogFormula, AlarmThresholdsFormula, RetryStorm, WaitTimeFormula, ReplayBudgetFormula,
	FleetFormula, PrometheusRulesFormula, QueueSettingsFormula}

// FormulaNamed returns the formula of a data source name without its
// provider prefix ("consumers"), or nil.
func FormulaNamed(name string) *Formula {
	for _, f := range Formulas {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Functions are the provider functions, in the order the provider lists
// them. Each returns exactly what its data source returns.
var Functions = []*Function{
	{
		Of:   Consumers,
		Name: "effective_arrival_rate", Summary: "Arrival rate including retries",
		Description: "Returns `arrival_rate × (1 + retry_rate × avg_retries)`, in messages per second: retried messages arrive again. " +
			"Matches `effective_arrival_rate` of the `queuecap_consumers` data source.",
		Params: []Input{inArrivalRate, required(inRetryRate), required(inAvgRetries)},
		Result: *Consumers.Output("effective_arrival_rate"),
		Compute: func(a Args) (any, error) {
			return EffectiveArrivalRate(a.Num("arrival_rate"), retriesOf(a))
		},
	},
	view(DrainFormula, "surplus", "Capacity left after arrivals",
		"Returns `consumers × per_consumer_rate − arrival_rate`, in messages per second: the rate at which a backlog drains. "+
			"Zero or less means a backlog never drains. Matches `net_rate` of the `queuecap_drain` data source given `consumers` and `per_consumer_rate`.",
		[]string{"arrival_rate", "per_consumer_rate", "consumers"}, "net_rate", Args{"backlog": 0.0}),
	view(DrainFormula, "drain_seconds", "Time to clear a backlog",
		"Returns `backlog / (completion_rate − arrival_rate)`, in seconds, or null when the backlog never drains "+
			"(completions do not exceed arrivals). Dividing by the completion rate alone is the common mistake. "+
			"Matches `drain_seconds` of the `queuecap_drain` data source.",
		[]string{"arrival_rate", "completion_rate", "backlog"}, "drain_seconds", nil),
	view(Consumers, "required_consumers", "Consumers to keep up and clear a backlog within the RTO",
		"Returns the headroom formula `ceil(arrival_rate / per_consumer_rate + max_backlog / (per_consumer_rate × rto_seconds))`, "+
			"a whole number: the ceiling of the sum, not the sum of ceilings. Matches `required_consumers` of the `queuecap_consumers` data source "+
			"(with its default `min_headroom` of 0; use `capacity_plan` for headroom and retries).",
		[]string{"arrival_rate", "per_consumer_rate", "max_backlog", "rto_seconds"}, "required_consumers", nil),
	view(SLADepth, "sla_max_depth", "Deepest a queue may be under an SLA (Little's law)",
		"Returns `arrival_rate × sla_seconds`, in messages: a message arriving behind more waits longer than the SLA. "+
			"Matches `max_depth` of the `queuecap_sla_depth` data source.",
		[]string{"arrival_rate", "sla_seconds"}, "max_depth", nil),
	view(TTLBacklogFormula, "ttl_bounded_backlog", "Worst backlog of an incident when stale messages are dropped",
		"Returns `min(max(0, arrival_rate − degraded_completion_rate) × incident_seconds, arrival_rate × ttl_seconds)`, in messages. "+
			"Matches `ttl_bounded_backlog` of the `queuecap_ttl_backlog` data source.",
		[]string{"arrival_rate", "incident_seconds", "ttl_seconds", "degraded_completion_rate"}, "ttl_bounded_backlog", nil),
	{
		Of:   AlarmThresholdsFormula,
		Name: "backlog_per_consumer_target", Summary: "Target value for target tracking on backlog per consumer",
		Description: "Returns `sla_seconds × per_consumer_rate`, messages waiting per consumer: AWS's acceptable latency over processing time per message. " +
			"Matches `backlog_per_consumer_target` of the `queuecap_alarm_thresholds` data source.",
		Params: []Input{inPerConsumerRate, inSLASeconds},
		Result: *AlarmThresholdsFormula.Output("backlog_per_consumer_target"),
		Compute: func(a Args) (any, error) {
			return BacklogPerConsumerTarget(a.Num("sla_seconds"), a.Num("per_consumer_rate"))
		},
	},
	{
		Name: "capacity_plan", Summary: "The whole queuecap_consumers sizing as one call",
		Description: "Takes the arguments of the `queuecap_consumers` data source as one object " +
			"(`arrival_rate` and `per_consumer_rate` required; `max_backlog`, `rto_seconds`, `retry_rate`, `avg_retries`, `min_headroom`, `provisioning_lag_seconds` and `min_consumers` optional with the same defaults and rules; " +
			"numbers may be given as strings, and a `map(number)` works as well as an object) " +
			"and returns its whole result as one object: the inputs with defaults filled in, `effective_arrival_rate`, `steady_state_consumers`, `required_consumers`, " +
			"`capacity`, `surplus`, `utilization`, `headroom`, `overhead` and `drain_seconds`, each exactly as the data source computes it.",
		Object: Consumers,
	},
	{
		Of:   RetryStorm,
		Name: "min_consumers_to_drain", Summary: "Smallest fleet that drains a backlog through a retry storm within the RTO",
		Description: "Returns the smallest number of consumers whose one-second retry storm simulation empties `backlog` by t = `rto_seconds`, " +
			"where producers retry `retries_per_timeout` times each message that waits longer than `timeout_window_seconds`: " +
			"`timeout_prob = min(1, depth / (arrival_rate × timeout_window_seconds))`, " +
			"`arrivals = arrival_rate × (1 + retries_per_timeout × timeout_prob)`, " +
			"`depth = max(0, depth + arrivals − consumers × per_consumer_rate)`. " +
			"A backlog of 3.6 M at 10,000 msg/s and 400 msg/s per consumer (with a 30 s window) needs 26 consumers within ten hours without retries and 63 with 1.5 retries per timeout; " +
			"30 and 68 within 30 minutes. " +
			"Matches `min_consumers_to_drain_within_rto` of the `queuecap_retry_storm` data source.",
		Params: []Input{inArrivalRate, inPerConsumerRate, withBacklog(), inRetriesPerTimeout, required(inTimeoutWindow), withNote(required(inStormRTO), "")},
		Result: *RetryStorm.Output("min_consumers_to_drain_within_rto"),
		Compute: func(a Args) (any, error) {
			in := stormInput(a)
			in.MaxSeconds = DefaultStormMaxSeconds
			return MinConsumersToDrain(in, a.Count("rto_seconds"))
		},
	},
	view(WaitTimeFormula, "percentile_wait_seconds", "Steady-state wait percentile of an M/M/c queue (Erlang C)",
		"Returns the wait, in seconds, that `percentile` of messages do not exceed at steady state: "+
			"`max(0, ln(C / (1 − percentile)) / (consumers × per_consumer_rate − arrival_rate))`, where `C` is the Erlang C probability of waiting, "+
			"computed with the Erlang B recursion so that it stays accurate for very large fleets. "+
			"Null when the queue is unstable (`arrival_rate ≥ consumers × per_consumer_rate`): it has no steady state. "+
			"Matches `percentile_wait_seconds` of the `queuecap_wait_time` data source.",
		[]string{"arrival_rate", "per_consumer_rate", "consumers", "percentile"}, "percentile_wait_seconds", nil),
	view(ReplayBudgetFormula, "replay_jobs_per_second", "Rate at which a dead-letter queue may be replayed beside live work",
		"Returns `(downstream_limit − live_usage − retry_usage − safety_margin × downstream_limit) / calls_per_job`, in jobs per second: "+
			"what live work, its retries and the safety margin leave of a shared downstream limit. "+
			"`0` when nothing is left (the `queuecap_replay_budget` data source also warns then; a function cannot). "+
			"Matches `replay_jobs_per_second` of the `queuecap_replay_budget` data source.",
		[]string{"downstream_limit", "live_usage", "retry_usage", "calls_per_job", "safety_margin"}, "replay_jobs_per_second", nil),
	fleetPlanFunction,
	prometheusRulesFunction,
	AlarmPlanFunction,
	DrainPlan,
	RetryStormPlan,
	WaitTimePlan,
	TTLBacklogPlan,
	ReplayBudgetPlan,
	QueueSettingsFunction,
}

func required(in Input) Input { in.Required, in.Default = true, nil; return in }

func withBacklog() Input { return *RetryStorm.Input("backlog") }

// FunctionNamed returns the provider function of that name, or nil.
func FunctionNamed(name string) *Function {
	for _, f := range Functions {
		if f.Name == name {
			return f
		}
	}
	return nil
}
