package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

func newTTLBoundedBacklogFunction() function.Function {
	return &numberFunction{
		name:    "ttl_bounded_backlog",
		summary: "Worst backlog of an incident when stale messages are dropped",
		description: "Returns `min(max(0, arrival_rate − degraded_completion_rate) × incident_seconds, arrival_rate × ttl_seconds)`, in messages. " +
			"Matches `ttl_bounded_backlog` of the `queuecap_ttl_backlog` data source.",
		params: []numberParam{
			{name: "arrival_rate", rng: atLeastZero, description: arrivalRateDescription},
			{name: "incident_seconds", rng: atLeastZero, description: incidentSecondsDesc},
			{name: "ttl_seconds", rng: aboveZero, description: ttlDroppedDescription},
			{name: "degraded_completion_rate", rng: atLeastZero, description: "Messages per second the fleet still completes during the incident; 0 for a full outage."},
		},
		result: function.Float64Return{},
		compute: func(a []float64) (*float64, error) {
			t, err := capacity.BacklogWithTTL(capacity.TTLInput{ArrivalRate: a[0], IncidentSeconds: a[1], TTLSeconds: a[2], DegradedCompletionRate: a[3]})
			return &t.TTLBoundedBacklog, err
		},
	}
}
