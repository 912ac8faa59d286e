// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// The exact references of queuecap_alarm_thresholds and
// queuecap_prometheus_rules. Every string that embeds a number (alarm
// descriptions, CloudWatch metric math, PromQL, annotations, the rule
// file) is rebuilt here in full from the reference's numbers and compared
// whole, not only the numbers extracted from it.

// num is x rounded once to 15 significant digits and written as metric
// math, PromQL and the alarm descriptions write a number: the shortest
// decimal, without an exponent.
func num(x *big.Rat) string { return strconv.FormatFloat(round15(x), 'f', -1, 64) }

// shown is x as the Prometheus annotations write it for a reader: the
// number the rule reports (x rounded once to 15 significant digits), in
// full when it is whole, otherwise that decimal to four significant
// digits, halves away from zero (13.33, 1235 for 1234.5), trailing zeros
// dropped. A number that four digits would write with an exponent (at
// least 10^4, or below 10^-4) is written in full.
func shown(x *big.Rat) string {
	v := round15(x)
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	d, ok := new(big.Rat).SetString(strconv.FormatFloat(v, 'e', -1, 64)) // the reported decimal
	if !ok {
		panic("shown: " + strconv.FormatFloat(v, 'e', -1, 64))
	}
	r, e := roundSignificant(d, 4)
	if e < -4 || e >= 4 {
		return capacity.Decimal(v)
	}
	s := r.FloatString(max(3-e, 0)) // exact: r has four significant digits
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// roundSignificant is d rounded to n significant digits, halves away from
// zero, and e with 10^e ≤ |result| < 10^(e+1); d ≠ 0.
func roundSignificant(d *big.Rat, n int) (*big.Rat, int) {
	abs := new(big.Rat).Abs(d)
	e := 0
	for abs.Cmp(ratPow10(e)) < 0 {
		e--
	}
	for abs.Cmp(ratPow10(e+1)) >= 0 {
		e++
	}
	scaled := rMul(abs, ratPow10(n-1-e))
	q, m := new(big.Int).QuoRem(scaled.Num(), scaled.Denom(), new(big.Int))
	if new(big.Int).Mul(m, big.NewInt(2)).Cmp(scaled.Denom()) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	r := rQuo(new(big.Rat).SetInt(q), ratPow10(n-1-e))
	if q.Cmp(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)) >= 0 {
		e++ // 9.9996 → 10.00
	}
	if d.Sign() < 0 {
		r.Neg(r)
	}
	return r, e
}

// ratPow10 is 10^n.
func ratPow10(n int) *big.Rat {
	p := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(n, -n))), nil))
	if n < 0 {
		return p.Inv(p)
	}
	return p
}

// wideDecimal is a random decimal of up to 15 significant digits (and up
// to 6 places) half the time, decimalNear's shorter ones otherwise: wide
// enough that products and quotients of the inputs need rounding.
func wideDecimal(rng *rand.Rand) *big.Rat {
	if rng.IntN(2) == 0 {
		return decimalNear(rng)
	}
	return randDecimal(rng, 1+rng.IntN(15), rng.IntN(7))
}

func widePositive(rng *rand.Rand) *big.Rat {
	for {
		if r := wideDecimal(rng); r.Sign() > 0 {
			return r
		}
	}
}

// wideRetries sets retry_rate and avg_retries in about half of the cases,
// a third of them with 12-digit retry rates (λ_eff then has more than 15
// significant digits).
func wideRetries(rng *rand.Rand, in map[string]any) {
	if rng.IntN(3) == 0 {
		in["retry_rate"] = randDecimal(rng, 12, 12)
		in["avg_retries"] = randDecimal(rng, 1+rng.IntN(6), rng.IntN(4))
		return
	}
	randRetries(rng, in)
}

// reciprocalPair is a decimal s whose reciprocal is a decimal too
// (2^a·5^b / 10^p) and that reciprocal: s × (n × 1/s) is exactly n.
func reciprocalPair(rng *rand.Rand) (s, inv *big.Rat) {
	q := new(big.Int).Mul(new(big.Int).Exp(big.NewInt(2), big.NewInt(rng.Int64N(6)), nil), new(big.Int).Exp(big.NewInt(5), big.NewInt(rng.Int64N(6)), nil))
	s = rQuo(new(big.Rat).SetInt(q), ratPow10(rng.IntN(5)))
	return s, new(big.Rat).Inv(s)
}

// tieAt15 is a decimal of exactly 15 significant digits whose last digit
// is odd: half of it, or 1.5 times it, ends in a 5 in the 16th digit, a
// tie for the rounding to 15.
func tieAt15(rng *rand.Rand) *big.Rat {
	m := pow10(14) + rng.Int64N(9*pow10(14))
	m |= 1
	return big.NewRat(m, pow10(rng.IntN(9)))
}

// tieAt4 is a non-whole decimal whose fifth significant digit is its
// last and a 5: a tie for the annotations' four digits.
func tieAt4(rng *rand.Rand) *big.Rat {
	m := 10000 + 10*rng.Int64N(9000) + 5
	return big.NewRat(m, pow10(1+rng.IntN(8)))
}

// isDecimal15 is whether r is a decimal of at most 15 significant digits
// and 12 places, as the cases' arguments are.
func isDecimal15(r *big.Rat) bool {
	scaled := rMul(r, ratPow10(12))
	if !scaled.IsInt() {
		return false
	}
	return len(strings.TrimRight(scaled.Num().String(), "0")) <= 15
}

var queueNames = []string{"orders", "billing-dlq", `or"ders\ #: {{x}} 'q'`, "fïle_ünïcode", "a"}

// missingReasons is why each alarm treats missing data as notBreaching,
// as its description ends.
var missingReasons = map[string]string{
	"depth_above_sla":           "SQS stops publishing ApproximateNumberOfMessagesVisible only for an idle queue, and an idle queue holds no messages, so it is not above the SLA depth.",
	"oldest_message_above_sla":  "ApproximateAgeOfOldestMessage is published only while a message waits, so a missing datapoint is an empty queue, whose oldest message is not late.",
	"projected_depth_above_sla": "without the depth datapoint the queue is idle and empty, so its projected depth is not above the SLA depth either.",
	"drain_slower_than_rto":     "the metrics are missing only while the queue is idle and empty, when there is no backlog to drain.",
	"not_draining":              "the metrics are missing only while the queue is idle and empty, when there is no backlog that fails to drain (a queue holding messages is active and publishes them).",
	"dead_letter_queue_not_empty": "an empty dead-letter queue that nothing reads goes idle and stops publishing; one holding messages is active and publishes them, " +
		"so a missing datapoint is an empty dead-letter queue.",
}

func TestPropertyAlarmThresholds(t *testing.T) {
	checkFamily(t, family{
		formula: capacity.AlarmThresholdsFormula,
		gen: func(rng *rand.Rand, i int) map[string]any {
			in := map[string]any{"arrival_rate": wideDecimal(rng), "sla_seconds": widePositive(rng),
				"per_consumer_rate": widePositive(rng), "rto_seconds": widePositive(rng)}
			wideRetries(rng, in)
			if rng.IntN(3) == 0 {
				in["ttl_seconds"] = widePositive(rng)
			}
			switch rng.IntN(3) {
			case 0:
				in["provisioning_lag_seconds"] = wideDecimal(rng)
			case 1:
				in["provisioning_lag_seconds"] = rInt(0)
			}
			switch rng.IntN(3) {
			case 0:
				in["period_seconds"] = rInt([]int64{10, 20, 30}[rng.IntN(3)])
			case 1:
				in["period_seconds"] = rInt(60 * (1 + rng.Int64N(1440)))
			}
			if rng.IntN(2) == 0 {
				in["queue_name"] = queueNames[rng.IntN(len(queueNames))]
			}
			if rng.IntN(3) == 0 {
				in["dead_letter_queue_name"] = queueNames[rng.IntN(len(queueNames))]
			}
			if rng.IntN(3) > 0 {
				in["fleet"] = []string{"ec2", "ecs"}[rng.IntN(2)]
			}
			if i%5 != 0 {
				return in
			}
			switch (i / 5) % 5 {
			case 0:
				wholeSLADepthAtTTL(rng, in, i)
			case 1:
				// The target SLA × μ a whole number: μ = n / SLA.
				sla, inv := reciprocalPair(rng)
				in["sla_seconds"], in["per_consumer_rate"] = sla, rMul(rInt(1+rng.Int64N(100000)), inv)
			case 2:
				// The depth floor μ × period a whole number with a decimal μ
				// (0.1 × 30): period 10, 20 or 30 and μ a multiple of 0.1.
				in["period_seconds"] = rInt([]int64{10, 20, 30}[rng.IntN(3)])
				in["per_consumer_rate"] = big.NewRat(1+rng.Int64N(100000), 10)
			case 3:
				// λ_eff ends in a 5 in its 16th digit (1.5 × an odd
				// 15-digit λ): a tie for its rounding, and an SLA depth
				// rounded once from it, not from the rounded λ_eff.
				in["arrival_rate"], in["retry_rate"], in["avg_retries"] = tieAt15(rng), big.NewRat(1, 2), rInt(1)
				in["sla_seconds"] = []*big.Rat{rInt(3), big.NewRat(7, 10), rInt(1), tieAt15(rng)}[rng.IntN(4)]
			case 4:
				// Nothing arrives, no lag, and a period that does not divide
				// the 15 minutes of not_draining (8 periods of 120 s).
				in["arrival_rate"], in["provisioning_lag_seconds"] = rInt(0), rInt(0)
				in["period_seconds"] = rInt([]int64{120, 240, 420, 600, 660, 86400}[rng.IntN(6)])
			}
			return in
		},
		ref:   refAlarmThresholds,
		warns: refSLAExceedsTTLWarning,
	}, 2)
}

// refSLAExceedsTTLWarning is the warning of queuecap_alarm_thresholds and
// queuecap_prometheus_rules when the SLA is at or beyond the TTL: it names
// both.
func refSLAExceedsTTLWarning(in map[string]any) [][]string {
	var out [][]string
	sla, ttl := rat(in, "sla_seconds", nil), rat(in, "ttl_seconds", nil)
	if ttl != nil && sla.Cmp(ttl) >= 0 {
		out = append(out, []string{"Messages expire before the SLA alarm fires",
			"sla_seconds = " + num(sla) + " is at or beyond ttl_seconds = " + num(ttl) + ": ", "messages are lost to the TTL without an SLA alarm"})
	}
	// An SLA shorter than one message's processing time, 1 / μ.
	if service := rQuo(rInt(1), rat(in, "per_consumer_rate", nil)); sla.Cmp(service) < 0 {
		out = append(out, []string{"sla_seconds is shorter than one message's processing time",
			"sla_seconds = " + num(sla) + " s, but one consumer takes 1 / per_consumer_rate = " + num(service) + " s for one message"})
	}
	return out
}

// refAlarmThresholds is every output of queuecap_alarm_thresholds.
func refAlarmThresholds(in map[string]any) map[string]any {
	sla, mu, rto := rat(in, "sla_seconds", nil), rat(in, "per_consumer_rate", nil), rat(in, "rto_seconds", nil)
	eff := effArrival(in)
	maxDepth := rMul(eff, sla) // λ_eff × SLA, exactly, rounded once
	lag := rat(in, "provisioning_lag_seconds", rInt(capacity.DefaultProvisioningLagSeconds))
	period := rat(in, "period_seconds", rInt(capacity.DefaultPeriodSeconds))
	periodN := period.Num().Int64()
	floor := rMul(mu, period)
	// not_draining looks at whole periods covering 15 minutes.
	windowPeriods := rCeil(rQuo(rInt(900), period)).Num().Int64()
	countMetric := "GroupInServiceInstances"
	if in["fleet"] == "ecs" {
		countMetric = "RunningTaskCount"
	}
	var exceeds any
	if ttl := rat(in, "ttl_seconds", nil); ttl != nil {
		exceeds = sla.Cmp(ttl) >= 0
	}
	dims := map[string]any{}
	if q, _ := in["queue_name"].(string); q != "" {
		dims["QueueName"] = q
	}
	metric := func(name, stat string, dims map[string]any) map[string]any {
		return map[string]any{"metric_name": name, "namespace": "AWS/SQS", "stat": stat, "period": periodN, "dimensions": dims}
	}
	metricQuery := func(id, name, stat, label string) map[string]any {
		return map[string]any{"id": id, "expression": nil, "label": label, "return_data": false, "metric": metric(name, stat, dims)}
	}
	exprQuery := func(id, expr, label string) map[string]any {
		return map[string]any{"id": id, "expression": expr, "label": label, "return_data": true, "metric": nil}
	}
	depth := metricQuery("depth", "ApproximateNumberOfMessagesVisible", "Maximum", "Visible messages")
	sent := metricQuery("sent", "NumberOfMessagesSent", "Sum", "Messages sent per period")
	deleted := metricQuery("deleted", "NumberOfMessagesDeleted", "Sum", "Messages deleted per period")
	alarm := func(name, desc, op string, threshold any, periods int64) map[string]any {
		return map[string]any{"name": name, "description": desc + " Missing data is treated as notBreaching: " + missingReasons[name],
			"comparison_operator": op, "threshold": threshold, "evaluation_periods": periods, "datapoints_to_alarm": periods,
			"treat_missing_data": "notBreaching",
			"metric_name":        nil, "namespace": nil, "statistic": nil, "period": nil, "dimensions": nil, "metric_queries": []any{}}
	}
	single := func(a map[string]any, m map[string]any) map[string]any {
		a["metric_name"], a["namespace"], a["statistic"], a["period"], a["dimensions"] = m["metric_name"], m["namespace"], m["stat"], m["period"], m["dimensions"]
		return a
	}
	withQueries := func(a map[string]any, queries ...any) map[string]any {
		a["metric_queries"] = queries
		return a
	}

	projected := "depth + RATE(depth) * " + num(lag)
	drainExpr := "IF(deleted - sent > 0, depth * PERIOD(deleted) / (deleted - sent), 0)"
	notDraining := "IF(deleted - sent <= 0 AND depth > " + num(floor) + ", 1, 0)"
	alarms := []any{
		single(alarm("depth_above_sla",
			"Depth above "+num(maxDepth)+" messages: at "+num(eff)+" msg/s a message arriving now waits longer than the "+num(sla)+" s SLA (Little's law).",
			"GreaterThanThreshold", maxDepth, 1), metric("ApproximateNumberOfMessagesVisible", "Maximum", dims)),
		single(alarm("oldest_message_above_sla", "The oldest message has waited longer than the "+num(sla)+" s SLA.",
			"GreaterThanThreshold", sla, 1), metric("ApproximateAgeOfOldestMessage", "Maximum", dims)),
		withQueries(alarm("projected_depth_above_sla",
			"Depth projected "+num(lag)+" s ahead (the provisioning lag) by its rate of change exceeds "+num(maxDepth)+
				" messages: scale now, new consumers arrive too late otherwise.",
			"GreaterThanThreshold", maxDepth, 1), depth, exprQuery("projected", projected, "Depth projected by the provisioning lag")),
		withQueries(alarm("drain_slower_than_rto",
			"At the current net drain rate (deleted − sent) the backlog takes longer than the "+num(rto)+" s RTO to clear.",
			"GreaterThanThreshold", rto, 3), depth, sent, deleted, exprQuery("drain_seconds", drainExpr, "Seconds to drain")),
		withQueries(alarm("not_draining",
			"Completions have not exceeded arrivals for "+num(rMul(rInt(windowPeriods), period))+" s while more than "+num(floor)+
				" messages wait: the backlog is not draining.",
			"GreaterThanOrEqualToThreshold", rInt(1), windowPeriods), depth, sent, deleted, exprQuery("not_draining", notDraining, "Not draining")),
	}
	if dlq, _ := in["dead_letter_queue_name"].(string); dlq != "" {
		alarms = append(alarms, single(alarm("dead_letter_queue_not_empty",
			"More than 0 visible messages: messages reached the dead-letter queue, the alarm's QueueName dimension. "+
				"NumberOfMessagesSent does not count redrives, so the alarm reads the visible messages.",
			"GreaterThanThreshold", rInt(0), 1), metric("ApproximateNumberOfMessagesVisible", "Maximum", map[string]any{"QueueName": dlq})))
	}
	return map[string]any{
		"effective_arrival_rate": eff, "max_depth": maxDepth, "oldest_message_age_seconds": sla, "sla_exceeds_ttl": exceeds,
		"backlog_per_consumer_target": rMul(sla, mu), "backlog_per_consumer_metric": countMetric,
		"projected_depth_expression": projected, "projected_depth_threshold": maxDepth,
		"drain_seconds_expression": drainExpr, "drain_seconds_threshold": rto,
		"not_draining_expression": notDraining, "not_draining_depth_floor": floor,
		"alarms": alarms,
	}
}

func TestPropertyPrometheusRules(t *testing.T) {
	checkFamily(t, family{
		formula: capacity.PrometheusRulesFormula,
		gen: func(rng *rand.Rand, i int) map[string]any {
			in := map[string]any{"arrival_rate": wideDecimal(rng), "sla_seconds": widePositive(rng),
				"per_consumer_rate": widePositive(rng), "rto_seconds": widePositive(rng)}
			wideRetries(rng, in)
			if rng.IntN(3) == 0 {
				in["ttl_seconds"] = widePositive(rng)
			}
			switch rng.IntN(3) {
			case 0:
				in["provisioning_lag_seconds"] = wideDecimal(rng)
			case 1:
				in["provisioning_lag_seconds"] = rInt(0)
			}
			if rng.IntN(3) == 0 {
				in["not_draining_depth_floor"] = wideDecimal(rng)
			}
			if rng.IntN(2) == 0 {
				in["evaluation_interval_seconds"] = rInt(1 + rng.Int64N(86400))
				if rng.IntN(2) == 0 {
					in["evaluation_interval_seconds"] = rInt([]int64{1, 7, 15, 30, 60, 90, 120, 3600, 7200, 86400}[rng.IntN(10)])
				}
			}
			if rng.IntN(2) == 0 {
				in["rate_window_seconds"] = rInt([]int64{1, 45, 60, 300, 600, 3599, 3600, 5400, 86400}[rng.IntN(9)])
			}
			for _, m := range []struct{ name, other string }{{"depth_metric", "sqs:depth"}, {"enqueued_metric", "rabbitmq_published_total"},
				{"completed_metric", "_acked_total"}, {"age_metric", "queue_oldest_age_seconds"}} {
				if rng.IntN(3) == 0 {
					in[m.name] = m.other
				}
			}
			if rng.IntN(3) == 0 {
				in["queue_label"] = []string{"topic", "_q9"}[rng.IntN(2)]
			}
			if rng.IntN(2) == 0 {
				in["queue_name"] = queueNames[rng.IntN(len(queueNames))]
			}
			if rng.IntN(4) == 0 {
				in["group_name"] = []string{"team: \"payments\"", "g"}[rng.IntN(2)]
			}
			if rng.IntN(2) == 0 {
				in["projection"] = []string{"predict_linear", "deriv"}[rng.IntN(2)]
			}
			if rng.IntN(3) == 0 {
				in["severity"] = []string{"", "ticket", "page"}[rng.IntN(3)]
			}
			if i%5 != 0 {
				return in
			}
			switch (i / 5) % 6 {
			case 0:
				wholeSLADepthAtTTL(rng, in, i)
			case 1:
				// The default floor μ × interval a whole number with a
				// decimal μ (0.1 × 30), and the clamp floor / RTO a whole
				// number too: RTO = floor / k, k = 2^a·5^b.
				delete(in, "not_draining_depth_floor")
				n := []int64{10, 20, 30, 60, 90}[rng.IntN(5)]
				in["evaluation_interval_seconds"] = rInt(n)
				mu := big.NewRat(1+rng.Int64N(100000), 10)
				in["per_consumer_rate"] = mu
				_, inv := reciprocalPair(rng)
				if rto := rMul(rMul(mu, rInt(n)), inv); isDecimal15(rto) {
					in["rto_seconds"] = rto
				}
			case 2:
				// The clamp ends in a 5 in its 16th digit: an odd 15-digit
				// floor over an RTO of 2 (or 0.2, 20).
				in["not_draining_depth_floor"] = tieAt15(rng)
				in["rto_seconds"] = []*big.Rat{rInt(2), big.NewRat(2, 10), rInt(20)}[rng.IntN(3)]
			case 3:
				// The default floor has more than 15 digits (a 15-digit μ
				// times an interval): the clamp is μ × interval / RTO
				// rounded once, not the rounded floor over the RTO.
				delete(in, "not_draining_depth_floor")
				in["per_consumer_rate"] = tieAt15(rng)
				in["evaluation_interval_seconds"] = rInt([]int64{3, 7, 30, 90, 86399}[rng.IntN(5)])
				in["rto_seconds"] = []*big.Rat{rInt(3), rInt(7), big.NewRat(11, 10), widePositive(rng)}[rng.IntN(4)]
			case 4:
				// Ties for the annotations' four significant digits
				// (1234.5, 2.0005), nothing arriving, no lag.
				in["sla_seconds"], in["rto_seconds"], in["per_consumer_rate"] = tieAt4(rng), tieAt4(rng), tieAt4(rng)
				delete(in, "not_draining_depth_floor")
				if rng.IntN(2) == 0 {
					in["not_draining_depth_floor"] = tieAt4(rng)
				}
				in["provisioning_lag_seconds"] = tieAt4(rng)
				if i%10 == 0 {
					in["arrival_rate"], in["provisioning_lag_seconds"] = rInt(0), rInt(0)
				}
			case 5:
				// λ_eff ends in a 5 in its 16th digit (1.5 × an odd
				// 15-digit λ): a tie for its rounding, and an SLA depth
				// rounded once from it, not from the rounded λ_eff.
				in["arrival_rate"], in["retry_rate"], in["avg_retries"] = tieAt15(rng), big.NewRat(1, 2), rInt(1)
				in["sla_seconds"] = []*big.Rat{rInt(3), big.NewRat(7, 10), rInt(1), tieAt15(rng)}[rng.IntN(4)]
			}
			return in
		},
		ref:   refPrometheusRules,
		warns: refSLAExceedsTTLWarning,
	}, 3)
}

// promDur is whole seconds as a Prometheus duration in the largest of
// h, m and s that divides them.
func promDur(s int64) string {
	switch {
	case s%3600 == 0:
		return strconv.FormatInt(s/3600, 10) + "h"
	case s%60 == 0:
		return strconv.FormatInt(s/60, 10) + "m"
	}
	return strconv.FormatInt(s, 10) + "s"
}

// refPrometheusRules is every output of queuecap_prometheus_rules.
func refPrometheusRules(in map[string]any) map[string]any {
	str := func(name, def string) string {
		if s, ok := in[name].(string); ok {
			return s
		}
		return def
	}
	lambda, sla := rat(in, "arrival_rate", nil), rat(in, "sla_seconds", nil)
	mu, rto := rat(in, "per_consumer_rate", nil), rat(in, "rto_seconds", nil)
	lag := rat(in, "provisioning_lag_seconds", rInt(capacity.DefaultProvisioningLagSeconds))
	interval := rat(in, "evaluation_interval_seconds", rInt(capacity.DefaultEvaluationIntervalSeconds)).Num().Int64()
	window := promDur(rat(in, "rate_window_seconds", rInt(capacity.DefaultRateWindowSeconds)).Num().Int64())
	retryRate, avgRetries := rat(in, "retry_rate", rInt(0)), rat(in, "avg_retries", rInt(0))
	// λ_eff = λ × (1 + r × k): retried messages arrive again, as the
	// CloudWatch alarms count them.
	eff := rMul(lambda, rAdd(rInt(1), rMul(retryRate, avgRetries)))
	maxDepth := rMul(eff, sla) // λ_eff × SLA, exactly, rounded once
	var exceeds any
	if ttl := rat(in, "ttl_seconds", nil); ttl != nil {
		exceeds = sla.Cmp(ttl) >= 0
	}
	floor, defaultFloor := rat(in, "not_draining_depth_floor", nil), false
	if floor == nil {
		floor, defaultFloor = rMul(mu, rInt(interval)), true
	}
	clamp := rQuo(floor, rto) // exactly, rounded once
	depthMetric, enqueued, completed := str("depth_metric", "queue_depth"), str("enqueued_metric", "jobs_enqueued_total"), str("completed_metric", "jobs_completed_total")
	age, q, queueName := str("age_metric", ""), str("queue_label", "queue"), str("queue_name", "")
	severity := str("severity", "page")
	group := str("group_name", "queuecap")
	if _, set := in["group_name"]; !set && queueName != "" {
		group += "-" + queueName
	}
	sel := ""
	if queueName != "" {
		sel = "{" + q + "=" + strconv.Quote(queueName) + "}"
	}
	depth := "sum by (" + q + ") (" + depthMetric + sel + ")"
	rateOf := func(m string) string { return "sum by (" + q + ") (rate(" + m + sel + "[" + window + "]))" }
	net := rateOf(completed) + " - " + rateOf(enqueued)
	labels := map[string]any{}
	if severity != "" {
		labels["severity"] = severity
	}
	queue := "{{ $labels." + q + " }}"
	// Each number as the sentences write it, once.
	showDepth, showSLA, showRTO, showLag := shown(maxDepth), shown(sla), shown(rto), shown(lag)
	showFloor, showClamp := shown(floor), shown(clamp)
	slaDepthWhy := showDepth + " = " + shown(eff) + " msg/s × " + showSLA + " s SLA"
	if rMul(retryRate, avgRetries).Sign() != 0 {
		slaDepthWhy += " (the " + shown(lambda) + " msg/s arriving, × (1 + " + shown(retryRate) + " × " + shown(avgRetries) + ") for retries)"
	}
	netWhy := "rate of " + completed + " minus rate of " + enqueued + " over " + window
	floorWhy := showFloor + " messages"
	if defaultFloor {
		floorWhy += " (what one consumer clears in an evaluation interval, " + shown(mu) + " msg/s × " + strconv.FormatInt(interval, 10) + " s)"
	}

	type rule struct {
		name, alert, expr    string
		forSeconds           int64
		threshold            *big.Rat
		summary, description string
	}
	rules := []rule{
		{"not_draining", "QueueNotDraining", depth + " > " + num(floor) + "\nand on (" + q + ")\n(" + net + ") <= 0", 900, floor,
			queue + ": not draining for 15m",
			"Completions have not exceeded arrivals (net rate = " + netWhy + " ≤ 0) for 15m while {{ $value | humanize }} messages wait, " +
				"more than the floor of " + floorWhy + ": the backlog never drains."},
		{"drain_slower_than_rto", "QueueDrainSlowerThanRTO", depth + "\n/ clamp_min(" + net + ", " + num(clamp) + ")\n> " + num(rto), 600, rto,
			queue + ": drain time above the " + showRTO + " s RTO",
			"Depth / net rate (" + netWhy + ") = {{ $value | humanizeDuration }}, more than the " + showRTO + " s RTO. " +
				"The net rate is clamped at " + showClamp + " msg/s, the not-draining floor of " + showFloor + " messages over the RTO, " +
				"so a queue above the floor that is not draining fires too, and a shallower one does not."},
		{"depth_above_sla", "QueueDepthAboveSLA", depth + " > " + num(maxDepth), 0, maxDepth,
			queue + ": depth above the SLA depth of " + showDepth + " messages",
			"{{ $value | humanize }} messages wait, more than " + slaDepthWhy + ": by Little's law a message arriving now waits longer than the " + showSLA + " s SLA."},
	}
	if age != "" {
		rules = append(rules, rule{"oldest_message_above_sla", "QueueOldestMessageAboveSLA",
			"max by (" + q + ") (" + age + sel + ") > " + num(sla), 0, sla,
			queue + ": oldest message older than the " + showSLA + " s SLA",
			"The oldest message (" + age + ") has waited {{ $value | humanizeDuration }}, more than the " + showSLA + " s SLA."})
	}
	projected, how := "sum by ("+q+") (predict_linear("+depthMetric+sel+"["+window+"], "+num(lag)+"))", "predict_linear over "+window
	if in["projection"] == "deriv" {
		projected = depth + "\n+ sum by (" + q + ") (deriv(" + depthMetric + sel + "[" + window + "])) * " + num(lag)
		how = "depth + deriv over " + window + " × the lag"
	}
	rules = append(rules, rule{"projected_depth_above_sla", "QueueProjectedDepthAboveSLA", projected + "\n> " + num(maxDepth), 0, maxDepth,
		queue + ": depth projected " + showLag + " s ahead above the SLA depth of " + showDepth + " messages",
		"Depth projected by the " + showLag + " s provisioning lag (" + how + ") is {{ $value | humanize }}, more than " + slaDepthWhy + ": " +
			"consumers started now arrive in time, started when the depth itself crosses the line they arrive " + showLag + " s late."})

	// The rule file, written line by line: strings double-quoted with Go's
	// escapes, expressions as literal blocks.
	var y strings.Builder
	y.WriteString("groups:\n  - name: " + strconv.Quote(group) + "\n    interval: " + promDur(interval) + "\n    rules:\n")
	values := make([]any, len(rules))
	for i, r := range rules {
		var forDuration any
		y.WriteString("      - alert: " + r.alert + "\n        expr: |-\n")
		for _, line := range strings.Split(r.expr, "\n") {
			y.WriteString("          " + line + "\n")
		}
		if r.forSeconds > 0 {
			forDuration = promDur(r.forSeconds)
			y.WriteString("        for: " + promDur(r.forSeconds) + "\n")
		}
		if severity != "" {
			y.WriteString("        labels:\n          severity: " + strconv.Quote(severity) + "\n")
		}
		y.WriteString("        annotations:\n          summary: " + strconv.Quote(r.summary) + "\n          description: " + strconv.Quote(r.description) + "\n")
		values[i] = map[string]any{"name": r.name, "alert": r.alert, "expr": r.expr, "for": forDuration, "threshold": r.threshold,
			"labels": labels, "annotations": map[string]any{"summary": r.summary, "description": r.description}}
	}
	return map[string]any{"effective_arrival_rate": eff, "max_depth": maxDepth, "sla_exceeds_ttl": exceeds, "net_rate_clamp": clamp, "net_rate_expression": net, "rules": values, "rule_group_yaml": y.String(),
		// Computed inputs, for the record (checkFamily reads the outputs
		// only; the floor is checked through the threshold and the PromQL).
		"not_draining_depth_floor": floor, "group_name": group}
}

// wholeSLADepthAtTTL makes the SLA depth a whole number of messages, with
// float64's noise (0.32 × 3.125): λ = n / SLA, no retries; and the SLA
// exactly at the TTL, or 0.001 s short of it.
func wholeSLADepthAtTTL(rng *rand.Rand, in map[string]any, i int) {
	sla, inv := reciprocalPair(rng)
	in["sla_seconds"], in["arrival_rate"] = sla, rMul(rInt(rng.Int64N(100000)), inv)
	delete(in, "retry_rate")
	delete(in, "avg_retries")
	in["ttl_seconds"] = sla
	if i%10 == 0 {
		in["ttl_seconds"] = rAdd(sla, big.NewRat(1, 1000))
	}
}
