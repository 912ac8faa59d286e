// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity

import "math"

// netTolerance is the relative distance under which capacity and arrivals
// count as equal. 3 × 0.1 is 0.30000000000000004 in float64; without it a
// fleet that exactly matches its arrivals would show a surplus of 5e-17 msg/s
// and a drain time of 10^22 seconds instead of "never".
const netTolerance = 1e-12

// NetRate is completion − arrival, snapped to exactly 0 when the two are
// equal within float64 rounding.
func NetRate(completionRate, arrivalRate float64) float64 {
	net := completionRate - arrivalRate
	if math.Abs(net) <= netTolerance*math.Max(math.Abs(completionRate), math.Abs(arrivalRate)) {
		return 0
	}
	return net
}

// FleetCapacity is C = c · μ, the completion rate of c consumers.
func FleetCapacity(consumers int64, perConsumerRate float64) (float64, error) {
	if consumers < 0 {
		return 0, inputErr("consumers", "must be at least 0, got %d", consumers)
	}
	if err := checkPositive("per_consumer_rate", perConsumerRate); err != nil {
		return 0, err
	}
	c := float64(consumers) * perConsumerRate
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
	eff, err := EffectiveArrivalRate(in.ArrivalRate, in.Retries)
	if err != nil {
		return out, err
	}
	out.EffectiveArrivalRate = eff
	mu := in.PerConsumerRate

	steadyRatio := eff / mu
	steadyCulprit := culprit(term{"arrival_rate", eff, 1}, term{"per_consumer_rate", mu, -1})
	if err := checkResult(steadyCulprit, "the steady-state ratio effective arrival / per_consumer_rate", steadyRatio); err != nil {
		return out, err
	}
	if out.SteadyStateConsumers, err = ceilCount(steadyCulprit, "steady_state_consumers", steadyRatio); err != nil {
		return out, err
	}
	// A ratio below the float64 range underflows to 0, but any positive
	// load needs a consumer.
	if eff > 0 {
		out.SteadyStateConsumers = max(out.SteadyStateConsumers, 1)
	}

	out.MinConsumers = out.SteadyStateConsumers
	if in.MinConsumers != nil {
		out.MinConsumers = *in.MinConsumers
	}
	// During the lag the minimum fleet drains at its own surplus; the
	// rest is left to the full fleet in the time remaining, RTO − L.
	minSurplus, remaining, window := 0.0, in.MaxBacklog, in.RTOSeconds
	if lag > 0 && in.RTOSeconds > 0 {
		if in.RTOSeconds <= lag {
			return out, inputErr("provisioning_lag_seconds", "must be less than rto_seconds (%v), got %v: new consumers would start only after the backlog was due to be cleared, so no fleet meets the RTO",
				in.RTOSeconds, lag)
		}
		minCapacity, err := FleetCapacity(out.MinConsumers, mu)
		if err != nil {
			return out, err
		}
		minSurplus = max(0, NetRate(minCapacity, eff))
		remaining = max(0, in.MaxBacklog-minSurplus*lag)
		window = in.RTOSeconds - lag
	}
	backlogRatio := 0.0
	if remaining > 0 {
		// Divide in two steps: μ · RTO may overflow where B/μ/RTO does not.
		backlogRatio = remaining / mu / window
		if err := checkResult(culprit(term{"max_backlog", remaining, 1}, term{"per_consumer_rate", mu, -1}, term{"rto_seconds", window, -1}),
			"the backlog term max_backlog / (per_consumer_rate × rto_seconds)", backlogRatio); err != nil {
			return out, err
		}
	}
	// The steady state alone fits (it was counted above), so a sum beyond
	// the largest count is the backlog's doing.
	required, err := ceilCount("max_backlog", "required_consumers", steadyRatio+backlogRatio)
	if err != nil {
		return out, err
	}
	if in.MinHeadroom > 0 {
		withHeadroom := steadyRatio * (1 + in.MinHeadroom)
		if err := checkResult("min_headroom", "the headroom ratio", withHeadroom); err != nil {
			return out, err
		}
		floor, err := ceilCount("min_headroom", "required_consumers", withHeadroom)
		if err != nil {
			return out, err
		}
		required = max(required, floor)
	}
	required = max(required, out.SteadyStateConsumers)
	if in.MaxBacklog > 0 {
		required = max(required, 1)
	}

	if out.Capacity, err = FleetCapacity(required, mu); err != nil {
		return out, err
	}
	out.Surplus = NetRate(out.Capacity, eff)
	// When the backlog term is below float64 resolution of the steady term
	// (B/(μ·RTO) < 1e-12 · λ/μ), the ceiling absorbs it and the fleet would
	// have no surplus to drain the very backlog it was sized for: one more
	// consumer drains it.
	if remaining > 0 && out.Surplus <= 0 {
		if required >= MaxCount {
			return out, inputErr("max_backlog", "makes required_consumers more than the largest supported count %d", int64(MaxCount))
		}
		required++
		if out.Capacity, err = FleetCapacity(required, mu); err != nil {
			return out, err
		}
		out.Surplus = NetRate(out.Capacity, eff)
	}
	out.RequiredConsumers = required
	if out.Capacity > 0 {
		out.Utilization = eff / out.Capacity
	}
	if out.Headroom, err = Headroom(out.Capacity, eff); err != nil {
		return out, err
	}
	out.Overhead = overhead(required, out.SteadyStateConsumers)
	if out.DrainSeconds, err = lagDrainSeconds(in.MaxBacklog, minSurplus, out.Surplus, lag); err != nil {
		return out, err
	}
	return out, nil
}

// overhead is what a fleet of c consumers runs over the steady state's,
// c / steady − 1; nil without a steady state.
func overhead(c, steady int64) *float64 {
	if steady <= 0 {
		return nil
	}
	o := float64(c)/float64(steady) - 1
	return &o
}

// lagDrainSeconds is the time to clear a backlog when the minimum fleet
// drains it alone for the lag and the full fleet from then on; nil when it
// never drains. With no lag it is backlog / surplus.
func lagDrainSeconds(backlog, minSurplus, surplus, lag float64) (*float64, error) {
	if lag > 0 && minSurplus > 0 && backlog <= minSurplus*lag {
		t := backlog / minSurplus
		return &t, nil
	}
	rest := backlog
	if lag > 0 && backlog > 0 {
		rest = backlog - minSurplus*lag
	}
	t, ok, err := DrainSeconds(rest, surplus)
	if err != nil || !ok {
		return nil, err
	}
	if lag > 0 && backlog > 0 {
		t += lag
	}
	return &t, nil
}
