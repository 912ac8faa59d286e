package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

func newSurplusFunction() function.Function {
	return &numberFunction{
		name:    "surplus",
		summary: "Capacity left after arrivals",
		description: "Returns `consumers × per_consumer_rate − arrival_rate`, in messages per second: the rate at which a backlog drains. " +
			"Zero or less means a backlog never drains. Matches `net_rate` of the `queuecap_drain` data source given `consumers` and `per_consumer_rate`.",
		params: []numberParam{
			{name: "consumers", rng: atLeastZero, whole: true, description: "Consumers in the fleet, a whole number of at least 0."},
			{name: "per_consumer_rate", rng: aboveZero, description: perConsumerRateDescription},
			{name: "arrival_rate", rng: atLeastZero, description: arrivalRateDescription},
		},
		result: function.Float64Return{},
		compute: func(a []float64) (*float64, error) {
			c, err := capacity.FleetCapacity(int64(a[0]), a[1])
			if err != nil {
				return nil, err
			}
			s := capacity.NetRate(c, a[2])
			return &s, nil
		},
	}
}
