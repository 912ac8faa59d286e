package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

func newPercentileWaitSecondsFunction() function.Function {
	return &numberFunction{
		name:    "percentile_wait_seconds",
		summary: "Steady-state wait percentile of an M/M/c queue (Erlang C)",
		description: "Returns the wait, in seconds, that `percentile` of messages do not exceed at steady state: " +
			"`max(0, ln(C / (1 − percentile)) / (consumers × per_consumer_rate − arrival_rate))`, where `C` is the Erlang C probability of waiting, " +
			"computed with the Erlang B recursion so that it stays accurate for very large fleets. " +
			"Null when the queue is unstable (`arrival_rate ≥ consumers × per_consumer_rate`): it has no steady state. " +
			"Matches `percentile_wait_seconds` of the `queuecap_wait_time` data source.",
		params: []numberParam{
			{name: "arrival_rate", rng: atLeastZero, description: arrivalRateDescription},
			{name: "per_consumer_rate", rng: aboveZero, description: perConsumerRateDescription},
			{name: "consumers", rng: atLeastOne, whole: true, description: waitConsumersDescription},
			{name: "percentile", rng: openFraction, description: percentileDescription},
		},
		result: function.Float64Return{},
		compute: func(a []float64) (*float64, error) {
			w, err := capacity.WaitTime(capacity.WaitInput{ArrivalRate: a[0], PerConsumerRate: a[1], Consumers: int64(a[2]), Percentile: a[3]})
			return w.PercentileWaitSeconds, err
		},
	}
}
