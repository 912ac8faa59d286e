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
	// DefaultSQSBatchSize and DefaultSQSBatchingWindowSeconds are an SQS
	// event source mapping's batch_size and
	// maximum_batching_window_in_seconds when unset.
	DefaultSQSBatchSize             = 10
	DefaultSQSBatchingWindowSeconds = 0
	SecondsPerDay                   = 86400
	// MaxRetentionSeconds is the longest message_retention_seconds SQS
	// accepts: 14 days.
	MaxRetentionSeconds = 14 * SecondsPerDay
)

// FleetSize is one fleet at its maximum size: Count consumers of
// PerConsumerRate msg/s each, delivering at most what Payload's pollers
// carry when it is set.
type FleetSize struct {
	Count           int64
	PerConsumerRate float64
	Payload         *PayloadBound
}

// Supply is what consumer fleets at their maximum sizes do against a
// queue's arrivals. Every number comes from the exact Σ c·μ and λ_eff and
// is rounded once, as the provider sizes: from a λ_eff or a c·μ first
// written to 15 digits, the surplus of the fleet queuecap_consumers sized
// for a backlog within its RTO came out short, and its drain time over
// the RTO (or its headroom under min_headroom) by the rounding.
type Supply struct {
	Capacity float64 // Σ c·μ, within the bounds
	// FleetCapacity is what the fleets deliver, each within its pollers'
	// payload: Σ min(c·μ, payload); GroupsCapacity is groups × the
	// largest μ, 0 without groups; Bound says which sets Capacity, ""
	// for the fleets' sizes.
	FleetCapacity        float64
	GroupsCapacity       float64
	Bound                Bound
	EffectiveArrivalRate float64 // λ_eff
	Surplus              float64 // Σ c·μ − λ_eff
	// Headroom is surplus / λ_eff; nil when nothing arrives.
	Headroom *float64
	// Drains reports whether the backlog drains, in DrainSeconds =
	// backlog / surplus (0 when it does not, or there is none).
	Drains       bool
	DrainSeconds float64
}

// SupplyAgainst is the Supply of fleets against arrivalRate amplified by
// retries, and how they drain backlog.
func SupplyAgainst(fleets []FleetSize, arrivalRate float64, retries Retries, backlog float64) (Supply, error) {
	return SupplyWithin(fleets, 0, arrivalRate, retries, backlog)
}

// SupplyWithin is SupplyAgainst for fleets of which at most groups
// consumers work at once (a FIFO queue's active message groups; 0 for no
// such bound): they deliver at most groups × the largest per_consumer_rate.
func SupplyWithin(fleets []FleetSize, groups int64, arrivalRate float64, retries Retries, backlog float64) (Supply, error) {
	var s Supply
	effR, eff, err := effectiveArrival(arrivalRate, retries)
	if err != nil {
		return s, err
	}
	if err := checkNonNegative("backlog", backlog); err != nil {
		return s, err
	}
	s.EffectiveArrivalRate = eff
	if groups < 0 {
		return s, inputErr(FieldMessageGroups, "must be at least 1, got %d", groups)
	}
	total, fastest := new(big.Rat), new(big.Rat)
	for _, f := range fleets {
		if f.Count < 0 {
			return s, inputErr("consumers", "must be at least 0, got %d", f.Count)
		}
		if err := checkPositive("per_consumer_rate", f.PerConsumerRate); err != nil {
			return s, err
		}
		mu := dec(f.PerConsumerRate)
		if mu.Cmp(fastest) > 0 {
			fastest = mu
		}
		c := mul(ratInt(f.Count), mu)
		if f.Payload != nil {
			p, err := f.Payload.rate()
			if err != nil {
				return s, err
			}
			if p.Cmp(c) < 0 {
				c, s.Bound = p, BoundPayload
			}
		}
		total.Add(total, c)
	}
	if s.FleetCapacity = float(total); !finite(s.FleetCapacity) {
		return s, checkResult("per_consumer_rate", "the total capacity of the consumers", s.FleetCapacity)
	}
	if groups > 0 {
		g := mul(ratInt(groups), fastest)
		if s.GroupsCapacity = float(g); !finite(s.GroupsCapacity) {
			return s, checkResult(FieldMessageGroups, "the capacity of the message groups", s.GroupsCapacity)
		}
		if g.Cmp(total) < 0 {
			total, s.Bound = g, BoundMessageGroups
		}
	}
	s.Capacity = float(total)
	surplus := sub(total, effR)
	s.Surplus = float(surplus)
	if effR.Sign() > 0 {
		h := float(quo(surplus, effR))
		if err := checkResult("arrival_rate", "the headroom surplus / effective arrival", h); err != nil {
			return s, err
		}
		s.Headroom = &h
	}
	switch {
	case backlog == 0:
		s.Drains = true
	case surplus.Sign() > 0:
		s.Drains = true
		s.DrainSeconds = float(quo(dec(backlog), surplus))
		if err := checkResult("backlog", "the drain time backlog / net rate", s.DrainSeconds); err != nil {
			return s, err
		}
	}
	return s, nil
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
// needs: LambdaVisibilityFactor × the function's timeout plus the
// mapping's batching window, during which the messages already received
// wait for the batch to fill (product, rounded once), and that in whole
// seconds as SQS takes it, the exact ceiling (seconds): six timeouts of
// 4.2123 s are 25.2738 s, 26 s; of 166.666666666667 s they are
// 1,000.000000000002 s, 1,001 s, as queue_settings sets it, though the
// product reads 1,000 to 15 digits.
func MinVisibilityTimeout(functionTimeoutSeconds, batchingWindowSeconds float64) (seconds, product float64, err error) {
	if err := checkPositive("timeout", functionTimeoutSeconds); err != nil {
		return 0, 0, err
	}
	if err := checkNonNegative("maximum_batching_window_in_seconds", batchingWindowSeconds); err != nil {
		return 0, 0, err
	}
	exact := add(mul(ratInt(LambdaVisibilityFactor), dec(functionTimeoutSeconds)), dec(batchingWindowSeconds))
	product = float(exact)
	if err := checkResult("timeout", "six function timeouts", product); err != nil {
		return 0, 0, err
	}
	return ceilFloat(exact), product, nil
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
// the effective arrival rate λ · (1 + r · k), exact, so that a backlog
// drains at all: one more than ceil(λ_eff / μ) when that fleet only keeps
// up (25 at 400 msg/s against 10,000 msg/s is exactly zero surplus; 26
// drains).
func MinDrainingConsumers(arrivalRate float64, retries Retries, perConsumerRate float64) (int64, error) {
	effR, eff, err := effectiveArrival(arrivalRate, retries)
	if err != nil {
		return 0, err
	}
	if err := checkPositive("per_consumer_rate", perConsumerRate); err != nil {
		return 0, err
	}
	mu := dec(perConsumerRate)
	culprit := culprit(term{"arrival_rate", eff, 1}, term{"per_consumer_rate", perConsumerRate, -1})
	ratio := quo(effR, mu)
	if err := checkResult(culprit, "the steady-state ratio effective arrival / per_consumer_rate", float(ratio)); err != nil {
		return 0, err
	}
	c, err := ceilRat(culprit, "the steady-state ratio effective arrival / per_consumer_rate", ratio)
	if err != nil {
		return 0, err
	}
	if mul(ratInt(c), mu).Cmp(effR) <= 0 {
		c++ // it only keeps up
	}
	return c, nil
}

// RetentionToOutlast is the shortest message_retention_seconds, a whole
// number of seconds as SQS takes it, that keeps the messages of a backlog
// until a drain of drainSeconds has reached them.
func RetentionToOutlast(drainSeconds float64) float64 { return math.Ceil(drainSeconds) }
