package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

func newDrainSecondsFunction() function.Function {
	return &numberFunction{
		name:    "drain_seconds",
		summary: "Time to clear a backlog",
		description: "Returns `backlog / (completion_rate − arrival_rate)`, in seconds, or null when the backlog never drains " +
			"(completions do not exceed arrivals). Dividing by the completion rate alone is the common mistake. " +
			"Matches `drain_seconds` of the `queuecap_drain` data source.",
		params: []numberParam{
			{name: "backlog", rng: atLeastZero, description: backlogDescription},
			{name: "arrival_rate", rng: atLeastZero, description: arrivalRateDescription},
			{name: "completion_rate", rng: aboveZero, description: completionRateDescShort},
		},
		result: function.Float64Return{},
		compute: func(a []float64) (*float64, error) {
			d, err := capacity.DrainBacklog(capacity.DrainInput{Backlog: a[0], ArrivalRate: a[1], CompletionRate: a[2]})
			return d.DrainSeconds, err
		},
	}
}
