// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Defaults of the Prometheus rule group: the seeds' metric names and
// label, their 10-minute rate window and Prometheus's own one-minute
// evaluation interval.
const (
	DefaultDepthMetric               = "queue_depth"
	DefaultEnqueuedMetric            = "jobs_enqueued_total"
	DefaultCompletedMetric           = "jobs_completed_total"
	DefaultQueueLabel                = "queue"
	DefaultRateWindowSeconds         = 600
	DefaultEvaluationIntervalSeconds = 60
	DefaultRuleGroupName             = "queuecap"
	DefaultAlertSeverity             = "page"
	// drainSlowForSeconds is how long the drain must stay slower than the
	// RTO before the alert fires, the seeds' 10 minutes.
	drainSlowForSeconds = 600
)

// How the projected-depth alert extrapolates the depth.
const (
	ProjectionPredictLinear = "predict_linear"
	ProjectionDeriv         = "deriv"
)

// PrometheusInput is what the Prometheus rules are derived from.
type PrometheusInput struct {
	ArrivalRate            float64 // λ, msg/s
	Retries                Retries // amplify λ to λ_eff = λ · (1 + r · k)
	SLASeconds             float64
	PerConsumerRate        float64 // μ
	RTOSeconds             float64
	TTLSeconds             float64 // 0 for none
	ProvisioningLagSeconds float64 // L
	// DepthFloor is the depth below which not draining is noise; nil is
	// μ × EvaluationIntervalSeconds.
	DepthFloor      *float64
	DepthMetric     string // gauge of messages waiting
	EnqueuedMetric  string // counter of arrivals
	CompletedMetric string // counter of completions
	AgeMetric       string // gauge of the oldest message's age in seconds; "" for no age alert
	QueueLabel      string
	QueueName       string // value of QueueLabel the rules select; "" for every queue
	// GroupName is the rule group's name; "" is DefaultRuleGroupName, or
	// DefaultRuleGroupName-QueueName with a queue.
	GroupName                 string
	RateWindowSeconds         int64
	EvaluationIntervalSeconds int64
	Projection                string // ProjectionPredictLinear or ProjectionDeriv
	Severity                  string // severity label of every alert; "" for none
}

// PrometheusRule is one alerting rule.
type PrometheusRule struct {
	Name       string // snake_case, as queuecap_alarm_thresholds names its alarm
	Alert      string
	Expr       string
	ForSeconds int64 // 0: fires at the first evaluation that matches
	Threshold  float64
	Labels     map[string]string
	// Annotations are summary and description.
	Annotations map[string]string
}

// PrometheusRuleGroup is one rule group and the numbers in it.
type PrometheusRuleGroup struct {
	Name                      string
	EvaluationIntervalSeconds int64
	EffectiveArrivalRate      float64 // λ_eff
	MaxDepth                  float64 // λ_eff · SLA
	SLAExceedsTTL             *bool   // SLA ≥ TTL; nil without a TTL
	DepthFloor                float64
	// NetRateClamp is the least net rate the drain time divides by,
	// DepthFloor / RTO: depth / max(net, clamp) > RTO then holds exactly
	// when depth > DepthFloor and depth / net > RTO (or net ≤ 0).
	NetRateClamp      float64
	NetRateExpression string
	Rules             []PrometheusRule
	// YAML is a Prometheus rule file holding the group.
	YAML string
}

// PrometheusRules derives Prometheus alerting rules from declared rates,
// the same arithmetic as AlarmThresholds (the same SLA depth, from the
// same λ_eff):
//   - not draining: completions minus arrivals ≤ 0 while the depth is above
//     a floor, for 15 minutes;
//   - drain slower than the RTO: depth over the net rate, clamped at
//     floor / RTO, above the RTO;
//   - depth above λ_eff · SLA (Little's law; retried messages arrive
//     again, so they count);
//   - the oldest message older than the SLA, when an age metric is named;
//   - depth projected by the provisioning lag above λ_eff · SLA.
func PrometheusRules(in PrometheusInput) (PrometheusRuleGroup, error) {
	var g PrometheusRuleGroup
	if err := checkNonNegative("arrival_rate", in.ArrivalRate); err != nil {
		return g, err
	}
	for _, c := range []struct {
		field string
		v     float64
	}{{"sla_seconds", in.SLASeconds}, {"per_consumer_rate", in.PerConsumerRate}, {"rto_seconds", in.RTOSeconds}} {
		if err := checkPositive(c.field, c.v); err != nil {
			return g, err
		}
	}
	if in.TTLSeconds != 0 {
		if err := checkPositive("ttl_seconds", in.TTLSeconds); err != nil {
			return g, err
		}
	}
	if err := checkNonNegative("provisioning_lag_seconds", in.ProvisioningLagSeconds); err != nil {
		return g, err
	}
	for _, c := range []struct {
		field string
		v     int64
	}{{"rate_window_seconds", in.RateWindowSeconds}, {"evaluation_interval_seconds", in.EvaluationIntervalSeconds}} {
		if c.v < 1 || c.v > SecondsPerDay {
			return g, inputErr(c.field, "must be a whole number of seconds from 1 to %d, got %d", SecondsPerDay, c.v)
		}
	}
	for _, c := range []struct{ field, name string }{
		{"depth_metric", in.DepthMetric}, {"enqueued_metric", in.EnqueuedMetric}, {"completed_metric", in.CompletedMetric},
	} {
		if err := checkMetricName(c.field, c.name); err != nil {
			return g, err
		}
	}
	if in.AgeMetric != "" {
		if err := checkMetricName("age_metric", in.AgeMetric); err != nil {
			return g, err
		}
	}
	if err := checkLabelName("queue_label", in.QueueLabel); err != nil {
		return g, err
	}
	projection := in.Projection
	if projection == "" {
		projection = ProjectionPredictLinear
	}
	if projection != ProjectionPredictLinear && projection != ProjectionDeriv {
		return g, inputErr("projection", "must be %q or %q, got %s", ProjectionPredictLinear, ProjectionDeriv, Quote(projection))
	}

	var err error
	if g.EffectiveArrivalRate, g.MaxDepth, err = effectiveSLADepth(in.ArrivalRate, in.Retries, in.SLASeconds); err != nil {
		return g, err
	}
	g.SLAExceedsTTL = slaExceedsTTL(in.SLASeconds, in.TTLSeconds)
	g.EvaluationIntervalSeconds = in.EvaluationIntervalSeconds
	// floorR is the depth floor exactly: the clamp is rounded once from it,
	// not from the floor already rounded to 15 digits.
	var floorR *big.Rat
	if in.DepthFloor != nil {
		if err := checkNonNegative("not_draining_depth_floor", *in.DepthFloor); err != nil {
			return g, err
		}
		g.DepthFloor = *in.DepthFloor
		floorR = dec(g.DepthFloor)
	} else {
		floorR = mul(dec(in.PerConsumerRate), ratInt(in.EvaluationIntervalSeconds))
		g.DepthFloor = float(floorR)
		if err := checkResult("per_consumer_rate", "the not-draining depth floor per_consumer_rate × evaluation_interval_seconds", g.DepthFloor); err != nil {
			return g, err
		}
	}
	g.NetRateClamp = float(quo(floorR, dec(in.RTOSeconds)))
	if err := checkResult("rto_seconds", "the net rate clamp not_draining_depth_floor / rto_seconds", g.NetRateClamp); err != nil {
		return g, err
	}
	g.Name = in.GroupName
	if g.Name == "" {
		g.Name = DefaultRuleGroupName
		if in.QueueName != "" {
			g.Name += "-" + in.QueueName
		}
	}

	q := in.QueueLabel
	sel := ""
	if in.QueueName != "" {
		sel = "{" + q + "=" + strconv.Quote(in.QueueName) + "}"
	}
	window := promDuration(in.RateWindowSeconds)
	depth := fmt.Sprintf("sum by (%s) (%s%s)", q, in.DepthMetric, sel)
	rateOf := func(metric string) string {
		return fmt.Sprintf("sum by (%s) (rate(%s%s[%s]))", q, metric, sel, window)
	}
	g.NetRateExpression = rateOf(in.CompletedMetric) + " - " + rateOf(in.EnqueuedMetric)
	floor, maxDepth, lag := formatNumber(g.DepthFloor), formatNumber(g.MaxDepth), formatNumber(in.ProvisioningLagSeconds)
	queue := "{{ $labels." + q + " }}"
	slaDepthWhy := fmt.Sprintf("%s = %s msg/s × %s s SLA", show(g.MaxDepth), show(g.EffectiveArrivalRate), show(in.SLASeconds))
	if in.Retries.amplification() != ratOne {
		// λ_eff and where it comes from: retried messages arrive again.
		slaDepthWhy += fmt.Sprintf(" (the %s msg/s arriving, × (1 + %s × %s) for retries)",
			show(in.ArrivalRate), show(in.Retries.Rate), show(in.Retries.Average))
	}
	netWhy := fmt.Sprintf("rate of %s minus rate of %s over %s", in.CompletedMetric, in.EnqueuedMetric, window)
	floorWhy := show(g.DepthFloor) + " messages"
	if in.DepthFloor == nil {
		floorWhy += fmt.Sprintf(" (what one consumer clears in an evaluation interval, %s msg/s × %d s)", show(in.PerConsumerRate), in.EvaluationIntervalSeconds)
	}
	labels := map[string]string{}
	if in.Severity != "" {
		labels["severity"] = in.Severity
	}

	g.Rules = []PrometheusRule{
		{
			Name: "not_draining", Alert: "QueueNotDraining", ForSeconds: notDrainingWindowSeconds, Threshold: g.DepthFloor,
			Expr: depth + " > " + floor + "\nand on (" + q + ")\n(" + g.NetRateExpression + ") <= 0",
			Annotations: map[string]string{
				"summary": queue + ": not draining for " + promDuration(notDrainingWindowSeconds),
				"description": fmt.Sprintf("Completions have not exceeded arrivals (net rate = %s ≤ 0) for %s while {{ $value | humanize }} messages wait, "+
					"more than the floor of %s: the backlog never drains.", netWhy, promDuration(notDrainingWindowSeconds), floorWhy),
			},
		},
		{
			Name: "drain_slower_than_rto", Alert: "QueueDrainSlowerThanRTO", ForSeconds: drainSlowForSeconds, Threshold: in.RTOSeconds,
			Expr: depth + "\n/ clamp_min(" + g.NetRateExpression + ", " + formatNumber(g.NetRateClamp) + ")\n> " + formatNumber(in.RTOSeconds),
			Annotations: map[string]string{
				"summary": fmt.Sprintf("%s: drain time above the %s s RTO", queue, show(in.RTOSeconds)),
				"description": fmt.Sprintf("Depth / net rate (%s) = {{ $value | humanizeDuration }}, more than the %s s RTO. "+
					"The net rate is clamped at %s msg/s, the not-draining floor of %s messages over the RTO, "+
					"so a queue above the floor that is not draining fires too, and a shallower one does not.",
					netWhy, show(in.RTOSeconds), show(g.NetRateClamp), show(g.DepthFloor)),
			},
		},
		{
			Name: "depth_above_sla", Alert: "QueueDepthAboveSLA", Threshold: g.MaxDepth,
			Expr: depth + " > " + maxDepth,
			Annotations: map[string]string{
				"summary": fmt.Sprintf("%s: depth above the SLA depth of %s messages", queue, show(g.MaxDepth)),
				"description": fmt.Sprintf("{{ $value | humanize }} messages wait, more than %s: by Little's law a message arriving now waits longer than the %s s SLA.",
					slaDepthWhy, show(in.SLASeconds)),
			},
		},
	}
	if in.AgeMetric != "" {
		g.Rules = append(g.Rules, PrometheusRule{
			Name: "oldest_message_above_sla", Alert: "QueueOldestMessageAboveSLA", Threshold: in.SLASeconds,
			Expr: fmt.Sprintf("max by (%s) (%s%s) > %s", q, in.AgeMetric, sel, formatNumber(in.SLASeconds)),
			Annotations: map[string]string{
				"summary":     fmt.Sprintf("%s: oldest message older than the %s s SLA", queue, show(in.SLASeconds)),
				"description": fmt.Sprintf("The oldest message (%s) has waited {{ $value | humanizeDuration }}, more than the %s s SLA.", in.AgeMetric, show(in.SLASeconds)),
			},
		})
	}
	projected := fmt.Sprintf("sum by (%s) (predict_linear(%s%s[%s], %s))", q, in.DepthMetric, sel, window, lag)
	how := "predict_linear over " + window
	if projection == ProjectionDeriv {
		projected = fmt.Sprintf("%s\n+ sum by (%s) (deriv(%s%s[%s])) * %s", depth, q, in.DepthMetric, sel, window, lag)
		how = "depth + deriv over " + window + " × the lag"
	}
	g.Rules = append(g.Rules, PrometheusRule{
		Name: "projected_depth_above_sla", Alert: "QueueProjectedDepthAboveSLA", Threshold: g.MaxDepth,
		Expr: projected + "\n> " + maxDepth,
		Annotations: map[string]string{
			"summary": fmt.Sprintf("%s: depth projected %s s ahead above the SLA depth of %s messages", queue, show(in.ProvisioningLagSeconds), show(g.MaxDepth)),
			"description": fmt.Sprintf("Depth projected by the %s s provisioning lag (%s) is {{ $value | humanize }}, more than %s: "+
				"consumers started now arrive in time, started when the depth itself crosses the line they arrive %s s late.",
				show(in.ProvisioningLagSeconds), how, slaDepthWhy, show(in.ProvisioningLagSeconds)),
		},
	})
	for i := range g.Rules {
		g.Rules[i].Labels = labels
	}
	g.YAML = ruleFileYAML(g)
	return g, nil
}

// checkMetricName accepts a Prometheus metric name, [a-zA-Z_:][a-zA-Z0-9_:]*.
func checkMetricName(field, name string) error {
	if !promName(name, true) {
		return inputErr(field, "must be a Prometheus metric name (letters, digits, _ and :, not starting with a digit), got %s", Quote(name))
	}
	return nil
}

// checkLabelName accepts a Prometheus label name that is not reserved:
// [a-zA-Z_][a-zA-Z0-9_]*, not starting with __.
func checkLabelName(field, name string) error {
	if !promName(name, false) || strings.HasPrefix(name, "__") {
		return inputErr(field, "must be a Prometheus label name (letters, digits and _, not starting with a digit or __), got %s", Quote(name))
	}
	return nil
}

func promName(s string, colon bool) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'):
		case r >= '0' && r <= '9' && i > 0:
		case r == ':' && colon:
		default:
			return false
		}
	}
	return true
}

// promDuration writes whole seconds as a Prometheus duration in the
// largest unit that divides them: 900 is 15m, 90 is 90s.
func promDuration(seconds int64) string {
	switch {
	case seconds%3600 == 0:
		return strconv.FormatInt(seconds/3600, 10) + "h"
	case seconds%60 == 0:
		return strconv.FormatInt(seconds/60, 10) + "m"
	}
	return strconv.FormatInt(seconds, 10) + "s"
}

// show writes a number for a sentence: whole numbers in full, others to
// four significant digits (13.33) of the decimal v reads as, halves away
// from zero. FormatFloat alone would round the binary value, half to
// even: 9.4545 would be 9.454 and 1234.5 a whole-looking 1234.
func show(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return formatNumber(v)
	}
	s := strconv.FormatFloat(fourDigits(v), 'g', 4, 64)
	if strings.Contains(s, "e") {
		return Decimal(v)
	}
	return s
}

// fourDigits is v rounded to four significant digits of the decimal it
// reads as, halves away from zero; v is finite and not 0.
func fourDigits(v float64) float64 {
	abs := new(big.Rat).Abs(dec(v))
	e := decimalExponent(abs)
	f, _ := strconv.ParseFloat(mul(abs, pow10Rat(3-e)).FloatString(0)+"e"+strconv.Itoa(e-3), 64)
	return math.Copysign(f, v)
}

// ruleFileYAML writes the group as a Prometheus rule file. Strings are
// double-quoted with Go's escapes, which YAML reads the same way for
// valid UTF-8; expressions are literal blocks, safe because every line
// starts with a metric name, an aggregation or an operator and holds no
// control characters (the queue name inside is quoted).
func ruleFileYAML(g PrometheusRuleGroup) string {
	var b strings.Builder
	b.WriteString("groups:\n")
	fmt.Fprintf(&b, "  - name: %s\n", strconv.Quote(g.Name))
	fmt.Fprintf(&b, "    interval: %s\n", promDuration(g.EvaluationIntervalSeconds))
	b.WriteString("    rules:\n")
	for _, r := range g.Rules {
		fmt.Fprintf(&b, "      - alert: %s\n", r.Alert)
		b.WriteString("        expr: |-\n")
		for _, line := range strings.Split(r.Expr, "\n") {
			b.WriteString("          " + line + "\n")
		}
		if r.ForSeconds > 0 {
			fmt.Fprintf(&b, "        for: %s\n", promDuration(r.ForSeconds))
		}
		writeYAMLMap(&b, "labels", r.Labels, []string{"severity"})
		writeYAMLMap(&b, "annotations", r.Annotations, []string{"summary", "description"})
	}
	return b.String()
}

func writeYAMLMap(b *strings.Builder, key string, m map[string]string, order []string) {
	if len(m) == 0 {
		return
	}
	b.WriteString("        " + key + ":\n")
	for _, k := range order {
		if v, ok := m[k]; ok {
			fmt.Fprintf(b, "          %s: %s\n", k, strconv.Quote(v))
		}
	}
}

// The object type of one rule of queuecap_prometheus_rules.
var prometheusRuleObject = ObjectOf(
	Attr{Name: "name", Type: String, Description: "Short name of the rule, as `queuecap_alarm_thresholds` names the same alarm: `not_draining`, `drain_slower_than_rto`, `depth_above_sla`, `oldest_message_above_sla`, `projected_depth_above_sla`."},
	Attr{Name: "alert", Type: String, Description: "`alert`, the alert's name."},
	Attr{Name: "expr", Type: String, Description: "`expr`, the PromQL expression."},
	Attr{Name: "for", Type: String, Description: "`for`, how long the expression must hold before the alert fires, as a Prometheus duration. Null for an alert that fires at the first evaluation that matches."},
	Attr{Name: "threshold", Type: Number, Description: "The number the expression compares with: messages for the depth alerts (`not_draining` compares with the depth floor), seconds for the others."},
	Attr{Name: "labels", Type: MapOf(String), Description: "`labels`: `severity`, unless `severity` is empty."},
	Attr{Name: "annotations", Type: MapOf(String), Description: "`annotations`: `summary` and `description`, which state the arithmetic and its numbers."},
)

// PrometheusRulesFormula derives a Prometheus rule group from declared
// rates.
var PrometheusRulesFormula = &Formula{
	Name:    "prometheus_rules",
	Answers: "Prometheus alerting rules (not draining, drain time against the RTO, depth and oldest message above the SLA, projected depth with `predict_linear` or `deriv`) as a rule file for Amazon Managed Prometheus, a PrometheusRule or promtool, and as objects",
	Description: "Prometheus alerting rules for a queue, derived from declared rates instead of hand-picked constants: " +
		"`rule_group_yaml` is a rule file with one group, ready for the `data` of an `aws_prometheus_rule_group_namespace` " +
		"(Amazon Managed Service for Prometheus), the `spec` of a `kubernetes_manifest` PrometheusRule (`yamldecode` it) or a rules file; " +
		"`rules` holds the same rules as objects. Metric and label names are arguments, so the rules fit any exporter.\n\n" +
		"The alerts, each with `summary` and `description` annotations that state the arithmetic:\n\n" +
		"* `QueueNotDraining`: completions minus arrivals (`rate` of `completed_metric` minus `rate` of `enqueued_metric`) at or below 0 " +
		"while the depth is above `not_draining_depth_floor`, `for: 15m`.\n" +
		"* `QueueDrainSlowerThanRTO`: depth over the net rate above `rto_seconds`, `for: 10m`. The net rate goes through `clamp_min` at " +
		"`net_rate_clamp = not_draining_depth_floor / rto_seconds`, so the alert fires exactly when the depth is above the floor and " +
		"`depth / net rate > rto_seconds`, a net rate at or below 0 included (the drain time is then unbounded).\n" +
		"* `QueueDepthAboveSLA`: depth above `max_depth = effective_arrival_rate × sla_seconds`, where `effective_arrival_rate = arrival_rate × (1 + retry_rate × avg_retries)` " +
		"counts retried messages again, as `queuecap_alarm_thresholds` does: the same SLA depth as its `depth_above_sla` alarm. " +
		"By Little's law a message arriving behind that many waits longer than the SLA.\n" +
		"* `QueueOldestMessageAboveSLA` (with `age_metric`): the oldest message's age above `sla_seconds`.\n" +
		"* `QueueProjectedDepthAboveSLA`: depth projected `provisioning_lag_seconds` ahead (`predict_linear`, or depth + `deriv` × lag) above `max_depth`. " +
		"Depth alone is too late by construction: consumers started when it crosses the line arrive `provisioning_lag_seconds` later.\n\n" +
		"Every expression sums by `queue_label`; with `queue_name` every selector matches that queue only.\n\n" +
		"With `ttl_seconds` at or below `sla_seconds`, messages expire before the SLA alerts fire: `sla_exceeds_ttl` is true and the data source warns.",
	Inputs: []Input{
		inArrivalRate, inSLASeconds, inPerConsumerRate,
		{Name: "rto_seconds", Type: Number, Unit: "seconds", Range: AboveZero, Required: true,
			Description: "Time allowed to clear a backlog, in seconds.", Note: "The threshold of `QueueDrainSlowerThanRTO`."},
		withNote(inRetryRate, "With `avg_retries` it raises the arrival rate the SLA depth counts to `arrival_rate × (1 + retry_rate × avg_retries)`: retried messages arrive again."),
		inAvgRetries,
		withNote(inTTLSeconds, slaExceedsTTLNote),
		{Name: "provisioning_lag_seconds", Type: Number, Unit: "seconds", Range: AtLeastZero, Default: float64(DefaultProvisioningLagSeconds),
			Description: "Time for a new consumer to start taking work, in seconds.", Note: "How far ahead `QueueProjectedDepthAboveSLA` projects the depth."},
		{Name: "not_draining_depth_floor", Type: Number, Unit: "messages", Range: AtLeastZero, Computed: true,
			Description: "Depth below which not draining is noise, in messages.",
			Note:        "When unset, what one consumer clears in one evaluation interval, `per_consumer_rate × evaluation_interval_seconds`."},
		{Name: "depth_metric", Type: String, Default: DefaultDepthMetric, Description: "Gauge of the messages waiting."},
		{Name: "enqueued_metric", Type: String, Default: DefaultEnqueuedMetric, Description: "Counter of the messages that arrived."},
		{Name: "completed_metric", Type: String, Default: DefaultCompletedMetric, Description: "Counter of the messages completed."},
		{Name: "age_metric", Type: String, Description: "Gauge of the oldest waiting message's age, in seconds. Adds `QueueOldestMessageAboveSLA`."},
		{Name: "queue_label", Type: String, Default: DefaultQueueLabel, Description: "Label that names the queue on every metric; the rules sum by it."},
		{Name: "queue_name", Type: String, Description: "Value of `queue_label` the rules select. Without it the rules cover every queue the metrics carry."},
		{Name: "rate_window_seconds", Type: Whole, Unit: "seconds", Range: Between(1, SecondsPerDay), Default: float64(DefaultRateWindowSeconds),
			Description: "Range of `rate`, `deriv` and `predict_linear`, in seconds.", Note: "`600` is `10m`, smoothing second-to-second noise while still following a scale-out."},
		{Name: "evaluation_interval_seconds", Type: Whole, Unit: "seconds", Range: Between(1, SecondsPerDay), Default: float64(DefaultEvaluationIntervalSeconds),
			Description: "The group's evaluation `interval`, in seconds."},
		{Name: "projection", Type: String, OneOf: []string{ProjectionPredictLinear, ProjectionDeriv}, Default: ProjectionPredictLinear,
			Description: "How `QueueProjectedDepthAboveSLA` projects the depth.",
			Note:        "`predict_linear` fits a line to the depth over the window; `deriv` adds its slope times the lag to the current depth."},
		{Name: "severity", Type: String, Default: DefaultAlertSeverity, Description: "The `severity` label of every alert; empty for none."},
		{Name: "group_name", Type: String, Computed: true,
			Description: "Name of the rule group.", Note: "When unset, `queuecap`, or `queuecap-<queue_name>` with `queue_name`."},
	},
	Outputs: []Output{
		{Name: "effective_arrival_rate", Type: Number, Description: effectiveArrivalDoc},
		{Name: "max_depth", Type: Number, Description: "SLA depth, `effective_arrival_rate × sla_seconds`, in messages: the threshold of `QueueDepthAboveSLA` and `QueueProjectedDepthAboveSLA`, " +
			"equal to `queuecap_alarm_thresholds`' `max_depth` for the same queue. Without retries it is `arrival_rate × sla_seconds`."},
		{Name: "sla_exceeds_ttl", Type: Bool, Description: slaExceedsTTLDoc},
		{Name: "net_rate_clamp", Type: Number, Description: "Least net rate `QueueDrainSlowerThanRTO` divides by, `not_draining_depth_floor / rto_seconds`, in messages per second."},
		{Name: "net_rate_expression", Type: String, Description: "PromQL of the net rate, completions minus arrivals per second by `queue_label`: the backlog shrinks only while it is positive."},
		{Name: "rules", Type: ListOf(prometheusRuleObject), Description: "The alerting rules, one object each, in the order of `rule_group_yaml`."},
		{Name: "rule_group_yaml", Type: String, Description: "A Prometheus rule file (`groups:` with one group) holding `rules`, for `aws_prometheus_rule_group_namespace`, a PrometheusRule's `spec` or a file; `promtool check rules` accepts it."},
	},
	Compute: func(a Args) (Result, error) {
		in := PrometheusInput{ArrivalRate: a.Num("arrival_rate"), Retries: retriesOf(a), SLASeconds: a.Num("sla_seconds"), PerConsumerRate: a.Num("per_consumer_rate"),
			RTOSeconds: a.Num("rto_seconds"), TTLSeconds: a.Num("ttl_seconds"), ProvisioningLagSeconds: a.Num("provisioning_lag_seconds"),
			DepthMetric: a.Str("depth_metric"), EnqueuedMetric: a.Str("enqueued_metric"), CompletedMetric: a.Str("completed_metric"),
			AgeMetric: a.Str("age_metric"), QueueLabel: a.Str("queue_label"), QueueName: a.Str("queue_name"), GroupName: a.Str("group_name"),
			RateWindowSeconds: a.Count("rate_window_seconds"), EvaluationIntervalSeconds: a.Count("evaluation_interval_seconds"),
			Projection: a.Str("projection"), Severity: a.Str("severity")}
		if a.Has("group_name") && in.GroupName == "" {
			return Result{}, inputErr("group_name", "must not be empty: leave it unset for the default name")
		}
		if a.Has("not_draining_depth_floor") {
			f := a.Num("not_draining_depth_floor")
			in.DepthFloor = &f
		}
		g, err := PrometheusRules(in)
		if err != nil {
			return Result{}, err
		}
		rules := make([]any, len(g.Rules))
		for i, r := range g.Rules {
			var forDuration any
			if r.ForSeconds > 0 {
				forDuration = promDuration(r.ForSeconds)
			}
			rules[i] = map[string]any{"name": r.Name, "alert": r.Alert, "expr": r.Expr, "for": forDuration, "threshold": r.Threshold,
				"labels": dimensionsValue(r.Labels), "annotations": dimensionsValue(r.Annotations)}
		}
		r := Result{Values: Values{
			"not_draining_depth_floor": g.DepthFloor, "group_name": g.Name,
			"effective_arrival_rate": g.EffectiveArrivalRate, "max_depth": g.MaxDepth, "sla_exceeds_ttl": optional(g.SLAExceedsTTL),
			"net_rate_clamp": g.NetRateClamp, "net_rate_expression": g.NetRateExpression,
			"rules": rules, "rule_group_yaml": g.YAML,
		}}
		if w := SLAExceedsTTLWarning(in.SLASeconds, in.TTLSeconds); w != nil {
			r.Warnings = append(r.Warnings, *w)
		}
		if w := SLAShorterThanServiceWarning(in.SLASeconds, in.PerConsumerRate); w != nil {
			r.Warnings = append(r.Warnings, *w)
		}
		return r, nil
	},
}

// prometheusRulesFunction is the whole queuecap_prometheus_rules as one
// call.
var prometheusRulesFunction = &Function{
	Name: "prometheus_rules", Summary: "The whole queuecap_prometheus_rules rule group as one call",
	Description: "Takes the arguments of the `queuecap_prometheus_rules` data source as one object " +
		"(`arrival_rate`, `sla_seconds`, `per_consumer_rate` and `rto_seconds` required, the others optional with the same defaults; " +
		"numbers may be given as strings) and returns its whole result as one object: the inputs with defaults filled in, " +
		"`effective_arrival_rate`, `max_depth`, `sla_exceeds_ttl`, `net_rate_clamp`, `net_rate_expression`, `rules` and `rule_group_yaml`, each exactly as the data source computes it.",
	Object: PrometheusRulesFormula,
}
