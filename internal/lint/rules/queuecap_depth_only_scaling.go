// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

// depthOnlyScaling flags a fleet whose every scale-out trigger is a fixed
// response to the absolute depth of its queue: no per-instance division,
// no age of the oldest message, no rate of change, no ExactCapacity ladder
// that sets capacity in proportion to depth. Depth says how much is
// waiting, not whether the fleet is catching up, and a fixed threshold is
// too late by construction.
type depthOnlyScaling struct{ meta }

func newDepthOnlyScaling() model.Rule {
	return depthOnlyScaling{meta{
		name:     "queuecap_depth_only_scaling",
		severity: model.Warning,
		summary:  "Every scale-out trigger of a fleet is a fixed response to the absolute depth of its queue, with no backlog-per-instance, age or rate-of-change signal.",
	}}
}

// trigger is one scale-out signal: an alarm driving a step or simple
// policy, or a target tracking policy.
type trigger struct {
	addr      string
	rng       hcl.Range
	metrics   model.MetricSet
	threshold model.Num
	describe  string
	// followsDepth is true for an ExactCapacity ladder that sets capacity
	// in proportion to depth up to the fleet's maximum size: it scales
	// with the backlog, as backlog per consumer does.
	followsDepth bool
	// ladder is an ExactCapacity ladder proportional to depth that stops
	// below the fleet's maximum size, the steps of policy.
	ladder *capacity.Ladder
	policy string
}

// keepsUp reports whether a trigger sees whether the fleet keeps up, or
// sizes it to the backlog.
func (t trigger) keepsUp() bool { return t.followsDepth || !depthOnly(t.metrics) }

func (depthOnlyScaling) CheckFleet(f *model.Fleet, r model.Reporter) {
	triggers, unknown := scaleOutTriggers(f)
	if len(triggers) == 0 && len(unknown) == 0 {
		return
	}
	if slices.ContainsFunc(triggers, trigger.keepsUp) {
		return
	}
	if len(unknown) > 0 {
		// The finding would hinge on a trigger that cannot be judged:
		// never flag on a guess.
		for _, u := range unknown {
			r.Skip(u.rng, u.describe)
		}
		return
	}
	reportDepthOnly(f, triggers, r)
}

// scaleOutTriggers lists what scales a fleet out, and apart the triggers
// that cannot be judged (a metric known only after apply, a policy type
// the rule does not know, ExactCapacity steps it cannot place), each with
// the reason in describe.
func scaleOutTriggers(f *model.Fleet) (triggers, unknown []trigger) {
	for _, p := range f.Policies {
		if !p.ScaleOut {
			continue
		}
		switch p.Kind {
		case model.PolicyTargetTracking:
			if p.Predefined != "" {
				// CPU, request count or another predefined metric: not a
				// depth signal at all.
				triggers = append(triggers, trigger{addr: p.Addr, rng: p.DefRange, metrics: model.MetricSet{Known: true, Names: []string{p.Predefined}}})
				continue
			}
			if !p.Metrics.Known && !p.Metrics.ReadsNoDepth() {
				unknown = append(unknown, trigger{addr: p.Addr, rng: p.DefRange, describe: "the metric " + p.Addr + " tracks is not known before apply"})
				continue
			}
			triggers = append(triggers, trigger{addr: p.Addr, rng: p.DefRange, metrics: p.Metrics, describe: "target tracking on " + strings.Join(p.Metrics.Names, ", ")})
		case model.PolicyStep, model.PolicySimple:
			for _, a := range p.Alarms {
				if !strings.HasPrefix(a.Comparison, "GreaterThan") && a.Comparison != "" {
					continue // a scale-in alarm
				}
				if !a.Metrics.Known && !a.Metrics.ReadsNoDepth() {
					unknown = append(unknown, trigger{addr: a.Addr, rng: a.DefRange, describe: "the metric " + a.Addr + " reads is not known before apply"})
					continue
				}
				desc := strings.Join(a.Metrics.Names, ", ")
				if a.Threshold.Known {
					desc += " " + comparisonSymbol(a.Comparison) + " " + num(a.Threshold.V)
				}
				t := trigger{addr: a.Addr, rng: a.DefRange, metrics: a.Metrics, threshold: a.Threshold, describe: desc}
				if p.Kind == model.PolicyStep && depthOnly(a.Metrics) {
					var why string
					if t, why = judgeSteps(f, p, a, t); why != "" {
						unknown = append(unknown, trigger{addr: a.Addr, rng: a.DefRange, describe: why})
						continue
					}
				}
				triggers = append(triggers, t)
			}
		default:
			unknown = append(unknown, trigger{addr: p.Addr, rng: p.DefRange, describe: "the policy type of " + p.Addr + " is not known before apply or not one the rule judges"})
		}
	}
	return triggers, unknown
}

// judgeSteps reads the steps of a step policy driven by a depth alarm. An
// ExactCapacity ladder proportional to depth (capacity.ExactCapacityLadder)
// that reaches the fleet's maximum size follows the backlog; one that stops
// below it, or steps of any other kind, are a fixed response. why is the
// reason the steps cannot be judged.
func judgeSteps(f *model.Fleet, p *model.Policy, a *model.Alarm, t trigger) (judged trigger, why string) {
	switch p.AdjustmentType {
	case "unknown":
		return t, "the adjustment type of " + p.Addr + " is not known before apply"
	case "ExactCapacity":
	default:
		return t, "" // a change in capacity: fixed however deep the queue
	}
	if p.DynamicSteps {
		return t, "the step adjustments of " + p.Addr + " come from a dynamic block, which queuecap lint does not expand"
	}
	if !a.Threshold.Known {
		return t, "the threshold of " + a.Addr + ", which places the ExactCapacity steps of " + p.Addr + ", is not known before apply"
	}
	steps := make([]capacity.ExactCapacityStep, 0, len(p.Steps))
	for _, st := range p.Steps {
		if !st.Adjustment.Known || (st.Lower.Set && !st.Lower.Known) || (st.Upper.Set && !st.Upper.Known) {
			return t, "the step adjustments of " + p.Addr + " are not known before apply"
		}
		steps = append(steps, capacity.ExactCapacityStep{Lower: openBound(st.Lower, -1), Upper: openBound(st.Upper, 1), Capacity: st.Adjustment.V})
	}
	l, err := capacity.ExactCapacityLadder(a.Threshold.V, steps)
	if err != nil {
		return t, "the ExactCapacity steps of " + p.Addr + " cannot be judged: " + err.Error()
	}
	if !l.Proportional {
		t.describe += ", ExactCapacity steps not proportional to depth"
		return t, ""
	}
	if !f.MaxSize.Known {
		state := "is not known before apply"
		if !f.MaxSize.Set {
			state = "is not set"
		}
		return t, f.SizeAttr + " of " + f.Addr + ", which the ExactCapacity steps of " + p.Addr + " should reach, " + state
	}
	if l.TopCapacity >= f.MaxSize.V {
		t.followsDepth = true
		return t, ""
	}
	t.ladder, t.policy = &l, p.Addr
	t.describe += fmt.Sprintf(", ExactCapacity steps proportional to depth that stop at %s from %s on, below %s %s",
		consumerCount(l.TopCapacity), messages(l.TopDepth), f.SizeAttr, num(f.MaxSize.V))
	return t, ""
}

// consumerCount is a number of consumers with its noun.
func consumerCount(v float64) string {
	if v == 1 {
		return "1 consumer"
	}
	return num(v) + " consumers"
}

// openBound is a step bound, or ±Inf where it is unset.
func openBound(b model.Num, sign int) float64 {
	if !b.Set {
		return math.Inf(sign)
	}
	return b.V
}

// depthOnly reports whether a metric set reads the queue's depth and
// nothing that says whether the fleet keeps up.
func depthOnly(ms model.MetricSet) bool {
	if len(ms.Names) == 0 || ms.UsesRate() {
		return false
	}
	for _, n := range ms.Names {
		if n != model.MetricVisible && n != model.MetricNotVisible {
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

func reportDepthOnly(f *model.Fleet, triggers []trigger, r model.Reporter) {
	first := triggers[0]
	names := make([]string, len(triggers))
	for i, t := range triggers {
		names[i] = t.addr + " (" + t.describe + ")"
	}
	msg := fmt.Sprintf("every scale-out trigger of %s reads only the absolute depth of its queue: %s", f.Addr, strings.Join(names, "; "))
	facts := []model.Fact{fact("triggers", float64(len(triggers)))}
	if first.ladder != nil {
		facts = append(facts, fact("ladder_top_depth", first.ladder.TopDepth),
			fact("ladder_top_consumers", first.ladder.TopCapacity), fact("max_consumers", f.MaxSize.V))
	}
	if first.threshold.Known {
		facts = append(facts, fact("threshold", first.threshold.V))
		if len(f.Queues) == 1 && f.Queues[0].Rates.ArrivalRate.Known && f.Queues[0].Rates.ArrivalRate.V > 0 {
			lambda := f.Queues[0].Rates.ArrivalRate.V
			if secs, err := capacity.ArrivalSeconds(first.threshold.V, lambda); err == nil {
				msg += fmt.Sprintf(". A depth of %s is %s / %s = %s s of arrivals whether the backlog is growing or draining",
					messages(first.threshold.V), num(first.threshold.V), num(lambda), num(secs))
				facts = append(facts, fact("arrival_rate", lambda), fact("threshold_seconds_of_arrivals", secs))
			}
		}
	}
	advice, minFacts := adviceFor(f)
	summary := "scale-out reads only the queue's absolute depth: scale on backlog per consumer, message age or the depth's RATE()"
	if len(minFacts) == 0 || minFacts[0].Value < 1 {
		summary = "scale-out reads only the queue's depth and may reach 0 consumers: start one on depth > 0, then track backlog"
	}
	if first.ladder != nil {
		// Its steps already size the fleet to the backlog, from 0 too:
		// they only need to reach the fleet's maximum.
		advice, minFacts = fmt.Sprintf(": continue the steps of %s in proportion to depth up to %s %s", first.policy, f.SizeAttr, num(f.MaxSize.V)), nil
		summary = fmt.Sprintf("the depth steps stop at %s consumers: continue them in proportion to depth up to %s %s", n(first.ladder.TopCapacity), f.SizeAttr, n(f.MaxSize.V))
	}
	r.Report(first.rng, summary, msg+advice, append(facts, minFacts...)...)
}

// adviceFor is what the fleet should scale on instead. Backlog per
// consumer, depth / consumers, is AWS's advice for queue workers, but at 0
// consumers CloudWatch metric math drops the data point (a division by
// zero) and target tracking on it never starts the first consumer: a fleet
// that may reach 0 is told how to start one, as AWS does for endpoints
// that scale to zero (a step policy on an alarm).
func adviceFor(f *model.Fleet) (string, []model.Fact) {
	consumers, minAttr := model.MetricInServiceEC2, "min_size"
	if f.Kind == model.FleetECS {
		consumers, minAttr = model.MetricRunningTaskCount, "min_capacity"
	}
	backlog := model.MetricVisible + " / " + consumers
	var facts []model.Fact
	if f.MinSize.Known {
		facts = append(facts, fact("min_consumers", f.MinSize.V))
		if f.MinSize.V >= 1 {
			return fmt.Sprintf(": scale on backlog per consumer (%s), the age of the oldest message (%s) or the depth's RATE() instead", backlog, model.MetricAgeOfOldest), facts
		}
	}
	var lead string
	switch {
	case f.MinSize.Known:
		lead = fmt.Sprintf("with %s %s it can reach 0 consumers", minAttr, num(f.MinSize.V))
	case f.MinSize.Set:
		lead = "with " + minAttr + " not known before apply it may reach 0 consumers"
	default:
		lead = "with no " + minAttr + " in the configuration it may reach 0 consumers"
	}
	return fmt.Sprintf(": %s, where backlog per consumer (%s) has no data, so start the first consumer with a step policy on %s > 0 while %s is 0, then scale on %s, the age of the oldest message (%s) or the depth's RATE()",
		lead, backlog, model.MetricVisible, consumers, backlog, model.MetricAgeOfOldest), facts
}
