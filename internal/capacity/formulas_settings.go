// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity

// QueueSettingsFormula recommends an SQS queue's settings from declared
// rates and the consumer's processing time.
var QueueSettingsFormula = &Formula{
	Name:    "queue_settings",
	Answers: "SQS settings from the rates instead of defaults: a visibility timeout over the processing time (six Lambda timeouts), a retention that outlasts the drain of `max_backlog` and its redeliveries, `max_receive_count`, and the dead-letter queue's retention",
	Description: "Recommended SQS settings for a queue and its dead-letter queue, derived from declared rates and the consumer's processing time instead of defaults:\n\n" +
		"```\n" +
		"visibility_timeout_seconds = ceil(6 × lambda_timeout_seconds)                       (Lambda, AWS's guidance)\n" +
		"                           = ceil(max_processing_seconds × (1 + visibility_margin))  (other consumers)\n" +
		"max_receive_count          = max(5, ceil(1 + avg_retries))\n" +
		"drain_seconds              = max_backlog / (consumers × per_consumer_rate − effective_arrival_rate)\n" +
		"redelivery_seconds         = max_receive_count × visibility_timeout_seconds\n" +
		"message_retention_seconds  = max(min_retention_seconds, ceil((drain_seconds + redelivery_seconds) × (1 + retention_margin)))\n" +
		"dead_letter_message_retention_seconds = 1209600 (14 days, the SQS maximum)\n" +
		"```\n\n" +
		"The retention outlives the drain of `max_backlog` by the fleet at its maximum size (`consumers`, for example `capacity_plan`'s `required_consumers`) " +
		"plus the redeliveries of a message that keeps failing, by `retention_margin`: a message at the back of the worst backlog is still there when a consumer reaches it, " +
		"and one that fails reaches the dead-letter queue instead of expiring. It is an error when even the SQS maximum of 14 days (1,209,600 s) is too short, " +
		"or when the fleet leaves no surplus to drain `max_backlog`. " +
		"A standard queue keeps a message's original enqueue time when it moves it to the dead-letter queue, so the dead-letter queue must keep messages longer than the source: " +
		"its retention is the SQS maximum, and the read warns when the source queue needs the maximum itself. " +
		"Give the processing time either as `lambda_timeout_seconds` or as `max_processing_seconds`, not both.",
	Inputs: []Input{
		inArrivalRate, inPerConsumerRate,
		{Name: "consumers", Type: Whole, Unit: "consumers", Range: AtLeastZero, Required: true,
			Description: "Consumers in the fleet at its maximum size, the fleet that drains `max_backlog` (for example `required_consumers` of `queuecap_consumers`)."},
		withNote(inMaxBacklog, "Its drain sets `message_retention_seconds`."),
		inRetryRate,
		withNote(inAvgRetries, "Sets `max_receive_count` to `max(5, ceil(1 + avg_retries))`."),
		{Name: "lambda_timeout_seconds", Type: Number, Unit: "seconds", Range: Between(1, MaxLambdaTimeoutSeconds),
			Description: "Timeout of the Lambda function consuming the queue, in seconds.",
			Note:        "Sets `visibility_timeout_seconds` to 6 times it (AWS's guidance for SQS event sources). Conflicts with `max_processing_seconds`."},
		{Name: "max_processing_seconds", Type: Number, Unit: "seconds", Range: AboveZero,
			Description: "Longest time a consumer other than Lambda (an instance, a task) takes to process and delete a message, in seconds.",
			Note:        "Sets `visibility_timeout_seconds` to `max_processing_seconds × (1 + visibility_margin)`. Conflicts with `lambda_timeout_seconds`."},
		{Name: "visibility_margin", Type: Number, Unit: "a fraction", Range: AtLeastZero, Default: DefaultVisibilityMargin, DefaultWith: "max_processing_seconds",
			Description: "Margin over `max_processing_seconds` for the visibility timeout, a fraction (`1` doubles it).", Note: "Requires `max_processing_seconds`."},
		{Name: "retention_margin", Type: Number, Unit: "a fraction", Range: AtLeastZero, Default: DefaultRetentionMargin,
			Description: "Margin of the retention over what it must outlive (the drain plus the redeliveries), a fraction (`0.5` is 50 % longer)."},
		{Name: "min_retention_seconds", Type: Whole, Unit: "seconds", Range: Between(MinRetentionSeconds, MaxRetentionSeconds), Default: float64(DefaultRetentionSeconds),
			Description: "Least `message_retention_seconds` to recommend, in seconds; the default is SQS's own four days."},
	},
	Outputs: []Output{
		{Name: "effective_arrival_rate", Type: Number, Description: effectiveArrivalDoc},
		{Name: "surplus", Type: Number, Description: "Capacity left after arrivals, `consumers × per_consumer_rate − effective_arrival_rate`, in messages per second: the rate at which `max_backlog` drains."},
		{Name: "drain_seconds", Type: Number, Description: "Time for the fleet to drain `max_backlog`, `max_backlog / surplus`, in seconds; `0` without a backlog."},
		{Name: "visibility_timeout_seconds", Type: Whole, Description: "Recommended `visibility_timeout_seconds` of the queue, a whole number of seconds: " +
			"`ceil(6 × lambda_timeout_seconds)`, or `ceil(max_processing_seconds × (1 + visibility_margin))`; at most 43,200 (12 hours, the SQS maximum)."},
		{Name: "max_receive_count", Type: Whole, Description: "Recommended `maxReceiveCount` of the queue's redrive policy, a count: `max(5, ceil(1 + avg_retries))`, " +
			"enough receives for the declared retries and at least the 5 AWS recommends for a Lambda event source."},
		{Name: "redelivery_seconds", Type: Number, Description: "Longest a message that keeps failing stays in the queue before it moves to the dead-letter queue, `max_receive_count × visibility_timeout_seconds`, in seconds."},
		{Name: "message_retention_seconds", Type: Whole, Description: "Recommended `message_retention_seconds` of the queue, a whole number of seconds: " +
			"`max(min_retention_seconds, ceil((drain_seconds + redelivery_seconds) × (1 + retention_margin)))`, at most 1,209,600 (14 days)."},
		{Name: "dead_letter_message_retention_seconds", Type: Whole, Description: "Recommended `message_retention_seconds` of the dead-letter queue, in seconds: 1,209,600 (14 days, the SQS maximum), " +
			"longer than `message_retention_seconds` unless that is the maximum too (the read then warns)."},
	},
	Rules: []Rule{
		OneForm{Forms: [][]string{{"lambda_timeout_seconds"}, {"max_processing_seconds"}}, What: "the consumer's processing time", Noun: "processing time"},
		AlsoRequires{Input: "visibility_margin", Needs: "max_processing_seconds"},
	},
	Compute: func(a Args) (Result, error) {
		s, err := QueueSettings(SettingsInput{ArrivalRate: a.Num("arrival_rate"), PerConsumerRate: a.Num("per_consumer_rate"), Consumers: a.Count("consumers"),
			Retries: retriesOf(a), MaxBacklog: a.Num("max_backlog"), RetentionMargin: a.Num("retention_margin"), MinRetentionSeconds: a.Num("min_retention_seconds"),
			LambdaTimeoutSeconds: a.Num("lambda_timeout_seconds"), MaxProcessingSeconds: a.Num("max_processing_seconds"), VisibilityMargin: a.Num("visibility_margin")})
		if err != nil {
			return Result{}, err
		}
		r := Result{Values: Values{"effective_arrival_rate": s.EffectiveArrivalRate, "surplus": s.Surplus, "drain_seconds": s.DrainSeconds,
			"visibility_timeout_seconds": s.VisibilityTimeout, "max_receive_count": s.MaxReceiveCount, "redelivery_seconds": s.RedeliverySeconds,
			"message_retention_seconds": s.Retention, "dead_letter_message_retention_seconds": s.DeadLetterRetention}}
		if w := DeadLetterNotLongerWarning(s); w != nil {
			r.Warnings = append(r.Warnings, *w)
		}
		return r, nil
	},
}

// QueueSettingsFunction is queuecap_queue_settings as a function.
var QueueSettingsFunction = objectPlan(QueueSettingsFormula, "queue_settings", "Recommended SQS settings as one call",
	"Feed `message_retention_seconds`, `visibility_timeout_seconds` and `max_receive_count` to `aws_sqs_queue` and its `redrive_policy`, "+
		"and `dead_letter_message_retention_seconds` to the dead-letter queue. The data source also warns when the dead-letter queue cannot keep messages longer; a function cannot.")
