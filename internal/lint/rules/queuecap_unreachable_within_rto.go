// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules

import (
	"fmt"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

// unreachableWithinRTO flags a Lambda consumer whose ceiling clears the
// declared max_backlog within rto_seconds, but whose SQS event source
// mapping cannot scale out to it fast enough: the ramp AWS publishes,
// from where the mapping starts, clears the backlog only after the RTO.
type unreachableWithinRTO struct{ meta }

func newUnreachableWithinRTO() model.Rule {
	return unreachableWithinRTO{meta{
		name:     "queuecap_unreachable_within_rto",
		severity: model.Warning,
		summary:  "A Lambda consumer's maximum concurrency would clear the declared max_backlog within rto_seconds, but its SQS event source mapping scales out too slowly to get there: on the ramp AWS publishes the backlog clears only after the RTO.",
	}}
}

func (unreachableWithinRTO) CheckMapping(m *model.EventSourceMapping, r model.Reporter) {
	q, f := m.Queue, m.Function
	if q == nil || f == nil || f.Kind != model.FleetLambda {
		return
	}
	b, rto := q.Rates.MaxBacklog, q.Rates.RTOSeconds
	if !b.Set || !rto.Set || (b.Known && b.V == 0) {
		return // nothing to clear, or no time to clear it in: queuecap_insufficient_headroom says so
	}
	s, ok := supplyOf(q, r)
	if !ok {
		return
	}
	switch {
	case !q.FIFO.Is(false, false):
		// AWS publishes the ramp for standard queues; a FIFO queue's
		// mapping scales with its active message groups.
		r.Skip(q.DefRange, q.Addr+" is a FIFO queue (or may be): its mapping scales with the active message groups, not on the ramp AWS publishes for standard queues")
		return
	case !b.Known:
		r.Skip(b.Range, "max_backlog of "+q.Addr+" "+b.Unknown())
		return
	case !rto.Known:
		r.Skip(rto.Range, "rto_seconds of "+q.Addr+" "+rto.Unknown())
		return
	case len(s.Fleets) != 1:
		r.Skip(q.DefRange, fmt.Sprintf("%s has %d consumers: the ramp of %s is judged for a queue it alone consumes", q.Addr, len(s.Fleets), m.Addr))
		return
	case s.Drain == nil || !s.Drain.Drains || s.Drain.Seconds > rto.V:
		return // not even the ceiling clears it in time: queuecap_zero_surplus, queuecap_insufficient_headroom
	}
	if m.ModeUnknown != "" {
		r.Skip(m.PollersRange, "provisioned_poller_config of "+m.Addr+" "+m.ModeUnknown+": its ramp, standard or provisioned, is not known")
		return
	}
	fs := s.Fleets[0]
	in := capacity.RampInput{ArrivalRate: s.Arrival, PerConsumerRate: fs.Rate, Retries: s.Retries, MaxBacklog: b.V, RTOSeconds: rto.V,
		FromSteadyState: true, MaxConsumers: fs.Size}
	if p := fs.Payload; p != nil && p.Binds {
		// Past what its pollers carry, more invokes take no more.
		in.MaxConsumers = capacity.Clean(p.Rate / fs.Rate)
	}
	at := m.DefRange
	var start, rate string
	if m.Provisioned {
		p := m.MinimumPollers
		if !p.Known {
			r.Skip(p.Range, "minimum_pollers of "+m.Addr+" "+p.Unknown())
			return
		}
		warm, per, _ := m.Limits.PollerConcurrency(p.V)
		in.StartConsumers, in.RampPerMinute = min(warm, in.MaxConsumers), m.Limit("lambda_sqs_provisioned_ramp_per_minute")
		at = p.Range
		start = fmt.Sprintf("provisioned mode keeps minimum_pollers %s%s × %s = %s concurrent invokes warm", num(p.V), defaultNote(p, "minimum_pollers"), num(per), num(warm))
		rate = "lambda_sqs_provisioned_ramp_per_minute"
	} else {
		in.StartConsumers, in.RampPerMinute = min(m.Limit("lambda_sqs_standard_initial_concurrency"), in.MaxConsumers), m.Limit("lambda_sqs_standard_ramp_per_minute")
		start = fmt.Sprintf("standard mode starts at %s concurrent invokes (lambda_sqs_standard_initial_concurrency)", num(in.StartConsumers))
		rate = "lambda_sqs_standard_ramp_per_minute"
	}
	ramp, err := capacity.RampDrain(in)
	if err != nil {
		r.Skip(at, "declared rates of "+q.Addr+" are invalid: "+err.Error())
		return
	}
	if ramp.MeetsRTO {
		return
	}
	sized, err := capacity.Size(capacity.SizingInput{ArrivalRate: s.Arrival, PerConsumerRate: fs.Rate, Retries: s.Retries, MaxBacklog: b.V, RTOSeconds: rto.V})
	if err != nil {
		r.Skip(at, "declared rates of "+q.Addr+" are invalid: "+err.Error())
		return
	}
	required := float64(sized.RequiredConsumers)
	if ramp.StartConsumers > in.StartConsumers {
		start += fmt.Sprintf(", or the %s the arrivals keep busy (%s / %s)", num(ramp.StartConsumers), num(s.Effective), num(fs.Rate))
	}
	reach := fmt.Sprintf("the %s concurrent invokes the headroom formula asks for", num(required))
	if t, ok := in.SecondsToReach(ramp.StartConsumers, required); ok {
		reach += fmt.Sprintf(" after %s s", num(t))
	}
	cleared := "never clears it"
	summary := fmt.Sprintf("the mapping's ramp cannot clear max_backlog %s within rto_seconds %s", n(b.V), n(rto.V))
	facts := s.facts(fact("max_backlog", b.V), fact("rto_seconds", rto.V), fact("start_consumers", ramp.StartConsumers),
		fact("ramp_per_minute", in.RampPerMinute), fact("ramp_seconds", ramp.FullSeconds), fact("required_consumers", required),
		fact("drained_by_rto", ramp.DrainedByRTO))
	if ramp.Drains {
		cleared = "clears it at " + num(ramp.DrainSeconds) + " s"
		summary = fmt.Sprintf("the mapping's ramp clears max_backlog %s in %s s, over rto_seconds %s", n(b.V), n(ramp.DrainSeconds), n(rto.V))
		facts = append(facts, fact("drain_seconds", ramp.DrainSeconds))
	}
	fix := "raise minimum_pollers"
	switch {
	case !m.Provisioned && m.MaximumConcurrency.Set:
		// AWS refuses both: queuecap_conflicting_concurrency.
		fix = "use pollers, not scaling_config"
	case !m.Provisioned:
		fix = "use provisioned_poller_config"
	}
	r.Report(at, summary+": "+fix,
		fmt.Sprintf("%s would clear max_backlog %s in %s s, within rto_seconds %s, but %s is not at that ceiling when the backlog is: %s and adds at most %s a minute (%s), so it reaches %s and its ceiling after %s s; by rto_seconds it has drained %s of the %s messages, and %s%s",
			s.capacityTerms(), num(b.V), num(s.Drain.Seconds), num(rto.V), f.Addr, start, num(in.RampPerMinute), rate, reach, num(ramp.FullSeconds),
			num(max(ramp.DrainedByRTO, 0)), num(b.V), cleared, managedGrowth(m, f, ramp.StartConsumers, required)),
		facts...)
}

// managedGrowth is what AWS says of a function on Lambda Managed Instances
// whose concurrency must more than double to reach required from start:
// its traffic may be throttled while instances are added, which the ramp
// does not count ("" otherwise, or when AWS's window is not in the table).
func managedGrowth(m *model.EventSourceMapping, f *model.Fleet, start, required float64) string {
	window, ok := m.Limits.Limit("lambda_managed_instances_doubling_window_seconds")
	if !f.ManagedInstances || !ok || start <= 0 || required <= 2*start {
		return ""
	}
	return fmt.Sprintf("; on Lambda Managed Instances it must also grow %s-fold, from %s to %s, and AWS may throttle traffic that more than doubles within %s s (lambda_managed_instances_doubling_window_seconds) while it adds instances, so recovery may take longer still",
		num(capacity.Clean(required/start)), num(start), num(required), num(window.Value))
}
