// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity

import (
	"fmt"
	"math"
	"strconv"
)

// Defaults for alarm generation.
const (
	DefaultProvisioningLagSeconds = 180
	DefaultPeriodSeconds          = 60
	// notDrainingWindowSeconds is how long completions must fail to beat
	// arrivals before the not-draining alarm fires.
	notDrainingWindowSeconds = 900
)

// Fleet kinds, which pick the metric that counts consumers.
const (
	FleetEC2 = "ec2"
	FleetECS = "ecs"
)

// CloudWatch metrics the alarms read. All are documented AWS/SQS metrics
// except the consumer counts, which come from EC2 Auto Scaling group
// metrics and ECS Container Insights.
const (
	metricVisible     = "ApproximateNumberOfMessagesVisible"
	metricAgeOfOldest = "ApproximateAgeOfOldestMessage"
	metricSent        = "NumberOfMessagesSent"
	metricDeleted     = "NumberOfMessagesDeleted"
	namespaceSQS      = "AWS/SQS"
)

// AlarmInput is what the alarm thresholds are derived from.
type AlarmInput struct {
	ArrivalRate            float64 // λ, msg/s
	Retries                Retries // amplify λ to λ_eff = λ · (1 + r · k)
	SLASeconds             float64
	PerConsumerRate        float64 // μ
	RTOSeconds             float64
	TTLSeconds             float64 // 0 for none
	ProvisioningLagSeconds float64 // L, ≥ 0 (DefaultProvisioningLagSeconds when undeclared)
	PeriodSeconds          float64 // DefaultPeriodSeconds when undeclared
	QueueName              string  // QueueName dimension; "" leaves dimensions empty
	DeadLetterQueueName    string  // "" for no dead-letter alarm
	Fleet                  string  // FleetEC2 or FleetECS; "" means FleetEC2
}

// Metric is one CloudWatch metric with its statistic.
type Metric struct {
	Name       string
	Namespace  string
	Stat       string
	Period     int64
	Dimensions map[string]string
}

// MetricQuery is one entry of an alarm's metric math: a metric or an
// expression over other queries' IDs.
type MetricQuery struct {
	ID         string
	Expression string  // "" for a metric
	Metric     *Metric // nil for an expression
	Label      string
	ReturnData bool
}

// Alarm is one recommended aws_cloudwatch_metric_alarm: either a single
// metric (Metric set) or metric math (Queries set).
type Alarm struct {
	Name               string
	Description        string
	ComparisonOperator string
	Threshold          float64
	EvaluationPeriods  int64
	DatapointsToAlarm  int64
	// TreatMissingData is the alarm's treat_missing_data, and
	// MissingDataReason why.
	TreatMissingData  string
	MissingDataReason string
	Metric            *Metric
	Queries           []MetricQuery
}

// AlarmPlan is every threshold and alarm for one queue.
type AlarmPlan struct {
	EffectiveArrivalRate     float64 // λ_eff
	MaxDepth                 float64 // λ_eff · SLA
	OldestMessageAgeSeconds  float64 // SLA
	SLAExceedsTTL            *bool   // SLA ≥ TTL; nil without a TTL
	BacklogPerConsumerTarget float64 // SLA · μ
	// ConsumerCountMetric is what backlog per consumer divides by:
	// GroupInServiceInstances for EC2, RunningTaskCount for ECS.
	ConsumerCountMetric      string
	ProjectedDepthExpression string
	ProjectedDepthThreshold  float64
	DrainSecondsExpression   string
	DrainSecondsThreshold    float64
	NotDrainingExpression    string
	NotDrainingDepthFloor    float64 // μ · period
	ProvisioningLagSeconds   float64
	PeriodSeconds            int64
	Alarms                   []Alarm
}

// Metric math of the generated alarms, over these query IDs: depth is the
// visible messages, sent and deleted the per-period arrivals and
// completions.
const (
	idDepth   = "depth"
	idSent    = "sent"
	idDeleted = "deleted"
)

// AlarmThresholds derives CloudWatch alarm thresholds and metric math from
// declared rates instead of hand-picked constants:
//   - depth above λ_eff · SLA breaches the SLA (Little's law; retried
//     messages arrive again, so they count);
//   - the oldest message older than SLA breaches it directly;
//   - depth projected by the provisioning lag, depth + RATE(depth) · L,
//     above λ · SLA breaches it by the time new consumers start;
//   - depth over the net drain rate above the RTO misses the RTO;
//   - completions not beating arrivals while there is a backlog means it
//     never drains.
func AlarmThresholds(in AlarmInput) (AlarmPlan, error) {
	var p AlarmPlan
	if err := checkNonNegative("arrival_rate", in.ArrivalRate); err != nil {
		return p, err
	}
	for _, c := range []struct {
		field string
		v     float64
	}{{"sla_seconds", in.SLASeconds}, {"per_consumer_rate", in.PerConsumerRate}, {"rto_seconds", in.RTOSeconds}} {
		if err := checkPositive(c.field, c.v); err != nil {
			return p, err
		}
	}
	if in.TTLSeconds != 0 {
		if err := checkPositive("ttl_seconds", in.TTLSeconds); err != nil {
			return p, err
		}
	}
	lag := in.ProvisioningLagSeconds
	if err := checkNonNegative("provisioning_lag_seconds", lag); err != nil {
		return p, err
	}
	period := in.PeriodSeconds
	if err := checkPeriod(period); err != nil {
		return p, err
	}
	fleet := in.Fleet
	if fleet == "" {
		fleet = FleetEC2
	}
	if fleet != FleetEC2 && fleet != FleetECS {
		return p, inputErr("fleet", "must be %q or %q, got %s", FleetEC2, FleetECS, Quote(fleet))
	}

	var err error
	if p.EffectiveArrivalRate, p.MaxDepth, err = effectiveSLADepth(in.ArrivalRate, in.Retries, in.SLASeconds); err != nil {
		return p, err
	}
	if p.BacklogPerConsumerTarget, err = BacklogPerConsumerTarget(in.SLASeconds, in.PerConsumerRate); err != nil {
		return p, err
	}
	p.OldestMessageAgeSeconds = in.SLASeconds
	p.ConsumerCountMetric = "GroupInServiceInstances"
	if fleet == FleetECS {
		p.ConsumerCountMetric = "RunningTaskCount"
	}
	p.SLAExceedsTTL = slaExceedsTTL(in.SLASeconds, in.TTLSeconds)
	p.ProvisioningLagSeconds = lag
	p.PeriodSeconds = int64(period)
	p.NotDrainingDepthFloor = float(mul(dec(in.PerConsumerRate), dec(period)))
	if err := checkResult("per_consumer_rate", "the not-draining depth floor per_consumer_rate × period_seconds", p.NotDrainingDepthFloor); err != nil {
		return p, err
	}

	lagText := formatNumber(lag)
	p.ProjectedDepthExpression = fmt.Sprintf("%s + RATE(%s) * %s", idDepth, idDepth, lagText)
	p.ProjectedDepthThreshold = p.MaxDepth
	// Net drain rate per second is (deleted − sent) / PERIOD; while it is
	// not positive the expression is 0 and the not-draining alarm speaks.
	p.DrainSecondsExpression = fmt.Sprintf("IF(%[1]s - %[2]s > 0, %[3]s * PERIOD(%[1]s) / (%[1]s - %[2]s), 0)", idDeleted, idSent, idDepth)
	p.DrainSecondsThreshold = in.RTOSeconds
	p.NotDrainingExpression = fmt.Sprintf("IF(%s - %s <= 0 AND %s > %s, 1, 0)", idDeleted, idSent, idDepth, formatNumber(p.NotDrainingDepthFloor))

	dims := map[string]string{}
	if in.QueueName != "" {
		dims["QueueName"] = in.QueueName
	}
	sqs := func(name, stat string) *Metric {
		return &Metric{Name: name, Namespace: namespaceSQS, Stat: stat, Period: p.PeriodSeconds, Dimensions: dims}
	}
	depth := MetricQuery{ID: idDepth, Metric: sqs(metricVisible, "Maximum"), Label: "Visible messages"}
	sent := MetricQuery{ID: idSent, Metric: sqs(metricSent, "Sum"), Label: "Messages sent per period"}
	deleted := MetricQuery{ID: idDeleted, Metric: sqs(metricDeleted, "Sum"), Label: "Messages deleted per period"}
	windowPeriods := int64(math.Ceil(notDrainingWindowSeconds / period))

	p.Alarms = []Alarm{
		{
			Name: "depth_above_sla",
			Description: fmt.Sprintf("Depth above %s messages: at %s msg/s a message arriving now waits longer than the %s s SLA (Little's law).",
				formatNumber(p.MaxDepth), formatNumber(p.EffectiveArrivalRate), formatNumber(in.SLASeconds)),
			ComparisonOperator: "GreaterThanThreshold", Threshold: p.MaxDepth, EvaluationPeriods: 1, DatapointsToAlarm: 1,
			Metric: sqs(metricVisible, "Maximum"),
		},
		{
			Name:               "oldest_message_above_sla",
			Description:        fmt.Sprintf("The oldest message has waited longer than the %s s SLA.", formatNumber(in.SLASeconds)),
			ComparisonOperator: "GreaterThanThreshold", Threshold: p.OldestMessageAgeSeconds, EvaluationPeriods: 1, DatapointsToAlarm: 1,
			Metric: sqs(metricAgeOfOldest, "Maximum"),
		},
		{
			Name: "projected_depth_above_sla",
			Description: fmt.Sprintf("Depth projected %s s ahead (the provisioning lag) by its rate of change exceeds %s messages: scale now, new consumers arrive too late otherwise.",
				lagText, formatNumber(p.MaxDepth)),
			ComparisonOperator: "GreaterThanThreshold", Threshold: p.ProjectedDepthThreshold, EvaluationPeriods: 1, DatapointsToAlarm: 1,
			Queries: []MetricQuery{depth, {ID: "projected", Expression: p.ProjectedDepthExpression, Label: "Depth projected by the provisioning lag", ReturnData: true}},
		},
		{
			Name: "drain_slower_than_rto",
			Description: fmt.Sprintf("At the current net drain rate (deleted − sent) the backlog takes longer than the %s s RTO to clear.",
				formatNumber(in.RTOSeconds)),
			ComparisonOperator: "GreaterThanThreshold", Threshold: p.DrainSecondsThreshold, EvaluationPeriods: 3, DatapointsToAlarm: 3,
			Queries: []MetricQuery{depth, sent, deleted, {ID: "drain_seconds", Expression: p.DrainSecondsExpression, Label: "Seconds to drain", ReturnData: true}},
		},
		{
			Name: "not_draining",
			Description: fmt.Sprintf("Completions have not exceeded arrivals for %s s while more than %s messages wait: the backlog is not draining.",
				formatNumber(float64(windowPeriods)*period), formatNumber(p.NotDrainingDepthFloor)),
			ComparisonOperator: "GreaterThanOrEqualToThreshold", Threshold: 1, EvaluationPeriods: windowPeriods, DatapointsToAlarm: windowPeriods,
			Queries: []MetricQuery{depth, sent, deleted, {ID: "not_draining", Expression: p.NotDrainingExpression, Label: "Not draining", ReturnData: true}},
		},
	}
	if in.DeadLetterQueueName != "" {
		p.Alarms = append(p.Alarms, Alarm{
			Name:               "dead_letter_queue_not_empty",
			Description:        "More than 0 visible messages: messages reached the dead-letter queue, the alarm's QueueName dimension. NumberOfMessagesSent does not count redrives, so the alarm reads the visible messages.",
			ComparisonOperator: "GreaterThanThreshold", Threshold: 0, EvaluationPeriods: 1, DatapointsToAlarm: 1,
			Metric: &Metric{Name: metricVisible, Namespace: namespaceSQS, Stat: "Maximum", Period: p.PeriodSeconds,
				Dimensions: map[string]string{"QueueName": in.DeadLetterQueueName}},
		})
	}
	for i := range p.Alarms {
		a := &p.Alarms[i]
		a.TreatMissingData, a.MissingDataReason = MissingNotBreaching, missingReasons[a.Name]
		a.Description += " Missing data is treated as " + a.TreatMissingData + ": " + a.MissingDataReason
	}
	return p, nil
}

// effectiveSLADepth is λ_eff = λ · (1 + r · k) and the SLA depth
// λ_eff · SLA (Little's law; retried messages arrive again, so they
// count), the depth from the exact λ_eff, rounded once: not from λ_eff
// already rounded to 15 digits. queuecap_alarm_thresholds and
// queuecap_prometheus_rules both take it from here, so that the
// CloudWatch alarms and the Prometheus rules of one queue watch the same
// depth. slaSeconds is checked positive.
func effectiveSLADepth(arrivalRate float64, retries Retries, slaSeconds float64) (eff, depth float64, err error) {
	if eff, err = EffectiveArrivalRate(arrivalRate, retries); err != nil {
		return 0, 0, err
	}
	if depth, err = EffectiveSLAMaxDepth(arrivalRate, retries, slaSeconds); err != nil {
		return 0, 0, err
	}
	return eff, depth, nil
}

// slaExceedsTTL is whether the SLA is at or beyond the TTL, when messages
// expire before they are older than the SLA; nil without a TTL (0).
func slaExceedsTTL(slaSeconds, ttlSeconds float64) *bool {
	if ttlSeconds <= 0 {
		return nil
	}
	exceeds := slaSeconds >= ttlSeconds
	return &exceeds
}

// SLAExceedsTTLWarning warns when sla_seconds is at or beyond ttl_seconds
// (sla_exceeds_ttl): messages expire before the SLA alarms fire. nil
// without a TTL (0) or with an SLA below it.
func SLAExceedsTTLWarning(slaSeconds, ttlSeconds float64) *Warning {
	if exceeds := slaExceedsTTL(slaSeconds, ttlSeconds); exceeds == nil || !*exceeds {
		return nil
	}
	sla, ttl := Decimal(slaSeconds), Decimal(ttlSeconds)
	return &Warning{
		Summary: "Messages expire before the SLA alarm fires",
		Detail: fmt.Sprintf("sla_seconds = %s is at or beyond ttl_seconds = %s: a message expires %s s after it arrives, before it has waited longer than the %s s SLA, "+
			"so an alarm on the oldest message's age never fires, and at the declared arrival rate the TTL holds the depth to effective_arrival_rate × ttl_seconds, "+
			"not above the SLA depth, so the depth alarms stay quiet too: messages are lost to the TTL without an SLA alarm. "+
			"Set sla_seconds below ttl_seconds.", sla, ttl, ttl, sla),
	}
}

// MissingNotBreaching is CloudWatch's treat_missing_data for a missing
// datapoint that is within the threshold.
const MissingNotBreaching = "notBreaching"

// Why each of AlarmThresholds' alarms, by name, treats missing data as it
// does (TestEveryAlarmSaysWhyMissingData). SQS publishes its metrics only
// while a queue is active (it holds messages or an API call touched it in
// the last six hours), and ApproximateAgeOfOldestMessage only while a
// message waits: a missing datapoint is an empty, idle queue. "missing" or "ignore" would
// hold such an alarm in INSUFFICIENT_DATA (or its last state) while the
// queue is empty; "breaching" would page for an idle queue.
var missingReasons = map[string]string{
	"depth_above_sla":           "SQS stops publishing ApproximateNumberOfMessagesVisible only for an idle queue, and an idle queue holds no messages, so it is not above the SLA depth.",
	"oldest_message_above_sla":  "ApproximateAgeOfOldestMessage is published only while a message waits, so a missing datapoint is an empty queue, whose oldest message is not late.",
	"projected_depth_above_sla": "without the depth datapoint the queue is idle and empty, so its projected depth is not above the SLA depth either.",
	"drain_slower_than_rto":     "the metrics are missing only while the queue is idle and empty, when there is no backlog to drain.",
	"not_draining":              "the metrics are missing only while the queue is idle and empty, when there is no backlog that fails to drain (a queue holding messages is active and publishes them).",
	"dead_letter_queue_not_empty": "an empty dead-letter queue that nothing reads goes idle and stops publishing; one holding messages is active and publishes them, " +
		"so a missing datapoint is an empty dead-letter queue.",
}

// checkPeriod accepts CloudWatch's alarm periods: 10, 20, 30, or a
// multiple of 60 seconds.
func checkPeriod(period float64) error {
	if !finite(period) || period <= 0 {
		return inputErr("period_seconds", "must be a positive number of seconds, got %v", period)
	}
	switch {
	case period == 10 || period == 20 || period == 30:
	case period >= 60 && math.Mod(period, 60) == 0 && period <= SecondsPerDay:
	default:
		return inputErr("period_seconds", "must be 10, 20, 30 or a multiple of 60 up to 86400, as CloudWatch alarms require, got %v", period)
	}
	return nil
}

// BacklogPerConsumerTarget is the target tracking value AWS recommends for
// queue workers: acceptable latency over processing time per message,
// SLA · μ messages waiting per consumer.
func BacklogPerConsumerTarget(slaSeconds, perConsumerRate float64) (float64, error) {
	if err := checkPositive("sla_seconds", slaSeconds); err != nil {
		return 0, err
	}
	if err := checkPositive("per_consumer_rate", perConsumerRate); err != nil {
		return 0, err
	}
	t := float(mul(dec(slaSeconds), dec(perConsumerRate)))
	if err := checkResult("per_consumer_rate", "the target sla_seconds × per_consumer_rate", t); err != nil {
		return 0, err
	}
	return t, nil
}

// formatNumber writes a number for metric math and descriptions: the
// shortest decimal that reads back as the same float64.
func formatNumber(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
