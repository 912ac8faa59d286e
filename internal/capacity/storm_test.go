// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"math"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// seedStorm is seed 000's simulation: λ 10,000, μ 400, B 3.6 M, W 30 s,
// 36,000 steps.
func seedStorm(consumers int64, retries float64) capacity.StormInput {
	return capacity.StormInput{ArrivalRate: 10000, PerConsumerRate: 400, Consumers: consumers, Backlog: 3.6e6,
		RetriesPerTimeout: retries, TimeoutWindowSeconds: 30, MaxSeconds: 36000}
}

// TestSimulateStormSeedTable reproduces the seed's output: 25 consumers
// never drain; 32 drain in 1,287 recorded steps (depth 0 at t = 1,286,
// 21.4 min); 32 under 1.5 retries per timeout never drain, peak ≈ 4.4 × 10^8.
func TestSimulateStormSeedTable(t *testing.T) {
	steady, err := capacity.SimulateStorm(seedStorm(25, 0), nil)
	if err != nil {
		t.Fatal(err)
	}
	if steady.Drains || steady.DrainSeconds != nil || steady.PeakDepth != 3.6e6 || steady.FinalDepth != 3.6e6 {
		t.Errorf("25 consumers: %+v, want never draining at a constant 3.6 M", steady)
	}

	headroom, err := capacity.SimulateStorm(seedStorm(32, 0), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !headroom.Drains || headroom.Steps != 1287 || headroom.DrainSeconds == nil || *headroom.DrainSeconds != 1286 {
		t.Errorf("32 consumers: drains %v in %d steps (drain_seconds %v), want 1,287 steps, depth 0 at t = 1,286", headroom.Drains, headroom.Steps, headroom.DrainSeconds)
	}
	assertClose(t, "32 consumers peak", headroom.PeakDepth, 3.6e6)
	assertClose(t, "32 consumers peak arrival", headroom.PeakEffectiveArrivalRate, 10000)

	storm, err := capacity.SimulateStorm(seedStorm(32, 1.5), nil)
	if err != nil {
		t.Fatal(err)
	}
	if storm.Drains || storm.Steps != 36000 {
		t.Errorf("storm: drains %v after %d steps, want never within 36,000", storm.Drains, storm.Steps)
	}
	// Past depth 300,000 every message times out: arrivals 25,000 against
	// 12,800, so the depth grows 12,200 msg/s; about 4.4 × 10^8 at the end.
	if storm.PeakDepth < 4.35e8 || storm.PeakDepth > 4.45e8 {
		t.Errorf("storm peak %.4g, want ≈ 4.4e8", storm.PeakDepth)
	}
	assertClose(t, "storm peak arrival", storm.PeakEffectiveArrivalRate, 25000)
}

func TestMinConsumersToDrain(t *testing.T) {
	cases := []struct {
		name   string
		in     capacity.StormInput
		within int64
	}{
		{"seed without retries", seedStorm(0, 0), 0},
		{"seed storm", seedStorm(0, 1.5), 0},
		{"seed without retries within 30 minutes", seedStorm(0, 0), 1800},
		{"seed storm within 30 minutes", seedStorm(0, 1.5), 1800},
		{"small fleet", capacity.StormInput{ArrivalRate: 3, PerConsumerRate: 2, Backlog: 50, RetriesPerTimeout: 2, TimeoutWindowSeconds: 5, MaxSeconds: 100}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := capacity.MinConsumersToDrain(tc.in, tc.within)
			if err != nil {
				t.Fatal(err)
			}
			// The answer is the smallest: it drains, one fewer does not.
			in := tc.in
			if tc.within > 0 {
				in.MaxSeconds = tc.within + 1 // drained at some t ≤ within
			}
			in.Consumers = got
			if s, _ := capacity.SimulateStorm(in, nil); !s.Drains {
				t.Errorf("%d consumers do not drain", got)
			}
			in.Consumers = got - 1
			if s, _ := capacity.SimulateStorm(in, nil); got > 0 && s.Drains {
				t.Errorf("%d consumers already drain; %d is not the smallest", got-1, got)
			}
		})
	}
	// Without retries the fluid answer holds: 3.6 M within 35,999 s needs
	// only a surplus above 100 msg/s: 26 × 400 = 10,400. Within a 30-minute
	// RTO it is the headroom formula's 25 + 3.6 M / (400 × 1800) = 30,
	// which reaches 0 at exactly t = 1,800.
	for _, tc := range []struct {
		within int64
		want   int64
	}{{0, 26}, {1800, 30}} {
		if got, _ := capacity.MinConsumersToDrain(seedStorm(0, 0), tc.within); got != tc.want {
			t.Errorf("seed without retries within %d s: %d consumers, want %d", tc.within, got, tc.want)
		}
	}
	// Under the storm every message times out past depth 300,000, arrivals
	// reach 25,000 msg/s and only 25,000 / 400 = 62.5 → 63 consumers drain
	// it within 10 h; 68 within 30 minutes.
	for _, tc := range []struct {
		within int64
		want   int64
	}{{0, 63}, {1800, 68}} {
		if got, _ := capacity.MinConsumersToDrain(seedStorm(0, 1.5), tc.within); got != tc.want {
			t.Errorf("seed storm within %d s: %d consumers, want %d", tc.within, got, tc.want)
		}
	}
}

func TestSimulateStormInvalid(t *testing.T) {
	valid := seedStorm(32, 0)
	cases := []struct {
		name  string
		edit  func(*capacity.StormInput)
		field string
	}{
		{"zero μ", func(in *capacity.StormInput) { in.PerConsumerRate = 0 }, "per_consumer_rate"},
		{"negative consumers", func(in *capacity.StormInput) { in.Consumers = -1 }, "consumers"},
		{"negative retries", func(in *capacity.StormInput) { in.RetriesPerTimeout = -1 }, "retries_per_timeout"},
		{"zero window", func(in *capacity.StormInput) { in.TimeoutWindowSeconds = 0 }, "timeout_window_seconds"},
		{"no steps", func(in *capacity.StormInput) { in.MaxSeconds = 0 }, "max_seconds"},
		{"too many steps", func(in *capacity.StormInput) { in.MaxSeconds = 1e9 }, "max_seconds"},
		{"depth overflows", func(in *capacity.StormInput) {
			in.Backlog, in.Consumers, in.RetriesPerTimeout, in.ArrivalRate = 1e308, 0, 1e10, 1e300
		}, "backlog"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := valid
			tc.edit(&in)
			_, err := capacity.SimulateStorm(in, nil)
			assertInputError(t, err, tc.field)
		})
	}
}

// TestStormDrainsOnTheSecond: a run whose arrival rate never changes (no
// retries, or every message timed out) reaches 0 on the exact second,
// not when float64's accumulated rounding says: 2 messages at a surplus of
// 7 × 0.1 − 0.3 = 0.4 msg/s are gone at t = 5 (float64's stepping left
// a residue there and reached 0 at t = 6), so 7 consumers drain them
// within an RTO of 5 s, as the headroom formula's ceil(0.3/0.1 + 2/(0.1 ×
// 5)) = 7 says. A backlog of 1e-12 against 1,000 msg/s in and out stays
// 1e-12 (stepping made it 1.0231815394945443e-12).
func TestStormDrainsOnTheSecond(t *testing.T) {
	in := capacity.StormInput{ArrivalRate: 0.3, PerConsumerRate: 0.1, Consumers: 7, Backlog: 2, TimeoutWindowSeconds: 30, MaxSeconds: 100}
	s, err := capacity.SimulateStorm(in, nil)
	if err != nil || !s.Drains || *s.DrainSeconds != 5 || s.Steps != 6 {
		t.Errorf("2 messages at 0.4 msg/s: %+v %v, want drained at t = 5 in 6 steps", s, err)
	}
	if c, err := capacity.MinConsumersToDrain(in, 5); err != nil || c != 7 {
		t.Errorf("the least fleet within 5 s: %d %v, want 7", c, err)
	}
	// The same with every message timed out: 1.5 retries, λ·W = 0.03 ≤ 0.4.
	in.Consumers, in.RetriesPerTimeout, in.TimeoutWindowSeconds = 12, 1.5, 0.1
	if s, err := capacity.SimulateStorm(in, nil); err != nil || !s.Drains || *s.DrainSeconds != 5 {
		t.Errorf("2 messages at 12 × 0.1 − 0.3 × 2.5 = 0.45 msg/s: %+v %v, want drained at t = 5", s, err)
	}
	tiny := capacity.StormInput{ArrivalRate: 1000, PerConsumerRate: 1, Consumers: 1000, Backlog: 1e-12, TimeoutWindowSeconds: 30, MaxSeconds: 100}
	if s, err := capacity.SimulateStorm(tiny, nil); err != nil || s.Drains || s.FinalDepth != 1e-12 {
		t.Errorf("1e-12 messages at no surplus: %+v %v, want never drained, 1e-12 left", s, err)
	}
}

// TestStormNearSteadyState: a step's rounding is of the depth and the net
// flow. At λ = c·μ = 57,631,296 msg/s a backlog of 0.006 under 2.6
// retries per timeout (W 85 s) grows by 1 + 2.6/85 a second to
// 22,050,485.8070313 at t = 731 (a 200-bit simulation's figure); adding the
// retries' few messages a second to λ before taking c·μ away left them
// only what a unit in the last place of λ kept, and the peak 1.5e-6 off.
func TestStormNearSteadyState(t *testing.T) {
	s, err := capacity.SimulateStorm(capacity.StormInput{ArrivalRate: 57631296, PerConsumerRate: 960521.6, Consumers: 60, Backlog: 0.006,
		RetriesPerTimeout: 2.6, TimeoutWindowSeconds: 85, MaxSeconds: 732}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := 22050485.807031262; s.Drains || math.Abs(s.PeakDepth-want) > 1e-12*want {
		t.Errorf("peak depth %v (drains %v), want %v", s.PeakDepth, s.Drains, want)
	}
}
