// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules

import (
	"fmt"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/textfmt"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

// depthAlarmAfterSLA flags a depth alarm whose threshold exceeds the SLA
// depth λ_eff × SLA (Little's law; retried messages arrive again, as the
// headroom formula and queuecap_alarm_thresholds count them): it fires
// only once the SLA is breached.
type depthAlarmAfterSLA struct{ meta }

func newDepthAlarmAfterSLA() model.Rule {
	return depthAlarmAfterSLA{meta{
		name:     "queuecap_depth_alarm_after_sla",
		severity: model.Warning,
		summary:  "A depth alarm on a queue with a declared SLA has a threshold above arrival_rate × sla_seconds (with retries, the effective arrival rate), so it fires only after the SLA is already breached.",
	}}
}

func (depthAlarmAfterSLA) CheckAlarm(a *model.Alarm, r model.Reporter) {
	if !a.Simple || !a.Metrics.Reads(model.MetricVisible) || len(a.Queues) != 1 || !strings.HasPrefix(a.Comparison, "GreaterThan") {
		return
	}
	q := a.Queues[0]
	lambda, sla := q.Rates.ArrivalRate, q.Rates.SLASeconds
	if !lambda.Set || !sla.Set {
		return
	}
	switch {
	case !lambda.Known:
		r.Skip(lambda.Range, "arrival_rate of "+q.Addr+" "+lambda.Unknown())
		return
	case !sla.Known:
		r.Skip(sla.Range, "sla_seconds of "+q.Addr+" "+sla.Unknown())
		return
	case !a.Threshold.Known:
		if a.Threshold.Set {
			r.Skip(a.Threshold.Range, "threshold of "+a.Addr+" "+a.Threshold.Unknown())
		}
		return
	}
	rate, retries, terms, retryFacts, ok := slaArrival(q, a, r)
	if !ok {
		return
	}
	// From the exact λ_eff, as alarm_thresholds' max_depth: a threshold
	// queuecap computed is never above the depth the rule judges it by.
	depth, err := capacity.EffectiveSLAMaxDepth(lambda.V, sla.V, retries)
	depth = capacity.Clean(depth) // judged as stated: 0.7 × 3 is 2.1, not 2.0999999999999996
	if err != nil || a.Threshold.V <= depth || rate == 0 {
		return
	}
	wait, _, err := capacity.WaitSeconds(a.Threshold.V, rate)
	if err != nil {
		return
	}
	// Advice that clears the finding: 1,589.875 is lowered to 1,589.87.
	summary := fmt.Sprintf("threshold %s fires after the %s s SLA is already missed: lower it to %s, the SLA depth", n(a.Threshold.V), n(sla.V), textfmt.AtMost(depth))
	r.Report(a.Threshold.Range, summary, fmt.Sprintf("threshold %s exceeds the SLA depth %s msg/s × %s s = %s (Little's law): when it fires, a message arriving behind %s already waits %s / %s = %s s, over the %s s SLA",
		num(a.Threshold.V), terms, num(sla.V), messages(depth), messages(a.Threshold.V), num(a.Threshold.V), num(rate), num(wait), num(sla.V)),
		append(append([]model.Fact{fact("threshold", a.Threshold.V), fact("arrival_rate", lambda.V)}, retryFacts...),
			fact("sla_seconds", sla.V), fact("sla_max_depth", depth), fact("wait_seconds", wait))...)
}

// slaArrival is the arrival rate the SLA depth counts: the declared one,
// amplified to λ_eff by the retries the queue declares, else by those of
// the queuecap call the threshold came from (alarm_plan with retry_rate),
// and those retries. It says how it was formed, and returns false (with a
// skip) when a declared retry rate is not known.
func slaArrival(q *model.Queue, a *model.Alarm, r model.Reporter) (float64, capacity.Retries, string, []model.Fact, bool) {
	lambda := q.Rates.ArrivalRate.V
	rate, average := q.Rates.RetryRate, q.Rates.AvgRetries
	if !rate.Set && !average.Set {
		rate, average = a.ThresholdRates.RetryRate, a.ThresholdRates.AvgRetries
	}
	retries, ok := knownRetries(q, rate, average, r)
	if !ok {
		return 0, retries, "", nil, false
	}
	if retries.Rate == 0 || retries.Average == 0 {
		return lambda, capacity.Retries{}, num(lambda), nil, true
	}
	eff, ok := effectiveArrival(q, lambda, retries, r)
	if !ok {
		return 0, retries, "", nil, false
	}
	return eff, retries, fmt.Sprintf("%s × (1 + %s × %s) = %s", num(lambda), num(retries.Rate), num(retries.Average), num(eff)),
		[]model.Fact{fact("retry_rate", retries.Rate), fact("avg_retries", retries.Average), fact("effective_arrival_rate", eff)}, true
}
