// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity

// TTLInput describes an incident: arrivals keep coming while the fleet
// completes only DegradedCompletionRate (0 for a full outage).
type TTLInput struct {
	ArrivalRate            float64 // λ, msg/s
	IncidentSeconds        float64 // T_inc
	TTLSeconds             float64 // age after which a message is dropped
	DegradedCompletionRate float64 // d, msg/s
	Retries                Retries
}

// TTLBacklog is the worst backlog of an incident with and without a TTL.
type TTLBacklog struct {
	EffectiveArrivalRate float64
	UnboundedBacklog     float64 // max(0, λ_eff − d) · T_inc
	TTLBoundedBacklog    float64 // min(unbounded, λ_eff · TTL)
	TTLBoundApplies      bool    // the TTL bound is the smaller one
}

// BacklogWithTTL bounds an incident's backlog by the TTL window: consuming
// FIFO from the head, the head's age reaches TTL when the backlog equals
// λ_eff · TTL, and from then on expiries hold it there.
func BacklogWithTTL(in TTLInput) (TTLBacklog, error) {
	var out TTLBacklog
	if err := checkNonNegative("incident_seconds", in.IncidentSeconds); err != nil {
		return out, err
	}
	if err := checkPositive("ttl_seconds", in.TTLSeconds); err != nil {
		return out, err
	}
	if err := checkNonNegative("degraded_completion_rate", in.DegradedCompletionRate); err != nil {
		return out, err
	}
	eff, err := EffectiveArrivalRate(in.ArrivalRate, in.Retries)
	if err != nil {
		return out, err
	}
	out.EffectiveArrivalRate = eff
	effR := in.Retries.effective(in.ArrivalRate)
	unbounded := mul(atLeast0(sub(effR, dec(in.DegradedCompletionRate))), dec(in.IncidentSeconds))
	out.UnboundedBacklog = float(unbounded)
	if err := checkResult("incident_seconds", "the unbounded backlog (arrival − degraded completion) × incident_seconds", out.UnboundedBacklog); err != nil {
		return out, err
	}
	window := mul(effR, dec(in.TTLSeconds))
	if err := checkResult("ttl_seconds", "the TTL window effective arrival × ttl_seconds", float(window)); err != nil {
		return out, err
	}
	out.TTLBoundApplies = window.Cmp(unbounded) < 0
	out.TTLBoundedBacklog = out.UnboundedBacklog
	if out.TTLBoundApplies {
		out.TTLBoundedBacklog = float(window)
	}
	return out, nil
}
