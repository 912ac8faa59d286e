// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules

import (
	"fmt"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

// surplusDuringDeploy flags consumers that have a surplus at their maximum
// size but not while a deployment or maintenance replaces them: at the
// fewest consumers it keeps in service the backlog grows, or no longer
// clears within rto_seconds.
type surplusDuringDeploy struct{ meta }

func newSurplusDuringDeploy() model.Rule {
	return surplusDuringDeploy{meta{
		name:     "queuecap_surplus_during_deploy",
		severity: model.Warning,
		summary:  "At the consumers an instance refresh, an instance maintenance policy or an ECS rolling deployment keeps in service, the fleet has no surplus over the declared arrival rate, or cannot clear max_backlog within rto_seconds: every deployment during a backlog stalls its recovery.",
	}}
}

func (surplusDuringDeploy) CheckQueue(q *model.Queue, r model.Reporter) {
	replaced := false
	for _, f := range q.Consumers {
		replaced = replaced || (f.Replacement != nil && f.Replacement.Kind != model.ReplaceECSBlueGreen)
	}
	if !replaced {
		return // nothing in the configuration replaces consumers
	}
	s, ok := supplyOf(q, r)
	if !ok || s.Surplus <= 0 {
		return // no surplus at all is queuecap_zero_surplus
	}
	for i := range s.Fleets {
		checkDeploy(s, i, r)
	}
}

// checkDeploy checks the queue's supply while fleet i is replaced and the
// others run at their maximum size.
func checkDeploy(s *supply, i int, r model.Reporter) {
	fs := s.Fleets[i]
	f, rep := fs.Fleet, fs.Fleet.Replacement
	if rep == nil || rep.Kind == model.ReplaceECSBlueGreen {
		return
	}
	if st := rep.Strategy; st.Set && !st.Known && rep.Kind != model.ReplaceECSRolling {
		r.Skip(st.Range, fmt.Sprintf("%s of %s %s: whether it replaces instances, and how many it keeps in service, is not known", rep.StrategyAttr, f.Addr, st.Unknown()))
		return
	}
	if st := rep.Strategy; st.Set && !st.Known {
		r.Skip(st.Range, fmt.Sprintf("%s of %s %s: a rolling deployment keeps only %s of its consumers in service, a blue/green one all of them",
			rep.StrategyAttr, f.Addr, st.Unknown(), rep.MinAttr))
		return
	}
	minLimit, maxLimit := rep.DefaultLimits()
	minPct, ok := percentage(s.queue, f, rep.MinHealthy, rep.MinAttr, minLimit, r)
	if !ok {
		return
	}
	var maxPct float64
	if rep.Kind != model.ReplaceECSRolling {
		// Above 100 % the group launches before it terminates: it does
		// not drop below its size (Kept).
		pct, ok := percentage(s.queue, f, rep.MaxHealthy, rep.MaxAttr, maxLimit, r)
		if !ok {
			return
		}
		maxPct = pct.V
	}
	left, oneAtATime, err := rep.Kept(int64(fs.Size), minPct.V, maxPct)
	if err != nil {
		r.Skip(minPct.Range, rep.MinAttr+" of "+f.Addr+" is invalid: "+err.Error())
		return
	}
	if float64(left) >= fs.Size {
		return
	}
	sizes := make([]capacity.FleetSize, len(s.Fleets))
	for j, o := range s.Fleets {
		sizes[j] = capacity.FleetSize{Count: int64(o.Size), PerConsumerRate: o.Rate}
		if o.Payload != nil {
			sizes[j].Payload = &o.Payload.Bound
		}
	}
	sizes[i].Count = left
	var groups int64
	if s.Groups != nil {
		groups = int64(s.Groups.Groups.V)
	}
	b, rto := s.queue.Rates.MaxBacklog, s.queue.Rates.RTOSeconds
	withRTO := b.Set && b.Known && b.V > 0 && rto.Set && rto.Known && rto.V > 0 && s.Drain != nil && s.Drain.Drains && s.Drain.Seconds <= rto.V
	backlog := 0.0
	if withRTO {
		backlog = b.V
	}
	during, err := capacity.SupplyWithin(sizes, groups, s.Arrival, s.Retries, backlog)
	if err != nil {
		return // the supply's own arithmetic succeeded with more consumers: not reached
	}
	capDuring, surplus := capacity.Clean(during.Capacity), capacity.Clean(during.Surplus)

	what := "an " + string(rep.Kind)
	if rep.Kind == model.ReplaceInstanceMaintenance {
		what = string(rep.Kind)
	}
	keeps := fmt.Sprintf("%s of %s keeps ceil(%s × %s %%) = %s of its %s consumers in service",
		what, f.Addr, num(fs.Size), num(minPct.V), num(float64(left)), num(fs.Size))
	if oneAtATime {
		keeps = fmt.Sprintf("%s of %s keeps %s of its %s consumers in service: ceil(%s × %s %%) is all of them, but AWS replaces at least one instance at a time",
			what, f.Addr, num(float64(left)), num(fs.Size), num(fs.Size), num(minPct.V))
	}
	terms := deployTerms(s, i, left, during)
	fix := "set max_healthy_percentage over 100"
	if rep.Kind == model.ReplaceECSRolling {
		fix = "raise deployment_minimum_healthy_percent"
	}
	at := rep.Range
	if rep.MinHealthy.Set {
		at = rep.MinHealthy.Range
	}
	facts := s.facts(fact("min_healthy_percent", minPct.V), fact("deploy_consumers", float64(left)),
		fact("deploy_capacity", capDuring), fact("deploy_surplus", surplus))
	if surplus <= 0 {
		short := "no surplus"
		if surplus < 0 {
			short = "a deficit of " + num(-surplus) + " msg/s"
		}
		kept := n(float64(left)) + " of " + n(fs.Size) + " consumers take"
		if len(s.Fleets) > 1 {
			kept = "the consumers take" // the others run at their size
		}
		r.Report(at, fmt.Sprintf("during %s %s %s msg/s of %s arriving: %s",
			summaryKind(rep.Kind), kept, n(capDuring), n(s.Effective), fix),
			fmt.Sprintf("%s (%s): %s leaves %s over %s, so a backlog grows during every %s instead of draining",
				keeps, minPct.From, terms, short, s.arrivalTerms(), shortKind(rep.Kind)), facts...)
		return
	}
	if !withRTO || !during.Drains || during.DrainSeconds <= rto.V {
		return
	}
	drain := capacity.Clean(during.DrainSeconds)
	facts = append(facts, fact("max_backlog", b.V), fact("rto_seconds", rto.V), fact("deploy_drain_seconds", drain))
	r.Report(at, fmt.Sprintf("during %s the backlog clears in %s s, over rto_seconds %s: %s",
		summaryKind(rep.Kind), n(drain), n(rto.V), fix),
		fmt.Sprintf("%s (%s): %s leaves a surplus of %s msg/s over %s, which clears max_backlog %s in %s s, more than rto_seconds %s (the full fleet clears it in %s s)",
			keeps, minPct.From, terms, num(surplus), s.arrivalTerms(), num(b.V), num(drain), num(rto.V), num(s.Drain.Seconds)), facts...)
}

// percentage is a replacement's percentage, AWS's default (the limits
// table's entry def) when unset; false, skipped, when it is not known.
func percentage(q *model.Queue, f *model.Fleet, v model.Num, attr, def string, r model.Reporter) (model.Num, bool) {
	switch {
	case v.Set && !v.Known:
		r.Skip(v.Range, attr+" of "+f.Addr+" "+v.Unknown())
		return v, false
	case v.Set:
		v.From = attr + " " + num(v.V) + " %"
		return v, true
	}
	e, ok := q.Limits.Limit(def)
	if def == "" || !ok {
		r.Skip(f.Replacement.Range, attr+" of "+f.Addr+" is not set")
		return v, false
	}
	return model.Num{V: e.Value, Set: true, Known: true, Range: f.Replacement.Range,
		From: attr + " unset: AWS's default " + num(e.Value) + " % (" + e.Name + ")"}, true
}

// deployTerms says how capacity is made while fleet i keeps left
// consumers: "23 × 400 msg/s = 9,200 msg/s", or a sum over the fleets,
// each within its pollers' payload, and all within the message groups.
func deployTerms(s *supply, i int, left int64, during capacity.Supply) string {
	terms := make([]string, len(s.Fleets))
	for j, f := range s.Fleets {
		size := f.Size
		if j == i {
			size = float64(left)
		}
		terms[j] = fmt.Sprintf("%s × %s msg/s", num(size), num(f.Rate))
		if p := f.Payload; p != nil && capacity.Clean(size*f.Rate) > p.Rate {
			terms[j] = fmt.Sprintf("(%s = %s msg/s, bounded by what its pollers carry: %s)", terms[j], num(capacity.Clean(size*f.Rate)), p.Terms())
		}
		if len(s.Fleets) > 1 {
			terms[j] = s.queue.ConsumerName(f.Fleet) + " " + terms[j]
		}
	}
	out := strings.Join(terms, " + ") + " = " + num(capacity.Clean(during.FleetCapacity)) + " msg/s"
	if during.Bound == capacity.BoundMessageGroups {
		out += ", bounded by the message groups, one consumer each at a time: " + s.Groups.Terms()
	}
	return out
}

// shortKind is what a replacement is called in a sentence's end.
func shortKind(k model.ReplacementKind) string {
	if k == model.ReplaceInstanceMaintenance {
		return "instance replacement"
	}
	return strings.TrimPrefix(string(k), "ECS rolling ")
}

// summaryKind is what a replacement is called in a first line.
func summaryKind(k model.ReplacementKind) string {
	switch k {
	case model.ReplaceInstanceRefresh:
		return "a refresh"
	case model.ReplaceInstanceMaintenance:
		return "instance maintenance"
	}
	return "a deployment"
}
