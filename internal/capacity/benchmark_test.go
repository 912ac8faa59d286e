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
