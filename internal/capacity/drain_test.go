// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// drainCases are the constant-rate drain examples. FuzzDrainBacklog seeds
// from them. NetRate is completion − effective arrival; the drain time is
// backlog / NetRate and the wait backlog / completion.
var drainCases = []struct {
	name string
	in   capacity.DrainInput
	want capacity.Drain
}{
	{
		name: "zero surplus never drains",
		in:   capacity.DrainInput{Backlog: 3.6e6, ArrivalRate: 10000, CompletionRate: 10000},
		want: capacity.Drain{EffectiveArrivalRate: 10000, CompletionRate: 10000, NetRate: 0, Drains: false,
			DrainSeconds: nil, WaitSeconds: ptr(360.0)},
	},
	{
		// 3.6 M / 2,800 = 1,285.714… s ≈ 21.4 min.
		name: "headroom fleet",
		in:   capacity.DrainInput{Backlog: 3.6e6, ArrivalRate: 10000, CompletionRate: 12800},
		want: capacity.Drain{EffectiveArrivalRate: 10000, CompletionRate: 12800, NetRate: 2800, Drains: true,
			DrainSeconds: ptr(1285.7142857142857), WaitSeconds: ptr(281.25)},
	},
	{
		// 180,000 / (1,000 − 800) = 900 s; the wait is 180,000 / 1,000 = 180 s.
		name: "drain at λ 800, completion 1,000",
		in:   capacity.DrainInput{Backlog: 180000, ArrivalRate: 800, CompletionRate: 1000},
		want: capacity.Drain{EffectiveArrivalRate: 800, CompletionRate: 1000, NetRate: 200, Drains: true,
			DrainSeconds: ptr(900.0), WaitSeconds: ptr(180.0)},
	},
	{
		// 180,000 / (1,800 − 1,200) = 300 s.
		name: "drain at λ 1,200, completion 1,800",
		in:   capacity.DrainInput{Backlog: 180000, ArrivalRate: 1200, CompletionRate: 1800},
		want: capacity.Drain{EffectiveArrivalRate: 1200, CompletionRate: 1800, NetRate: 600, Drains: true,
			DrainSeconds: ptr(300.0), WaitSeconds: ptr(100.0)},
	},
	{
		name: "no drain at λ 1,200, completion 1,000",
		in:   capacity.DrainInput{Backlog: 180000, ArrivalRate: 1200, CompletionRate: 1000},
		want: capacity.Drain{EffectiveArrivalRate: 1200, CompletionRate: 1000, NetRate: -200, Drains: false,
			DrainSeconds: nil, WaitSeconds: ptr(180.0)},
	},
	{
		// 380,000 / 140 ≈ 2,714 s ≈ 45 min. Dividing by the completion rate
		// alone gives the wait, 380,000 / 520 ≈ 731 s ≈ 12 min: the mistake.
		name: "net rate, not completion rate",
		in:   capacity.DrainInput{Backlog: 380000, ArrivalRate: 380, CompletionRate: 520},
		want: capacity.Drain{EffectiveArrivalRate: 380, CompletionRate: 520, NetRate: 140, Drains: true,
			DrainSeconds: ptr(2714.2857142857143), WaitSeconds: ptr(730.7692307692308)},
	},
	{
		// 380,000 / 660 ≈ 576 s ≈ 10 min.
		name: "scale out to completion 1,040",
		in:   capacity.DrainInput{Backlog: 380000, ArrivalRate: 380, CompletionRate: 1040},
		want: capacity.Drain{EffectiveArrivalRate: 380, CompletionRate: 1040, NetRate: 660, Drains: true,
			DrainSeconds: ptr(575.75757575757576), WaitSeconds: ptr(365.38461538461538)},
	},
	{
		// λ_eff = 1,000 × 1.4 = 1,400; 180,000 / (1,700 − 1,400) = 600 s;
		// wait 180,000 / 1,700.
		name: "retries",
		in: capacity.DrainInput{Backlog: 180000, ArrivalRate: 1000, CompletionRate: 1700,
			Retries: capacity.Retries{Rate: 0.2, Average: 2}},
		want: capacity.Drain{EffectiveArrivalRate: 1400, CompletionRate: 1700, NetRate: 300, Drains: true,
			DrainSeconds: ptr(600.0), WaitSeconds: ptr(105.88235294117647)},
	},
	{
		name: "empty backlog is drained even when arrivals win",
		in:   capacity.DrainInput{Backlog: 0, ArrivalRate: 1200, CompletionRate: 1000},
		want: capacity.Drain{EffectiveArrivalRate: 1200, CompletionRate: 1000, NetRate: -200, Drains: true,
			DrainSeconds: ptr(0.0), WaitSeconds: ptr(0.0)},
	},
	{
		name: "nothing completes",
		in:   capacity.DrainInput{Backlog: 100, ArrivalRate: 0, CompletionRate: 0},
		want: capacity.Drain{Drains: false, DrainSeconds: nil, WaitSeconds: nil},
	},
	{
		// 3 × 0.1 in float64 is 0.30000000000000004: still zero surplus, not a
		// drain time of 10 / 5.6e-17 ≈ 1.8e17 s.
		// The decimals as typed: a surplus in the 17th digit is a
		// surplus, and the drain time is exact.
		name: "completion above arrival in the 17th digit",
		in:   capacity.DrainInput{Backlog: 10, ArrivalRate: 0.3, CompletionRate: 0.30000000000000004},
		want: capacity.Drain{EffectiveArrivalRate: 0.3, CompletionRate: 0.30000000000000004, NetRate: 4e-17, Drains: true,
			DrainSeconds: ptr(2.5e17), WaitSeconds: ptr(33.3333333333333)},
	},
	{
		// 8,582 msg/s with retries 0.2 × 2.3 is 12,529.72 msg/s; 12,530
		// completes 0.28 msg/s more, which clears 3,360 messages in
		// exactly 12,000 s.
		name: "exact decimal surplus",
		in: capacity.DrainInput{Backlog: 3360, ArrivalRate: 8582, CompletionRate: 12530,
			Retries: capacity.Retries{Rate: 0.2, Average: 2.3}},
		want: capacity.Drain{EffectiveArrivalRate: 12529.72, CompletionRate: 12530, NetRate: 0.28, Drains: true,
			DrainSeconds: ptr(12000.0), WaitSeconds: ptr(0.268156424581006)},
	},
	{
		// Drains in 900 s, after the 600 s TTL: shed.
		name: "drains after the TTL",
		in:   capacity.DrainInput{Backlog: 180000, ArrivalRate: 800, CompletionRate: 1000, TTLSeconds: 600},
		want: capacity.Drain{EffectiveArrivalRate: 800, CompletionRate: 1000, NetRate: 200, Drains: true,
			DrainSeconds: ptr(900.0), WaitSeconds: ptr(180.0), ShouldShed: ptr(true)},
	},
	{
		// Drains in exactly the TTL: not later than it, keep draining.
		name: "drains at the TTL",
		in:   capacity.DrainInput{Backlog: 180000, ArrivalRate: 800, CompletionRate: 1000, TTLSeconds: 900},
		want: capacity.Drain{EffectiveArrivalRate: 800, CompletionRate: 1000, NetRate: 200, Drains: true,
			DrainSeconds: ptr(900.0), WaitSeconds: ptr(180.0), ShouldShed: ptr(false)},
	},
	{
		name: "never drains with a TTL",
		in:   capacity.DrainInput{Backlog: 180000, ArrivalRate: 1200, CompletionRate: 1000, TTLSeconds: 3600},
		want: capacity.Drain{EffectiveArrivalRate: 1200, CompletionRate: 1000, NetRate: -200, Drains: false,
			DrainSeconds: nil, WaitSeconds: ptr(180.0), ShouldShed: ptr(true)},
	},
	{
		// Flat: 1,000 / (100 − 50) = 20 s. Forecast, 10 s steps:
		// step 0 net 50 removes 500 → 500 left; step 1 net 20 removes 200 →
		// 300 left; step 2 net 80 would remove 800, so it clears 300/80 =
		// 3.75 s into it: 20 + 3.75 = 23.75 s.
		name: "forecast interpolated inside a step",
		in: capacity.DrainInput{Backlog: 1000, ArrivalRate: 50, CompletionRate: 100,
			Forecast: []float64{50, 80, 20}, ForecastStepSeconds: 10},
		want: capacity.Drain{EffectiveArrivalRate: 50, CompletionRate: 100, NetRate: 50, Drains: true,
			DrainSeconds: ptr(20.0), WaitSeconds: ptr(10.0), ForecastDrains: ptr(true), ForecastDrainSeconds: ptr(23.75)},
	},
	{
		// Flat: 10,000 / 50 = 200 s, but the forecast only covers 2 × 60 s,
		// clearing 2 × 50 × 60 = 6,000.
		name: "forecast horizon too short",
		in: capacity.DrainInput{Backlog: 10000, ArrivalRate: 50, CompletionRate: 100,
			Forecast: []float64{50, 50}, ForecastStepSeconds: 60},
		want: capacity.Drain{EffectiveArrivalRate: 50, CompletionRate: 100, NetRate: 50, Drains: true,
			DrainSeconds: ptr(200.0), WaitSeconds: ptr(100.0), ForecastDrains: ptr(false), ForecastDrainSeconds: nil},
	},
}

func TestDrainBacklog(t *testing.T) {
	for _, tt := range drainCases {
		t.Run(tt.name, func(t *testing.T) {
			got, err := capacity.DrainBacklog(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			assertClose(t, "EffectiveArrivalRate", got.EffectiveArrivalRate, tt.want.EffectiveArrivalRate)
			assertClose(t, "CompletionRate", got.CompletionRate, tt.want.CompletionRate)
			assertClose(t, "NetRate", got.NetRate, tt.want.NetRate)
			if got.Drains != tt.want.Drains {
				t.Errorf("Drains = %v, want %v", got.Drains, tt.want.Drains)
			}
			assertOptional(t, "DrainSeconds", got.DrainSeconds, tt.want.DrainSeconds)
			assertOptional(t, "WaitSeconds", got.WaitSeconds, tt.want.WaitSeconds)
			assertOptionalBool(t, "ShouldShed", got.ShouldShed, tt.want.ShouldShed)
			assertOptionalBool(t, "ForecastDrains", got.ForecastDrains, tt.want.ForecastDrains)
			assertOptional(t, "ForecastDrainSeconds", got.ForecastDrainSeconds, tt.want.ForecastDrainSeconds)
		})
	}
}

func TestForecastDrainSeconds(t *testing.T) {
	tests := []struct {
		name   string
		args   forecastArgs
		want   float64
		wantOK bool
	}{
		{
			// See "forecast interpolated inside a step": 20 + 300/80.
			name:   "interpolated inside a step",
			args:   forecastArgs{backlog: 1000, completion: 100, forecast: []float64{50, 80, 20}, step: 10},
			want:   23.75,
			wantOK: true,
		},
		{
			name:   "inside the first step",
			args:   forecastArgs{backlog: 100, completion: 100, forecast: []float64{50}, step: 10},
			want:   2, // 100 / (100 − 50)
			wantOK: true,
		},
		{
			// 60 s steps, completion 100. Net 60 × 60 = 3,600 → 2,400 left;
			// net 10 × 60 = 600 → 1,800; net −20 × 60 = −1,200 → 3,000;
			// net 10 × 60 = 600 → 2,400; net 60 clears 2,400 in 40 s:
			// 4 × 60 + 40 = 280 s.
			name:   "arrivals grow then shrink",
			args:   forecastArgs{backlog: 6000, completion: 100, forecast: []float64{40, 90, 120, 90, 40}, step: 60},
			want:   280,
			wantOK: true,
		},
		{
			// 2 × 50 × 60 = 6,000 exactly: clears at the end of the last step.
			name:   "clears exactly at the horizon",
			args:   forecastArgs{backlog: 6000, completion: 100, forecast: []float64{50, 50}, step: 60},
			want:   120,
			wantOK: true,
		},
		{
			name:   "not cleared within the horizon",
			args:   forecastArgs{backlog: 6001, completion: 100, forecast: []float64{50, 50}, step: 60},
			wantOK: false,
		},
		{
			name:   "arrivals above completion all along",
			args:   forecastArgs{backlog: 1, completion: 100, forecast: []float64{150, 100}, step: 60},
			wantOK: false,
		},
		{
			name:   "empty backlog",
			args:   forecastArgs{backlog: 0, completion: 100, forecast: []float64{500}, step: 60},
			want:   0,
			wantOK: true,
		},
		{
			// λ_eff = 50 × (1 + 0.5 × 1) = 75; 250 / (100 − 75) = 10 s.
			name: "retries amplify the forecast",
			args: forecastArgs{backlog: 250, completion: 100, forecast: []float64{50}, step: 100,
				retries: capacity.Retries{Rate: 0.5, Average: 1}},
			want:   10,
			wantOK: true,
		},
		{
			// 0.30000000000000004 − 0.3 is rounding, not a surplus.
			name:   "completion equals the forecast",
			args:   forecastArgs{backlog: 10, completion: 0.3, forecast: []float64{0.3, 0.3}, step: 1e20},
			wantOK: false,
		},
		{
			// 0.3 − 0.1 is 0.2 msg/s, 12 messages a step of 60 s: the
			// backlog of 24 is gone exactly at the end of the last step.
			name:   "empties at the end of the last step",
			args:   forecastArgs{backlog: 24, completion: 0.3, forecast: []float64{0.1, 0.1}, step: 60},
			want:   120,
			wantOK: true,
		},
		{
			name:   "nothing completes",
			args:   forecastArgs{backlog: 10, completion: 0, forecast: []float64{0}, step: 60},
			wantOK: false,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := tt.args
			got, ok, err := capacity.ForecastDrainSeconds(a.backlog, a.completion, a.forecast, a.step, a.retries)
			if err != nil {
				t.Fatal(err)
			}
			if ok != tt.wantOK {
				t.Fatalf("ok = %v, want %v (seconds %v)", ok, tt.wantOK, got)
			}
			assertClose(t, "forecast drain seconds", got, tt.want)
		})
	}
}

func TestForecastNeedsEntries(t *testing.T) {
	t.Run("ForecastDrainSeconds/empty", func(t *testing.T) {
		_, _, err := capacity.ForecastDrainSeconds(1000, 100, []float64{}, 60, capacity.Retries{})
		assertInputError(t, err, "arrival_forecast")
	})
	t.Run("ForecastDrainSeconds/nil", func(t *testing.T) {
		_, _, err := capacity.ForecastDrainSeconds(1000, 100, nil, 60, capacity.Retries{})
		assertInputError(t, err, "arrival_forecast")
	})
	// In DrainBacklog a nil forecast means "no forecast"; an empty list is an error.
	t.Run("DrainBacklog/empty", func(t *testing.T) {
		_, err := capacity.DrainBacklog(capacity.DrainInput{Backlog: 1000, ArrivalRate: 50, CompletionRate: 100,
			Forecast: []float64{}, ForecastStepSeconds: 60})
		assertInputError(t, err, "arrival_forecast")
	})
}
