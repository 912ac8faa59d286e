package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
)

// depthOnlyScaling flags a fleet whose every scale-out trigger reads only
// the absolute depth of its queue: no per-instance division, no age of the
// oldest message, no rate of change. Depth says how much is waiting, not
// whether the fleet is catching up, and a fixed threshold is too late by
// construction.
type depthOnlyScaling struct{ meta }

func newDepthOnlyScaling() lint.Rule {
	return depthOnlyScaling{meta{
		name:     "queuecap_depth_only_scaling",
		severity: lint.Warning,
		summary:  "Every scale-out trigger of a fleet is the absolute depth of its queue, with no backlog-per-instance, age or rate-of-change signal.",
	}}
}

// trigger is one scale-out signal: an alarm driving a step or simple
// policy, or a target tracking policy.
type trigger struct {
	addr      string
	rng       hcl.Range
	metrics   lint.MetricSet
	threshold lint.Num
	describe  string
}

func (depthOnlyScaling) Check(m *lint.Model, r lint.Reporter) {
	for _, f := range m.Fleets {
		triggers, unknown := scaleOutTriggers(f)
		if len(triggers) == 0 && len(unknown) == 0 {
			continue
		}
		if slices.ContainsFunc(triggers, func(t trigger) bool { return !depthOnly(t.metrics) }) {
			continue // a trigger that sees whether the fleet keeps up
		}
		if len(unknown) > 0 {
			// The finding would hinge on a trigger that cannot be judged:
			// never flag on a guess.
			for _, u := range unknown {
				r.Skip(u.rng, u.describe)
			}
			continue
		}
		reportDepthOnly(f, triggers, r)
	}
}

// scaleOutTriggers lists what scales a fleet out, and apart the triggers
// that cannot be judged (a metric known only after apply, a policy type
// the rule does not know), each with the reason in describe.
func scaleOutTriggers(f *lint.Fleet) (triggers, unknown []trigger) {
	for _, p := range f.Policies {
		if !p.ScaleOut {
			continue
		}
		switch p.Kind {
		case lint.PolicyTargetTracking:
			if p.Predefined != "" {
				// CPU, request count or another predefined metric: not a
				// depth signal at all.
				triggers = append(triggers, trigger{addr: p.Addr, rng: p.DefRange, metrics: lint.MetricSet{Known: true, Names: []string{p.Predefined}}})
				continue
			}
			if !p.Metrics.Known {
				unknown = append(unknown, trigger{addr: p.Addr, rng: p.DefRange, describe: "the metric " + p.Addr + " tracks is not known before apply"})
				continue
			}
			triggers = append(triggers, trigger{addr: p.Addr, rng: p.DefRange, metrics: p.Metrics, describe: "target tracking on " + strings.Join(p.Metrics.Names, ", ")})
		case lint.PolicyStep, lint.PolicySimple:
			for _, a := range p.Alarms {
				if !strings.HasPrefix(a.Comparison, "GreaterThan") && a.Comparison != "" {
					continue // a scale-in alarm
				}
				if !a.Metrics.Known {
					unknown = append(unknown, trigger{addr: a.Addr, rng: a.DefRange, describe: "the metric " + a.Addr + " reads is not known before apply"})
					continue
				}
				desc := strings.Join(a.Metrics.Names, ", ")
				if a.Threshold.Known {
					desc += " " + comparisonSymbol(a.Comparison) + " " + num(a.Threshold.V)
				}
				triggers = append(triggers, trigger{addr: a.Addr, rng: a.DefRange, metrics: a.Metrics, threshold: a.Threshold, describe: desc})
			}
		default:
			unknown = append(unknown, trigger{addr: p.Addr, rng: p.DefRange, describe: "the policy type of " + p.Addr + " is not known before apply or not one the rule judges"})
		}
	}
	return triggers, unknown
}

// depthOnly reports whether a metric set reads the queue's depth and
// nothing that says whether the fleet keeps up.
func depthOnly(ms lint.MetricSet) bool {
	if len(ms.Names) == 0 || ms.UsesRate() {
		return false
	}
	for _, n := range ms.Names {
		if n != lint.MetricVisible && n != lint.MetricNotVisible {
			return false // age, per-instance counts, custom or predefined metrics
		}
	}
	for _, ns := range ms.Namespaces {
		if ns != "AWS/SQS" {
			return false
		}
	}
	return true
}

func comparisonSymbol(op string) string {
	switch op {
	case "GreaterThanThreshold":
		return ">"
	case "GreaterThanOrEqualToThreshold":
		return "≥"
	}
	return op
}

func reportDepthOnly(f *lint.Fleet, triggers []trigger, r lint.Reporter) {
	first := triggers[0]
	names := make([]string, len(triggers))
	for i, t := range triggers {
		names[i] = t.addr + " (" + t.describe + ")"
	}
	perInstance := lint.MetricInServiceEC2
	if f.Kind == lint.FleetECS {
		perInstance = lint.MetricRunningTaskCount
	}
	msg := fmt.Sprintf("every scale-out trigger of %s reads only the absolute depth of its queue: %s", f.Addr, strings.Join(names, "; "))
	facts := []lint.Fact{fact("triggers", float64(len(triggers)))}
	if first.threshold.Known {
		facts = append(facts, fact("threshold", first.threshold.V))
		if len(f.Queues) == 1 && f.Queues[0].Rates.ArrivalRate.Known && f.Queues[0].Rates.ArrivalRate.V > 0 {
			lambda := f.Queues[0].Rates.ArrivalRate.V
			msg += fmt.Sprintf(". A depth of %s is %s / %s = %s s of arrivals whether the backlog is growing or draining",
				messages(first.threshold.V), num(first.threshold.V), num(lambda), num(first.threshold.V/lambda))
			facts = append(facts, fact("arrival_rate", lambda), fact("threshold_seconds_of_arrivals", first.threshold.V/lambda))
		}
	}
	msg += fmt.Sprintf(": scale on backlog per consumer (%s / %s), the age of the oldest message (%s) or the depth's RATE() instead", lint.MetricVisible, perInstance, lint.MetricAgeOfOldest)
	r.Report(first.rng, msg, facts...)
}
