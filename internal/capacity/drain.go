// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity

import "math/big"

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
	// Fleet, when set, is the fleet CompletionRate is the capacity of:
	// the drain then divides by its exact Count × PerConsumerRate, not by
	// that product written to 15 digits.
	Fleet *FleetSize
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
	// From the exact net rate, not the one written to 15 digits: the
	// drain is never shorter than the wait behind the same backlog.
	completion := dec(in.CompletionRate)
	if in.Fleet != nil {
		completion = mul(ratInt(in.Fleet.Count), dec(in.Fleet.PerConsumerRate))
	}
	net := sub(completion, in.Retries.effective(in.ArrivalRate))
	out.NetRate = float(net)

	var t float64
	switch {
	case in.Backlog == 0:
		out.Drains = true
	case net.Sign() > 0:
		out.Drains = true
		t = float(quo(dec(in.Backlog), net))
		if err := checkResult("backlog", "the drain time backlog / net rate", t); err != nil {
			return out, err
		}
	}
	if out.Drains {
		out.DrainSeconds = &t
	}
	w, ok, err := waitBehind(in.Backlog, completion)
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
		ft, ok, err := forecastDrainSeconds(in.Backlog, completion, in.Forecast, in.ForecastStepSeconds, in.Retries)
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
	if err := checkNonNegative("completion_rate", completionRate); err != nil {
		return 0, false, err
	}
	return forecastDrainSeconds(backlog, dec(completionRate), forecast, stepSeconds, retries)
}

// forecastDrainSeconds is ForecastDrainSeconds at an exact completion rate.
func forecastDrainSeconds(backlog float64, c *big.Rat, forecast []float64, stepSeconds float64, retries Retries) (seconds float64, ok bool, err error) {
	if err := checkNonNegative("backlog", backlog); err != nil {
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
	// Exact: a backlog that empties at the very end of the last step has
	// drained.
	b, step, amp := dec(backlog), dec(stepSeconds), retries.amplification()
	ampF, _ := amp.Float64()
	drained := new(big.Rat)
	for i, a := range forecast {
		if err := checkResult("arrival_forecast", "an effective forecast arrival rate", a*ampF); err != nil {
			return 0, false, err
		}
		net := sub(c, mul(dec(a), amp))
		drained.Mul(net, step)
		if net.Sign() > 0 && b.Cmp(drained) <= 0 {
			t := float(add(mul(ratInt(int64(i)), step), quo(b, net)))
			if err := checkResult("forecast_step_seconds", "the forecast drain time", t); err != nil {
				return 0, false, err
			}
			return t, true, nil
		}
		b.Sub(b, drained)
		// Exact arithmetic cannot overflow; a backlog beyond float64's
		// range could not be reported.
		if b.Num().BitLen()-b.Denom().BitLen() > 1024 {
			return 0, false, inputErr("arrival_forecast", "makes the forecast backlog overflow the float64 range (about 1.8e308)")
		}
	}
	return 0, false, nil
}
