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
	Capacity  float64 // Σ c·μ, within the bounds below
	Surplus   float64
	// FleetCapacity is what the fleets deliver at their maximum sizes,
	// each within its pollers' payload (FleetSupply.Payload): Capacity
	// unless the message groups bound it.
	FleetCapacity float64
	// Groups is the bound a FIFO queue's declared message_groups put on
	// its consumers, nil without one.
	Groups *GroupsBound
	// Bound says what sets Capacity below Σ c·μ:
	// capacity.BoundMessageGroups, capacity.BoundPayload, or "".
	Bound capacity.Bound
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
	// Payload is what the pollers of its provisioned event source
	// mapping carry of the queue's messages, nil without one or without
	// a declared message_size_bytes.
	Payload *PayloadSupply
}

// PayloadSupply is the bound a provisioned mapping's pollers put on the
// messages a fleet takes: maximum_pollers × MB/s per poller ÷ the
// average message size.
type PayloadSupply struct {
	Mapping *EventSourceMapping
	Bound   capacity.PayloadBound
	Rate    float64 // msg/s, decimal-clean
	// Binds is true when Rate is below the fleet's Size × its μ.
	Binds bool
}

// Terms says how the bound is made: "maximum_pollers 20 × 1 MB/s ÷
// 200,000 B = 100 msg/s".
func (p *PayloadSupply) Terms() string {
	pollers := "maximum_pollers " + textfmt.Number(p.Bound.Pollers)
	if p.Mapping.MaximumPollers.From != "maximum_pollers" {
		pollers += " (the default)"
	}
	return fmt.Sprintf("%s × %s MB/s (%s; 1 MB = %s B) ÷ %s B per message = %s msg/s", pollers, textfmt.Number(p.Bound.MBPerSecond),
		capacity.LimitLambdaPollerThroughputMB, textfmt.Number(capacity.BytesPerMB), textfmt.Number(p.Bound.MessageBytes), textfmt.Number(p.Rate))
}

// GroupsBound is the most a FIFO queue's consumers deliver with
// message_groups active: one consumer per group at a time, each at most
// the fastest consumer's per_consumer_rate.
type GroupsBound struct {
	Groups   Num
	Rate     float64 // the largest μ of the consumers
	Capacity float64 // Groups × Rate, decimal-clean
}

// Terms says how the bound is made: "message_groups 8 × 10 msg/s = 80
// msg/s".
func (g *GroupsBound) Terms() string {
	return fmt.Sprintf("message_groups %s × %s msg/s = %s msg/s", textfmt.Number(g.Groups.V), textfmt.Number(g.Rate), textfmt.Number(g.Capacity))
}

// MessageGroupsBound is the bound q's declared message_groups put on its
// consumers, nil when q declares none or is not known to be a FIFO queue
// (on a standard queue message groups bound nothing); or why it cannot
// be known: message_groups or a per_consumer_rate is unknown or
// undeclared. Without consumers, the queue's own per_consumer_rate
// serves.
func MessageGroupsBound(q *Queue, configFile string) (*GroupsBound, *Unchecked) {
	g := q.Rates.MessageGroups
	if !g.Set || !q.FIFO.Known || !q.FIFO.V {
		return nil, nil
	}
	if !g.Known {
		return nil, &Unchecked{g.Range, "message_groups of " + q.Addr + " " + g.Unknown()}
	}
	rates := []Num{q.Rates.PerConsumerRate}
	if len(q.Consumers) > 0 {
		rates = rates[:0]
		for _, f := range q.Consumers {
			rates = append(rates, f.RatesFor(q).PerConsumerRate)
		}
	}
	b := &GroupsBound{Groups: g}
	for _, mu := range rates {
		switch {
		case !mu.Set:
			return nil, &Unchecked{g.Range, "message_groups of " + q.Addr + " is declared, but per_consumer_rate is not (tag queuecap:per_consumer_rate, a queue block in " + configFile +
				", or a queuecap data source): the groups bound the queue's consumers to message_groups × per_consumer_rate"}
		case !mu.Known:
			return nil, &Unchecked{mu.Range, "per_consumer_rate of " + q.Addr + " " + mu.Unknown()}
		}
		b.Rate = max(b.Rate, mu.V)
	}
	// As many consumers as groups, each at the fastest rate.
	sup, err := capacity.SupplyAgainst([]capacity.FleetSize{{Count: int64(g.V), PerConsumerRate: b.Rate}}, 0, capacity.Retries{}, 0)
	if err != nil {
		return nil, &Unchecked{g.Range, "declared rates of " + q.Addr + " are invalid: " + err.Error()}
	}
	b.Capacity = sup.Capacity
	return b, nil
}

// payloadOf is the bound the pollers of f's provisioned mapping on q put
// on what f takes of q, nil when there is none to state: no declared
// message_size_bytes, no provisioned mapping (AWS publishes no payload
// throughput for standard mode), several mappings from q to f, or
// maximum_pollers not known (its ceiling is skipped there).
func payloadOf(q *Queue, f *Fleet) (*PayloadSupply, *Unchecked) {
	size := q.Rates.MessageSizeBytes
	if !size.Set || f.Kind != FleetLambda {
		return nil, nil
	}
	var m *EventSourceMapping
	for _, o := range q.Mappings {
		if o.Function == f {
			if m != nil {
				return nil, nil
			}
			m = o
		}
	}
	if m == nil || !m.Provisioned {
		return nil, nil
	}
	if !size.Known {
		return nil, &Unchecked{size.Range, "message_size_bytes of " + q.Addr + " " + size.Unknown()}
	}
	maxBytes, maxName := q.MaxMessageBytes.V, "max_message_size"
	if !q.MaxMessageBytes.Known {
		e, _ := q.Limits.Limit(capacity.LimitSQSMaxMessageBytes)
		maxBytes, maxName = e.Value, "AWS's largest message ("+capacity.LimitSQSMaxMessageBytes+")"
	}
	if err := capacity.CheckMessageBytes(size.V, maxBytes, maxName); err != nil {
		return nil, &Unchecked{size.Range, "declared rates of " + q.Addr + " are invalid: " + err.Error()}
	}
	p := m.MaximumPollers
	if !p.Known || p.V < 1 || p.V != math.Trunc(p.V) {
		return nil, nil
	}
	mb, _ := q.Limits.Limit(capacity.LimitLambdaPollerThroughputMB)
	b := capacity.PayloadBound{Pollers: p.V, MBPerSecond: mb.Value, MessageBytes: size.V}
	rate, err := b.MessagesPerSecond()
	if err != nil {
		return nil, &Unchecked{size.Range, "declared rates of " + q.Addr + " are invalid: " + err.Error()}
	}
	return &PayloadSupply{Mapping: m, Bound: b, Rate: rate}, nil
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
		own, err := capacity.FleetCapacity(int64(f.MaxSize.V), mu.V)
		if err != nil || f.MaxSize.V != math.Trunc(f.MaxSize.V) {
			return nil, &Unchecked{f.MaxSize.Range, fmt.Sprintf("%s %s of %s is not a whole number of consumers of at least 0", f.SizeAttr, textfmt.Number(f.MaxSize.V), f.Addr)}
		}
		payload, gap := payloadOf(q, f)
		if gap != nil {
			return nil, gap
		}
		fs := capacity.FleetSize{Count: int64(f.MaxSize.V), PerConsumerRate: mu.V}
		if payload != nil {
			payload.Binds = payload.Rate < own
			fs.Payload = &payload.Bound
		}
		s.Fleets = append(s.Fleets, FleetSupply{Fleet: f, Size: f.MaxSize.V, Rate: mu.V, Payload: payload})
		sizes = append(sizes, fs)
	}
	var groups int64
	if s.Groups, gap = q.Groups, q.GroupsGap; gap != nil {
		return nil, gap
	} else if s.Groups != nil {
		groups = int64(s.Groups.Groups.V)
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
	sup, err := capacity.SupplyWithin(sizes, groups, s.Arrival, s.Retries, backlog)
	if err != nil && withBacklog {
		// A drain time beyond float64's range: no drain, as no number.
		withBacklog = false
		sup, err = capacity.SupplyWithin(sizes, groups, s.Arrival, s.Retries, 0)
	}
	if err != nil {
		return nil, &Unchecked{q.DefRange, "consumers of " + q.Addr + ": " + err.Error()}
	}
	s.Capacity, s.Surplus, s.Headroom = sup.Capacity, sup.Surplus, sup.Headroom
	s.FleetCapacity, s.Bound = sup.FleetCapacity, sup.Bound
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
