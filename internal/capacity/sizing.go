// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity

import (
	"math"
	"math/big"
)

// NetRate is completion − arrival, exactly: a fleet that matches its
// arrivals has a net rate of 0, and 12,530 − 12,529.72 is 0.28.
func NetRate(completionRate, arrivalRate float64) float64 {
	return float(sub(dec(completionRate), dec(arrivalRate)))
}

// FleetCapacity is C = c · μ, the completion rate of c consumers.
func FleetCapacity(consumers int64, perConsumerRate float64) (float64, error) {
	if consumers < 0 {
		return 0, inputErr("consumers", "must be at least 0, got %d", consumers)
	}
	if err := checkPositive("per_consumer_rate", perConsumerRate); err != nil {
		return 0, err
	}
	c := float(mul(ratInt(consumers), dec(perConsumerRate)))
	if err := checkResult("per_consumer_rate", "the capacity consumers × per_consumer_rate", c); err != nil {
		return 0, err
	}
	return c, nil
}

// SizingInput is what the headroom formula sizes a fleet from.
type SizingInput struct {
	ArrivalRate     float64 // λ, msg/s
	PerConsumerRate float64 // μ, msg/s per consumer
	MaxBacklog      float64 // B_max, messages; 0 for none
	RTOSeconds      float64 // time allowed to clear B_max; required when MaxBacklog > 0
	Retries         Retries
	MinHeadroom     float64 // h_min, a fraction ≥ 0
	// ProvisioningLagSeconds is L: new consumers take work only L seconds
	// after the scale-out starts. 0 is the headroom formula.
	ProvisioningLagSeconds float64
	// MinConsumers is c_min, the fleet that drains alone during the lag;
	// nil for the steady state.
	MinConsumers *int64
}

// Sizing is the fleet the headroom formula asks for and how it behaves.
// Pointer fields are nil where the quantity is undefined.
type Sizing struct {
	EffectiveArrivalRate float64
	SteadyStateConsumers int64 // ceil(λ_eff / μ)
	RequiredConsumers    int64 // max(ceil(λ_eff/μ + B_max/(μ·RTO)), ceil(λ_eff·(1+h_min)/μ))
	Capacity             float64
	Surplus              float64
	Utilization          float64
	Headroom             *float64 // (C − λ_eff) / λ_eff; nil when λ_eff = 0
	Overhead             *float64 // required / steady − 1; nil when steady = 0
	DrainSeconds         *float64 // time to clear B_max, the lag included; nil when it never drains
	MinConsumers         int64    // c_min: MinConsumers, else the steady state
}

// Size applies the headroom formula. The ceiling is taken of the sum, not
// the sum of ceilings: 25 + 6.94 gives 32, not 33.
func Size(in SizingInput) (Sizing, error) {
	var out Sizing
	if err := checkPositive("per_consumer_rate", in.PerConsumerRate); err != nil {
		return out, err
	}
	if err := checkNonNegative("max_backlog", in.MaxBacklog); err != nil {
		return out, err
	}
	if err := checkNonNegative("min_headroom", in.MinHeadroom); err != nil {
		return out, err
	}
	lag := in.ProvisioningLagSeconds
	if err := checkNonNegative("provisioning_lag_seconds", lag); err != nil {
		return out, err
	}
	if in.MinConsumers != nil && (*in.MinConsumers < 0 || *in.MinConsumers > MaxCount) {
		return out, inputErr("min_consumers", "must be a whole number from 0 to %d, got %d", int64(MaxCount), *in.MinConsumers)
	}
	if in.MaxBacklog > 0 {
		if in.RTOSeconds == 0 {
			return out, inputErr("rto_seconds", "is required when max_backlog is greater than 0: the backlog must be cleared within a stated time")
		}
		if err := checkPositive("rto_seconds", in.RTOSeconds); err != nil {
			return out, err
		}
	} else if in.RTOSeconds != 0 {
		if err := checkPositive("rto_seconds", in.RTOSeconds); err != nil {
			return out, err
		}
	}
	effR, eff, err := effectiveArrival(in.ArrivalRate, in.Retries)
	if err != nil {
		return out, err
	}
	out.EffectiveArrivalRate = eff
	mu := in.PerConsumerRate
	muR := dec(mu)

	steadyRatio := quo(effR, muR)
	steadyCulprit := culprit(term{"arrival_rate", eff, 1}, term{"per_consumer_rate", mu, -1})
	if !ratFinite(steadyRatio) {
		return out, checkResult(steadyCulprit, "the steady-state ratio effective arrival / per_consumer_rate", math.Inf(1))
	}
	if out.SteadyStateConsumers, err = ceilRat(steadyCulprit, "steady_state_consumers", steadyRatio); err != nil {
		return out, err
	}

	out.MinConsumers = out.SteadyStateConsumers
	if in.MinConsumers != nil {
		out.MinConsumers = *in.MinConsumers
	}
	// During the lag the minimum fleet drains at its own surplus; the
	// rest is left to the full fleet in the time remaining, RTO − L.
	minSurplus, remaining, window, lagR := new(big.Rat), dec(in.MaxBacklog), dec(in.RTOSeconds), dec(lag)
	if lag > 0 && in.RTOSeconds > 0 {
		if in.RTOSeconds <= lag {
			return out, inputErr("provisioning_lag_seconds", "must be less than rto_seconds (%v), got %v: new consumers would start only after the backlog was due to be cleared, so no fleet meets the RTO",
				in.RTOSeconds, lag)
		}
		if _, err := FleetCapacity(out.MinConsumers, mu); err != nil {
			return out, err
		}
		minSurplus = minFleetSurplus(out.MinConsumers, muR, effR)
		remaining = atLeast0(sub(remaining, mul(minSurplus, lagR)))
		window = sub(window, lagR)
	}
	backlogRatio := new(big.Rat)
	if remaining.Sign() > 0 {
		backlogRatio = quo(quo(remaining, muR), window)
		if !ratFinite(backlogRatio) {
			rem, _ := remaining.Float64()
			win, _ := window.Float64()
			return out, checkResult(culprit(term{"max_backlog", rem, 1}, term{"per_consumer_rate", mu, -1}, term{"rto_seconds", win, -1}),
				"the backlog term max_backlog / (per_consumer_rate × rto_seconds)", math.Inf(1))
		}
	}
	// The steady state alone fits (it was counted above), so a sum beyond
	// the largest count is the backlog's doing. The ceiling is exact, so a
	// fleet sized for a backlog has a surplus to drain it.
	required, err := ceilRat("max_backlog", "required_consumers", add(steadyRatio, backlogRatio))
	if err != nil {
		return out, err
	}
	if in.MinHeadroom > 0 {
		withHeadroom := mul(steadyRatio, add(ratOne, dec(in.MinHeadroom)))
		if !ratFinite(withHeadroom) {
			return out, checkResult("min_headroom", "the headroom ratio", math.Inf(1))
		}
		floor, err := ceilRat("min_headroom", "required_consumers", withHeadroom)
		if err != nil {
			return out, err
		}
		required = max(required, floor)
	}
	// A backlog left after the lag needs a consumer, which the ceiling
	// of its positive term gives; one the minimum fleet clears within the
	// lag needs none more: the formula as documented (lagDoc).
	required = max(required, out.SteadyStateConsumers)

	capR := mul(ratInt(required), muR)
	out.Capacity = float(capR)
	if err := checkResult("per_consumer_rate", "the capacity consumers × per_consumer_rate", out.Capacity); err != nil {
		return out, err
	}
	surplus := sub(capR, effR)
	out.Surplus = float(surplus)
	out.RequiredConsumers = required
	if capR.Sign() > 0 {
		out.Utilization = float(quo(effR, capR))
	}
	if effR.Sign() > 0 {
		h := float(quo(surplus, effR))
		if err := checkResult("arrival_rate", "the headroom surplus / effective arrival", h); err != nil {
			return out, err
		}
		out.Headroom = &h
	}
	out.Overhead = overhead(required, out.SteadyStateConsumers)
	if out.DrainSeconds, err = lagDrainSeconds(dec(in.MaxBacklog), minSurplus, surplus, lagR); err != nil {
		return out, err
	}
	return out, nil
}

// atLeast0 is x, or 0 when x is negative.
func atLeast0(x *big.Rat) *big.Rat {
	if x.Sign() < 0 {
		return new(big.Rat)
	}
	return x
}

// overhead is what a fleet of c consumers runs over the steady state's,
// c / steady − 1; nil without a steady state.
func overhead(c, steady int64) *float64 {
	if steady <= 0 {
		return nil
	}
	o := float(sub(quo(ratInt(c), ratInt(steady)), ratOne))
	return &o
}

// lagDrainSeconds is the time to clear a backlog when the minimum fleet
// drains it alone for the lag and the full fleet from then on; nil when it
// never drains. With no lag it is backlog / surplus.
func lagDrainSeconds(backlog, minSurplus, surplus, lag *big.Rat) (*float64, error) {
	if lag.Sign() > 0 && minSurplus.Sign() > 0 && backlog.Cmp(mul(minSurplus, lag)) <= 0 {
		t := float(quo(backlog, minSurplus))
		return &t, nil
	}
	if backlog.Sign() == 0 {
		t := 0.0
		return &t, nil
	}
	if surplus.Sign() <= 0 {
		return nil, nil
	}
	t := quo(sub(backlog, mul(minSurplus, lag)), surplus)
	if lag.Sign() > 0 {
		t = add(t, lag)
	}
	ft := float(t)
	if err := checkResult("backlog", "the drain time backlog / net rate", ft); err != nil {
		return nil, err
	}
	return &ft, nil
}
