// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"errors"
	"math"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

func TestFindingFormulas(t *testing.T) {
	// 10 × 400 + 5 × 200 against 4,000 msg/s: 25 % spare, and 1,500
	// messages drained in 1.5 s; nothing arriving: no headroom.
	sup, err := capacity.SupplyAgainst([]capacity.FleetSize{{Count: 10, PerConsumerRate: 400}, {Count: 5, PerConsumerRate: 200}}, 4000, capacity.Retries{}, 1500)
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "SupplyAgainst capacity", sup.Capacity, 5000)
	assertClose(t, "SupplyAgainst surplus", sup.Surplus, 1000)
	assertOptional(t, "SupplyAgainst headroom", sup.Headroom, ptr(0.25))
	if !sup.Drains || sup.DrainSeconds != 1.5 {
		t.Errorf("SupplyAgainst drain: %v in %v s, want 1.5 s", sup.Drains, sup.DrainSeconds)
	}
	if sup, _ := capacity.SupplyAgainst([]capacity.FleetSize{{Count: 1, PerConsumerRate: 400}}, 0, capacity.Retries{}, 0); sup.Headroom != nil {
		t.Errorf("SupplyAgainst with no arrivals: headroom %v, want nil", *sup.Headroom)
	}
	if sup, _ := capacity.SupplyAgainst([]capacity.FleetSize{{Count: 25, PerConsumerRate: 400}}, 10000, capacity.Retries{}, 1); sup.Drains || sup.DrainSeconds != 0 {
		t.Errorf("SupplyAgainst without a surplus drains %v in %v s", sup.Drains, sup.DrainSeconds)
	}
	_, err = capacity.SupplyAgainst([]capacity.FleetSize{{Count: math.MaxInt64, PerConsumerRate: math.MaxFloat64}}, 0, capacity.Retries{}, 0)
	assertInputError(t, err, "per_consumer_rate")
	_, err = capacity.SupplyAgainst([]capacity.FleetSize{{Count: -1, PerConsumerRate: 1}}, 0, capacity.Retries{}, 0)
	assertInputError(t, err, "consumers")
	_, err = capacity.SupplyAgainst(nil, 0, capacity.Retries{}, -1)
	assertInputError(t, err, "backlog")

	c, err := capacity.HeadroomCapacity(10000, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "HeadroomCapacity", c, 12000)

	// 5 M messages in 1,800 s need 2,777.8 msg/s of surplus.
	s, err := capacity.RequiredSurplus(5e6, 1800)
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "RequiredSurplus", s, 5e6/1800)
	_, err = capacity.RequiredSurplus(5e6, 0)
	assertInputError(t, err, "rto_seconds")

	for _, tc := range []struct {
		timeout, window float64
		want            [2]float64 // whole seconds, the exact sum
	}{
		{30, 0, [2]float64{180, 180}},
		{4.2123, 0, [2]float64{26, 25.2738}},
		{166.666666666667, 0, [2]float64{1001, 1000}},
		// AWS's guidance adds the batching window: 6 × 30 + 20 s.
		{30, 20, [2]float64{200, 200}},
		// 25.2738 + 0.7262 is exactly 26 s, not 27.
		{4.2123, 0.7262, [2]float64{26, 26}},
	} {
		v, p, err := capacity.MinVisibilityTimeout(tc.timeout, tc.window)
		if err != nil || v != tc.want[0] || p != tc.want[1] {
			t.Errorf("MinVisibilityTimeout(%v, %v) = %v, %v, %v; want %v s in whole seconds, six timeouts and the window %v s", tc.timeout, tc.window, v, p, err, tc.want[0], tc.want[1])
		}
	}
	_, _, err = capacity.MinVisibilityTimeout(1e308, 0)
	assertInputError(t, err, "timeout")
	_, _, err = capacity.MinVisibilityTimeout(30, -1)
	assertInputError(t, err, "maximum_batching_window_in_seconds")

	r, err := capacity.ReceivesPerDay(30)
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "ReceivesPerDay", r, 2880)
	_, err = capacity.ReceivesPerDay(1e-320)
	assertInputError(t, err, "visibility_timeout_seconds")
}

func TestExactCapacityLadder(t *testing.T) {
	inf := math.Inf(1)
	step := func(lower, upper, c float64) capacity.ExactCapacityStep {
		return capacity.ExactCapacityStep{Lower: lower, Upper: upper, Capacity: c}
	}
	ladder := func(proportional bool, topDepth, topCapacity float64) capacity.Ladder {
		return capacity.Ladder{Proportional: proportional, TopDepth: topDepth, TopCapacity: topCapacity}
	}
	for _, tc := range []struct {
		name      string
		threshold float64
		steps     []capacity.ExactCapacityStep
		want      capacity.Ladder
	}{
		{
			// k from 66.7 (200 / 3) to 100 (100 / 1, 200 / 2).
			name:  "one consumer per 100 messages, rounded up",
			steps: []capacity.ExactCapacityStep{step(0, 100, 1), step(100, 200, 2), step(200, inf, 3)},
			want:  ladder(true, 200, 3),
		},
		{
			// Bounds are relative to the threshold: 100-200 → 1,
			// 200-300 → 2, 300 on → 3; k from 100 to 150.
			name:      "one consumer per 100 messages, rounded down",
			threshold: 100,
			steps:     []capacity.ExactCapacityStep{step(0, 100, 1), step(100, 200, 2), step(200, inf, 3)},
			want:      ladder(true, 300, 3),
		},
		{
			// for_each = range(1, max + 1): step n from (n − 1) × 10 + 1
			// to n × 10 + 1 sets n, the first from 0; the +1 keeps the
			// bounds inclusive. k from 8.2 (41 / 5) to 10.25 (41 / 4).
			name: "a generated ladder with inclusive bounds",
			steps: []capacity.ExactCapacityStep{
				step(0, 11, 1), step(11, 21, 2), step(21, 31, 3), step(31, 41, 4), step(41, inf, 5),
			},
			want: ladder(true, 41, 5),
		},
		{
			name:  "coarse steps of ten consumers",
			steps: []capacity.ExactCapacityStep{step(0, 1000, 10), step(1000, 2000, 20), step(2000, inf, 30)},
			want:  ladder(true, 2000, 30),
		},
		{
			name:  "capacity doubling with depth",
			steps: []capacity.ExactCapacityStep{step(0, 100, 1), step(100, 200, 2), step(200, 400, 4), step(400, inf, 8)},
			want:  ladder(true, 400, 8),
		},
		{
			name: "a scale-in step below an empty queue is left out",
			steps: []capacity.ExactCapacityStep{
				step(math.Inf(-1), 0, 0), step(0, 20, 1), step(20, 40, 2), step(40, inf, 3),
			},
			want: ladder(true, 40, 3),
		},
		{
			// Threshold 1: none while the queue is empty, then one
			// consumer per 100 messages.
			name:      "no consumer for an empty queue",
			threshold: 1,
			steps:     []capacity.ExactCapacityStep{step(-1, 0, 0), step(0, 100, 1), step(100, 200, 2), step(200, inf, 3)},
			want:      ladder(true, 201, 3),
		},
		{
			name:  "steps in any order",
			steps: []capacity.ExactCapacityStep{step(200, inf, 3), step(0, 100, 1), step(100, 200, 2)},
			want:  ladder(true, 200, 3),
		},
		{
			name:  "one step",
			steps: []capacity.ExactCapacityStep{step(0, inf, 5)},
			want:  ladder(false, 0, 5),
		},
		{
			// 10 / 3 ≤ k ≤ 10 fits, but one jump is a threshold.
			name:  "two levels",
			steps: []capacity.ExactCapacityStep{step(0, 10, 1), step(10, inf, 3)},
			want:  ladder(false, 10, 3),
		},
		{
			// 1 consumer at 10,000 messages, 3 at 10,200: k would have
			// to be at least 10,000 and at most 5,100.
			name:      "small steps above a high threshold",
			threshold: 10000,
			steps:     []capacity.ExactCapacityStep{step(0, 100, 1), step(100, 200, 2), step(200, inf, 3)},
			want:      ladder(false, 10200, 3),
		},
		{
			// Depth grows tenfold per step, capacity by one: k at least
			// 250 and at most 10.
			name:  "bounds growing faster than capacity",
			steps: []capacity.ExactCapacityStep{step(0, 10, 1), step(10, 100, 2), step(100, 1000, 3), step(1000, inf, 4)},
			want:  ladder(false, 1000, 4),
		},
		{
			name:  "capacity falling with depth",
			steps: []capacity.ExactCapacityStep{step(0, 100, 3), step(100, 200, 2), step(200, inf, 1)},
			want:  ladder(false, 200, 1),
		},
		{
			name:  "no consumer while messages wait",
			steps: []capacity.ExactCapacityStep{step(0, 100, 1), step(100, 200, 0), step(200, 300, 2), step(300, inf, 3)},
			want:  ladder(false, 300, 3),
		},
		{
			name: "no steps",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := capacity.ExactCapacityLadder(tc.threshold, tc.steps)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("ExactCapacityLadder = %+v, want %+v", got, tc.want)
			}
		})
	}

	for _, tc := range []struct {
		name      string
		threshold float64
		steps     []capacity.ExactCapacityStep
		field     string
	}{
		{"negative capacity", 0, []capacity.ExactCapacityStep{step(0, inf, -1)}, "scaling_adjustment"},
		{"empty step", 0, []capacity.ExactCapacityStep{step(10, 10, 1)}, "metric_interval_lower_bound"},
		{"threshold not a number", math.NaN(), nil, "threshold"},
		{"bound overflowing", math.MaxFloat64, []capacity.ExactCapacityStep{step(0, math.MaxFloat64, 1)}, "threshold"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := capacity.ExactCapacityLadder(tc.threshold, tc.steps)
			assertInputError(t, err, tc.field)
		})
	}
}

// TestSupplyAgainstIsExact: the supply is computed from the exact λ_eff
// and Σ c·μ, rounded once. λ × (1 + r × a) has 18 digits here, and 116
// consumers of 314.585 msg/s, which the headroom formula gives, drain the
// backlog in 162 s less 1e-14 of it: from λ_eff written to 15 digits
// first, it was 162.000000000006 s, over rto_seconds.
func TestSupplyAgainstIsExact(t *testing.T) {
	in := capacity.SizingInput{ArrivalRate: 19795.0636460173, PerConsumerRate: 314.585, MaxBacklog: 23995.9496377824, RTOSeconds: 162,
		Retries: capacity.Retries{Rate: 0.76, Average: 1.1}}
	sized, err := capacity.Size(in)
	if err != nil {
		t.Fatal(err)
	}
	if sized.RequiredConsumers != 116 {
		t.Fatalf("required_consumers %d, want 116", sized.RequiredConsumers)
	}
	s, err := capacity.SupplyAgainst([]capacity.FleetSize{{Count: 116, PerConsumerRate: 314.585}}, in.ArrivalRate, in.Retries, in.MaxBacklog)
	if err != nil {
		t.Fatal(err)
	}
	// 116 × 314.585 − 19,795.0636460173 × 1.836 = 148.1231459122372…
	if s.EffectiveArrivalRate != 36343.7368540878 || s.Capacity != 36491.86 || s.Surplus != 148.123145912237 || !s.Drains || s.DrainSeconds != 162 {
		t.Errorf("supply %+v, want λ_eff 36343.7368540878, capacity 36491.86, surplus 148.123145912237, drained in 162 s", s)
	}
	if s.Headroom == nil || *s.Headroom != 0.0040756168389321 {
		t.Errorf("headroom %v, want 0.0040756168389321", ptrText(s.Headroom))
	}
}

func TestArrivalSeconds(t *testing.T) {
	if got, err := capacity.ArrivalSeconds(500, 50); err != nil || got != 10 {
		t.Errorf("ArrivalSeconds(500, 50) = %v, %v; want 10 s", got, err)
	}
	for _, tc := range []struct {
		depth, rate float64
		field       string
	}{{-1, 50, "threshold"}, {500, 0, "arrival_rate"}, {1e300, 1e-300, "threshold"}} {
		var in *capacity.InputError
		if _, err := capacity.ArrivalSeconds(tc.depth, tc.rate); !errors.As(err, &in) || in.Field != tc.field {
			t.Errorf("ArrivalSeconds(%v, %v) = %v, want an error naming %s", tc.depth, tc.rate, err, tc.field)
		}
	}
}

func TestMinDrainingConsumers(t *testing.T) {
	for _, tc := range []struct {
		lambda, mu float64
		want       int64
	}{
		{10000, 400, 26}, // 25 only keeps up
		{10001, 400, 26},
		{9999, 400, 25},
		{0.3, 0.1, 4}, // 0.3 / 0.1 is 2.9999999999999996 in float64: 3 keep up
		{0, 400, 1},   // nothing arrives: any consumer drains
		{1e-13, 1, 1},
	} {
		got, err := capacity.MinDrainingConsumers(tc.lambda, capacity.Retries{}, tc.mu)
		if err != nil || got != tc.want {
			t.Errorf("MinDrainingConsumers(%v, %v) = %d, %v; want %d", tc.lambda, tc.mu, got, err, tc.want)
		}
	}
	for _, tc := range []struct {
		lambda, mu float64
		field      string
	}{{-1, 400, "arrival_rate"}, {100, 0, "per_consumer_rate"}, {1e300, 1e-300, "arrival_rate"}} {
		var in *capacity.InputError
		if _, err := capacity.MinDrainingConsumers(tc.lambda, capacity.Retries{}, tc.mu); !errors.As(err, &in) || in.Field != tc.field {
			t.Errorf("MinDrainingConsumers(%v, %v) = %v, want an error naming %s", tc.lambda, tc.mu, err, tc.field)
		}
	}
}

func TestRetentionToOutlast(t *testing.T) {
	for drain, want := range map[float64]float64{1285.71: 1286, 7200: 7200, 0.2: 1} {
		if got := capacity.RetentionToOutlast(drain); got != want {
			t.Errorf("RetentionToOutlast(%v) = %v, want %v", drain, got, want)
		}
	}
}

// TestSupplyAgainstAtBoundaries: the surplus, headroom and drain of fleets
// come from the exact Σ c·μ and λ_eff, rounded once, not from a capacity or
// an arrival rate written to 15 digits first.
func TestSupplyAgainstAtBoundaries(t *testing.T) {
	fleet := func(c int64, mu float64) []capacity.FleetSize {
		return []capacity.FleetSize{{Count: c, PerConsumerRate: mu}}
	}
	// 46 × 2,277.1777692559 is 104,750.1773857714 msg/s: against 70,000
	// msg/s it drains 173,750.886928857 messages in exactly 5 s.
	s, err := capacity.SupplyAgainst(fleet(46, 2277.1777692559), 70000, capacity.Retries{}, 173750.886928857)
	if err != nil {
		t.Fatal(err)
	}
	if s.Capacity != 104750.177385771 || s.Surplus != 34750.1773857714 || !s.Drains || s.DrainSeconds != 5 {
		t.Errorf("capacity %v, surplus %v, drain %v %v; want 104750.177385771, 34750.1773857714 and 5 s", s.Capacity, s.Surplus, s.Drains, s.DrainSeconds)
	}
	// 35 × 5.84912580831429 exceeds 36 × (1 + 0.809 × 5.79313979161516) by
	// 2.3e-13 msg/s, though both are 204.719403291 to 15 digits.
	s, err = capacity.SupplyAgainst(fleet(35, 5.84912580831429), 36, capacity.Retries{Rate: 0.809, Average: 5.79313979161516}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if s.Surplus != 2.3016e-13 || s.Headroom == nil || *s.Headroom <= 0 {
		t.Errorf("surplus %v, headroom %v, want 2.3016e-13 and above 0", s.Surplus, s.Headroom)
	}
	// Several fleets; (0.3 − 0.2) / 0.2 is exactly 0.5; no drain without
	// a surplus; nothing arriving has no headroom.
	s, err = capacity.SupplyAgainst([]capacity.FleetSize{{Count: 2, PerConsumerRate: 0.1}, {Count: 1, PerConsumerRate: 0.1}}, 0.2, capacity.Retries{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if s.Capacity != 0.3 || s.Surplus != 0.1 || s.Headroom == nil || *s.Headroom != 0.5 {
		t.Errorf("capacity %v, surplus %v, headroom %v, want 0.3, 0.1 and 0.5", s.Capacity, s.Surplus, s.Headroom)
	}
	if s, _ := capacity.SupplyAgainst(fleet(3, 0.1), 0.3, capacity.Retries{}, 10); s.Drains || s.DrainSeconds != 0 {
		t.Errorf("drain without a surplus = %v %v, want never", s.Drains, s.DrainSeconds)
	}
	if s, _ := capacity.SupplyAgainst(fleet(1, 1), 0, capacity.Retries{}, 0); s.Headroom != nil {
		t.Errorf("headroom with no arrivals = %v, want nil", *s.Headroom)
	}
	_, err = capacity.SupplyAgainst(fleet(-1, 1), 1, capacity.Retries{}, 0)
	assertInputError(t, err, "consumers")
	_, err = capacity.SupplyAgainst(fleet(1, 0), 1, capacity.Retries{}, 0)
	assertInputError(t, err, "per_consumer_rate")
	_, err = capacity.SupplyAgainst(fleet(2, math.MaxFloat64), 1, capacity.Retries{}, 0)
	assertInputError(t, err, "per_consumer_rate")
}
