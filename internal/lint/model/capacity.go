// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"cmp"
	"slices"
)

// QueueCapacity is what a checked queue's consumers can do at their
// maximum size against its declared arrivals (its Supply), in plain
// numbers: the JSON report lists one per queue and root module, and
// `queuecap diff` compares two runs' by queue.
type QueueCapacity struct {
	// Root is the root module's directory, as the run was given it; Queue
	// the queue's address in that root's addresses.
	Root  string `json:"root"`
	Queue string `json:"queue"`
	// Consumers are the fleets that consume it, by address.
	Consumers            []string `json:"consumers"`
	ArrivalRate          float64  `json:"arrival_rate"`
	EffectiveArrivalRate float64  `json:"effective_arrival_rate"`
	// MaxConsumers is the consumers' summed maximum size, Capacity Σ c·μ
	// and Surplus Capacity − EffectiveArrivalRate, in messages per second.
	MaxConsumers float64 `json:"max_consumers"`
	Capacity     float64 `json:"capacity"`
	Surplus      float64 `json:"surplus"`
	// Headroom is Surplus / EffectiveArrivalRate; absent when nothing
	// arrives.
	Headroom *float64 `json:"headroom,omitempty"`
	// MaxBacklog is the declared backlog, absent when none is declared;
	// with it, Drains says whether the surplus clears it and DrainSeconds
	// how fast.
	MaxBacklog   *float64 `json:"max_backlog,omitempty"`
	Drains       *bool    `json:"drains,omitempty"`
	DrainSeconds *float64 `json:"drain_seconds,omitempty"`
	// Alarms are the alarms on the queue and their thresholds.
	Alarms []AlarmThreshold `json:"alarms,omitempty"`
}

// AlarmThreshold is an alarm on a queue and its threshold; Threshold is
// absent when it is not known before apply.
type AlarmThreshold struct {
	Alarm     string   `json:"alarm"`
	Threshold *float64 `json:"threshold"`
}

// CapacityOf is q's capacity, or nil when q has no Supply (no consumer,
// no declared arrival rate, or a value it needs unknown).
func CapacityOf(q *Queue) *QueueCapacity {
	s := q.Supply
	if s == nil {
		return nil
	}
	c := &QueueCapacity{Queue: q.Addr, Consumers: []string{}, ArrivalRate: s.Arrival, EffectiveArrivalRate: s.Effective,
		Capacity: s.Capacity, Surplus: s.Surplus, Headroom: s.Headroom}
	for _, f := range s.Fleets {
		c.Consumers = append(c.Consumers, f.Fleet.Addr)
		c.MaxConsumers += f.Size
	}
	if s.Drain != nil {
		backlog, drains := q.Rates.MaxBacklog.V, s.Drain.Drains
		c.MaxBacklog, c.Drains = &backlog, &drains
		if drains {
			seconds := s.Drain.Seconds
			c.DrainSeconds = &seconds
		}
	}
	for _, a := range q.Alarms {
		at := AlarmThreshold{Alarm: a.Addr}
		if a.Threshold.Set && a.Threshold.Known {
			v := a.Threshold.V
			at.Threshold = &v
		}
		c.Alarms = append(c.Alarms, at)
	}
	return c
}

// CompareCapacity orders capacities by root module, then queue.
func CompareCapacity(a, b QueueCapacity) int {
	return cmp.Or(cmp.Compare(a.Root, b.Root), cmp.Compare(a.Queue, b.Queue))
}

// sortCapacity sorts capacities by CompareCapacity.
func sortCapacity(cs []QueueCapacity) { slices.SortStableFunc(cs, CompareCapacity) }
