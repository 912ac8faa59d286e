// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// sink keeps results alive so the compiler cannot drop the work.
var sink any

func BenchmarkSize(b *testing.B) {
	in := capacity.SizingInput{ArrivalRate: 10000, PerConsumerRate: 400, MaxBacklog: 5e6, RTOSeconds: 1800,
		Retries: capacity.Retries{Rate: 0.02, Average: 1}, MinHeadroom: 0.2}
	for b.Loop() {
		out, err := capacity.Size(in)
		if err != nil {
			b.Fatal(err)
		}
		sink = out
	}
}

func BenchmarkDrainBacklogWithForecast(b *testing.B) {
	// A week of five-minute steps that never clears: the worst case walks
	// every step.
	forecast := make([]float64, 7*24*12)
	for i := range forecast {
		forecast[i] = 1000 + float64(i%288)
	}
	in := capacity.DrainInput{Backlog: 1e9, ArrivalRate: 1000, CompletionRate: 1200,
		Forecast: forecast, ForecastStepSeconds: 300, TTLSeconds: 3600}
	for b.Loop() {
		out, err := capacity.DrainBacklog(in)
		if err != nil {
			b.Fatal(err)
		}
		sink = out
	}
}

func BenchmarkBacklogWithTTL(b *testing.B) {
	in := capacity.TTLInput{ArrivalRate: 10000, IncidentSeconds: 3600, TTLSeconds: 600, DegradedCompletionRate: 2000}
	for b.Loop() {
		out, err := capacity.BacklogWithTTL(in)
		if err != nil {
			b.Fatal(err)
		}
		sink = out
	}
}

// BenchmarkSimulateStorm is the seed's storm: 36,000 one-second steps.
func BenchmarkSimulateStorm(b *testing.B) {
	in := capacity.StormInput{ArrivalRate: 10000, PerConsumerRate: 400, Consumers: 32, Backlog: 3.6e6,
		RetriesPerTimeout: 1.5, TimeoutWindowSeconds: 30, MaxSeconds: 36000}
	for b.Loop() {
		out, err := capacity.SimulateStorm(in, nil)
		if err != nil {
			b.Fatal(err)
		}
		sink = out
	}
}

// BenchmarkMinConsumersToDrain is the search for the seed's storm (target:
// under 50 ms).
func BenchmarkMinConsumersToDrain(b *testing.B) {
	in := capacity.StormInput{ArrivalRate: 10000, PerConsumerRate: 400, Backlog: 3.6e6,
		RetriesPerTimeout: 1.5, TimeoutWindowSeconds: 30, MaxSeconds: 36000}
	for b.Loop() {
		c, err := capacity.MinConsumersToDrain(in, 0)
		if err != nil || c != 63 {
			b.Fatal(c, err)
		}
	}
}

// BenchmarkWaitTime100k is Erlang C at c = 100,000 (target: under 5 ms).
func BenchmarkWaitTime100k(b *testing.B) {
	in := capacity.WaitInput{ArrivalRate: 95000, PerConsumerRate: 1, Consumers: 100000, Percentile: 0.99}
	for b.Loop() {
		out, err := capacity.WaitTime(in)
		if err != nil {
			b.Fatal(err)
		}
		sink = out
	}
}
