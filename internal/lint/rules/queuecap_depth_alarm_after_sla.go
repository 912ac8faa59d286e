package rules

import (
	"fmt"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
)

// depthAlarmAfterSLA flags a depth alarm whose threshold exceeds the SLA
// depth λ × SLA (Little's law): it fires only once the SLA is breached.
type depthAlarmAfterSLA struct{ meta }

func newDepthAlarmAfterSLA() lint.Rule {
	return depthAlarmAfterSLA{meta{
		name:     "queuecap_depth_alarm_after_sla",
		severity: lint.Warning,
		summary:  "A depth alarm on a queue with a declared SLA has a threshold above arrival_rate × sla_seconds, so it fires only after the SLA is already breached.",
	}}
}

func (depthAlarmAfterSLA) Check(m *lint.Model, r lint.Reporter) {
	for _, a := range m.Alarms {
		if !a.Simple || !a.Metrics.Reads(lint.MetricVisible) || len(a.Queues) != 1 || !strings.HasPrefix(a.Comparison, "GreaterThan") {
			continue
		}
		q := a.Queues[0]
		lambda, sla := q.Rates.ArrivalRate, q.Rates.SLASeconds
		if !lambda.Set || !sla.Set {
			continue
		}
		switch {
		case !lambda.Known:
			r.Skip(lambda.Range, "arrival_rate of "+q.Addr+" is not known before apply")
			continue
		case !sla.Known:
			r.Skip(sla.Range, "sla_seconds of "+q.Addr+" is not known before apply")
			continue
		case !a.Threshold.Known:
			if a.Threshold.Set {
				r.Skip(a.Threshold.Range, "threshold of "+a.Addr+" is not known before apply")
			}
			continue
		}
		depth, err := capacity.SLAMaxDepth(lambda.V, sla.V)
		depth = capacity.Clean(depth) // judged as stated: 0.7 × 3 is 2.1, not 2.0999999999999996
		if err != nil || a.Threshold.V <= depth || lambda.V == 0 {
			continue
		}
		wait, _, err := capacity.WaitSeconds(a.Threshold.V, lambda.V)
		if err != nil {
			continue
		}
		summary := fmt.Sprintf("threshold %s fires after the %s s SLA is already missed: lower it to %s, the SLA depth", n(a.Threshold.V), n(sla.V), n(depth))
		r.Report(a.Threshold.Range, summary, fmt.Sprintf("threshold %s exceeds the SLA depth %s msg/s × %s s = %s (Little's law): when it fires, a message arriving behind %s already waits %s / %s = %s s, over the %s s SLA",
			num(a.Threshold.V), num(lambda.V), num(sla.V), messages(depth), messages(a.Threshold.V), num(a.Threshold.V), num(lambda.V), num(wait), num(sla.V)),
			fact("threshold", a.Threshold.V), fact("arrival_rate", lambda.V), fact("sla_seconds", sla.V), fact("sla_max_depth", depth), fact("wait_seconds", wait))
	}
}
