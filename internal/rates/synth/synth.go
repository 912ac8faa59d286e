// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Package synth generates the metrics of a queue from known rates, for
// the tests of package rates and its sources: a fluid model run second by
// second (arrivals λ, consumers c, each doing μ attempts a second, each
// completion costing 1 + x attempts), aggregated into steps as CloudWatch
// aggregates its periods. What the tests measure from the series must come
// back to the generating values.
package synth

import (
	"math"
	"time"

	"github.com/queuecap/terraform-provider-queuecap/internal/rates"
)

// Segment is a value from an offset into the scenario on, until the next
// segment's.
type Segment struct {
	From  time.Duration
	Value float64
}

// Scenario is a queue's true behaviour over a window.
type Scenario struct {
	Start    time.Time
	Duration time.Duration
	// Arrival is λ in messages per second, Consumers the consumers in
	// service, each piecewise constant (the first segment from 0).
	Arrival   []Segment
	Consumers []Segment
	// PerConsumerRate is μ: attempts a consumer makes per second when
	// there is work.
	PerConsumerRate float64
	// RetriesPerMessage is x = r·k: receives beyond the first per
	// completed message.
	RetriesPerMessage float64
	// InitialBacklog is the visible messages at Start.
	InitialBacklog float64
}

func at(segs []Segment, t time.Duration) float64 {
	v := 0.0
	for _, s := range segs {
		if s.From <= t {
			v = s.Value
		}
	}
	return v
}

// Series runs the scenario and aggregates it into steps of step: sent,
// deleted and received as per-second averages over the step, visible as
// the step's minimum, consumers as its average, the oldest message's age
// as its maximum.
func (sc Scenario) Series(step time.Duration) rates.QueueSeries {
	seconds := int(sc.Duration / time.Second)
	per := int(step / time.Second)
	n := seconds / per
	out := rates.QueueSeries{}
	for _, m := range rates.Metrics {
		out[m] = rates.NewSeries(sc.Start, step, n)
	}
	// arrived[t] is the messages arrived by the end of second t, for the
	// head's age.
	arrived := make([]float64, seconds+1)
	backlog, done := sc.InitialBacklog, 0.0
	arrivedSoFar := sc.InitialBacklog
	head := 0 // the second whose arrivals hold the head of the queue
	attempts := 1 + sc.RetriesPerMessage
	for i := range n {
		var sent, deleted, received, consumers float64
		visible, oldest := math.Inf(1), 0.0
		for s := range per {
			t := i*per + s
			d := time.Duration(t) * time.Second
			lambda, c := at(sc.Arrival, d), at(sc.Consumers, d)
			backlog += lambda
			arrivedSoFar += lambda
			arrived[t] = arrivedSoFar
			completions := math.Min(backlog, c*sc.PerConsumerRate/attempts)
			backlog -= completions
			done += completions
			sent, deleted, received, consumers = sent+lambda, deleted+completions, received+completions*attempts, consumers+c
			visible = math.Min(visible, backlog)
			// The head is the first message not done: it arrived in the
			// first second whose arrivals take the count past done.
			for head < t && arrived[head] <= done+1e-9 {
				head++
			}
			age := 0.0
			if backlog > 1e-9 {
				age = float64(t - head) // the initial backlog counts as arrived in second 0
			}
			oldest = math.Max(oldest, age)
		}
		f := float64(per)
		out[rates.Sent].Values[i] = sent / f
		out[rates.Deleted].Values[i] = deleted / f
		out[rates.Received].Values[i] = received / f
		out[rates.Visible].Values[i] = visible
		out[rates.Consumers].Values[i] = consumers / f
		out[rates.OldestAge].Values[i] = oldest
	}
	return out
}

// At is the segment of value v from offset from on.
func At(from time.Duration, v float64) Segment { return Segment{From: from, Value: v} }
