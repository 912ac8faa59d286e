// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

// Fuzz targets, seeded from the worked-example tables. They check only what
// must hold for any input: no panic; an error is an *InputError naming one of
// the function's inputs; a result holds finite numbers that respect the
// model's inequalities (within relTol for rounding).

import (
	"errors"
	"math"
	"math/big"
	"slices"
	"strconv"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// minNormal is the smallest normal float64, 2^-1022.
const minNormal = 0x1p-1022

// checkFuzzError requires err to be an *InputError naming one of fields.
func checkFuzzError(t *testing.T, err error, fields ...string) {
	t.Helper()
	var ie *capacity.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("error %v is a %T, want *capacity.InputError", err, err)
	}
	if !slices.Contains(fields, ie.Field) {
		t.Fatalf("InputError.Field = %q, want one of %q (error: %v)", ie.Field, fields, err)
	}
}

// checkFinite requires every value to be a finite number, and every
// non-nil pointer to point at one.
func checkFinite(t *testing.T, values map[string]any) {
	t.Helper()
	for name, v := range values {
		var x float64
		switch v := v.(type) {
		case float64:
			x = v
		case *float64:
			if v == nil {
				continue
			}
			x = *v
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			t.Errorf("%s = %v, want a finite number", name, x)
		}
	}
}

func checkNonNegative(t *testing.T, name string, v float64) {
	t.Helper()
	if v < 0 {
		t.Errorf("%s = %v, want ≥ 0", name, v)
	}
}

// checkAtLeast requires got ≥ want within relTol.
func checkAtLeast(t *testing.T, name string, got, want float64) {
	t.Helper()
	if got < want*(1-relTol) {
		t.Errorf("%s = %v, want at least %v", name, got, want)
	}
}

func FuzzSize(f *testing.F) {
	for _, c := range sizingCases {
		in := c.in
		f.Add(in.ArrivalRate, in.PerConsumerRate, in.MaxBacklog, in.RTOSeconds, in.Retries.Rate, in.Retries.Average, in.MinHeadroom)
	}
	f.Add(1e-310, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0)
	f.Add(9007199254740994.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0)
	f.Add(10000.0, 400.0, 5e6, 0.0, 0.0, 0.0, 0.0)
	f.Fuzz(checkSize)
}

// checkSize is FuzzSize's property check.
func checkSize(t *testing.T, arrival, perRate, backlog, rto, retryRate, avgRetries, minHeadroom float64) {
	in := capacity.SizingInput{ArrivalRate: arrival, PerConsumerRate: perRate, MaxBacklog: backlog, RTOSeconds: rto,
		Retries: capacity.Retries{Rate: retryRate, Average: avgRetries}, MinHeadroom: minHeadroom}
	got, err := capacity.Size(in)
	if err != nil {
		checkFuzzError(t, err, "arrival_rate", "per_consumer_rate", "max_backlog", "rto_seconds",
			"min_headroom", "retry_rate", "avg_retries")
		return
	}
	checkFinite(t, map[string]any{"EffectiveArrivalRate": got.EffectiveArrivalRate, "Capacity": got.Capacity,
		"Surplus": got.Surplus, "Utilization": got.Utilization, "Headroom": got.Headroom,
		"Overhead": got.Overhead, "DrainSeconds": got.DrainSeconds})
	checkAtLeast(t, "EffectiveArrivalRate", got.EffectiveArrivalRate, arrival)
	eff := got.EffectiveArrivalRate

	steady, required := got.SteadyStateConsumers, got.RequiredConsumers
	if steady < 0 || required < steady || required > capacity.MaxCount {
		t.Fatalf("SteadyStateConsumers %d, RequiredConsumers %d: want 0 ≤ steady ≤ required ≤ MaxCount", steady, required)
	}
	// The counts are ceilings: at least the ratio, less than it plus one.
	steadyRatio := eff / perRate
	needed := steadyRatio
	if backlog > 0 {
		needed += backlog / perRate / rto
	}
	if minHeadroom > 0 {
		needed = max(needed, steadyRatio*(1+minHeadroom))
	}
	// Even where a ratio underflows float64, the ceiling of a positive load is ≥ 1.
	if eff > 0 && steady < 1 || backlog > 0 && required < 1 {
		t.Errorf("SteadyStateConsumers %d, RequiredConsumers %d for effective arrival %v, max_backlog %v: want at least 1",
			steady, required, eff, backlog)
	}
	checkAtLeast(t, "SteadyStateConsumers", float64(steady), steadyRatio)
	checkAtLeast(t, "RequiredConsumers", float64(required), needed)
	if float64(steady) > steadyRatio*(1+relTol)+1 || float64(required) > needed*(1+relTol)+1 {
		t.Errorf("steady %d for ratio %v, required %d for %v: more than a ceiling", steady, steadyRatio, required, needed)
	}
	checkAtLeast(t, "Capacity", got.Capacity, eff)

	checkNonNegative(t, "Utilization", got.Utilization)
	if got.Utilization > 1+relTol {
		t.Errorf("Utilization = %v, want ≤ 1 for a fleet sized to keep up", got.Utilization)
	}
	if (got.Headroom == nil) != (eff == 0) {
		t.Errorf("Headroom = %v with effective arrival %v: want nil exactly when arrival is 0", got.Headroom, eff)
	}
	if got.Headroom != nil && *got.Headroom < -relTol {
		t.Errorf("Headroom = %v, want ≥ 0 for a fleet sized to keep up", *got.Headroom)
	}
	if (got.Overhead == nil) != (steady == 0) {
		t.Errorf("Overhead = %v with steady %d: want nil exactly when steady is 0", got.Overhead, steady)
	}
	if got.Overhead != nil {
		checkNonNegative(t, "Overhead", *got.Overhead)
	}
	if got.DrainSeconds != nil {
		checkNonNegative(t, "DrainSeconds", *got.DrainSeconds)
		if backlog == 0 && *got.DrainSeconds != 0 {
			t.Errorf("DrainSeconds = %v without a backlog, want 0", *got.DrainSeconds)
		}
	} else if backlog == 0 {
		t.Errorf("DrainSeconds = nil without a backlog, want 0")
	}
}

// fuzzForecastLen is the most forecast entries FuzzDrainBacklog passes.
const fuzzForecastLen = 3

func FuzzDrainBacklog(f *testing.F) {
	for _, c := range drainCases {
		in := c.in
		var fc [fuzzForecastLen]float64
		n := copy(fc[:], in.Forecast)
		f.Add(in.Backlog, in.ArrivalRate, in.CompletionRate, in.Retries.Rate, in.Retries.Average, in.TTLSeconds,
			in.ForecastStepSeconds, fc[0], fc[1], fc[2], uint8(n))
	}
	f.Add(1e300, 0.0, 1e-10, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, uint8(0))
	f.Add(1e308, 0.0, 0.0, 0.0, 0.0, 0.0, 10.0, 1e308, 1e308, 0.0, uint8(2))
	f.Fuzz(checkDrainBacklog)
}

// checkDrainBacklog is FuzzDrainBacklog's property check. n picks the
// number of forecast entries: n mod 4 of f0, f1, f2, none (nil) for 0.
func checkDrainBacklog(t *testing.T, backlog, arrival, completion, retryRate, avgRetries, ttl, step, f0, f1, f2 float64, n uint8) {
	in := capacity.DrainInput{Backlog: backlog, ArrivalRate: arrival, CompletionRate: completion,
		Retries: capacity.Retries{Rate: retryRate, Average: avgRetries}, TTLSeconds: ttl, ForecastStepSeconds: step}
	if n %= fuzzForecastLen + 1; n > 0 {
		in.Forecast = []float64{f0, f1, f2}[:n]
	}
	got, err := capacity.DrainBacklog(in)
	if err != nil {
		checkFuzzError(t, err, "backlog", "arrival_rate", "completion_rate", "ttl_seconds", "retry_rate",
			"avg_retries", "forecast_step_seconds", "arrival_forecast")
		return
	}
	checkFinite(t, map[string]any{"EffectiveArrivalRate": got.EffectiveArrivalRate, "NetRate": got.NetRate,
		"DrainSeconds": got.DrainSeconds, "WaitSeconds": got.WaitSeconds,
		"ForecastDrainSeconds": got.ForecastDrainSeconds})
	checkAtLeast(t, "EffectiveArrivalRate", got.EffectiveArrivalRate, arrival)
	if got.CompletionRate != completion {
		t.Errorf("CompletionRate = %v, want the input %v", got.CompletionRate, completion)
	}
	// Results are written to 15 significant digits; an input may have 17.
	if got.NetRate > round15(decOf(completion)) {
		t.Errorf("NetRate = %v above completion %v: arrivals cannot add capacity", got.NetRate, completion)
	}

	if got.Drains != (got.DrainSeconds != nil) {
		t.Fatalf("Drains = %v but DrainSeconds = %v", got.Drains, got.DrainSeconds)
	}
	switch {
	case backlog == 0:
		if !got.Drains || *got.DrainSeconds != 0 || got.WaitSeconds == nil || *got.WaitSeconds != 0 {
			t.Errorf("empty backlog: Drains %v, DrainSeconds %v, WaitSeconds %v; want drained at 0 s",
				got.Drains, got.DrainSeconds, got.WaitSeconds)
		}
	case got.Drains != (got.NetRate > 0):
		t.Errorf("Drains = %v with NetRate %v and backlog %v", got.Drains, got.NetRate, backlog)
	}
	if got.DrainSeconds != nil {
		checkNonNegative(t, "DrainSeconds", *got.DrainSeconds)
	}
	if (got.WaitSeconds == nil) != (backlog > 0 && completion == 0) {
		t.Errorf("WaitSeconds = %v with backlog %v, completion %v", got.WaitSeconds, backlog, completion)
	}
	if got.WaitSeconds != nil {
		checkNonNegative(t, "WaitSeconds", *got.WaitSeconds)
		// Dividing by completions alone underestimates the drain, never overestimates it.
		if got.DrainSeconds != nil && *got.DrainSeconds < *got.WaitSeconds {
			t.Errorf("DrainSeconds %v < WaitSeconds %v", *got.DrainSeconds, *got.WaitSeconds)
		}
	}

	if (got.ShouldShed == nil) != (ttl == 0) {
		t.Errorf("ShouldShed = %v with ttl_seconds %v: want nil exactly without a TTL", got.ShouldShed, ttl)
	} else if got.ShouldShed != nil {
		want := !got.Drains || *got.DrainSeconds > ttl
		if *got.ShouldShed != want {
			t.Errorf("ShouldShed = %v, want %v (Drains %v, DrainSeconds %v, TTL %v)",
				*got.ShouldShed, want, got.Drains, got.DrainSeconds, ttl)
		}
	}

	if (got.ForecastDrains == nil) != (in.Forecast == nil) {
		t.Fatalf("ForecastDrains = %v with forecast %v", got.ForecastDrains, in.Forecast)
	}
	if got.ForecastDrains != nil {
		if *got.ForecastDrains != (got.ForecastDrainSeconds != nil) {
			t.Fatalf("ForecastDrains = %v but ForecastDrainSeconds = %v", *got.ForecastDrains, got.ForecastDrainSeconds)
		}
		if backlog == 0 && (got.ForecastDrainSeconds == nil || *got.ForecastDrainSeconds != 0) {
			t.Errorf("empty backlog: ForecastDrainSeconds = %v, want 0", got.ForecastDrainSeconds)
		}
		if s := got.ForecastDrainSeconds; s != nil {
			checkNonNegative(t, "ForecastDrainSeconds", *s)
			if horizon := float64(len(in.Forecast)) * step; *s > horizon*(1+relTol) {
				t.Errorf("ForecastDrainSeconds = %v beyond the forecast horizon %v", *s, horizon)
			}
		}
	}
	checkFlatForecast(t, in, got)
}

// checkFlatForecast compares the constant-rate drain with a forecast that
// repeats the current arrival rate: the two models must agree wherever the
// flat drain time is clearly inside or clearly beyond the horizon.
func checkFlatForecast(t *testing.T, in capacity.DrainInput, flat capacity.Drain) {
	t.Helper()
	if !(in.ForecastStepSeconds > 0) || math.IsInf(in.ForecastStepSeconds, 0) {
		return
	}
	// A subnormal backlog carries too few significant digits for stepping
	// and dividing to agree within a relative tolerance.
	if in.Backlog > 0 && in.Backlog < minNormal {
		return
	}
	forecast := slices.Repeat([]float64{in.ArrivalRate}, fuzzForecastLen)
	horizon := fuzzForecastLen * in.ForecastStepSeconds
	s, ok, err := capacity.ForecastDrainSeconds(in.Backlog, in.CompletionRate, forecast, in.ForecastStepSeconds, in.Retries)
	if err != nil {
		checkFuzzError(t, err, "arrival_forecast", "forecast_step_seconds")
		return
	}
	switch {
	case flat.Drains && *flat.DrainSeconds < horizon*(1-relTol):
		if !ok || !approxEqual(s, *flat.DrainSeconds) {
			t.Errorf("flat forecast: %v s (ok %v), want the constant-rate %v s within the %v s horizon",
				s, ok, *flat.DrainSeconds, horizon)
		}
	case !flat.Drains || *flat.DrainSeconds > horizon*(1+relTol):
		if ok {
			t.Errorf("flat forecast drains in %v s, but the constant-rate drain (%v, Drains %v) is beyond the %v s horizon",
				s, flat.DrainSeconds, flat.Drains, horizon)
		}
	}
}

func FuzzBacklogWithTTL(f *testing.F) {
	for _, c := range ttlCases {
		in := c.in
		f.Add(in.ArrivalRate, in.IncidentSeconds, in.TTLSeconds, in.DegradedCompletionRate, in.Retries.Rate, in.Retries.Average)
	}
	f.Add(1e300, 1e10, 1.0, 0.0, 0.0, 0.0)
	f.Add(1e300, 1.0, 1e10, 0.0, 0.0, 0.0)
	f.Fuzz(checkBacklogWithTTL)
}

// checkBacklogWithTTL is FuzzBacklogWithTTL's property check.
func checkBacklogWithTTL(t *testing.T, arrival, incident, ttl, degraded, retryRate, avgRetries float64) {
	got, err := capacity.BacklogWithTTL(capacity.TTLInput{ArrivalRate: arrival, IncidentSeconds: incident,
		TTLSeconds: ttl, DegradedCompletionRate: degraded, Retries: capacity.Retries{Rate: retryRate, Average: avgRetries}})
	if err != nil {
		checkFuzzError(t, err, "arrival_rate", "incident_seconds", "ttl_seconds", "degraded_completion_rate",
			"retry_rate", "avg_retries")
		return
	}
	checkFinite(t, map[string]any{"EffectiveArrivalRate": got.EffectiveArrivalRate,
		"UnboundedBacklog": got.UnboundedBacklog, "TTLBoundedBacklog": got.TTLBoundedBacklog})
	eff := got.EffectiveArrivalRate
	checkAtLeast(t, "EffectiveArrivalRate", eff, arrival)
	checkNonNegative(t, "TTLBoundedBacklog", got.TTLBoundedBacklog)
	if got.TTLBoundedBacklog > got.UnboundedBacklog {
		t.Errorf("TTLBoundedBacklog %v > UnboundedBacklog %v", got.TTLBoundedBacklog, got.UnboundedBacklog)
	}
	// With completion d ≥ 0 the backlog grows no faster than arrivals.
	if bound := round15(new(big.Rat).Mul(effective(arrival, retryRate, avgRetries), decOf(incident))); got.UnboundedBacklog > bound {
		t.Errorf("UnboundedBacklog %v > effective arrival × incident = %v", got.UnboundedBacklog, bound)
	}
	if exactAtLeast(degraded, arrival, retryRate, avgRetries) && got.UnboundedBacklog != 0 {
		t.Errorf("UnboundedBacklog = %v although completion %v keeps up with %v", got.UnboundedBacklog, degraded, eff)
	}
	// The bound applies exactly when the exact window is below the
	// exact unbounded backlog; both are then written to 15 digits.
	window := new(big.Rat).Mul(effective(arrival, retryRate, avgRetries), decOf(ttl))
	unbounded := new(big.Rat).Mul(decOf(incident), new(big.Rat).Sub(effective(arrival, retryRate, avgRetries), decOf(degraded)))
	if unbounded.Sign() < 0 {
		unbounded.SetInt64(0)
	}
	if applies := window.Cmp(unbounded) < 0; got.TTLBoundApplies != applies {
		t.Errorf("TTLBoundApplies = %v with bounded %v, unbounded %v", got.TTLBoundApplies, got.TTLBoundedBacklog, got.UnboundedBacklog)
	}
	want := round15(unbounded)
	if got.TTLBoundApplies {
		want = round15(window)
	}
	if got.TTLBoundedBacklog != want || got.UnboundedBacklog != round15(unbounded) {
		t.Errorf("TTLBoundedBacklog = %v, UnboundedBacklog = %v; want %v and %v", got.TTLBoundedBacklog, got.UnboundedBacklog, want, round15(unbounded))
	}
}

// exactAtLeast reports whether completion keeps up with arrival × (1 +
// retryRate × avgRetries), each the decimal it reads as, exactly.
func exactAtLeast(completion, arrival, retryRate, avgRetries float64) bool {
	return decOf(completion).Cmp(effective(arrival, retryRate, avgRetries)) >= 0
}

// effective is arrival × (1 + retryRate × avgRetries), exactly.
func effective(arrival, retryRate, avgRetries float64) *big.Rat {
	return new(big.Rat).Mul(decOf(arrival), new(big.Rat).Add(big.NewRat(1, 1), new(big.Rat).Mul(decOf(retryRate), decOf(avgRetries))))
}

// decOf is the decimal x reads as.
func decOf(x float64) *big.Rat {
	r, _ := new(big.Rat).SetString(strconv.FormatFloat(x, 'g', -1, 64))
	return r
}
