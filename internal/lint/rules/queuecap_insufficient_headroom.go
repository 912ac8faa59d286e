// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules

import (
	"fmt"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

// insufficientHeadroom flags a fleet that drains, but too slowly: below the
// headroom formula's consumers for the declared max_backlog and
// rto_seconds, or with less spare capacity than min_headroom.
type insufficientHeadroom struct{ meta }

func newInsufficientHeadroom() model.Rule {
	return insufficientHeadroom{meta{
		name:     "queuecap_insufficient_headroom",
		severity: model.Warning,
		summary:  "The consumer fleet at its maximum size has a surplus, but too little to clear the declared max_backlog within rto_seconds, or less spare capacity than min_headroom.",
	}}
}

func (insufficientHeadroom) CheckQueue(q *model.Queue, r model.Reporter) {
	s, ok := supplyOf(q, r)
	if !ok || s.Surplus <= 0 {
		return // no surplus at all is queuecap_zero_surplus
	}
	if checkBacklogWithinRTO(s, r) {
		return
	}
	checkMinHeadroom(s, r)
}

// checkBacklogWithinRTO reports a fleet that clears max_backlog only after
// rto_seconds. It returns true when it reported.
func checkBacklogWithinRTO(s *supply, r model.Reporter) bool {
	b, rto := s.queue.Rates.MaxBacklog, s.queue.Rates.RTOSeconds
	switch {
	case !b.Set || (b.Known && b.V == 0):
		return false
	case !b.Known:
		r.Skip(b.Range, "max_backlog of "+s.queue.Addr+" "+b.Unknown())
		return false
	case !rto.Set:
		r.Skip(b.Range, "max_backlog of "+s.queue.Addr+" is declared without rto_seconds, the time allowed to clear it")
		return false
	case !rto.Known:
		r.Skip(rto.Range, "rto_seconds of "+s.queue.Addr+" "+rto.Unknown())
		return false
	}
	required, err := capacity.RequiredSurplus(b.V, rto.V)
	if err != nil {
		r.Skip(rto.Range, "declared rates of "+s.queue.Addr+" are invalid: "+err.Error())
		return false
	}
	if s.Drain == nil {
		return false
	}
	drain, lag, lagTerms := s.Drain.Seconds, model.Lag{}, ""
	if len(s.Fleets) == 1 && s.Bound == "" {
		// The lag's arithmetic is over consumers; bounded by message
		// groups or pollers, the drain is stated without it (faster, so
		// a finding stays sound).
		drain, lag, lagTerms = laggedDrain(s, b.V, drain)
	}
	if drain <= rto.V {
		if lag.NotKnown != "" {
			r.Skip(lag.Range, fmt.Sprintf("%s, so the provisioning lag of %s is not known: without one, max_backlog %s clears in %s s, within rto_seconds %s",
				lag.NotKnown, s.Fleets[0].Fleet.Addr, num(b.V), num(drain), num(rto.V)))
		}
		return false
	}
	needed := fmt.Sprintf("it needs a surplus of %s / %s = %s msg/s", num(b.V), num(rto.V), num(required))
	late := " max_backlog " + n(b.V) + " in " + n(drain) + " s, over rto_seconds " + n(rto.V)
	summary := "the consumers clear" + late + ": raise the surplus to " + n(required) + " msg/s"
	facts := []model.Fact{fact("max_backlog", b.V), fact("rto_seconds", rto.V), fact("drain_seconds", drain)}
	if lag.Seconds > 0 {
		facts = append(facts, fact("provisioning_lag_seconds", lag.Seconds), fact("min_consumers", lag.MinSize))
	}
	if len(s.Fleets) == 1 && lag.Seconds > 0 {
		mu := s.Fleets[0].Rate
		minC := int64(lag.MinSize)
		in := capacity.SizingInput{ArrivalRate: s.Arrival, PerConsumerRate: mu, MaxBacklog: b.V, RTOSeconds: rto.V, Retries: s.Retries,
			ProvisioningLagSeconds: lag.Seconds, MinConsumers: &minC}
		if h := s.queue.Rates.MinHeadroom; h.Set && h.Known && h.V > 0 {
			in.MinHeadroom = h.V
		}
		at := s.At
		if sized, err := capacity.Size(in); err == nil {
			needed = fmt.Sprintf("with the lag, ceil(%s / %s + max(0, %s − %s × %s) / (%s × (%s − %s))) needs %s consumers",
				num(s.Effective), num(mu), num(b.V), num(capacity.Clean(max(0, lag.MinSize*mu-s.Effective))), num(lag.Seconds), num(mu), num(rto.V), num(lag.Seconds), num(float64(sized.RequiredConsumers)))
			if in.MinHeadroom > 0 {
				needed += fmt.Sprintf(" (min_headroom %s included)", percent(in.MinHeadroom))
			}
			summary = s.size() + " clears" + late + " after a " + n(lag.Seconds) + " s lag: " + s.raiseTo(float64(sized.RequiredConsumers))
			facts = append(facts, fact("required_consumers", float64(sized.RequiredConsumers)))
			if w := lag.Warmup; w.V > 0 {
				words, warmupFacts := withWarmup(s, in, lag)
				needed += words
				facts = append(facts, warmupFacts...)
			}
		} else {
			needed = fmt.Sprintf("rto_seconds %s is within the %s s lag, so no %s meets it: %s must clear the backlog alone", num(rto.V), num(lag.Seconds), s.Fleets[0].Fleet.SizeAttr, lag.MinAttr)
			summary = "the backlog is due within the " + n(lag.Seconds) + " s lag before scale-out: raise " + lag.MinAttr
			at = s.Fleets[0].Fleet.MinSize.Range
		}
		r.Report(at, summary, fmt.Sprintf("%s leaves a surplus of %s msg/s over %s, which clears max_backlog %s in %s s%s, more than rto_seconds %s: %s",
			s.capacityTerms(), num(s.Surplus), s.arrivalTerms(), num(b.V), num(drain), lagTerms, num(rto.V), needed), s.facts(facts...)...)
		return true
	}
	if s.Bound != "" {
		needed += "; " + s.boundFix()
	}
	if len(s.Fleets) == 1 && s.Bound == "" {
		mu := s.Fleets[0].Rate
		in := capacity.SizingInput{ArrivalRate: s.Arrival, PerConsumerRate: mu, MaxBacklog: b.V, RTOSeconds: rto.V, Retries: s.Retries}
		forBacklog, err := capacity.Size(in)
		// The fleet to raise it to also leaves the min_headroom declared,
		// as queuecap_consumers sizes it: advice that cleared the backlog
		// only would bring this rule back for the headroom.
		sized := forBacklog
		if h := s.queue.Rates.MinHeadroom; err == nil && h.Set && h.Known && h.V > 0 {
			in.MinHeadroom = h.V
			sized, err = capacity.Size(in)
		}
		if err == nil {
			needed = fmt.Sprintf("the headroom formula ceil(%s / %s + %s / (%s × %s)) needs %s consumers",
				num(s.Effective), num(mu), num(b.V), num(mu), num(rto.V), num(float64(forBacklog.RequiredConsumers)))
			if sized.RequiredConsumers > forBacklog.RequiredConsumers {
				needed += fmt.Sprintf(", and min_headroom %s asks for ceil(%s × (1 + %s) / %s) = %s",
					percent(in.MinHeadroom), num(s.Effective), num(in.MinHeadroom), num(mu), num(float64(sized.RequiredConsumers)))
			}
			if s.resizable() {
				summary = s.size() + " clears" + late + ": " + s.raiseTo(float64(sized.RequiredConsumers))
			}
			facts = append(facts, fact("required_consumers", float64(sized.RequiredConsumers)))
		}
	}
	r.Report(s.At, summary, fmt.Sprintf("%s leaves a surplus of %s msg/s over %s, which clears max_backlog %s in %s s, more than rto_seconds %s: %s",
		s.capacityTerms(), num(s.Surplus), s.arrivalTerms(), num(b.V), num(drain), num(rto.V), needed), s.facts(facts...)...)
	return true
}

// laggedDrain is the one fleet's drain time with the provisioning lag its
// configuration bounds from below (model.Fleet.ProvisioningLag), the lag,
// and the words that say it; drain itself without one, with the lag's
// NotKnown when a value not known before apply is why.
func laggedDrain(s *supply, backlog, drain float64) (float64, model.Lag, string) {
	fs := s.Fleets[0]
	lag := fs.Fleet.ProvisioningLag(s.queue.Limits)
	if lag.Seconds <= 0 {
		return drain, model.Lag{NotKnown: lag.NotKnown, Range: lag.Range}, ""
	}
	t, drains, err := capacity.LaggedDrain(int64(lag.MinSize), int64(fs.Size), fs.Rate, s.Arrival, s.Retries, backlog, lag.Seconds)
	if err != nil || !drains {
		return drain, model.Lag{}, ""
	}
	return capacity.Clean(t), lag, fmt.Sprintf(" (%s %s drains alone for the first %s s, the provisioning lag: %s)", lag.MinAttr, num(lag.MinSize), num(lag.Seconds), lag.Why)
}

// withWarmup is the second sizing the advice offers when the lag's
// instances have a warmup: an estimate, since the warmup says when an
// instance's metrics count, not when it takes messages, so it is never
// part of the bound that decides the finding. in is the lagged sizing.
func withWarmup(s *supply, in capacity.SizingInput, lag model.Lag) (string, []model.Fact) {
	total := capacity.Clean(lag.Seconds + lag.Warmup.V)
	words := fmt.Sprintf("; if instances take work only once %s %s s has passed (an estimate: AWS's warmup says when an instance's metrics count, not when it takes messages), the lag is %s + %s = %s s and ",
		lag.WarmupAttr, num(lag.Warmup.V), num(lag.Seconds), num(lag.Warmup.V), num(total))
	in.ProvisioningLagSeconds = total
	sized, err := capacity.Size(in)
	if err != nil {
		return words + fmt.Sprintf("rto_seconds %s is within it: no %s meets it", num(in.RTOSeconds), s.Fleets[0].Fleet.SizeAttr),
			[]model.Fact{fact("warmup_seconds", lag.Warmup.V)}
	}
	words += fmt.Sprintf("ceil(%s / %s + max(0, %s − %s × %s) / (%s × (%s − %s))) needs %s consumers",
		num(s.Effective), num(in.PerConsumerRate), num(in.MaxBacklog), num(capacity.Clean(max(0, lag.MinSize*in.PerConsumerRate-s.Effective))), num(total),
		num(in.PerConsumerRate), num(in.RTOSeconds), num(total), num(float64(sized.RequiredConsumers)))
	if in.MinHeadroom > 0 {
		words += fmt.Sprintf(" (min_headroom %s included)", percent(in.MinHeadroom))
	}
	return words, []model.Fact{fact("warmup_seconds", lag.Warmup.V), fact("required_consumers_with_warmup", float64(sized.RequiredConsumers))}
}

// checkMinHeadroom reports spare capacity below min_headroom. Undeclared, it
// is the catalog's default (capacity.DefaultMinHeadroom, 0), as in the
// provider, its functions and the CLI: a fleet sized exactly by
// queuecap_consumers is never reported for headroom it was not asked for.
func checkMinHeadroom(s *supply, r model.Reporter) {
	h := s.queue.Rates.MinHeadroom
	switch {
	case !h.Set:
		h = model.Num{V: capacity.DefaultMinHeadroom, Set: true, Known: true}
	case !h.Known:
		r.Skip(h.Range, "min_headroom of "+s.queue.Addr+" "+h.Unknown())
		return
	}
	if s.Headroom == nil {
		return
	}
	// The supply's, exact and rounded once: (0.3 − 0.2) / 0.2 is exactly
	// a min_headroom of 0.5, not 0.4999999999999999.
	headroom := *s.Headroom
	if headroom >= h.V {
		return
	}
	target, err := capacity.HeadroomCapacity(s.Effective, h.V)
	if err != nil {
		r.Skip(h.Range, "declared rates of "+s.queue.Addr+" are invalid: "+err.Error())
		return
	}
	needed := fmt.Sprintf("%s × (1 + %s) = %s msg/s of capacity gives it", num(s.Effective), num(h.V), num(target))
	short := "leaves " + n(headroom*100) + " % headroom, under min_headroom " + n(h.V*100) + " %"
	summary := "the consumers " + short + ": raise their capacity to " + n(target) + " msg/s"
	facts := []model.Fact{fact("headroom", headroom), fact("min_headroom", h.V)}
	if s.Bound != "" {
		needed += "; " + s.boundFix()
	}
	if len(s.Fleets) == 1 && s.Bound == "" {
		mu := s.Fleets[0].Rate
		if sized, err := capacity.Size(capacity.SizingInput{ArrivalRate: s.Arrival, PerConsumerRate: mu, Retries: s.Retries, MinHeadroom: h.V}); err == nil {
			needed = fmt.Sprintf("ceil(%s × (1 + %s) / %s) = %s consumers give it", num(s.Effective), num(h.V), num(mu), num(float64(sized.RequiredConsumers)))
			if s.resizable() {
				summary = s.size() + " " + short + ": " + s.raiseTo(float64(sized.RequiredConsumers))
			}
			facts = append(facts, fact("required_consumers", float64(sized.RequiredConsumers)))
		}
	}
	r.Report(s.At, summary, fmt.Sprintf("%s is only %s above %s, below the minimum headroom of %s: %s",
		s.capacityTerms(), percent(headroom), s.arrivalTerms(), percent(h.V), needed), s.facts(facts...)...)
}
