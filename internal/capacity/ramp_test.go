// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// MATH.md, "Scale-out ramp", worked by hand: λ 100 msg/s, μ 1 msg/s per
// invocation, a standard-mode mapping at the steady state's 100 (over its
// 5 to start with) ramping 300 a minute (5/s) to its 1,250. The ramp
// lasts 1,150 / 5 = 230 s and drains μ·r·u²/2 = 2.5·u² over the arrivals
// (c_0 = λ/μ), 132,250 by its end; then 1,250 − 100 = 1,150 msg/s.
func TestRampDrainWorked(t *testing.T) {
	lambda := capacity.RampInput{ArrivalRate: 100, PerConsumerRate: 1, StartConsumers: 5, FromSteadyState: true, MaxConsumers: 1250, RampPerMinute: 300}
	with := func(backlog, rto float64) capacity.RampInput {
		in := lambda
		in.MaxBacklog, in.RTOSeconds = backlog, rto
		return in
	}
	for _, tt := range []struct {
		name string
		in   capacity.RampInput
		want capacity.Ramp
	}{
		// 360,000 − 132,250 = 227,750 left at 1,150 msg/s: 230 + 198.04 s.
		{"clears after the ramp", with(360000, 3600), capacity.Ramp{EffectiveArrivalRate: 100, StartConsumers: 100, FullSeconds: 230,
			Drains: true, DrainSeconds: 428.04347826087, MeetsRTO: true, DrainedByRTO: 132250 + 3370*1150}},
		// By 300 s: 132,250 + 70 × 1,150 = 212,750 of 360,000.
		{"misses the RTO", with(360000, 300), capacity.Ramp{EffectiveArrivalRate: 100, StartConsumers: 100, FullSeconds: 230,
			Drains: true, DrainSeconds: 428.04347826087, DrainedByRTO: 212750}},
		// 2.5·u² = 10,000: u = √4,000 = 63.2455532033676 s, on the ramp.
		{"clears on the ramp", with(10000, 60), capacity.Ramp{EffectiveArrivalRate: 100, StartConsumers: 100, FullSeconds: 230,
			Drains: true, DrainSeconds: 63.2455532033676, DrainedByRTO: 9000}},
		// Exactly at the RTO: 2.5 × 40² = 4,000 is met, not missed.
		{"clears exactly at the RTO", with(4000, 40), capacity.Ramp{EffectiveArrivalRate: 100, StartConsumers: 100, FullSeconds: 230,
			Drains: true, DrainSeconds: 40, MeetsRTO: true, DrainedByRTO: 4000}},
		// Without FromSteadyState the fleet starts at 5 and the backlog
		// grows by 95 msg/s at first: D(t) = 2.5t² − 95t, 131,347.5 when
		// the ramp ends at 249 s; at 300 s, 131,347.5 + 51 × 1,150 =
		// 189,997.5; it clears at 249 + 228,652.5 / 1,150.
		{"from the initial concurrency", capacity.RampInput{ArrivalRate: 100, PerConsumerRate: 1, StartConsumers: 5, MaxConsumers: 1250, RampPerMinute: 300, MaxBacklog: 360000, RTOSeconds: 300},
			capacity.Ramp{EffectiveArrivalRate: 100, StartConsumers: 5, FullSeconds: 249, Drains: true, DrainSeconds: 447.828260869565, DrainedByRTO: 189997.5}},
		{"no backlog", with(0, 10), capacity.Ramp{EffectiveArrivalRate: 100, StartConsumers: 100, FullSeconds: 230, Drains: true, MeetsRTO: true, DrainedByRTO: 250}},
		// A ceiling at the arrivals: never, and nothing drained.
		{"never drains", capacity.RampInput{ArrivalRate: 100, PerConsumerRate: 1, StartConsumers: 5, FromSteadyState: true, MaxConsumers: 100, RampPerMinute: 300, MaxBacklog: 1, RTOSeconds: 10},
			capacity.Ramp{EffectiveArrivalRate: 100, StartConsumers: 100, FullSeconds: 0}},
		// Retries count: λ_eff = 50 × (1 + 1 × 1) = 100, as above.
		{"retries", capacity.RampInput{ArrivalRate: 50, Retries: capacity.Retries{Rate: 1, Average: 1}, PerConsumerRate: 1, StartConsumers: 5, FromSteadyState: true, MaxConsumers: 1250, RampPerMinute: 300, MaxBacklog: 10000, RTOSeconds: 60},
			capacity.Ramp{EffectiveArrivalRate: 100, StartConsumers: 100, FullSeconds: 230, Drains: true, DrainSeconds: 63.2455532033676, DrainedByRTO: 9000}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := capacity.RampDrain(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("RampDrain = %+v\nwant          %+v", got, tt.want)
			}
		})
	}
}

// With r = ∞ (a step, no lag) the ramp is the headroom formula: the fleet
// it sizes meets the RTO and one consumer fewer does not, and both drain
// when the headroom formula says.
func TestRampInfiniteIsTheHeadroomFormula(t *testing.T) {
	for _, tt := range sizingCases {
		if tt.in.MaxBacklog == 0 || tt.in.MinHeadroom > 0 || tt.in.RTOSeconds == 0 {
			continue
		}
		t.Run(tt.name, func(t *testing.T) {
			sized, err := capacity.Size(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			checkRampMeets(t, tt.in, 0, sized)
		})
	}
	// MATH.md's headroom formula: 25 + 6.94 → 32 consumers.
	in := capacity.SizingInput{ArrivalRate: 10000, PerConsumerRate: 400, MaxBacklog: 5e6, RTOSeconds: 1800}
	sized, err := capacity.Size(in)
	if err != nil || sized.RequiredConsumers != 32 {
		t.Fatalf("Size = %d, %v; want 32", sized.RequiredConsumers, err)
	}
	checkRampMeets(t, in, 0, sized)
}

// With a step at L the ramp is the provisioning-lag formula, for a
// minimum fleet at or above the steady state (below it the lag formula
// lets no backlog grow during the lag; the ramp does).
func TestRampStepIsTheProvisioningLag(t *testing.T) {
	for _, tt := range []struct {
		lag  float64
		cMin int64
	}{{180, 25}, {180, 30}, {600, 26}, {1799, 25}, {90, 31}} {
		t.Run(fmt.Sprintf("L=%v c_min=%d", tt.lag, tt.cMin), func(t *testing.T) {
			in := capacity.SizingInput{ArrivalRate: 10000, PerConsumerRate: 400, MaxBacklog: 5e6, RTOSeconds: 1800,
				ProvisioningLagSeconds: tt.lag, MinConsumers: ptr(tt.cMin)}
			sized, err := capacity.Size(in)
			if err != nil {
				t.Fatal(err)
			}
			checkRampMeets(t, in, float64(tt.cMin), sized)
		})
	}
}

// checkRampMeets checks that a step from start at in's lag to the fleet
// Size gave meets the RTO, drains when Size says, and one fewer misses it.
func checkRampMeets(t *testing.T, in capacity.SizingInput, start float64, sized capacity.Sizing) {
	t.Helper()
	step := func(c int64) capacity.Ramp {
		t.Helper()
		got, err := capacity.RampDrain(capacity.RampInput{ArrivalRate: in.ArrivalRate, PerConsumerRate: in.PerConsumerRate, Retries: in.Retries,
			MaxBacklog: in.MaxBacklog, RTOSeconds: in.RTOSeconds, StartConsumers: min(start, float64(c)), MaxConsumers: float64(c), LagSeconds: in.ProvisioningLagSeconds})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	c := sized.RequiredConsumers
	got := step(c)
	if !got.MeetsRTO {
		t.Errorf("%d consumers: the ramp misses rto_seconds %v, the formula meets it", c, in.RTOSeconds)
	}
	if sized.DrainSeconds == nil || !got.Drains || got.DrainSeconds != *sized.DrainSeconds {
		t.Errorf("%d consumers: the ramp drains in %v (%t), the formula in %v", c, got.DrainSeconds, got.Drains, sized.DrainSeconds)
	}
	if c > 0 && c > int64(start) {
		if fewer := step(c - 1); fewer.MeetsRTO {
			t.Errorf("%d consumers: the ramp meets rto_seconds %v, the formula asks for %d", c-1, in.RTOSeconds, c)
		}
	}
}

func TestRampDrainInvalid(t *testing.T) {
	valid := capacity.RampInput{ArrivalRate: 100, PerConsumerRate: 1, StartConsumers: 5, MaxConsumers: 1250, RampPerMinute: 300, MaxBacklog: 1000, RTOSeconds: 60}
	for _, tt := range []struct {
		field string
		edit  func(*capacity.RampInput)
	}{
		{"per_consumer_rate", func(in *capacity.RampInput) { in.PerConsumerRate = 0 }},
		{"max_backlog", func(in *capacity.RampInput) { in.MaxBacklog = -1 }},
		{"start_consumers", func(in *capacity.RampInput) { in.StartConsumers = -1 }},
		{"max_consumers", func(in *capacity.RampInput) { in.MaxConsumers = 4 }},
		{"ramp_per_minute", func(in *capacity.RampInput) { in.RampPerMinute = -300 }},
		{"provisioning_lag_seconds", func(in *capacity.RampInput) { in.LagSeconds = -1 }},
		{"arrival_rate", func(in *capacity.RampInput) { in.ArrivalRate = -1 }},
		// A drain time past float64's range.
		{"max_backlog", func(in *capacity.RampInput) {
			in.ArrivalRate, in.PerConsumerRate, in.StartConsumers, in.MaxConsumers, in.MaxBacklog = 0, 1e-300, 1, 1, 1e300
		}},
	} {
		t.Run(tt.field, func(t *testing.T) {
			in := valid
			tt.edit(&in)
			_, err := capacity.RampDrain(in)
			var ie *capacity.InputError
			if !errors.As(err, &ie) || ie.Field != tt.field {
				t.Errorf("error %v, want one naming %s", err, tt.field)
			}
		})
	}
}

func TestRampSecondsToReach(t *testing.T) {
	in := capacity.RampInput{MaxConsumers: 1250, RampPerMinute: 300, LagSeconds: 0}
	for _, tt := range []struct {
		start, c, want float64
		ok             bool
	}{{100, 1250, 230, true}, {100, 50, 0, true}, {5, 1250, 249, true}, {5, 1251, 0, false}, {2.5, 3, 0.1, true}} {
		got, ok := in.SecondsToReach(tt.start, tt.c)
		if got != tt.want || ok != tt.ok {
			t.Errorf("SecondsToReach(%v, %v) = %v, %t; want %v, %t", tt.start, tt.c, got, ok, tt.want, tt.ok)
		}
	}
}
