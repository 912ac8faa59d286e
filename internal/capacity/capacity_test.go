// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

// Shared helpers, the primitive formulas (effective arrival, capacity, net
// rate, drain time, Little's law) and input validation for every exported
// function. The expected values are literal numbers worked out by hand from
// /work/shared/MATH.md, never produced by the code under test.

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// relTol is the relative tolerance of every float comparison.
const relTol = 1e-9

// approxEqual reports whether got is within relTol of want, relative to the
// larger magnitude. A zero expectation must be met exactly: the package snaps
// rounding noise to 0 and the tests hold it to that.
func approxEqual(got, want float64) bool {
	if got == want {
		return true
	}
	return math.Abs(got-want) <= relTol*math.Max(math.Abs(got), math.Abs(want))
}

func assertClose(t *testing.T, name string, got, want float64) {
	t.Helper()
	if !approxEqual(got, want) {
		t.Errorf("%s = %v, want %v", name, got, want)
	}
}

// ptr returns a pointer to v, for expected optional results.
func ptr[T any](v T) *T { return &v }

// assertOptional compares an optional result: nil where want is nil, else a
// value close to *want.
func assertOptional(t *testing.T, name string, got, want *float64) {
	t.Helper()
	switch {
	case want == nil && got != nil:
		t.Errorf("%s = %v, want nil", name, *got)
	case want != nil && got == nil:
		t.Errorf("%s = nil, want %v", name, *want)
	case want != nil:
		assertClose(t, name, *got, *want)
	}
}

func assertOptionalBool(t *testing.T, name string, got, want *bool) {
	t.Helper()
	switch {
	case want == nil && got != nil:
		t.Errorf("%s = %v, want nil", name, *got)
	case want != nil && got == nil:
		t.Errorf("%s = nil, want %v", name, *want)
	case want != nil && *got != *want:
		t.Errorf("%s = %v, want %v", name, *got, *want)
	}
}

// assertInputError requires err to be an *InputError naming field.
func assertInputError(t *testing.T, err error, field string) {
	t.Helper()
	var ie *capacity.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("error = %v (%T), want *capacity.InputError for %q", err, err, field)
	}
	if ie.Field != field {
		t.Errorf("InputError.Field = %q, want %q (error: %v)", ie.Field, field, err)
	}
	if ie.Reason == "" {
		t.Errorf("InputError for %q has an empty Reason", field)
	}
}

func TestInputErrorMessageNamesTheField(t *testing.T) {
	_, err := capacity.EffectiveArrivalRate(-1, capacity.Retries{})
	assertInputError(t, err, "arrival_rate")
	if got := err.Error(); len(got) < len("arrival_rate") || got[:len("arrival_rate")] != "arrival_rate" {
		t.Errorf("Error() = %q, want it to start with the attribute name", got)
	}
}

func TestEffectiveArrivalRate(t *testing.T) {
	tests := []struct {
		name    string
		arrival float64
		retries capacity.Retries
		want    float64
	}{
		{"no retries", 10000, capacity.Retries{}, 10000},
		// λ_eff = λ · (1 + 0.2 · 2) = 1.4 λ.
		{"retry rate 0.2, 2 retries", 10000, capacity.Retries{Rate: 0.2, Average: 2}, 14000},
		{"every message retried once", 500, capacity.Retries{Rate: 1, Average: 1}, 1000},
		{"retry rate without retries", 500, capacity.Retries{Rate: 1, Average: 0}, 500},
		{"zero arrival", 0, capacity.Retries{Rate: 0.5, Average: 3}, 0},
		{"tiny", 1e-300, capacity.Retries{Rate: 0.5, Average: 2}, 2e-300},
		{"huge", 1e300, capacity.Retries{Rate: 1, Average: 1}, 2e300},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := capacity.EffectiveArrivalRate(tt.arrival, tt.retries)
			if err != nil {
				t.Fatal(err)
			}
			assertClose(t, "effective arrival", got, tt.want)
		})
	}
}

func TestFleetCapacity(t *testing.T) {
	tests := []struct {
		name      string
		consumers int64
		perRate   float64
		want      float64
	}{
		{"zero surplus fleet", 25, 400, 10000},
		{"headroom fleet", 32, 400, 12800},
		{"no consumers", 0, 400, 0},
		{"3 × 0.1 rounds up in float64", 3, 0.1, 0.30000000000000004},
		{"largest count", capacity.MaxCount, 1, 9007199254740992},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := capacity.FleetCapacity(tt.consumers, tt.perRate)
			if err != nil {
				t.Fatal(err)
			}
			assertClose(t, "capacity", got, tt.want)
		})
	}
}

// TestNetRate covers the utilization cliff: the same +10 % spike costs a
// fleet at ρ 80 % 40 % of its surplus and a fleet at ρ 90 % 90 % of it.
func TestNetRate(t *testing.T) {
	fleet, err := capacity.FleetCapacity(25, 400) // C = 10,000 msg/s
	if err != nil {
		t.Fatal(err)
	}
	threeTenths, err := capacity.FleetCapacity(3, 0.1) // 0.30000000000000004
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name                string
		completion, arrival float64
		want                float64
	}{
		{"ρ 80 %", fleet, 8000, 2000},
		{"ρ 80 % + 10 % spike", fleet, 8000 * 1.1, 1200},
		{"ρ 90 %", fleet, 9000, 1000},
		{"ρ 90 % + 10 % spike", fleet, 9000 * 1.1, 100},
		{"zero surplus", fleet, 10000, 0},
		{"completion below arrival", 1000, 1200, -200},
		{"net rate example", 520, 380, 140},
		{"scale out", 1040, 380, 660},
		{"3 × 0.1 against 0.3 is exactly 0", threeTenths, 0.3, 0},
		{"0.3 against 3 × 0.1 is exactly 0", 0.3, threeTenths, 0},
		{"both zero", 0, 0, 0},
		// The inputs are the decimals they read as: 1 − 0.9999999990686774.
		{"tiny difference that is real", 1, 1 - 0x1p-30, 9.313226e-10},
		// Exact: 12,530 − 12,529.72 is 0.28, not 0.280000000000655.
		{"decimal difference", 12530, 12529.72, 0.28},
		{"a deficit", 25 * 0.4, 10.22, -0.22},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assertClose(t, "net rate", capacity.NetRate(tt.completion, tt.arrival), tt.want)
		})
	}
}

func TestDrainSeconds(t *testing.T) {
	tests := []struct {
		name             string
		backlog, netRate float64
		want             float64
		wantOK           bool
	}{
		// 3.6 M / (12,800 − 10,000) = 1,285.714… s ≈ 21.4 min.
		{"headroom fleet", 3.6e6, 2800, 1285.7142857142857, true},
		// 380,000 / 140 ≈ 2,714 s ≈ 45 min, not 380,000 / 520 ≈ 12 min.
		{"net rate example", 380000, 140, 2714.2857142857143, true},
		// 380,000 / 660 ≈ 576 s ≈ 10 min.
		{"scale out", 380000, 660, 575.75757575757576, true},
		{"zero surplus never drains", 3.6e6, 0, 0, false},
		{"negative surplus never drains", 180000, -200, 0, false},
		{"empty backlog is drained now", 0, -200, 0, true},
		{"empty backlog at zero surplus", 0, 0, 0, true},
		{"tiny", 1e-300, 1e-10, 1e-290, true},
		{"huge", 1e300, 1e10, 1e290, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok, err := capacity.DrainSeconds(tt.backlog, tt.netRate)
			if err != nil {
				t.Fatal(err)
			}
			if ok != tt.wantOK {
				t.Fatalf("ok = %v, want %v", ok, tt.wantOK)
			}
			assertClose(t, "drain seconds", got, tt.want)
		})
	}
}

func TestWaitSeconds(t *testing.T) {
	tests := []struct {
		name                string
		backlog, completion float64
		want                float64
		wantOK              bool
	}{
		// Little's law: W = L / λ = 600,000 / 5,000.
		{"Little's law", 600000, 5000, 120, true},
		{"behind the drain backlog", 180000, 1000, 180, true},
		{"empty backlog", 0, 1000, 0, true},
		// Nothing completes: the message is never served, as the docs
		// say (null), even behind an empty backlog.
		{"empty backlog, nothing completes", 0, 0, 0, false},
		{"nothing completes", 10, 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok, err := capacity.WaitSeconds(tt.backlog, tt.completion)
			if err != nil {
				t.Fatal(err)
			}
			if ok != tt.wantOK {
				t.Fatalf("ok = %v, want %v", ok, tt.wantOK)
			}
			assertClose(t, "wait seconds", got, tt.want)
		})
	}
}

func TestSLAMaxDepth(t *testing.T) {
	tests := []struct {
		name         string
		arrival, sla float64
		want         float64
	}{
		{"SLA 10 s at 5,000/s", 5000, 10, 50000},
		{"no arrivals", 0, 10, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := capacity.SLAMaxDepth(tt.arrival, tt.sla)
			if err != nil {
				t.Fatal(err)
			}
			assertClose(t, "max depth", got, tt.want)
		})
	}
}

// TestEffectiveSLAMaxDepth: the SLA depth of λ · (1 + r · k), exact and
// rounded once, as alarm_thresholds' max_depth.
func TestEffectiveSLAMaxDepth(t *testing.T) {
	for _, tt := range []struct {
		name         string
		arrival, sla float64
		retries      capacity.Retries
		want         float64
	}{
		{"no retries", 5000, 10, capacity.Retries{}, 50000},
		{"5,000 × (1 + 0.2 × 2) × 10 s", 5000, 10, capacity.Retries{Rate: 0.2, Average: 2}, 70000},
		// λ_eff is 24,010.6016717869302 msg/s: written to 15 digits first,
		// the depth was 11,837,226.6241909.
		{"λ_eff of 18 digits", 7457.8, 493, capacity.Retries{Rate: 0.437, Average: 5.079013207}, 11837226.624191},
	} {
		got, err := capacity.EffectiveSLAMaxDepth(tt.arrival, tt.retries, tt.sla)
		if err != nil || got != tt.want {
			t.Errorf("%s: EffectiveSLAMaxDepth = %v, %v, want %v", tt.name, got, err, tt.want)
		}
	}
	_, err := capacity.EffectiveSLAMaxDepth(5000, capacity.Retries{}, 0)
	assertInputError(t, err, "sla_seconds")
	_, err = capacity.EffectiveSLAMaxDepth(5000, capacity.Retries{Rate: 2, Average: 1}, 10)
	assertInputError(t, err, "retry_rate")
	_, err = capacity.EffectiveSLAMaxDepth(1e300, capacity.Retries{}, 1e10)
	assertInputError(t, err, "arrival_rate")
}

// Invalid values by validation class. Each list includes the previous one.
var (
	notFinite      = []float64{math.NaN(), math.Inf(1), math.Inf(-1)}
	notNonNegative = append([]float64{-1, -1e-300}, notFinite...)
	notPositive    = append([]float64{0}, notNonNegative...)
	notFraction    = append([]float64{1.0000001, 2}, notNonNegative...)
)

// Valid base inputs that the validation table varies one field at a time.
var (
	validSizing = capacity.SizingInput{ArrivalRate: 10000, PerConsumerRate: 400, MaxBacklog: 5e6, RTOSeconds: 1800}
	validDrain  = capacity.DrainInput{Backlog: 180000, ArrivalRate: 800, CompletionRate: 1000, TTLSeconds: 600,
		Forecast: []float64{800, 900}, ForecastStepSeconds: 60}
	validTTL = capacity.TTLInput{ArrivalRate: 1200, IncidentSeconds: 900, TTLSeconds: 60, DegradedCompletionRate: 1000}
)

func sizeWith(set func(*capacity.SizingInput, float64)) func(float64) error {
	return func(v float64) error {
		in := validSizing
		set(&in, v)
		_, err := capacity.Size(in)
		return err
	}
}

func drainWith(set func(*capacity.DrainInput, float64)) func(float64) error {
	return func(v float64) error {
		in := validDrain
		in.Forecast = append([]float64(nil), validDrain.Forecast...)
		set(&in, v)
		_, err := capacity.DrainBacklog(in)
		return err
	}
}

func ttlWith(set func(*capacity.TTLInput, float64)) func(float64) error {
	return func(v float64) error {
		in := validTTL
		set(&in, v)
		_, err := capacity.BacklogWithTTL(in)
		return err
	}
}

// forecastArgs are the arguments of ForecastDrainSeconds.
type forecastArgs struct {
	backlog, completion float64
	forecast            []float64
	step                float64
	retries             capacity.Retries
}

func forecastWith(set func(*forecastArgs, float64)) func(float64) error {
	return func(v float64) error {
		a := forecastArgs{backlog: 1000, completion: 100, forecast: []float64{50, 80, 20}, step: 10}
		set(&a, v)
		_, _, err := capacity.ForecastDrainSeconds(a.backlog, a.completion, a.forecast, a.step, a.retries)
		return err
	}
}

// TestValidation feeds every validation class to every input of every
// function and expects an *InputError naming that input.
func TestValidation(t *testing.T) {
	tests := []struct {
		fn, field string
		bad       []float64
		call      func(float64) error
	}{
		{"EffectiveArrivalRate", "arrival_rate", notNonNegative, func(v float64) error {
			_, err := capacity.EffectiveArrivalRate(v, capacity.Retries{})
			return err
		}},
		{"EffectiveArrivalRate", "retry_rate", notFraction, func(v float64) error {
			_, err := capacity.EffectiveArrivalRate(100, capacity.Retries{Rate: v, Average: 1})
			return err
		}},
		{"EffectiveArrivalRate", "avg_retries", notNonNegative, func(v float64) error {
			_, err := capacity.EffectiveArrivalRate(100, capacity.Retries{Rate: 0.5, Average: v})
			return err
		}},
		{"FleetCapacity", "per_consumer_rate", notPositive, func(v float64) error {
			_, err := capacity.FleetCapacity(25, v)
			return err
		}},
		{"DrainSeconds", "backlog", notNonNegative, func(v float64) error {
			_, _, err := capacity.DrainSeconds(v, 100)
			return err
		}},
		// A negative net rate is valid (the backlog grows); only non-finite ones are not.
		{"DrainSeconds", "net_rate", notFinite, func(v float64) error {
			_, _, err := capacity.DrainSeconds(100, v)
			return err
		}},
		{"WaitSeconds", "backlog", notNonNegative, func(v float64) error {
			_, _, err := capacity.WaitSeconds(v, 100)
			return err
		}},
		{"WaitSeconds", "completion_rate", notNonNegative, func(v float64) error {
			_, _, err := capacity.WaitSeconds(100, v)
			return err
		}},
		{"SLAMaxDepth", "arrival_rate", notNonNegative, func(v float64) error {
			_, err := capacity.SLAMaxDepth(v, 10)
			return err
		}},
		{"SLAMaxDepth", "sla_seconds", notPositive, func(v float64) error {
			_, err := capacity.SLAMaxDepth(5000, v)
			return err
		}},

		{"Size", "arrival_rate", notNonNegative, sizeWith(func(in *capacity.SizingInput, v float64) { in.ArrivalRate = v })},
		{"Size", "per_consumer_rate", notPositive, sizeWith(func(in *capacity.SizingInput, v float64) { in.PerConsumerRate = v })},
		{"Size", "max_backlog", notNonNegative, sizeWith(func(in *capacity.SizingInput, v float64) { in.MaxBacklog = v })},
		// With max_backlog > 0, a missing (0) rto_seconds is an error too.
		{"Size", "rto_seconds", notPositive, sizeWith(func(in *capacity.SizingInput, v float64) { in.RTOSeconds = v })},
		// Without a backlog rto_seconds is optional (0), but a given one must be valid.
		{"Size without backlog", "rto_seconds", notNonNegative, sizeWith(func(in *capacity.SizingInput, v float64) {
			in.MaxBacklog, in.RTOSeconds = 0, v
		})},
		{"Size", "min_headroom", notNonNegative, sizeWith(func(in *capacity.SizingInput, v float64) { in.MinHeadroom = v })},
		{"Size", "retry_rate", notFraction, sizeWith(func(in *capacity.SizingInput, v float64) { in.Retries = capacity.Retries{Rate: v, Average: 1} })},
		{"Size", "avg_retries", notNonNegative, sizeWith(func(in *capacity.SizingInput, v float64) { in.Retries = capacity.Retries{Rate: 0.5, Average: v} })},

		{"DrainBacklog", "backlog", notNonNegative, drainWith(func(in *capacity.DrainInput, v float64) { in.Backlog = v })},
		{"DrainBacklog", "arrival_rate", notNonNegative, drainWith(func(in *capacity.DrainInput, v float64) { in.ArrivalRate = v })},
		{"DrainBacklog", "completion_rate", notNonNegative, drainWith(func(in *capacity.DrainInput, v float64) { in.CompletionRate = v })},
		// ttl_seconds is optional (0), but a given one must be valid.
		{"DrainBacklog", "ttl_seconds", notNonNegative, drainWith(func(in *capacity.DrainInput, v float64) { in.TTLSeconds = v })},
		{"DrainBacklog", "retry_rate", notFraction, drainWith(func(in *capacity.DrainInput, v float64) { in.Retries = capacity.Retries{Rate: v, Average: 1} })},
		{"DrainBacklog", "avg_retries", notNonNegative, drainWith(func(in *capacity.DrainInput, v float64) { in.Retries = capacity.Retries{Rate: 0.5, Average: v} })},
		{"DrainBacklog", "forecast_step_seconds", notPositive, drainWith(func(in *capacity.DrainInput, v float64) { in.ForecastStepSeconds = v })},
		{"DrainBacklog", "arrival_forecast", notNonNegative, drainWith(func(in *capacity.DrainInput, v float64) { in.Forecast[1] = v })},

		{"ForecastDrainSeconds", "backlog", notNonNegative, forecastWith(func(a *forecastArgs, v float64) { a.backlog = v })},
		{"ForecastDrainSeconds", "completion_rate", notNonNegative, forecastWith(func(a *forecastArgs, v float64) { a.completion = v })},
		{"ForecastDrainSeconds", "forecast_step_seconds", notPositive, forecastWith(func(a *forecastArgs, v float64) { a.step = v })},
		{"ForecastDrainSeconds first entry", "arrival_forecast", notNonNegative, forecastWith(func(a *forecastArgs, v float64) { a.forecast[0] = v })},
		// The bad entry sits after the step where the backlog clears: still an error.
		{"ForecastDrainSeconds last entry", "arrival_forecast", notNonNegative, forecastWith(func(a *forecastArgs, v float64) { a.forecast[2] = v })},
		{"ForecastDrainSeconds", "retry_rate", notFraction, forecastWith(func(a *forecastArgs, v float64) { a.retries = capacity.Retries{Rate: v, Average: 1} })},
		{"ForecastDrainSeconds", "avg_retries", notNonNegative, forecastWith(func(a *forecastArgs, v float64) { a.retries = capacity.Retries{Rate: 0.5, Average: v} })},

		{"BacklogWithTTL", "arrival_rate", notNonNegative, ttlWith(func(in *capacity.TTLInput, v float64) { in.ArrivalRate = v })},
		{"BacklogWithTTL", "incident_seconds", notNonNegative, ttlWith(func(in *capacity.TTLInput, v float64) { in.IncidentSeconds = v })},
		// The TTL is what BacklogWithTTL is about: it is required.
		{"BacklogWithTTL", "ttl_seconds", notPositive, ttlWith(func(in *capacity.TTLInput, v float64) { in.TTLSeconds = v })},
		{"BacklogWithTTL", "degraded_completion_rate", notNonNegative, ttlWith(func(in *capacity.TTLInput, v float64) { in.DegradedCompletionRate = v })},
		{"BacklogWithTTL", "retry_rate", notFraction, ttlWith(func(in *capacity.TTLInput, v float64) { in.Retries = capacity.Retries{Rate: v, Average: 1} })},
		{"BacklogWithTTL", "avg_retries", notNonNegative, ttlWith(func(in *capacity.TTLInput, v float64) { in.Retries = capacity.Retries{Rate: 0.5, Average: v} })},
	}
	for _, tt := range tests {
		// The unmodified base input must be valid, or the table proves nothing.
		t.Run(fmt.Sprintf("%s/%s/base is valid", tt.fn, tt.field), func(t *testing.T) {
			if err := tt.call(acceptedByEveryField); err != nil {
				t.Fatalf("valid input rejected: %v", err)
			}
		})
		for _, v := range tt.bad {
			t.Run(fmt.Sprintf("%s/%s/%v", tt.fn, tt.field, v), func(t *testing.T) {
				assertInputError(t, tt.call(v), tt.field)
			})
		}
	}
	t.Run("FleetCapacity/consumers/-1", func(t *testing.T) {
		_, err := capacity.FleetCapacity(-1, 400)
		assertInputError(t, err, "consumers")
	})
}

// acceptedByEveryField is valid for every field of the validation table: a
// fraction for retry_rate, a positive number for the rest.
const acceptedByEveryField = 0.5

// TestOutOfRange covers inputs that are valid one by one but whose result
// leaves the float64 range or the supported count: an *InputError naming the
// input most responsible, never NaN, an infinity or a wrapped count.
func TestOutOfRange(t *testing.T) {
	tests := []struct {
		name, field string
		call        func() error
	}{
		{"effective arrival overflows", "arrival_rate", func() error {
			_, err := capacity.EffectiveArrivalRate(1e300, capacity.Retries{Rate: 1, Average: 1e10})
			return err
		}},
		{"capacity overflows", "per_consumer_rate", func() error {
			_, err := capacity.FleetCapacity(capacity.MaxCount, 1e300)
			return err
		}},
		{"drain time overflows", "backlog", func() error {
			_, _, err := capacity.DrainSeconds(1e300, 1e-300)
			return err
		}},
		{"wait overflows", "backlog", func() error {
			_, _, err := capacity.WaitSeconds(1e300, 1e-10)
			return err
		}},
		{"SLA depth overflows", "arrival_rate", func() error {
			_, err := capacity.SLAMaxDepth(1e300, 1e10)
			return err
		}},
		{"steady count beyond MaxCount", "arrival_rate", sizeErr(capacity.SizingInput{ArrivalRate: 1e300, PerConsumerRate: 1})},
		// 2^53 + 2 is the next float64 after 2^53 that is a count.
		{"steady count just beyond MaxCount", "arrival_rate", sizeErr(capacity.SizingInput{ArrivalRate: 9007199254740994, PerConsumerRate: 1})},
		{"backlog term pushes the count beyond MaxCount", "max_backlog", sizeErr(capacity.SizingInput{
			ArrivalRate: 9007199254740992, PerConsumerRate: 1, MaxBacklog: 1e6, RTOSeconds: 1})},
		{"backlog term overflows", "max_backlog", sizeErr(capacity.SizingInput{
			PerConsumerRate: 1e-300, MaxBacklog: 1e300, RTOSeconds: 1})},
		{"min headroom pushes the count beyond MaxCount", "min_headroom", sizeErr(capacity.SizingInput{
			ArrivalRate: 9007199254740992, PerConsumerRate: 1, MinHeadroom: 0.5})},
		{"min headroom ratio overflows", "min_headroom", sizeErr(capacity.SizingInput{
			ArrivalRate: 1e10, PerConsumerRate: 1, MinHeadroom: 1e308})},
		{"retries push the effective arrival out of range", "arrival_rate", sizeErr(capacity.SizingInput{
			ArrivalRate: 1e300, PerConsumerRate: 1e300, Retries: capacity.Retries{Rate: 1, Average: 1e10}})},
		// Headroom 1/1e-310 = 1e310 is beyond float64.
		{"headroom overflows", "arrival_rate", sizeErr(capacity.SizingInput{
			ArrivalRate: 1e-310, PerConsumerRate: 1, MaxBacklog: 1, RTOSeconds: 1})},
		// λ/μ = 1e-600 underflows; one consumer gives headroom 1e300/1e-300 = 1e600.
		{"tiny arrival against a huge per-consumer rate", "arrival_rate", sizeErr(capacity.SizingInput{
			ArrivalRate: 1e-300, PerConsumerRate: 1e300})},
		{"drain time of a backlog overflows", "backlog", drainErr(capacity.DrainInput{
			Backlog: 1e300, ArrivalRate: 0, CompletionRate: 1e-10})},
		{"forecast backlog overflows", "arrival_forecast", drainErr(capacity.DrainInput{
			Backlog: 1e308, CompletionRate: 0, Forecast: []float64{1e308, 1e308}, ForecastStepSeconds: 10})},
		{"unbounded incident backlog overflows", "incident_seconds", ttlErr(capacity.TTLInput{
			ArrivalRate: 1e300, IncidentSeconds: 1e10, TTLSeconds: 1})},
		{"TTL window overflows", "ttl_seconds", ttlErr(capacity.TTLInput{
			ArrivalRate: 1e300, IncidentSeconds: 1, TTLSeconds: 1e10})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assertInputError(t, tt.call(), tt.field)
		})
	}
}

func sizeErr(in capacity.SizingInput) func() error {
	return func() error { _, err := capacity.Size(in); return err }
}

func drainErr(in capacity.DrainInput) func() error {
	return func() error { _, err := capacity.DrainBacklog(in); return err }
}

func ttlErr(in capacity.TTLInput) func() error {
	return func() error { _, err := capacity.BacklogWithTTL(in); return err }
}

// TestOverflowNamesTheCulprit: an overflow names the input whose size
// causes it, not the first input of the formula.
func TestOverflowNamesTheCulprit(t *testing.T) {
	cases := []struct {
		name string
		in   capacity.SizingInput
		want string
	}{
		{"tiny per-consumer rate", capacity.SizingInput{ArrivalRate: 10000, PerConsumerRate: 5e-324}, "per_consumer_rate"},
		{"huge arrival rate", capacity.SizingInput{ArrivalRate: 1e308, PerConsumerRate: 0.5}, "arrival_rate"},
		{"tiny rto", capacity.SizingInput{ArrivalRate: 1, PerConsumerRate: 1, MaxBacklog: 1e10, RTOSeconds: 5e-324}, "rto_seconds"},
		{"huge backlog", capacity.SizingInput{ArrivalRate: 1, PerConsumerRate: 1, MaxBacklog: 1e308, RTOSeconds: 0.1}, "max_backlog"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := capacity.Size(tc.in)
			var in *capacity.InputError
			if !errors.As(err, &in) || in.Field != tc.want {
				t.Errorf("Size(%+v) = %v, want an error naming %s", tc.in, err, tc.want)
			}
		})
	}
	var in *capacity.InputError
	if _, err := capacity.SLAMaxDepth(1e300, 1e10); !errors.As(err, &in) || in.Field != "arrival_rate" {
		t.Errorf("SLAMaxDepth(1e300, 1e10) = %v, want an error naming arrival_rate", err)
	}
}
