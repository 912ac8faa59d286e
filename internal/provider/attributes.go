package provider

import (
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// Input attributes are Terraform numbers validated by numberRange; outputs
// are Float64s, since internal/capacity never returns a non-finite value.

// requiredNumber is a required input.
func requiredNumber(rng numberRange, description string) schema.NumberAttribute {
	return schema.NumberAttribute{Required: true, MarkdownDescription: description, Validators: []validator.Number{rng}}
}

// optionalNumber is an optional input with no default: null means absent.
func optionalNumber(rng numberRange, description string) schema.NumberAttribute {
	return schema.NumberAttribute{Optional: true, MarkdownDescription: description, Validators: []validator.Number{rng}}
}

// defaultedNumber is an optional input whose default is written to state
// when it is not set, so the value used can be read back.
func defaultedNumber(rng numberRange, description string) schema.NumberAttribute {
	return schema.NumberAttribute{Optional: true, Computed: true, MarkdownDescription: description, Validators: []validator.Number{rng}}
}

func computedNumber(description string) schema.Float64Attribute {
	return schema.Float64Attribute{Computed: true, MarkdownDescription: description}
}

// Inputs shared by several data sources are declared once so their
// descriptions and validation never drift apart.

// Descriptions shared by data source attributes and function parameters.
const (
	arrivalRateDescription     = "Base arrival rate λ into the queue, in messages per second. At least 0."
	perConsumerRateDescription = "Messages one consumer (instance, task or concurrent invocation) completes per second, μ. Greater than 0."
	retryRateDescription       = "Share of messages that are retried, a fraction from 0 to 1. Default `0`. " +
		"With `avg_retries` it raises the effective arrival rate to `arrival_rate × (1 + retry_rate × avg_retries)`."
	avgRetriesDescription   = "Retries per retried message, a count of at least 0. Default `0`."
	slaSecondsDescription   = "The longest a message may wait, in seconds. Greater than 0."
	maxBacklogDescription   = "Worst backlog the fleet must clear, in messages. At least 0; default `0`. When greater than 0, `rto_seconds` is required."
	rtoSecondsDescription   = "Time allowed to clear `max_backlog`, in seconds. Greater than 0; required when `max_backlog` is greater than 0."
	minHeadroomDescription  = "Minimum spare capacity as a fraction of the effective arrival rate (`0.2` is 20 %). At least 0; default `0`. The fleet is raised to at least `ceil(λ_eff × (1 + min_headroom) / μ)`."
	incidentSecondsDesc     = "Length of the incident, in seconds. At least 0."
	ttlDroppedDescription   = "Age in seconds after which a message is dropped. Greater than 0."
	degradedRateDescription = "Messages per second the fleet still completes during the incident. At least 0; default `0` (a full outage)."
	backlogDescription      = "Messages waiting now. At least 0."
	completionRateDescShort = "Messages the fleet completes per second. Greater than 0."
)

// Descriptions of the retry storm, wait time and replay budget inputs.
// Defaults are stated where they apply: functions take every argument.
const (
	stormBacklogDescription      = "Messages waiting at t = 0. At least 0."
	retriesPerTimeoutDescription = "Retries a producer sends for each message that times out (waits longer than `timeout_window_seconds`), " +
		"a count of at least 0, such as `1.5`. `0` is a fleet without a retry storm."
	timeoutWindowDescription = "Timeout window W, in seconds: the producer gives up on a message that has waited this long and retries it. Greater than 0."
	maxSecondsDescription    = "Length of the simulation, a whole number of seconds from 1 to 864000 (ten days): " +
		"the depth is recorded at t = 0, 1, …, `max_seconds − 1`, so a backlog drains within it when its depth reaches 0 at one of those seconds."
	waitConsumersDescription = "Consumers in the fleet, the servers c of the M/M/c queue, a whole number from 1 to 10000000."
	percentileDescription    = "Percentile of the wait to report, a fraction greater than 0 and less than 1 (`0.99` is p99)."
	downstreamLimitDesc      = "Calls per second the shared downstream (an API, a database, a partner) accepts, U. Greater than 0."
	liveUsageDescription     = "Calls per second live work already makes downstream. At least 0."
	retryUsageDescription    = "Calls per second the retries of live work make downstream. At least 0."
	callsPerJobDescription   = "Downstream calls one replayed job makes. Greater than 0."
	safetyMarginDescription  = "Share of `downstream_limit` kept free as a safety margin, a fraction from 0 to 1 (`0.1` keeps 10 % of the limit unused)."
)

func arrivalRateAttribute() schema.NumberAttribute {
	return requiredNumber(atLeastZero, arrivalRateDescription)
}

func retryRateAttribute() schema.NumberAttribute {
	return defaultedNumber(fraction, retryRateDescription)
}

func avgRetriesAttribute() schema.NumberAttribute {
	return defaultedNumber(atLeastZero, avgRetriesDescription)
}

func effectiveArrivalRateAttribute() schema.Float64Attribute {
	return computedNumber("Arrival rate including retries, `arrival_rate × (1 + retry_rate × avg_retries)`, in messages per second.")
}

// withDefault returns the configured value, or def when it is null.
func withDefault(v types.Number, def float64) types.Number {
	if v.IsNull() || v.IsUnknown() {
		return numberValue(def)
	}
	return v
}

func numberValue(f float64) types.Number { return types.NumberValue(big.NewFloat(f)) }

// retries reads retry_rate and avg_retries, filling in their defaults.
func retries(rate, avg *types.Number) capacity.Retries {
	*rate = withDefault(*rate, 0)
	*avg = withDefault(*avg, 0)
	return capacity.Retries{Rate: float64Of(*rate), Average: float64Of(*avg)}
}
