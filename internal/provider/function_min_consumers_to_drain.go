package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

func newMinConsumersToDrainFunction() function.Function {
	return &numberFunction{
		name:    "min_consumers_to_drain",
		summary: "Smallest fleet that drains a backlog through a retry storm",
		description: "Returns the smallest number of consumers whose one-second retry storm simulation drains `backlog` within `max_seconds`, " +
			"where producers retry `retries_per_timeout` times each message that waits longer than `timeout_window_seconds`: " +
			"`timeout_prob = min(1, depth / (arrival_rate × timeout_window_seconds))`, " +
			"`arrivals = arrival_rate × (1 + retries_per_timeout × timeout_prob)`, " +
			"`depth = max(0, depth + arrivals − consumers × per_consumer_rate)`. " +
			"A backlog of 3.6 M at 10,000 msg/s and 400 msg/s per consumer (with a 30 s window) needs 26 consumers within ten hours without retries and 63 with 1.5 retries per timeout. " +
			"Matches `min_consumers_to_drain` of the `queuecap_retry_storm` data source.",
		params: []numberParam{
			{name: "arrival_rate", rng: atLeastZero, description: arrivalRateDescription},
			{name: "per_consumer_rate", rng: aboveZero, description: perConsumerRateDescription},
			{name: "backlog", rng: atLeastZero, description: stormBacklogDescription},
			{name: "retries_per_timeout", rng: atLeastZero, description: retriesPerTimeoutDescription},
			{name: "timeout_window_seconds", rng: aboveZero, description: timeoutWindowDescription + " For example `30`."},
			{name: "max_seconds", rng: atLeastOne, whole: true, description: maxSecondsDescription + " For example `36000` (ten hours)."},
		},
		result: function.Int64Return{},
		compute: func(a []float64) (*float64, error) {
			c, err := capacity.MinConsumersToDrain(capacity.StormInput{ArrivalRate: a[0], PerConsumerRate: a[1], Backlog: a[2],
				RetriesPerTimeout: a[3], TimeoutWindowSeconds: a[4], MaxSeconds: int64(a[5])}, 0)
			return ptr(float64(c)), err
		},
	}
}
