package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

func newEffectiveArrivalRateFunction() function.Function {
	return &numberFunction{
		name:    "effective_arrival_rate",
		summary: "Arrival rate including retries",
		description: "Returns `arrival_rate × (1 + retry_rate × avg_retries)`, in messages per second: retried messages arrive again. " +
			"Matches `effective_arrival_rate` of the `queuecap_consumers` data source.",
		params: []numberParam{
			{name: "arrival_rate", rng: atLeastZero, description: arrivalRateDescription},
			{name: "retry_rate", rng: fraction, description: "Share of messages that are retried, a fraction from 0 to 1."},
			{name: "avg_retries", rng: atLeastZero, description: "Retries per retried message, at least 0."},
		},
		result: function.Float64Return{},
		compute: func(a []float64) (*float64, error) {
			eff, err := capacity.EffectiveArrivalRate(a[0], capacity.Retries{Rate: a[1], Average: a[2]})
			return &eff, err
		},
	}
}
