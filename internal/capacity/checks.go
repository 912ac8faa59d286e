// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity

import (
	"cmp"
	"math"
	"math/big"
	"slices"
)

// Small formulas the linter's findings state; here so that no rule
// computes arithmetic of its own.

// Defaults shared by the provider and the linter.
const (
	DefaultForecastStepSeconds = 300 // five minutes, a common dashboard resolution
	DefaultCallsPerJob         = 1
	// LambdaVisibilityFactor is AWS's guidance for SQS event sources: a
	// queue's visibility timeout at least six times the function's timeout.
	LambdaVisibilityFactor = 6
	SecondsPerDay          = 86400
	// MaxRetentionSeconds is the longest message_retention_seconds SQS
	// accepts: 14 days.
	MaxRetentionSeconds = 14 * SecondsPerDay
)

// TotalCapacity is the summed completion rate of several fleets.
func TotalCapacity(capacities ...float64) (float64, error) {
	sum := new(big.Rat)
	for _, c := range capacities {
		if err := checkNonNegative("per_consumer_rate", c); err != nil {
			return 0, err
		}
		sum.Add(sum, dec(c))
	}
	total := float(sum)
	if err := checkResult("per_consumer_rate", "the total capacity of the consumers", total); err != nil {
		return 0, err
	}
	return total, nil
}

// FleetSize is a consumer fleet at a size: Consumers of PerConsumerRate
// msg/s each.
type FleetSize struct {
	Consumers       int64
	PerConsumerRate float64
}

// FleetSupply is what consumer fleets at their sizes do against a queue's
// arrivals, every value from the exact capacity Σ c·μ and effective
// arrival rate λ · (1 + r · k), rounded once. A capacity or an arrival
// rate already written to 15 digits moves every verdict at a boundary: 46
// × 2,277.1777692559 msg/s is 104,750.1773857714 msg/s, which drains
// 173,750.886928857 messages against 70,000 msg/s in exactly 5 s, where
// 104,750.177385771 msg/s took 5.00000000000012 s.
type FleetSupply struct {
	Capacity float64  // Σ c·μ
	Surplus  float64  // Σ c·μ − λ_eff
	Headroom *float64 // (Σ c·μ − λ_eff) / λ_eff; nil when nothing arrives
	net      *big.Rat // the exact surplus
}

// SupplyOfFleets is the supply of fleets against arrivalRate with retries.
func SupplyOfFleets(arrivalRate float64, retries Retries, fleets ...FleetSize) (FleetSupply, error) {
	var s FleetSupply
	effR, eff, err := effectiveArrival(arrivalRate, retries)
	if err != nil {
		return s, err
	}
	capR := new(big.Rat)
	for _, f := range fleets {
		if f.Consumers < 0 {
			return s, inputErr("consumers", "must be at least 0, got %d", f.Consumers)
		}
		if err := checkPositive("per_consumer_rate", f.PerConsumerRate); err != nil {
			return s, err
		}
		capR.Add(capR, mul(ratInt(f.Consumers), dec(f.PerConsumerRate)))
	}
	s.Capacity = float(capR)
	if err := checkResult("per_consumer_rate", "the total capacity of the consumers", s.Capacity); err != nil {
		return s, err
	}
	s.net = sub(capR, effR)
	s.Surplus = float(s.net)
	if eff != 0 {
		h := float(quo(s.net, effR))
		if err := checkResult("arrival_rate", "the headroom surplus / effective arrival", h); err != nil {
			return s, err
		}
		s.Headroom = &h
	}
	return s, nil
}

// DrainSeconds is DrainSeconds at the fleets' exact surplus: backlog /
// (Σ c·μ − λ_eff), rounded once; ok is false when the backlog never
// drains.
func (s FleetSupply) DrainSeconds(backlog float64) (seconds float64, ok bool, err error) {
	if err := checkNonNegative("backlog", backlog); err != nil {
		return 0, false, err
	}
	if backlog == 0 {
		return 0, true, nil
	}
	if s.net == nil || s.net.Sign() <= 0 {
		return 0, false, nil
	}
	t := float(quo(dec(backlog), s.net))
	if err := checkResult("backlog", "the drain time backlog / net rate", t); err != nil {
		return 0, false, err
	}
	return t, true, nil
}

// Headroom is spare capacity as a fraction of the effective arrival rate,
// (C − λ_eff) / λ_eff; nil when nothing arrives.
func Headroom(capacity, effectiveArrival float64) (*float64, error) {
	if err := checkNonNegative("per_consumer_rate", capacity); err != nil {
		return nil, err
	}
	if err := checkNonNegative("arrival_rate", effectiveArrival); err != nil {
		return nil, err
	}
	if effectiveArrival == 0 {
		return nil, nil
	}
	h := float(quo(sub(dec(capacity), dec(effectiveArrival)), dec(effectiveArrival)))
	if err := checkResult("arrival_rate", "the headroom surplus / effective arrival", h); err != nil {
		return nil, err
	}
	return &h, nil
}

// HeadroomCapacity is the capacity that leaves min_headroom spare:
// λ_eff · (1 + h_min).
func HeadroomCapacity(effectiveArrival, minHeadroom float64) (float64, error) {
	if err := checkNonNegative("arrival_rate", effectiveArrival); err != nil {
		return 0, err
	}
	if err := checkNonNegative("min_headroom", minHeadroom); err != nil {
		return 0, err
	}
	c := float(mul(dec(effectiveArrival), add(ratOne, dec(minHeadroom))))
	if err := checkResult("min_headroom", "the capacity effective arrival × (1 + min_headroom)", c); err != nil {
		return 0, err
	}
	return c, nil
}

// RequiredSurplus is the surplus that clears a backlog within an RTO,
// B / RTO.
func RequiredSurplus(backlog, rtoSeconds float64) (float64, error) {
	if err := checkNonNegative("max_backlog", backlog); err != nil {
		return 0, err
	}
	if err := checkPositive("rto_seconds", rtoSeconds); err != nil {
		return 0, err
	}
	s := float(quo(dec(backlog), dec(rtoSeconds)))
	if err := checkResult("max_backlog", "the required surplus max_backlog / rto_seconds", s); err != nil {
		return 0, err
	}
	return s, nil
}

// MinVisibilityTimeout is the visibility timeout a Lambda-consumed queue
// needs: LambdaVisibilityFactor × the function's timeout.
func MinVisibilityTimeout(functionTimeoutSeconds float64) (float64, error) {
	if err := checkPositive("timeout", functionTimeoutSeconds); err != nil {
		return 0, err
	}
	v := float(mul(ratInt(LambdaVisibilityFactor), dec(functionTimeoutSeconds)))
	if err := checkResult("timeout", "six function timeouts", v); err != nil {
		return 0, err
	}
	return v, nil
}

// ReceivesPerDay is how often a message that always fails is received
// again in a day without a dead-letter queue: one receive per visibility
// timeout.
func ReceivesPerDay(visibilityTimeoutSeconds float64) (float64, error) {
	if err := checkPositive("visibility_timeout_seconds", visibilityTimeoutSeconds); err != nil {
		return 0, err
	}
	r := float(quo(ratInt(SecondsPerDay), dec(visibilityTimeoutSeconds)))
	if err := checkResult("visibility_timeout_seconds", "the receives per day", r); err != nil {
		return 0, err
	}
	return r, nil
}

// MinLadderSteps is how many steps with a positive capacity and an upper
// bound a ladder needs to be judged proportional: with fewer, a single
// jump from one capacity to another fits some line depth / k, and a
// threshold is not a proportion.
const MinLadderSteps = 2

// ExactCapacityStep is one step adjustment of a step scaling policy whose
// adjustment type is ExactCapacity: while the alarm's metric lies between
// threshold + Lower (inclusive) and threshold + Upper (exclusive), the
// fleet's desired capacity is Capacity. An open bound is ±Inf.
type ExactCapacityStep struct {
	Lower, Upper float64
	Capacity     float64
}

// Ladder is what exact-capacity steps do with depth.
type Ladder struct {
	// Proportional is true when one number of messages per consumer k
	// makes the line capacity = depth / k, the size target tracking on
	// backlog per consumer with target k converges to, cross every step.
	Proportional bool
	// TopDepth and TopCapacity are where the highest step starts and what
	// it sets: from there on the ladder's response to depth is fixed.
	TopDepth, TopCapacity float64
}

// ladderSlack absorbs float64 rounding in lower / capacity ≤ upper /
// capacity when the two are equal in decimal.
const ladderSlack = 1e-9

// ExactCapacityLadder judges the steps of an ExactCapacity step policy
// driven by an alarm on a queue's depth with the given threshold: each step
// covers depths threshold + Lower to threshold + Upper, and steps wholly
// below a depth of 0 never apply and are left out. The ladder is
// proportional when at least MinLadderSteps steps with a positive capacity
// have an upper bound and some k > 0 has lower / k ≤ capacity ≤ upper / k
// for every step (only lower / k ≤ capacity for the unbounded top): the
// capacity of each step lies between what depth / k asks for at its bottom
// and at its top, so the steps follow the line as closely as whole steps
// can. A step of 0 consumers above an empty queue breaks the line.
func ExactCapacityLadder(threshold float64, steps []ExactCapacityStep) (Ladder, error) {
	if !finite(threshold) {
		return Ladder{}, inputErr("threshold", "must be a finite number, got %v", threshold)
	}
	type span struct{ lower, upper, capacity float64 }
	var spans []span
	for _, s := range steps {
		if err := checkNonNegative("scaling_adjustment", s.Capacity); err != nil {
			return Ladder{}, err
		}
		if math.IsNaN(s.Lower) || math.IsNaN(s.Upper) || s.Lower >= s.Upper {
			return Ladder{}, inputErr("metric_interval_lower_bound", "must be below metric_interval_upper_bound, got %v and %v", s.Lower, s.Upper)
		}
		lower, upper := threshold+s.Lower, threshold+s.Upper
		if (finite(s.Lower) && !finite(lower)) || (finite(s.Upper) && !finite(upper)) {
			return Ladder{}, checkResult("threshold", "a step's depth threshold + bound", math.Inf(1))
		}
		if upper <= 0 {
			continue // below an empty queue: never applies to a depth
		}
		spans = append(spans, span{math.Max(lower, 0), upper, s.Capacity})
	}
	if len(spans) == 0 {
		return Ladder{}, nil
	}
	top := slices.MaxFunc(spans, func(a, b span) int { return cmp.Compare(a.lower, b.lower) })
	l := Ladder{TopDepth: top.lower, TopCapacity: top.capacity}
	// k must be at least lower / capacity and at most upper / capacity.
	kMin, kMax, bounded := 0.0, math.Inf(1), 0
	for _, s := range spans {
		if s.capacity == 0 {
			if s.lower > 0 {
				return l, nil // no consumer while messages wait
			}
			continue
		}
		kMin = math.Max(kMin, s.lower/s.capacity)
		if !math.IsInf(s.upper, 1) {
			kMax = math.Min(kMax, s.upper/s.capacity)
			bounded++
		}
	}
	l.Proportional = bounded >= MinLadderSteps && kMin <= kMax*(1+ladderSlack)
	return l, nil
}

// ArrivalSeconds is how many seconds of arrivals a depth holds, depth / λ:
// Little's law read backwards, the wait a message arriving behind that depth
// would have if the fleet completed exactly what arrives.
func ArrivalSeconds(depth, arrivalRate float64) (float64, error) {
	if err := checkNonNegative("threshold", depth); err != nil {
		return 0, err
	}
	if err := checkPositive("arrival_rate", arrivalRate); err != nil {
		return 0, err
	}
	s := float(quo(dec(depth), dec(arrivalRate)))
	if err := checkResult(culprit(term{"threshold", depth, 1}, term{"arrival_rate", arrivalRate, -1}), "the seconds of arrivals threshold / arrival_rate", s); err != nil {
		return 0, err
	}
	return s, nil
}

// MinDrainingConsumers is the smallest fleet whose capacity c·μ exceeds
// the effective arrival rate, so that a backlog drains at all: one more
// than ceil(λ_eff / μ) when that fleet only keeps up (25 at 400 msg/s
// against 10,000 msg/s is exactly zero surplus; 26 drains).
func MinDrainingConsumers(effectiveArrival, perConsumerRate float64) (int64, error) {
	if err := checkNonNegative("arrival_rate", effectiveArrival); err != nil {
		return 0, err
	}
	if err := checkPositive("per_consumer_rate", perConsumerRate); err != nil {
		return 0, err
	}
	eff, mu := dec(effectiveArrival), dec(perConsumerRate)
	culprit := culprit(term{"arrival_rate", effectiveArrival, 1}, term{"per_consumer_rate", perConsumerRate, -1})
	ratio := quo(eff, mu)
	if err := checkResult(culprit, "the steady-state ratio effective arrival / per_consumer_rate", float(ratio)); err != nil {
		return 0, err
	}
	c, err := ceilRat(culprit, "the steady-state ratio effective arrival / per_consumer_rate", ratio)
	if err != nil {
		return 0, err
	}
	if mul(ratInt(c), mu).Cmp(eff) <= 0 {
		c++ // it only keeps up
	}
	return c, nil
}

// RetentionToOutlast is the shortest message_retention_seconds, a whole
// number of seconds as SQS takes it, that keeps the messages of a backlog
// until a drain of drainSeconds has reached them.
func RetentionToOutlast(drainSeconds float64) float64 { return math.Ceil(drainSeconds) }
