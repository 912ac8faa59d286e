// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"math"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// TestWaitTimePublishedValues checks Erlang C against published values:
// M/M/3 at a = 2 Erlangs waits with probability 4/9 (a textbook closed
// form), and the standard call-centre table at a = 10 Erlangs gives
// C(11) = 0.6821, C(12) = 0.4494, C(13) = 0.2853.
func TestWaitTimePublishedValues(t *testing.T) {
	cases := []struct {
		lambda, mu float64
		c          int64
		pw         float64
	}{
		{2, 1, 3, 4.0 / 9},
		{10, 1, 11, 0.6821},
		{10, 1, 12, 0.4494},
		{10, 1, 13, 0.2853},
	}
	for _, tc := range cases {
		w, err := capacity.WaitTime(capacity.WaitInput{ArrivalRate: tc.lambda, PerConsumerRate: tc.mu, Consumers: tc.c, Percentile: 0.99})
		if err != nil {
			t.Fatal(err)
		}
		if w.ProbabilityOfWait == nil || math.Abs(*w.ProbabilityOfWait-tc.pw) > 5e-5 {
			t.Errorf("a = %v, c = %d: P(wait) = %v, want %.4f", tc.lambda/tc.mu, tc.c, w.ProbabilityOfWait, tc.pw)
		}
	}
}

func TestWaitTime(t *testing.T) {
	// M/M/3, a = 2: C = 4/9, Wq = C / (3 − 2) = 4/9 s, p99 = ln((4/9) / 0.01) s.
	w, err := capacity.WaitTime(capacity.WaitInput{ArrivalRate: 2, PerConsumerRate: 1, Consumers: 3, Percentile: 0.99, TargetWaitSeconds: 1})
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "Utilization", w.Utilization, 2.0/3)
	assertOptional(t, "MeanWaitSeconds", w.MeanWaitSeconds, ptr(4.0/9))
	assertOptional(t, "PercentileWaitSeconds", w.PercentileWaitSeconds, ptr(math.Log(4.0/9/0.01)))
	if !w.Stable {
		t.Error("ρ = 2/3 is stable")
	}
	// The target of 1 s at p99: c = 4 gives C(4, 2) = 4/23 ≈ 0.174, surplus 2,
	// p99 = ln(0.174 / 0.01) / 2 ≈ 1.43 s; c = 5 gives C ≈ 0.060, surplus 3,
	// p99 ≈ ln(6.0) / 3 ≈ 0.60 s.
	if w.MinConsumersForTarget == nil || *w.MinConsumersForTarget != 5 {
		t.Errorf("MinConsumersForTarget = %v, want 5", w.MinConsumersForTarget)
	}

	// Unstable: no steady state, so no wait figures.
	u, err := capacity.WaitTime(capacity.WaitInput{ArrivalRate: 10000, PerConsumerRate: 400, Consumers: 25, Percentile: 0.99})
	if err != nil {
		t.Fatal(err)
	}
	if u.Stable || u.Utilization != 1 || u.ProbabilityOfWait != nil || u.MeanWaitSeconds != nil || u.PercentileWaitSeconds != nil {
		t.Errorf("25 × 400 against 10,000: %+v, want unstable with null waits", u)
	}
	// A percentile below the probability of waiting at all is 0 s.
	z, _ := capacity.WaitTime(capacity.WaitInput{ArrivalRate: 2, PerConsumerRate: 1, Consumers: 3, Percentile: 0.5})
	assertOptional(t, "p50", z.PercentileWaitSeconds, ptr(0.0))
}

// TestWaitTimeLargeFleet is the numerical stability check: c = 100,000 at
// 95 % utilization is finite and sensible (a huge pool waits almost never).
func TestWaitTimeLargeFleet(t *testing.T) {
	w, err := capacity.WaitTime(capacity.WaitInput{ArrivalRate: 95000, PerConsumerRate: 1, Consumers: 100000, Percentile: 0.99, TargetWaitSeconds: 0.001})
	if err != nil {
		t.Fatal(err)
	}
	if w.ProbabilityOfWait == nil || *w.ProbabilityOfWait < 0 || *w.ProbabilityOfWait > 1e-6 || math.IsNaN(*w.ProbabilityOfWait) {
		t.Errorf("P(wait) = %v, want a tiny probability", w.ProbabilityOfWait)
	}
	if w.MinConsumersForTarget == nil || *w.MinConsumersForTarget > 100000 || *w.MinConsumersForTarget <= 95000 {
		t.Errorf("MinConsumersForTarget = %v, want between 95,001 and 100,000", w.MinConsumersForTarget)
	}
}

func TestWaitTimeInvalid(t *testing.T) {
	valid := capacity.WaitInput{ArrivalRate: 1, PerConsumerRate: 1, Consumers: 2, Percentile: 0.99}
	cases := []struct {
		name  string
		edit  func(*capacity.WaitInput)
		field string
	}{
		{"no consumers", func(in *capacity.WaitInput) { in.Consumers = 0 }, "consumers"},
		{"percentile 1", func(in *capacity.WaitInput) { in.Percentile = 1 }, "percentile"},
		{"percentile 0", func(in *capacity.WaitInput) { in.Percentile = 0 }, "percentile"},
		{"zero μ", func(in *capacity.WaitInput) { in.PerConsumerRate = 0 }, "per_consumer_rate"},
		{"negative target", func(in *capacity.WaitInput) { in.TargetWaitSeconds = -1 }, "target_wait_seconds"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := valid
			tc.edit(&in)
			_, err := capacity.WaitTime(in)
			assertInputError(t, err, tc.field)
		})
	}
}

func TestReplayBudget(t *testing.T) {
	// MATH.md: U 1,000, live 700, retries 100, 2 calls per job, no margin:
	// 200 calls/s, at most 100 jobs/s; 36,000 messages in 360 s.
	r, err := capacity.ReplayBudget(capacity.ReplayInput{DownstreamLimit: 1000, LiveUsage: 700, RetryUsage: 100, CallsPerJob: 2, DLQDepth: ptr(36000.0)})
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "CallsPerSecond", r.CallsPerSecond, 200)
	assertClose(t, "JobsPerSecond", r.JobsPerSecond, 100)
	assertOptional(t, "ReplaySeconds", r.ReplaySeconds, ptr(360.0))
	// The default 10 % margin keeps 100 calls/s free: 50 jobs/s.
	r, _ = capacity.ReplayBudget(capacity.ReplayInput{DownstreamLimit: 1000, LiveUsage: 700, RetryUsage: 100, CallsPerJob: 2, SafetyMargin: 0.1})
	assertClose(t, "JobsPerSecond with margin", r.JobsPerSecond, 50)
	assertOptional(t, "ReplaySeconds without a depth", r.ReplaySeconds, nil)
	// No room: live and retries already take 900 of 1,000 with a 10 % margin.
	r, _ = capacity.ReplayBudget(capacity.ReplayInput{DownstreamLimit: 1000, LiveUsage: 850, RetryUsage: 50, CallsPerJob: 1, SafetyMargin: 0.1, DLQDepth: ptr(5.0)})
	if !r.NoRoom || r.JobsPerSecond != 0 || r.ReplaySeconds != nil {
		t.Errorf("no room: %+v, want 0 jobs/s and no replay time", r)
	}
	_, err = capacity.ReplayBudget(capacity.ReplayInput{DownstreamLimit: 1000, CallsPerJob: 0})
	assertInputError(t, err, "calls_per_job")
	_, err = capacity.ReplayBudget(capacity.ReplayInput{DownstreamLimit: 1000, CallsPerJob: 1, SafetyMargin: 1.5})
	assertInputError(t, err, "safety_margin")
}
