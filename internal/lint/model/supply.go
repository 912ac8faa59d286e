// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"cmp"
	"fmt"
	"math"

	"github.com/hashicorp/hcl/v2"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/textfmt"
)

// Supply is what a queue's consumers can do at their maximum size against
// the queue's declared arrivals, computed once by the linker: every rule
// reads the capacity, the surplus and the drain time from here,
// decimal-clean, so that the findings on a queue state one number for
// each.
type Supply struct {
	Retries   capacity.Retries
	Arrival   float64 // λ
	Effective float64 // λ_eff
	Fleets    []FleetSupply
	Capacity  float64 // Σ c·μ
	Surplus   float64
	// Headroom is Surplus / Effective, nil when nothing arrives.
	Headroom *float64
	// Drain is how the declared max_backlog clears at the surplus; nil
	// without a known max_backlog.
	Drain *BacklogDrain
	// At is where a finding on the supply lies: the one fleet's maximum
	// size, else the queue.
	At hcl.Range
}

// FleetSupply is one consumer fleet at its maximum size.
type FleetSupply struct {
	Fleet *Fleet
	Size  float64
	Rate  float64 // μ
}

// BacklogDrain is how a backlog clears at a surplus.
type BacklogDrain struct {
	Drains  bool
	Seconds float64 // max_backlog / surplus; 0 when it never drains
}

// Unchecked is a check that could not be made, where and why: a skip
// every rule that needs the value reports as its own.
type Unchecked struct {
	Range  hcl.Range
	Reason string
}

// ConsumerName names a consumer of q, and how it is linked when only its
// configuration implies it: "aws_ecs_service.worker (linked through IAM
// role aws_iam_role.worker)".
func (q *Queue) ConsumerName(f *Fleet) string {
	if via := q.ConsumedThrough[f]; via != "" {
		return f.Addr + " (linked through " + via + ")"
	}
	return f.Addr
}

// SupplyOf is q's supply once its consumers and rates are linked: a queue
// with a consumer and a declared arrival rate has a Supply, or an
// Unchecked saying which value it needs is unknown or undeclared (and
// where); any other queue has neither, nothing to check. configFile names
// the file queue blocks are written in, for that reason.
func SupplyOf(q *Queue, configFile string) (*Supply, *Unchecked) {
	if len(q.Consumers) == 0 || !q.Rates.ArrivalRate.Set {
		return nil, nil
	}
	if a := q.Rates.ArrivalRate; !a.Known {
		return nil, &Unchecked{a.Range, "arrival_rate of " + q.Addr + " " + a.Unknown()}
	}
	s := &Supply{Arrival: q.Rates.ArrivalRate.V}
	var gap *Unchecked
	if s.Retries, gap = KnownRetries(q, q.Rates.RetryRate, q.Rates.AvgRetries); gap != nil {
		return nil, gap
	}
	if s.Effective, gap = EffectiveArrival(q, s.Arrival, s.Retries); gap != nil {
		return nil, gap
	}
	sizes := make([]capacity.FleetSize, 0, len(q.Consumers))
	for _, f := range q.Consumers {
		mu := f.RatesFor(q).PerConsumerRate
		if gap := fleetGap(q, f, mu, configFile); gap != nil {
			return nil, gap
		}
		_, err := capacity.FleetCapacity(int64(f.MaxSize.V), mu.V)
		if err != nil || f.MaxSize.V != math.Trunc(f.MaxSize.V) {
			return nil, &Unchecked{f.MaxSize.Range, fmt.Sprintf("%s %s of %s is not a whole number of consumers of at least 0", f.SizeAttr, textfmt.Number(f.MaxSize.V), f.Addr)}
		}
		s.Fleets = append(s.Fleets, FleetSupply{Fleet: f, Size: f.MaxSize.V, Rate: mu.V})
		sizes = append(sizes, capacity.FleetSize{Count: int64(f.MaxSize.V), PerConsumerRate: mu.V})
	}
	// From the exact Σ c·μ and λ_eff, rounded once, as the provider sizes:
	// 0.4 − 0.39 is 0.01, a max_backlog of 10 drains in 1000 s, not
	// 999.9999999999991, and the fleet queuecap_consumers sized to drain
	// in rto_seconds does, whatever digits λ × (1 + r × a) has.
	b := q.Rates.MaxBacklog
	withBacklog := b.Set && b.Known && b.V >= 0
	backlog := 0.0
	if withBacklog {
		backlog = b.V
	}
	sup, err := capacity.SupplyAgainst(sizes, s.Arrival, s.Retries, backlog)
	if err != nil && withBacklog {
		// A drain time beyond float64's range: no drain, as no number.
		withBacklog = false
		sup, err = capacity.SupplyAgainst(sizes, s.Arrival, s.Retries, 0)
	}
	if err != nil {
		return nil, &Unchecked{q.DefRange, "consumers of " + q.Addr + ": " + err.Error()}
	}
	s.Capacity, s.Surplus, s.Headroom = sup.Capacity, sup.Surplus, sup.Headroom
	if withBacklog {
		s.Drain = &BacklogDrain{Drains: sup.Drains, Seconds: sup.DrainSeconds}
	}
	s.At = q.DefRange
	if len(s.Fleets) == 1 {
		s.At = s.Fleets[0].Fleet.MaxSize.Range
	}
	return s, nil
}

// fleetGap is why consumer f of q adds no known capacity, or nil: its
// per-consumer rate (mu) or its maximum size is undeclared or unknown.
func fleetGap(q *Queue, f *Fleet, mu Num, configFile string) *Unchecked {
	switch {
	case !mu.Set:
		return &Unchecked{f.DefRange, "per_consumer_rate is not declared for " + q.ConsumerName(f) +
			" (tag queuecap:per_consumer_rate, a queue block in " + configFile + ", or a queuecap data source)"}
	case !mu.Known:
		return &Unchecked{mu.Range, "per_consumer_rate of " + f.Addr + " " + mu.Unknown()}
	case f.Kind == FleetLambda && (!f.MaxSize.Set || f.Unreserved()):
		at, why := f.DefRange, "sets no reserved_concurrent_executions"
		if f.Unreserved() {
			at, why = f.MaxSize.Range, "has reserved_concurrent_executions = -1 (unreserved)"
		}
		return &Unchecked{at, f.Addr + " " + why + ": its concurrency is bounded only by the account's, so its capacity is not known; " +
			"set maximum_concurrency in the scaling_config of its event source mapping, or reserved_concurrent_executions"}
	case !f.MaxSize.Set:
		return &Unchecked{f.DefRange, "the maximum size of " + f.Addr + " is not set (" + f.SizeAttr + ")"}
	case !f.MaxSize.Known:
		return &Unchecked{f.MaxSize.Range, f.SizeAttr + " of " + cmp.Or(f.SizeOf, f.Addr) + " " + f.MaxSize.Unknown()}
	}
	return predictiveGap(f)
}

// predictiveGap is why f's maximum size does not bound it: a predictive
// scaling policy may raise it past that (IncreaseMaxCapacity), or nil.
func predictiveGap(f *Fleet) *Unchecked {
	for _, p := range f.Policies {
		pr := p.Predictive
		if !pr.MayExceedMax() {
			continue
		}
		switch mode, breach := pr.Mode, pr.MaxCapacityBreachBehavior; {
		case !mode.Known:
			return &Unchecked{mode.Range, "mode of predictive scaling policy " + p.Addr + " " + mode.Unknown() +
				": as ForecastAndScale with max_capacity_breach_behavior IncreaseMaxCapacity it may raise " + f.Addr + " past " + f.SizeAttr + " " + textfmt.Number(f.MaxSize.V)}
		case !breach.Known:
			return &Unchecked{breach.Range, "max_capacity_breach_behavior of predictive scaling policy " + p.Addr + " " + breach.Unknown() +
				": as IncreaseMaxCapacity it may raise " + f.Addr + " past " + f.SizeAttr + " " + textfmt.Number(f.MaxSize.V)}
		}
		buffer := "max_capacity_buffer"
		if b := pr.MaxCapacityBuffer; b.Set && b.Known {
			buffer += " " + textfmt.Number(b.V) + " %"
		}
		return &Unchecked{pr.MaxCapacityBreachBehavior.Range, "predictive scaling policy " + p.Addr + " forecasts and scales with max_capacity_breach_behavior IncreaseMaxCapacity: it may raise " +
			f.Addr + " past " + f.SizeAttr + " " + textfmt.Number(f.MaxSize.V) + " (up to the forecast plus " + buffer + "), so the fleet's largest size is not known; with HonorMaxCapacity it is " + f.SizeAttr}
	}
	return nil
}

// KnownRetries are the retries declared for q (rate and average, from the
// queue or from where its numbers came), or why not: one is declared but
// not known before apply.
func KnownRetries(q *Queue, rate, average Num) (capacity.Retries, *Unchecked) {
	for _, x := range []struct {
		name string
		n    Num
	}{{"retry_rate", rate}, {"avg_retries", average}} {
		if x.n.Set && !x.n.Known {
			return capacity.Retries{}, &Unchecked{x.n.Range, x.name + " of " + q.Addr + " " + x.n.Unknown()}
		}
	}
	return capacity.Retries{Rate: rate.V, Average: average.V}, nil
}

// EffectiveArrival is λ_eff for q, decimal-clean as findings state it, or
// why not: the declared rates are invalid.
func EffectiveArrival(q *Queue, lambda float64, retries capacity.Retries) (float64, *Unchecked) {
	eff, err := capacity.EffectiveArrivalRate(lambda, retries)
	if err != nil {
		return 0, &Unchecked{q.DefRange, "declared rates of " + q.Addr + " are invalid: " + err.Error()}
	}
	return capacity.Clean(eff), nil
}
