// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity

import "math/big"

// LaggedDrain is how a fleet scaled from minConsumers to maxConsumers
// clears backlog when the scale-out takes effect only lagSeconds after the
// backlog appears (MATH.md, Provisioning lag in sizing): the minimum fleet
// drains alone at max(0, c_min·μ − λ_eff) for the lag, the maximum fleet
// at c_max·μ − λ_eff after it. Exact; drains is false when the backlog
// never clears. With no lag it is backlog / surplus.
func LaggedDrain(minConsumers, maxConsumers int64, perConsumerRate, arrivalRate float64, retries Retries, backlog, lagSeconds float64) (seconds float64, drains bool, err error) {
	effR, _, err := effectiveArrival(arrivalRate, retries)
	if err != nil {
		return 0, false, err
	}
	for _, x := range []struct {
		field string
		v     float64
	}{{"max_backlog", backlog}, {"provisioning_lag_seconds", lagSeconds}} {
		if err := checkNonNegative(x.field, x.v); err != nil {
			return 0, false, err
		}
	}
	if err := checkPositive("per_consumer_rate", perConsumerRate); err != nil {
		return 0, false, err
	}
	if minConsumers < 0 || maxConsumers < minConsumers {
		return 0, false, inputErr("consumers", "must satisfy 0 ≤ min (%d) ≤ max (%d)", minConsumers, maxConsumers)
	}
	mu := dec(perConsumerRate)
	minSurplus := minFleetSurplus(minConsumers, mu, effR)
	surplus := sub(mul(ratInt(maxConsumers), mu), effR)
	t, err := lagDrainSeconds(dec(backlog), minSurplus, surplus, dec(lagSeconds))
	if err != nil || t == nil {
		return 0, false, err
	}
	return *t, true, nil
}

// minFleetSurplus is what a minimum fleet of minConsumers drains while a
// provisioning lag lasts, S_min = max(0, c_min × μ − λ_eff) (MATH.md,
// Provisioning lag in sizing), exact.
func minFleetSurplus(minConsumers int64, mu, effR *big.Rat) *big.Rat {
	return atLeast0(sub(mul(ratInt(minConsumers), mu), effR))
}

// AlarmDelaySeconds is the earliest a CloudWatch alarm can enter ALARM
// after its metric starts to breach: datapoints breaching datapoints of
// periodSeconds each, exact and decimal-clean; an error naming the field
// at fault otherwise.
func AlarmDelaySeconds(datapoints, periodSeconds float64) (float64, error) {
	if err := checkPositive("datapoints_to_alarm", datapoints); err != nil {
		return 0, err
	}
	if err := checkPositive("period", periodSeconds); err != nil {
		return 0, err
	}
	v := float(mul(dec(datapoints), dec(periodSeconds)))
	if !finite(v) {
		return 0, checkResult("period", "the alarm's delay", v)
	}
	return v, nil
}
