// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity

import "math"

// DefaultWaitPercentile is the percentile of wait reported by default.
const DefaultWaitPercentile = 0.99

// maxErlangConsumers bounds the Erlang recursion: it is linear in c, and
// ten million steps still take well under a second.
const maxErlangConsumers = 10_000_000

// WaitInput describes an M/M/c queue at steady state.
type WaitInput struct {
	ArrivalRate     float64 // λ
	PerConsumerRate float64 // μ
	Consumers       int64   // c
	Percentile      float64 // p, in (0, 1)
	// TargetWaitSeconds, when > 0, asks for the smallest c whose
	// percentile wait meets it.
	TargetWaitSeconds float64
}

// Wait is the M/M/c (Erlang C) steady state. Fields other than
// Utilization and Stable are nil when the queue is unstable (ρ ≥ 1): it
// has no steady state, the queue grows without bound.
type Wait struct {
	Utilization           float64 // ρ = λ / (c·μ), exact, rounded once to 15 digits
	Stable                bool
	ProbabilityOfWait     *float64 // C(c, a)
	MeanWaitSeconds       *float64 // C / (cμ − λ)
	PercentileWaitSeconds *float64 // max(0, ln(C / (1 − p)) / (cμ − λ))
	MinConsumersForTarget *int64   // nil without a target
}

// erlangB steps the Erlang B recursion B(n) = a·B(n−1) / (n + a·B(n−1))
// from B(0) = 1. It never forms a factorial or a power, so it is stable
// for any c.
func erlangB(a float64, n int64, b float64) float64 {
	return a * b / (float64(n) + a*b)
}

// erlangC is C(c, a) from B(c): B / (1 − ρ(1 − B)).
func erlangC(a float64, c int64, b float64) float64 {
	rho := a / float64(c)
	return b / (1 - rho*(1-b))
}

// percentileWait is the p-quantile of wait for an M/M/c queue whose
// probability of waiting is pw and whose surplus is cμ − λ.
func percentileWait(pw, p, surplus float64) float64 {
	return max(0, math.Log(pw/(1-p))/surplus)
}

// WaitTime computes the Erlang C steady state: the probability that a
// message waits, the mean wait, and a percentile of wait.
func WaitTime(in WaitInput) (Wait, error) {
	var out Wait
	if err := checkNonNegative("arrival_rate", in.ArrivalRate); err != nil {
		return out, err
	}
	if err := checkPositive("per_consumer_rate", in.PerConsumerRate); err != nil {
		return out, err
	}
	if in.Consumers < 1 || in.Consumers > maxErlangConsumers {
		return out, inputErr("consumers", "must be between 1 and %d, got %d", maxErlangConsumers, in.Consumers)
	}
	if !finite(in.Percentile) || in.Percentile <= 0 || in.Percentile >= 1 {
		return out, inputErr("percentile", "must be between 0 and 1, exclusive, got %v", in.Percentile)
	}
	if in.TargetWaitSeconds != 0 {
		if err := checkPositive("target_wait_seconds", in.TargetWaitSeconds); err != nil {
			return out, err
		}
	}
	a := in.ArrivalRate / in.PerConsumerRate
	if err := checkResult(culprit(term{"arrival_rate", in.ArrivalRate, 1}, term{"per_consumer_rate", in.PerConsumerRate, -1}), "the offered load arrival_rate / per_consumer_rate", a); err != nil {
		return out, err
	}
	capacity := float64(in.Consumers) * in.PerConsumerRate
	if err := checkResult("per_consumer_rate", "the capacity consumers × per_consumer_rate", capacity); err != nil {
		return out, err
	}
	// ρ is a ratio of the decimals given, exact like every fluid figure and
	// rounded once (a / c in float64 rounds twice and can miss the 15th
	// digit: 0.134493000022681 for 0.1344930000226815060…).
	out.Utilization = float(quo(dec(in.ArrivalRate), mul(ratInt(in.Consumers), dec(in.PerConsumerRate))))
	// Stable on the exact surplus, like every other capacity figure: a
	// fleet whose capacity equals arrivals has no steady state, and one
	// with a surplus has, even when ρ reads 1 to 15 digits.
	out.Stable = erlangSurplus(in.Consumers, in.PerConsumerRate, in.ArrivalRate) > 0
	// One pass of the recursion serves both the fleet's figures and the
	// smallest fleet meeting the target: C(n) is computed at every n > a.
	var (
		b                   = 1.0
		needTarget          = in.TargetWaitSeconds > 0
		limit               = in.Consumers
		pw, mean, pct       float64
		atFleet             bool
		minConsumers, found = int64(0), false
	)
	if needTarget {
		limit = maxErlangConsumers
	}
	for n := int64(1); n <= limit; n++ {
		b = erlangB(a, n, b)
		surplus := erlangSurplus(n, in.PerConsumerRate, in.ArrivalRate)
		if float64(n) <= a || surplus <= 0 {
			continue // unstable: no steady state
		}
		c := erlangC(a, n, b)
		if n == in.Consumers {
			pw, mean, pct, atFleet = c, c/surplus, percentileWait(c, in.Percentile, surplus), true
		}
		if needTarget && !found && percentileWait(c, in.Percentile, surplus) <= in.TargetWaitSeconds {
			minConsumers, found = n, true
		}
		if n >= in.Consumers && (!needTarget || found) {
			break
		}
	}
	if atFleet {
		pw, mean, pct = transcendental(pw), transcendental(mean), transcendental(pct)
		out.ProbabilityOfWait, out.MeanWaitSeconds, out.PercentileWaitSeconds = &pw, &mean, &pct
	}
	if needTarget {
		if !found {
			return out, inputErr("target_wait_seconds", "is not met by any fleet of up to %d consumers", maxErlangConsumers)
		}
		out.MinConsumersForTarget = &minConsumers
	}
	return out, nil
}

// erlangSurplus is n·μ − λ for Erlang C: in float64 where that loses at
// most three of its digits to cancellation (its error is ~3.3e-16 of
// max(n·μ, λ), so under 3.3e-13 of the surplus), else exact: 3 × 0.1
// against 0.3 is no surplus, and 918 × 570,949.4 − 524,131,496.786845 is
// 52.413155, not float64's 52.4131550192833 (the waits divide by it).
// The recursion calls it for every fleet size, so the exact arithmetic is
// kept for the few within 0.1 % of the offered load.
func erlangSurplus(n int64, mu, lambda float64) float64 {
	c := float64(n) * mu
	if s := c - lambda; math.Abs(s) > 1e-3*math.Max(math.Abs(c), math.Abs(lambda)) {
		return s
	}
	return float(sub(mul(ratInt(n), dec(mu)), dec(lambda)))
}

// transcendental is a float64 result of Erlang C as every other result
// is written, to 15 significant digits, and 0 below 1e-300: a probability
// of waiting of 1.97626258336499e-322 is a denormal, not a figure.
func transcendental(x float64) float64 {
	if math.Abs(x) < 1e-300 {
		return 0
	}
	return Clean(x)
}
