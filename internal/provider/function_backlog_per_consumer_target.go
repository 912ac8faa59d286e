package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

func newBacklogPerConsumerTargetFunction() function.Function {
	return &numberFunction{
		name:    "backlog_per_consumer_target",
		summary: "Target value for target tracking on backlog per consumer",
		description: "Returns `sla_seconds × per_consumer_rate`, messages waiting per consumer: AWS's acceptable latency over processing time per message. " +
			"Matches `backlog_per_consumer_target` of the `queuecap_alarm_thresholds` data source.",
		params: []numberParam{
			{name: "sla_seconds", rng: aboveZero, description: slaSecondsDescription},
			{name: "per_consumer_rate", rng: aboveZero, description: perConsumerRateDescription},
		},
		result: function.Float64Return{},
		compute: func(a []float64) (*float64, error) {
			t, err := capacity.BacklogPerConsumerTarget(a[0], a[1])
			return &t, err
		},
	}
}
