// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity

// DefaultReplaySafetyMargin is the share of the downstream limit kept free.
const DefaultReplaySafetyMargin = 0.1

// ReplayInput describes a dead-letter queue redrive that shares a
// downstream limit with live traffic and its retries.
type ReplayInput struct {
	DownstreamLimit float64  // U, calls/s
	LiveUsage       float64  // calls/s used by live work
	RetryUsage      float64  // calls/s used by retries
	CallsPerJob     float64  // k_c, > 0
	SafetyMargin    float64  // m, a fraction of U, 0..1
	DLQDepth        *float64 // messages to replay; nil when not given
}

// Replay is how fast a dead-letter queue may be replayed.
type Replay struct {
	CallsPerSecond float64
	JobsPerSecond  float64
	// NoRoom is true when live work, retries and the margin already use
	// the whole limit: replaying now would take capacity from live work.
	NoRoom        bool
	ReplaySeconds *float64 // DLQDepth / JobsPerSecond; nil without a depth or without room
}

// ReplayBudget is the replay rate that fits beside live work: (U − u_live −
// u_retry − m·U) / k_c jobs per second. Replay must never assume the whole
// downstream limit.
func ReplayBudget(in ReplayInput) (Replay, error) {
	var out Replay
	if err := checkPositive("downstream_limit", in.DownstreamLimit); err != nil {
		return out, err
	}
	for _, c := range []struct {
		field string
		v     float64
	}{{"live_usage", in.LiveUsage}, {"retry_usage", in.RetryUsage}} {
		if err := checkNonNegative(c.field, c.v); err != nil {
			return out, err
		}
	}
	if in.DLQDepth != nil {
		if err := checkNonNegative("dlq_depth", *in.DLQDepth); err != nil {
			return out, err
		}
	}
	if err := checkPositive("calls_per_job", in.CallsPerJob); err != nil {
		return out, err
	}
	if err := checkFraction("safety_margin", in.SafetyMargin); err != nil {
		return out, err
	}
	// Exact: what the limit leaves after the margin, live traffic and
	// retries.
	freeR := sub(mul(dec(in.DownstreamLimit), sub(ratOne, dec(in.SafetyMargin))), add(dec(in.LiveUsage), dec(in.RetryUsage)))
	free := float(freeR)
	if err := checkResult("downstream_limit", "the free capacity", free); err != nil {
		return out, err
	}
	if freeR.Sign() <= 0 {
		out.NoRoom = true
		return out, nil
	}
	out.CallsPerSecond = free
	jobs := quo(freeR, dec(in.CallsPerJob))
	out.JobsPerSecond = float(jobs)
	if err := checkResult("calls_per_job", "the replay rate replay_calls_per_second / calls_per_job", out.JobsPerSecond); err != nil {
		return Replay{}, err
	}
	if in.DLQDepth != nil {
		s := float(quo(dec(*in.DLQDepth), jobs))
		if err := checkResult("dlq_depth", "the replay time dlq_depth / replay_jobs_per_second", s); err != nil {
			return out, err
		}
		out.ReplaySeconds = &s
	}
	return out, nil
}
