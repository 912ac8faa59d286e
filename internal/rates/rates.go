// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Package rates measures a queue's declared rates from the metrics where
// they live: the arrival rate, the per-consumer rate (only from steps where
// the consumers were saturated), the retries, the largest backlog and the
// oldest message's age. A Source (Prometheus, CloudWatch) fetches each
// queue's series over a Window; Measure turns them into values that
// `queuecap rates --write` puts in .queuecap.hcl.
package rates

import (
	"context"
	"math"
	"time"
)

// Series is one metric at evenly spaced steps, Values[i] at Start +
// i·Step: NaN where there is no sample.
type Series struct {
	Start  time.Time
	Step   time.Duration
	Values []float64
}

// Len is the number of steps.
func (s Series) Len() int { return len(s.Values) }

// At is the value at step i, NaN out of range.
func (s Series) At(i int) float64 {
	if i < 0 || i >= len(s.Values) {
		return math.NaN()
	}
	return s.Values[i]
}

// Samples counts the steps with a finite value.
func (s Series) Samples() int {
	n := 0
	for _, v := range s.Values {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			n++
		}
	}
	return n
}

// NewSeries is a series of n steps, every value NaN.
func NewSeries(start time.Time, step time.Duration, n int) Series {
	v := make([]float64, n)
	for i := range v {
		v[i] = math.NaN()
	}
	return Series{Start: start, Step: step, Values: v}
}

// Metric names a series of a QueueSeries.
type Metric string

// The series a source fetches per queue. The rates are per second,
// averaged over the step; the gauges are as the step ends (Visible: the
// step's minimum where the source has it, so a backlog that lasted the
// whole step is above a threshold at both its ends).
const (
	// Sent is messages sent to the queue per second (CloudWatch
	// NumberOfMessagesSent).
	Sent Metric = "sent"
	// Deleted is messages deleted, that is completed, per second
	// (NumberOfMessagesDeleted).
	Deleted Metric = "deleted"
	// Received is messages received per second, redeliveries included
	// (NumberOfMessagesReceived).
	Received Metric = "received"
	// Visible is the backlog: messages available to receive
	// (ApproximateNumberOfMessagesVisible).
	Visible Metric = "visible"
	// OldestAge is the age of the oldest message, in seconds
	// (ApproximateAgeOfOldestMessage).
	OldestAge Metric = "oldest_age"
	// Consumers is the consumers in service: GroupInServiceInstances for
	// an Auto Scaling group, RunningTaskCount for an ECS service,
	// ConcurrentExecutions for a Lambda function.
	Consumers Metric = "consumers"
)

// Metrics are the series of a QueueSeries in a stable order.
var Metrics = []Metric{Sent, Deleted, Received, Visible, OldestAge, Consumers}

// QueueSeries are one queue's series, by metric; a metric a source does
// not have is absent.
type QueueSeries map[Metric]Series

// Consumer kinds, as the linter names fleets.
const (
	KindASG    = "aws_autoscaling_group"
	KindECS    = "aws_ecs_service"
	KindLambda = "aws_lambda_function"
)

// Consumer is the fleet that consumes a queue, as its metrics know it.
type Consumer struct {
	// Addr is its address in the configuration; Kind its resource type.
	Addr string
	Kind string
	// Name is the Auto Scaling group's, ECS service's or Lambda
	// function's name; Cluster the ECS service's cluster name. "" when
	// not known.
	Name    string
	Cluster string
}

// Target is a queue to measure.
type Target struct {
	// Queue is the queue's address in its root module.
	Queue string
	// QueueName is the queue's name as the metrics know it.
	QueueName string
	Consumer  Consumer
	// Queries, when set, replace the source's query for a metric (a
	// `rates "prometheus"` block's PromQL), by metric.
	Queries map[Metric]string
}

// Window is the time measured: Length up to End, in steps of Step.
type Window struct {
	End    time.Time
	Length time.Duration
	Step   time.Duration
}

// Start is the window's first instant.
func (w Window) Start() time.Time { return w.End.Add(-w.Length) }

// Steps is the number of steps in the window.
func (w Window) Steps() int {
	if w.Step <= 0 {
		return 0
	}
	return int(w.Length / w.Step)
}

// Fetched is what a source got for one target: its series, the query of
// each (for the values' provenance), and an error that names what failed
// for this queue (nil when all went well). A source returns one per
// target, in the targets' order.
type Fetched struct {
	Series  QueueSeries
	Queries map[Metric]string
	Err     error
}

// A Source fetches the series of queues.
type Source interface {
	// Name is how the values' provenance names it: "prometheus URL",
	// "cloudwatch REGION".
	Name() string
	// Fetch fetches every target's series over w. An error is the
	// source's as a whole (unreachable, refused); one queue's is in its
	// Fetched.
	Fetch(ctx context.Context, targets []Target, w Window) ([]Fetched, error)
}
