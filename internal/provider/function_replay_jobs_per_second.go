package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

func newReplayJobsPerSecondFunction() function.Function {
	return &numberFunction{
		name:    "replay_jobs_per_second",
		summary: "Rate at which a dead-letter queue may be replayed beside live work",
		description: "Returns `(downstream_limit − live_usage − retry_usage − safety_margin × downstream_limit) / calls_per_job`, in jobs per second: " +
			"what live work, its retries and the safety margin leave of a shared downstream limit. " +
			"`0` when nothing is left (the `queuecap_replay_budget` data source also warns then; a function cannot). " +
			"Matches `replay_jobs_per_second` of the `queuecap_replay_budget` data source.",
		params: []numberParam{
			{name: "downstream_limit", rng: aboveZero, description: downstreamLimitDesc},
			{name: "live_usage", rng: atLeastZero, description: liveUsageDescription},
			{name: "retry_usage", rng: atLeastZero, description: retryUsageDescription},
			{name: "calls_per_job", rng: aboveZero, description: callsPerJobDescription},
			{name: "safety_margin", rng: fraction, description: safetyMarginDescription},
		},
		result: function.Float64Return{},
		compute: func(a []float64) (*float64, error) {
			r, err := capacity.ReplayBudget(capacity.ReplayInput{DownstreamLimit: a[0], LiveUsage: a[1], RetryUsage: a[2], CallsPerJob: a[3], SafetyMargin: a[4]})
			return &r.JobsPerSecond, err
		},
	}
}
