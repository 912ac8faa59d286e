// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"errors"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// MATH.md, "Provisioning lag in sizing": c* = ceil(λ_eff/μ + max(0, B_max −
// S_min·L) / (μ·(RTO − L))) with S_min = max(0, c_min·μ − λ_eff).
func TestSizeProvisioningLag(t *testing.T) {
	headroom := capacity.SizingInput{ArrivalRate: 10000, PerConsumerRate: 400, MaxBacklog: 5e6, RTOSeconds: 1800}
	with := func(lag float64, minConsumers *int64) capacity.SizingInput {
		in := headroom
		in.ProvisioningLagSeconds, in.MinConsumers = lag, minConsumers
		return in
	}
	for _, tt := range []struct {
		name         string
		in           capacity.SizingInput
		required     int64
		minConsumers int64
		drain        *float64
	}{
		// The worked example: 25 + 5,000,000 / (400 × 1,620) = 32.72 → 33,
		// not the 32 of the headroom formula. The backlog waits 180 s, then
		// drains at 33 × 400 − 10,000 = 3,200 msg/s: 180 + 1,562.5 s.
		{name: "worked example", in: with(180, ptr[int64](25)), required: 33, minConsumers: 25, drain: ptr(1742.5)},
		{name: "c_min defaults to the steady state", in: with(180, nil), required: 33, minConsumers: 25, drain: ptr(1742.5)},
		// S_min = max(0, 10 × 400 − 10,000) = 0: the same as the steady state.
		{name: "c_min below the steady state drains nothing", in: with(180, ptr[int64](10)), required: 33, minConsumers: 10, drain: ptr(1742.5)},
		// S_min = 30 × 400 − 10,000 = 2,000; 5 M − 2,000 × 180 = 4.64 M left;
		// 25 + 4.64 M / 648,000 = 32.16 → 33. Drain 180 + 4.64 M / 3,200.
		{name: "c_min above the steady state drains during the lag", in: with(180, ptr[int64](30)), required: 33, minConsumers: 30, drain: ptr(180 + 4.64e6/3200)},
		// S_min = 70,000 msg/s clears 5 M in 71.4 s, within the lag: the
		// scale-out needs nothing beyond the steady state.
		{name: "c_min clears the backlog within the lag", in: with(180, ptr[int64](200)), required: 25, minConsumers: 200, drain: ptr(5e6 / 70000.0)},
		// L = 0 is the headroom formula, whatever c_min.
		{name: "no lag is the headroom formula", in: with(0, ptr[int64](40)), required: 32, minConsumers: 40, drain: ptr(5e6 / 2800.0)},
		// No backlog: the lag changes nothing.
		{name: "no backlog", in: capacity.SizingInput{ArrivalRate: 10000, PerConsumerRate: 400, ProvisioningLagSeconds: 180}, required: 25, minConsumers: 25, drain: ptr(0.0)},
		// A lag just under the RTO leaves 1 s: 25 + 5 M / 400 = 12,525.
		{name: "lag just under the RTO", in: with(1799, nil), required: 12525, minConsumers: 25, drain: ptr(1799 + 5e6/(12525*400-10000.0))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := capacity.Size(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got.RequiredConsumers != tt.required {
				t.Errorf("RequiredConsumers = %d, want %d", got.RequiredConsumers, tt.required)
			}
			if got.MinConsumers != tt.minConsumers {
				t.Errorf("MinConsumers = %d, want %d", got.MinConsumers, tt.minConsumers)
			}
			assertOptional(t, "DrainSeconds", got.DrainSeconds, tt.drain)
			if d := got.DrainSeconds; d != nil && *d > tt.in.RTOSeconds && tt.in.RTOSeconds > 0 {
				t.Errorf("DrainSeconds = %v, beyond rto_seconds %v", *d, tt.in.RTOSeconds)
			}
		})
	}
}

// With L = 0 every headroom-formula case sizes exactly as before, c_min
// or not.
func TestSizeNoLagIsTheHeadroomFormula(t *testing.T) {
	for _, tt := range sizingCases {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.in
			in.MinConsumers = ptr[int64](3)
			got, err := capacity.Size(in)
			if err != nil {
				t.Fatal(err)
			}
			want, err := capacity.Size(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			want.MinConsumers = 3
			if got.RequiredConsumers != want.RequiredConsumers || got.Surplus != want.Surplus || !samePtr(got.DrainSeconds, want.DrainSeconds) {
				t.Errorf("Size with min_consumers and no lag = %+v, want %+v", got, want)
			}
		})
	}
}

func samePtr(a, b *float64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func TestSizeProvisioningLagInvalid(t *testing.T) {
	for _, tt := range []struct {
		name  string
		in    capacity.SizingInput
		field string
	}{
		{"lag equal to the RTO", capacity.SizingInput{ArrivalRate: 10000, PerConsumerRate: 400, MaxBacklog: 5e6, RTOSeconds: 1800, ProvisioningLagSeconds: 1800}, "provisioning_lag_seconds"},
		{"lag beyond the RTO", capacity.SizingInput{ArrivalRate: 10000, PerConsumerRate: 400, MaxBacklog: 5e6, RTOSeconds: 1800, ProvisioningLagSeconds: 3600}, "provisioning_lag_seconds"},
		{"negative lag", capacity.SizingInput{ArrivalRate: 10000, PerConsumerRate: 400, ProvisioningLagSeconds: -1}, "provisioning_lag_seconds"},
		{"negative min_consumers", capacity.SizingInput{ArrivalRate: 10000, PerConsumerRate: 400, MinConsumers: ptr[int64](-1)}, "min_consumers"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := capacity.Size(tt.in)
			var ie *capacity.InputError
			if !errors.As(err, &ie) || ie.Field != tt.field {
				t.Fatalf("Size(%+v) = %v, want an error naming %s", tt.in, err, tt.field)
			}
		})
	}
}

// FuzzSizeProvisioningLag holds the lag's sizing to its promises: finite
// results or an error naming an input, a drain within the RTO counting the
// lag, and the headroom formula exactly when there is no lag.
func FuzzSizeProvisioningLag(f *testing.F) {
	f.Add(10000.0, 400.0, 5e6, 1800.0, 180.0, int64(25))
	f.Add(10000.0, 400.0, 5e6, 1800.0, 180.0, int64(200))
	f.Add(10000.0, 400.0, 5e6, 1800.0, 1799.999, int64(-1))
	f.Add(0.0, 1.0, 1e-300, 1e-300, 5e-324, int64(0))
	f.Add(1e300, 1e-300, 1e300, 1e300, 1.0, int64(capacity.MaxCount))
	f.Fuzz(func(t *testing.T, arrival, perRate, backlog, rto, lag float64, minConsumers int64) {
		in := capacity.SizingInput{ArrivalRate: arrival, PerConsumerRate: perRate, MaxBacklog: backlog, RTOSeconds: rto, ProvisioningLagSeconds: lag}
		if minConsumers >= 0 {
			in.MinConsumers = &minConsumers
		}
		got, err := capacity.Size(in)
		if err != nil {
			checkFuzzError(t, err, "arrival_rate", "per_consumer_rate", "max_backlog", "rto_seconds", "provisioning_lag_seconds", "min_consumers")
			return
		}
		checkFinite(t, map[string]any{"Capacity": got.Capacity, "Surplus": got.Surplus, "DrainSeconds": got.DrainSeconds})
		if got.RequiredConsumers < got.SteadyStateConsumers {
			t.Errorf("RequiredConsumers %d below SteadyStateConsumers %d", got.RequiredConsumers, got.SteadyStateConsumers)
		}
		if backlog > 0 && (got.DrainSeconds == nil || *got.DrainSeconds > rto*(1+relTol)) {
			t.Errorf("DrainSeconds %v for max_backlog %v, want at most rto_seconds %v", got.DrainSeconds, backlog, rto)
		}
		if lag == 0 {
			in.MinConsumers = nil
			want, err := capacity.Size(in)
			if err != nil || want.RequiredConsumers != got.RequiredConsumers {
				t.Errorf("without a lag, RequiredConsumers %d; the headroom formula gives %d (%v)", got.RequiredConsumers, want.RequiredConsumers, err)
			}
		}
	})
}
