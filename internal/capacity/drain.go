// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity

// DrainInput describes a backlog and the rates acting on it.
type DrainInput struct {
	Backlog        float64 // messages waiting now
	ArrivalRate    float64 // λ, msg/s
	CompletionRate float64 // msg/s the fleet completes
	Retries        Retries
	TTLSeconds     float64 // 0 for no TTL
	// Forecast is an optional list of expected base arrival rates, one per
	// ForecastStepSeconds, starting now.
	Forecast            []float64
	ForecastStepSeconds float64
}

// Drain is where a backlog stands and when it clears. Pointer fields are nil
// where the quantity does not exist (never drains, no TTL, no forecast).
type Drain struct {
	EffectiveArrivalRate float64
	CompletionRate       float64
	NetRate              float64 // completion − effective arrival
	Drains               bool
	DrainSeconds         *float64
	WaitSeconds          *float64 // backlog / completion; nil when nothing completes
	ShouldShed           *bool    // drain time > TTL or never drains; nil without a TTL
	ForecastDrains       *bool
	ForecastDrainSeconds *float64
}

// DrainBacklog computes the constant-rate drain (T = B / (completion −
// arrival), never B / completion) and, with a forecast, the drain time when
// arrivals follow the forecast.
func DrainBacklog(in DrainInput) (Drain, error) {
	var out Drain
	if err := checkNonNegative("backlog", in.Backlog); err != nil {
		return out, err
	}
	if err := checkNonNegative("completion_rate", in.CompletionRate); err != nil {
		return out, err
	}
	if in.TTLSeconds != 0 {
		if err := checkPositive("ttl_seconds", in.TTLSeconds); err != nil {
			return out, err
		}
	}
	eff, err := EffectiveArrivalRate(in.ArrivalRate, in.Retries)
	if err != nil {
		return out, err
	}
	out.EffectiveArrivalRate = eff
	out.CompletionRate = in.CompletionRate
	out.NetRate = NetRate(in.CompletionRate, eff)

	t, ok, err := DrainSeconds(in.Backlog, out.NetRate)
	if err != nil {
		return out, err
	}
	out.Drains = ok
	if ok {
		out.DrainSeconds = &t
	}
	w, ok, err := WaitSeconds(in.Backlog, in.CompletionRate)
	if err != nil {
		return out, err
	}
	if ok {
		out.WaitSeconds = &w
	}
	if in.TTLSeconds > 0 {
		shed := !out.Drains || t > in.TTLSeconds
		out.ShouldShed = &shed
	}
	if in.Forecast != nil {
		ft, ok, err := ForecastDrainSeconds(in.Backlog, in.CompletionRate, in.Forecast, in.ForecastStepSeconds, in.Retries)
		if err != nil {
			return out, err
		}
		out.ForecastDrains = &ok
		if ok {
			out.ForecastDrainSeconds = &ft
		}
	}
	return out, nil
}

// ForecastDrainSeconds steps through forecast arrival rates, one per step of
// stepSeconds, removing (completion − arrival) · step from the backlog each
// time, and interpolates inside the step where the backlog reaches zero. ok
// is false when the backlog is not cleared within the forecast's horizon.
func ForecastDrainSeconds(backlog, completionRate float64, forecast []float64, stepSeconds float64, retries Retries) (seconds float64, ok bool, err error) {
	if err := checkNonNegative("backlog", backlog); err != nil {
		return 0, false, err
	}
	if err := checkNonNegative("completion_rate", completionRate); err != nil {
		return 0, false, err
	}
	if err := checkPositive("forecast_step_seconds", stepSeconds); err != nil {
		return 0, false, err
	}
	if len(forecast) == 0 {
		return 0, false, inputErr("arrival_forecast", "must list at least one arrival rate")
	}
	if err := retries.validate(); err != nil {
		return 0, false, err
	}
	for i, a := range forecast {
		if !finite(a) || a < 0 {
			return 0, false, inputErr("arrival_forecast", "entry %d must be a finite number of at least 0, got %v", i, a)
		}
	}
	if backlog == 0 {
		return 0, true, nil
	}
	b := backlog
	for i, a := range forecast {
		eff := a * retries.amplification()
		if err := checkResult("arrival_forecast", "an effective forecast arrival rate", eff); err != nil {
			return 0, false, err
		}
		net := NetRate(completionRate, eff)
		// Elapsed time is i·step, not a running sum, so long forecasts do not
		// accumulate rounding.
		start := float64(i) * stepSeconds
		if net > 0 && b <= net*stepSeconds {
			t := start + b/net
			if err := checkResult("forecast_step_seconds", "the forecast drain time", t); err != nil {
				return 0, false, err
			}
			return t, true, nil
		}
		b -= net * stepSeconds
		if err := checkResult("arrival_forecast", "the forecast backlog", b); err != nil {
			return 0, false, err
		}
	}
	return 0, false, nil
}
