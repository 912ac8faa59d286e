// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

// Fuzz targets for the retry storm, Erlang C and the replay budget, in the
// style of fuzz_test.go: no panic, errors are *InputErrors naming an input,
// results are finite and keep the model's invariants.

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// fuzzStormSteps bounds the simulated seconds so that each run, which
// simulates up to a hundred fleets, stays fast. Larger in-range counts are
// folded into it; out-of-range counts still reach validation.
const fuzzStormSteps = 4096

func FuzzSimulateStorm(f *testing.F) {
	f.Add(10000.0, 400.0, int64(25), 3.6e6, 0.0, 30.0, int64(36000))
	f.Add(10000.0, 400.0, int64(32), 3.6e6, 0.0, 30.0, int64(36000))
	f.Add(10000.0, 400.0, int64(32), 3.6e6, 1.5, 30.0, int64(36000))
	f.Add(3.0, 2.0, int64(2), 50.0, 2.0, 5.0, int64(100))
	f.Add(0.0, 1.0, int64(0), 1.0, 0.0, 30.0, int64(2))
	f.Add(1e300, 1.0, int64(0), 1e308, 1e10, 30.0, int64(10))
	f.Add(1e-300, 1e300, int64(1), 1e-310, 1e300, 1e-300, int64(1))
	// λ·W underflows to 0: at depth 0 the timeout probability was 0/0.
	f.Add(1e-300, 1e300, int64(1), 1e-310, 1e300, 1e-300, int64(53))
	f.Add(1.0, 1.0, int64(-1), 1.0, 0.0, 0.0, int64(1e9))
	f.Fuzz(checkSimulateStorm)
}

// stormFields are the inputs a storm error may name.
var stormFields = []string{"arrival_rate", "per_consumer_rate", "consumers", "backlog", "retries_per_timeout",
	"timeout_window_seconds", "max_seconds"}

// checkSimulateStorm is FuzzSimulateStorm's property check, of the
// simulation and of the smallest fleet that drains under it.
func checkSimulateStorm(t *testing.T, arrival, perRate float64, consumers int64, backlog, retries, window float64, maxSeconds int64) {
	if maxSeconds > fuzzStormSteps && maxSeconds <= 864000 {
		maxSeconds = maxSeconds%fuzzStormSteps + 1
	}
	in := capacity.StormInput{ArrivalRate: arrival, PerConsumerRate: perRate, Consumers: consumers, Backlog: backlog,
		RetriesPerTimeout: retries, TimeoutWindowSeconds: window, MaxSeconds: maxSeconds}
	var visited int64
	var maxVisited float64
	got, err := capacity.SimulateStorm(in, func(step int64, depth, effectiveArrival float64) {
		if step != visited {
			t.Fatalf("visit at t = %d, want %d", step, visited)
		}
		visited++
		maxVisited = max(maxVisited, depth)
		if !(depth >= 0) || math.IsInf(depth, 0) || !(effectiveArrival >= 0) || math.IsInf(effectiveArrival, 0) {
			t.Fatalf("t = %d: depth %v, effective arrival %v, want finite and ≥ 0", step, depth, effectiveArrival)
		}
	})
	if err != nil {
		checkFuzzError(t, err, stormFields...)
		return
	}
	checkFinite(t, map[string]any{"PeakDepth": got.PeakDepth, "FinalDepth": got.FinalDepth,
		"PeakEffectiveArrivalRate": got.PeakEffectiveArrivalRate, "DrainSeconds": got.DrainSeconds})
	if got.Steps < 1 || got.Steps > maxSeconds || got.Steps != visited {
		t.Fatalf("Steps = %d with %d visits, want 1 ≤ steps ≤ max_seconds %d", got.Steps, visited, maxSeconds)
	}
	if got.Drains != (got.DrainSeconds != nil) {
		t.Fatalf("Drains = %v but DrainSeconds = %v", got.Drains, got.DrainSeconds)
	}
	if got.Drains {
		if *got.DrainSeconds != float64(got.Steps-1) || got.FinalDepth != 0 {
			t.Errorf("drains at %v s in %d steps with final depth %v, want the last step at depth 0", *got.DrainSeconds, got.Steps, got.FinalDepth)
		}
	} else if got.Steps != maxSeconds || got.FinalDepth <= 0 {
		t.Errorf("never drains, but after %d of %d steps the depth is %v", got.Steps, maxSeconds, got.FinalDepth)
	}
	if got.PeakDepth != maxVisited || got.PeakDepth < backlog || got.PeakDepth < got.FinalDepth {
		t.Errorf("PeakDepth = %v, want the deepest visited %v (backlog %v, final %v)", got.PeakDepth, maxVisited, backlog, got.FinalDepth)
	}
	checkAtLeast(t, "PeakEffectiveArrivalRate", got.PeakEffectiveArrivalRate, arrival)
	if worst := arrival * (1 + retries); got.PeakEffectiveArrivalRate > worst*(1+relTol) {
		t.Errorf("PeakEffectiveArrivalRate = %v above arrival × (1 + retries) = %v", got.PeakEffectiveArrivalRate, worst)
	}

	checkMinConsumersToDrain(t, in)
}

// checkMinConsumersToDrain requires the smallest draining fleet to drain,
// and one fewer not to.
func checkMinConsumersToDrain(t *testing.T, in capacity.StormInput) {
	t.Helper()
	c, err := capacity.MinConsumersToDrain(in, 0)
	if err != nil {
		checkFuzzError(t, err, stormFields...)
		var ie *capacity.InputError
		if errors.As(err, &ie) && strings.Contains(ie.Reason, "even with") {
			t.Errorf("the fleet bound failed to drain: %v", err) // the bound is a proof: it must drain
		}
		return
	}
	if c < 0 || c > capacity.MaxCount {
		t.Fatalf("MinConsumersToDrain = %d, want 0 ≤ c ≤ MaxCount", c)
	}
	in.Consumers = c
	if s, err := capacity.SimulateStorm(in, nil); err != nil || !s.Drains {
		t.Errorf("%d consumers: drains %v (err %v), want the smallest fleet that drains", c, s.Drains, err)
	}
	if c == 0 {
		return
	}
	in.Consumers = c - 1
	if s, err := capacity.SimulateStorm(in, nil); err == nil && s.Drains {
		t.Errorf("%d consumers already drain: %d is not the smallest", c-1, c)
	}
}

func FuzzWaitTime(f *testing.F) {
	f.Add(2.0, 1.0, int64(3), 0.99, 0.0)
	f.Add(2.0, 1.0, int64(3), 0.99, 1.0)
	f.Add(10.0, 1.0, int64(11), 0.5, 0.01)
	f.Add(10000.0, 400.0, int64(25), 0.99, 0.01)
	f.Add(95000.0, 1.0, int64(100000), 0.99, 0.001)
	f.Add(0.0, 1.0, int64(1), 1e-300, 1e-300)
	f.Add(1e300, 1e-300, int64(2), 0.99, 0.0)
	f.Add(1.0, 1e308, int64(10000000), 0.999999, 0.0)
	f.Fuzz(checkWaitTime)
}

// checkWaitTime is FuzzWaitTime's property check.
func checkWaitTime(t *testing.T, arrival, perRate float64, consumers int64, percentile, target float64) {
	in := capacity.WaitInput{ArrivalRate: arrival, PerConsumerRate: perRate, Consumers: consumers, Percentile: percentile, TargetWaitSeconds: target}
	got, err := capacity.WaitTime(in)
	if err != nil {
		checkFuzzError(t, err, "arrival_rate", "per_consumer_rate", "consumers", "percentile", "target_wait_seconds")
		return
	}
	checkFinite(t, map[string]any{"Utilization": got.Utilization, "ProbabilityOfWait": got.ProbabilityOfWait,
		"MeanWaitSeconds": got.MeanWaitSeconds, "PercentileWaitSeconds": got.PercentileWaitSeconds})
	checkNonNegative(t, "Utilization", got.Utilization)
	// Stable means ρ < 1 exactly; ρ to 15 digits may read 1 then, never more.
	if (got.Stable && got.Utilization > 1) || (!got.Stable && got.Utilization < 1) {
		t.Errorf("Stable = %v with utilization %v", got.Stable, got.Utilization)
	}
	figures := got.ProbabilityOfWait != nil
	if figures != got.Stable || (got.MeanWaitSeconds != nil) != figures || (got.PercentileWaitSeconds != nil) != figures {
		t.Fatalf("Stable %v with P(wait) %v, mean %v, percentile %v: want the figures exactly when stable",
			got.Stable, got.ProbabilityOfWait, got.MeanWaitSeconds, got.PercentileWaitSeconds)
	}
	if figures {
		if pw := *got.ProbabilityOfWait; !(pw >= 0 && pw <= 1+relTol) {
			t.Errorf("ProbabilityOfWait = %v, want a probability", pw)
		}
		checkNonNegative(t, "MeanWaitSeconds", *got.MeanWaitSeconds)
		checkNonNegative(t, "PercentileWaitSeconds", *got.PercentileWaitSeconds)
	}
	if (got.MinConsumersForTarget != nil) != (target > 0) {
		t.Fatalf("MinConsumersForTarget = %v with target %v: want one exactly with a target", got.MinConsumersForTarget, target)
	}
	if got.MinConsumersForTarget != nil {
		checkMinConsumersForTarget(t, in, *got.MinConsumersForTarget)
	}
}

// checkMinConsumersForTarget requires the smallest fleet meeting the
// target to meet it, and one fewer not to.
func checkMinConsumersForTarget(t *testing.T, in capacity.WaitInput, c int64) {
	t.Helper()
	target := in.TargetWaitSeconds
	in.TargetWaitSeconds = 0
	in.Consumers = c
	w, err := capacity.WaitTime(in)
	if err != nil || w.PercentileWaitSeconds == nil || *w.PercentileWaitSeconds > target {
		t.Fatalf("%d consumers: percentile wait %v (err %v), want at most the target %v", c, w.PercentileWaitSeconds, err, target)
	}
	if c == 1 {
		return
	}
	in.Consumers = c - 1
	if w, err := capacity.WaitTime(in); err == nil && w.PercentileWaitSeconds != nil && *w.PercentileWaitSeconds <= target {
		t.Errorf("%d consumers already wait %v ≤ %v: %d is not the smallest", c-1, *w.PercentileWaitSeconds, target, c)
	}
}

func FuzzReplayBudget(f *testing.F) {
	f.Add(1000.0, 700.0, 100.0, 2.0, 0.0, 0.0, false)
	f.Add(1000.0, 700.0, 100.0, 2.0, 0.1, 36000.0, true)
	f.Add(1000.0, 850.0, 50.0, 1.0, 0.1, 5.0, true)
	f.Add(1.0, 0.0, 0.0, 1e300, 0.0, 1e308, true)
	f.Add(1.0, 1e308, 1e308, 1.0, 0.0, 0.0, false)
	f.Add(1e308, 0.0, 0.0, 1e-300, 0.0, 0.0, true)
	f.Fuzz(checkReplayBudget)
}

// checkReplayBudget is FuzzReplayBudget's property check.
func checkReplayBudget(t *testing.T, limit, live, retry, callsPerJob, margin, depth float64, hasDepth bool) {
	in := capacity.ReplayInput{DownstreamLimit: limit, LiveUsage: live, RetryUsage: retry, CallsPerJob: callsPerJob, SafetyMargin: margin}
	if hasDepth {
		in.DLQDepth = &depth
	}
	got, err := capacity.ReplayBudget(in)
	if err != nil {
		checkFuzzError(t, err, "downstream_limit", "live_usage", "retry_usage", "calls_per_job", "safety_margin", "dlq_depth")
		return
	}
	checkFinite(t, map[string]any{"CallsPerSecond": got.CallsPerSecond, "JobsPerSecond": got.JobsPerSecond, "ReplaySeconds": got.ReplaySeconds})
	checkNonNegative(t, "CallsPerSecond", got.CallsPerSecond)
	checkNonNegative(t, "JobsPerSecond", got.JobsPerSecond)
	if got.NoRoom {
		if got.CallsPerSecond != 0 || got.JobsPerSecond != 0 || got.ReplaySeconds != nil {
			t.Errorf("no room, but %v calls/s, %v jobs/s, replay %v s", got.CallsPerSecond, got.JobsPerSecond, got.ReplaySeconds)
		}
		return
	}
	// Replay never takes more than the limit, nor the margin kept free of it.
	if got.CallsPerSecond <= 0 || got.CallsPerSecond > limit*(1-margin)*(1+relTol) {
		t.Errorf("CallsPerSecond = %v, want in (0, %v]", got.CallsPerSecond, limit*(1-margin))
	}
	if (got.ReplaySeconds != nil) != hasDepth {
		t.Errorf("ReplaySeconds = %v with a depth %v", got.ReplaySeconds, hasDepth)
	}
	if got.ReplaySeconds != nil {
		checkNonNegative(t, "ReplaySeconds", *got.ReplaySeconds)
	}
}
