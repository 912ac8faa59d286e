// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules

import (
	"fmt"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

// metastableRetryStorm flags a fleet that drains the declared max_backlog
// when nobody retries, but not when producers retry the messages that wait
// longer than their timeout: the retries the backlog provokes keep it
// growing, a metastable failure. Without retries the backlog drains in the
// queue's drain time; with them it is capacity.SimulateStorm, the seed's
// one-second simulation, over its default horizon of 36,000 s.
type metastableRetryStorm struct{ meta }

func newMetastableRetryStorm() model.Rule {
	return metastableRetryStorm{meta{
		name:     "queuecap_metastable_retry_storm",
		severity: model.Warning,
		summary:  "The consumer fleet at its maximum size drains the declared max_backlog without retries, but not when producers retry timed-out messages retries_per_timeout times: the retry storm keeps the backlog growing.",
	}}
}

// stormSeconds is the horizon of the simulation: the seed's 10 hours,
// the queuecap_retry_storm data source's default max_seconds. The rule asks
// whether the fleet recovers at all; recovering too slowly for rto_seconds
// is queuecap_insufficient_headroom's finding.
const stormSeconds = capacity.DefaultStormMaxSeconds

func (metastableRetryStorm) CheckQueue(q *model.Queue, r model.Reporter) {
	k := q.Rates.RetriesPerTimeout
	if !k.Set || (k.Known && k.V == 0) {
		return // no retry storm declared
	}
	s, ok := supplyOf(q, r)
	if !ok || s.Surplus <= 0 {
		return // no surplus even without retries: queuecap_zero_surplus
	}
	b, w := s.queue.Rates.MaxBacklog, s.queue.Rates.TimeoutWindowSeconds
	switch {
	case !k.Known:
		r.Skip(k.Range, "retries_per_timeout of "+q.Addr+" "+k.Unknown())
		return
	case !b.Set:
		r.Skip(k.Range, "retries_per_timeout of "+q.Addr+" is declared without max_backlog, the backlog the retry storm starts from")
		return
	case !b.Known:
		r.Skip(b.Range, "max_backlog of "+q.Addr+" "+b.Unknown())
		return
	case b.V == 0:
		return
	case !w.Set:
		w = model.Num{V: capacity.DefaultTimeoutWindowSeconds, Set: true, Known: true}
	case !w.Known:
		r.Skip(w.Range, "timeout_window_seconds of "+q.Addr+" "+w.Unknown())
		return
	}
	checkRetryStorm(s, b.V, k.V, w.V, r)
}

// checkRetryStorm reports a fleet that drains the backlog without timeout
// retries, in the queue's drain time, but not in the simulation with the
// declared retries.
func checkRetryStorm(s *supply, backlog, retries, window float64, r model.Reporter) {
	// Without timeout retries the simulation is the fluid model in whole
	// seconds: the drain time is the one every finding on the queue states.
	if s.Drain == nil || !s.Drain.Drains || s.Drain.Seconds > stormSeconds {
		return // too slow even without retries: a recovery, not a storm, problem
	}
	// The simulation needs the capacity c·μ: one fleet's as it is, several
	// fleets', or consumers bounded by their message groups or pollers,
	// as one consumer of their total capacity.
	in := capacity.StormInput{ArrivalRate: s.Effective, PerConsumerRate: s.Capacity, Consumers: 1,
		Backlog: backlog, RetriesPerTimeout: retries, TimeoutWindowSeconds: window, MaxSeconds: stormSeconds}
	oneFleet := len(s.Fleets) == 1 && s.Bound == ""
	if oneFleet {
		in.PerConsumerRate, in.Consumers = s.Fleets[0].Rate, int64(s.Fleets[0].Size)
	}
	storm, err := capacity.SimulateStorm(in, nil)
	if err != nil {
		r.Skip(s.queue.DefRange, "declared rates of "+s.queue.Addr+" are invalid: "+err.Error())
		return
	}
	if storm.Drains {
		return
	}
	msg := fmt.Sprintf("%s drains max_backlog %s in %s s at %s without timeout retries, but not within %s s when each timed-out message (wait over %s s) is retried %s: arrivals climb to %s msg/s and the depth to %s messages",
		s.capacityTerms(), num(backlog), num(s.Drain.Seconds), s.arrivalTerms(), num(stormSeconds), num(window), times(retries),
		num(storm.PeakEffectiveArrivalRate), approx(storm.PeakDepth))
	facts := []model.Fact{fact("max_backlog", backlog), fact("retries_per_timeout", retries), fact("timeout_window_seconds", window),
		fact("max_seconds", stormSeconds), fact("drain_seconds_without_retries", s.Drain.Seconds),
		fact("peak_depth", storm.PeakDepth), fact("peak_effective_arrival_rate", storm.PeakEffectiveArrivalRate)}
	summary := fmt.Sprintf("timeout retries keep max_backlog %s from draining within %s s: add capacity or retry less", n(backlog), n(stormSeconds))
	if oneFleet {
		// A count of consumers means something only for one fleet.
		if c, err := capacity.MinConsumersToDrain(in, 0); err == nil {
			msg += fmt.Sprintf("; %s consumers drain it within %s s under the same storm", num(float64(c)), num(stormSeconds))
			if s.resizable() {
				summary = fmt.Sprintf("%s does not survive the retry storm from max_backlog %s: %s", s.size(), n(backlog), s.raiseTo(float64(c)))
			}
			facts = append(facts, fact("min_consumers_to_drain", float64(c)))
		}
	}
	r.Report(s.At, summary, msg, s.facts(facts...)...)
}

// times is how often: "once", "1.5 times".
func times(v float64) string {
	if v == 1 {
		return "once"
	}
	return num(v) + " times"
}
