package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

func newRequiredConsumersFunction() function.Function {
	return &numberFunction{
		name:    "required_consumers",
		summary: "Consumers to keep up and clear a backlog within the RTO",
		description: "Returns the headroom formula `ceil(arrival_rate / per_consumer_rate + max_backlog / (per_consumer_rate × rto_seconds))`, " +
			"a whole number: the ceiling of the sum, not the sum of ceilings. Matches `required_consumers` of the `queuecap_consumers` data source.",
		params: []numberParam{
			{name: "arrival_rate", rng: atLeastZero, description: arrivalRateDescription},
			{name: "per_consumer_rate", rng: aboveZero, description: perConsumerRateDescription},
			{name: "max_backlog", rng: atLeastZero, description: "Worst backlog the fleet must clear, in messages. At least 0."},
			{name: "rto_seconds", rng: aboveZero, description: "Time allowed to clear `max_backlog`, in seconds. Greater than 0."},
		},
		result: function.Int64Return{},
		compute: func(a []float64) (*float64, error) {
			s, err := capacity.Size(capacity.SizingInput{ArrivalRate: a[0], PerConsumerRate: a[1], MaxBacklog: a[2], RTOSeconds: a[3]})
			return ptr(float64(s.RequiredConsumers)), err
		},
	}
}
