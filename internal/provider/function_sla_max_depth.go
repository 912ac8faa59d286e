package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

func newSLAMaxDepthFunction() function.Function {
	return &numberFunction{
		name:    "sla_max_depth",
		summary: "Deepest a queue may be under an SLA (Little's law)",
		description: "Returns `arrival_rate × sla_seconds`, in messages: a message arriving behind more waits longer than the SLA. " +
			"Matches `max_depth` of the `queuecap_sla_depth` data source.",
		params: []numberParam{
			{name: "arrival_rate", rng: atLeastZero, description: arrivalRateDescription},
			{name: "sla_seconds", rng: aboveZero, description: slaSecondsDescription},
		},
		result: function.Float64Return{},
		compute: func(a []float64) (*float64, error) {
			d, err := capacity.SLAMaxDepth(a[0], a[1])
			return &d, err
		},
	}
}
