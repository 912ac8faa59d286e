// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity

import (
	"fmt"
	"math"
	"math/big"
)

// SQS limits and defaults the recommended queue settings respect.
const (
	// DefaultRetentionSeconds is SQS's own message_retention_seconds,
	// four days: the least the settings recommend unless told otherwise.
	DefaultRetentionSeconds = 4 * SecondsPerDay
	// MinRetentionSeconds is the shortest retention SQS accepts.
	MinRetentionSeconds = 60
	// MaxVisibilityTimeoutSeconds is the longest visibility timeout SQS
	// accepts: 12 hours.
	MaxVisibilityTimeoutSeconds = 12 * 3600
	// MaxLambdaTimeoutSeconds is the longest Lambda function timeout.
	MaxLambdaTimeoutSeconds = 900
	// MinLambdaReceiveCount is AWS's guidance for an SQS event source's
	// redrive policy: a maxReceiveCount of at least 5, so that throttled
	// batches are not sent to the dead-letter queue.
	MinLambdaReceiveCount = 5
	// MaxReceiveCount is the largest maxReceiveCount SQS accepts.
	MaxReceiveCount = 1000
	// DefaultRetentionMargin and DefaultVisibilityMargin are the margins
	// the settings add when none is asked for.
	DefaultRetentionMargin  = 0.5
	DefaultVisibilityMargin = 1.0
)

// SettingsInput is what recommended SQS settings are derived from. The
// fleet is its maximum size: it drains the worst backlog.
type SettingsInput struct {
	ArrivalRate     float64 // λ, msg/s
	PerConsumerRate float64 // μ
	Consumers       int64   // c, the fleet at its maximum size
	Retries         Retries
	MaxBacklog      float64 // B_max, messages; 0 for none
	RetentionMargin float64 // m ≥ 0: retention is (1 + m) × what it must outlive
	// MinRetentionSeconds is the least retention recommended (SQS's
	// default of four days unless told otherwise).
	MinRetentionSeconds float64
	// Exactly one of the consumer's processing time forms: a Lambda
	// function's timeout, or a worker's longest processing time with a
	// margin.
	LambdaTimeoutSeconds float64
	MaxProcessingSeconds float64
	VisibilityMargin     float64
}

// Settings are recommended SQS queue settings.
type Settings struct {
	EffectiveArrivalRate float64
	Surplus              float64 // c·μ − λ_eff
	DrainSeconds         float64 // B_max / surplus; 0 without a backlog
	VisibilityTimeout    int64
	MaxReceiveCount      int64
	RedeliverySeconds    float64 // max_receive_count × visibility timeout
	Retention            int64
	DeadLetterRetention  int64
	// DeadLetterNotLonger is true when the source queue needs the SQS
	// maximum itself, so its dead-letter queue cannot keep messages
	// longer.
	DeadLetterNotLonger bool
}

// QueueSettings recommends SQS settings for a queue:
//   - visibility timeout: 6 × the function timeout for Lambda (AWS's
//     guidance), else the longest processing time × (1 + margin), whole
//     seconds, at most 12 hours;
//   - max receive count: enough receives for the declared retries,
//     ceil(1 + avg_retries), and at least 5 (AWS's guidance for Lambda);
//   - retention: (1 + margin) × (the drain of max_backlog by the fleet's
//     surplus + the redeliveries of a failing message, max_receive_count ×
//     visibility timeout), at least the minimum, at most 14 days;
//   - dead-letter retention: the SQS maximum, longer than the source's:
//     a standard queue keeps a message's original enqueue time when it
//     moves it to the dead-letter queue.
func QueueSettings(in SettingsInput) (Settings, error) {
	var s Settings
	if err := checkNonNegative("max_backlog", in.MaxBacklog); err != nil {
		return s, err
	}
	if err := checkNonNegative("retention_margin", in.RetentionMargin); err != nil {
		return s, err
	}
	if !finite(in.MinRetentionSeconds) || in.MinRetentionSeconds < MinRetentionSeconds || in.MinRetentionSeconds > MaxRetentionSeconds {
		return s, inputErr("min_retention_seconds", "must be between %d and %d seconds, as SQS accepts, got %v", MinRetentionSeconds, MaxRetentionSeconds, in.MinRetentionSeconds)
	}
	eff, err := EffectiveArrivalRate(in.ArrivalRate, in.Retries)
	if err != nil {
		return s, err
	}
	s.EffectiveArrivalRate = eff
	if err := checkPositive("per_consumer_rate", in.PerConsumerRate); err != nil {
		return s, err
	}
	capacity, err := FleetCapacity(in.Consumers, in.PerConsumerRate)
	if err != nil {
		return s, err
	}
	surplus := sub(mul(ratInt(in.Consumers), dec(in.PerConsumerRate)), in.Retries.effective(in.ArrivalRate))
	s.Surplus = float(surplus)
	drain := new(big.Rat)
	if in.MaxBacklog > 0 {
		if surplus.Sign() <= 0 {
			return s, inputErr("consumers", "leave no surplus to drain max_backlog: %d × %s msg/s = %s msg/s against an effective arrival rate of %s msg/s, so the backlog never drains and no retention outlives it",
				in.Consumers, Decimal(in.PerConsumerRate), Decimal(capacity), Decimal(eff))
		}
		drain = quo(dec(in.MaxBacklog), surplus)
		s.DrainSeconds = float(drain)
		if err := checkResult("max_backlog", "the drain time max_backlog / surplus", s.DrainSeconds); err != nil {
			return s, err
		}
	}

	visibility, field, err := visibilityTimeout(in)
	if err != nil {
		return s, err
	}
	s.VisibilityTimeout = visibility

	receives := math.Max(MinLambdaReceiveCount, ceilFloat(add(ratOne, dec(in.Retries.Average))))
	if receives > MaxReceiveCount {
		return s, inputErr("avg_retries", "needs a max_receive_count of %s, more than the %d SQS accepts", Decimal(receives), MaxReceiveCount)
	}
	s.MaxReceiveCount = int64(receives)
	s.RedeliverySeconds = float64(s.MaxReceiveCount * s.VisibilityTimeout)

	// Exact: a drain of 3,000 s and redeliveries of 5 × 990 s with a
	// margin of 0.1 need 8,745 s, not 8,751.
	needed := ceilFloat(mul(add(drain, ratInt(s.MaxReceiveCount*s.VisibilityTimeout)), add(ratOne, dec(in.RetentionMargin))))
	if !finite(needed) || needed > MaxRetentionSeconds {
		// Blame the larger of the two terms, or the margin when neither
		// alone is too long.
		blame := "retention_margin"
		switch {
		case s.DrainSeconds >= s.RedeliverySeconds && s.DrainSeconds*(1+in.RetentionMargin) > MaxRetentionSeconds:
			blame = "max_backlog"
		case s.RedeliverySeconds*(1+in.RetentionMargin) > MaxRetentionSeconds:
			blame = field
		}
		return s, inputErr(blame, "needs a message_retention_seconds of %s: (drain %s s + redeliveries %d × %d s) × (1 + %s), longer than the SQS maximum of 14 days (%d s), so messages would expire during recovery; add consumers or shrink the backlog",
			Decimal(needed), Decimal(s.DrainSeconds), s.MaxReceiveCount, s.VisibilityTimeout, Decimal(in.RetentionMargin), MaxRetentionSeconds)
	}
	s.Retention = int64(math.Max(needed, math.Ceil(in.MinRetentionSeconds)))
	s.DeadLetterRetention = MaxRetentionSeconds
	s.DeadLetterNotLonger = s.Retention >= MaxRetentionSeconds
	return s, nil
}

// visibilityTimeout is the recommended visibility timeout and the input it
// comes from.
func visibilityTimeout(in SettingsInput) (int64, string, error) {
	if in.LambdaTimeoutSeconds != 0 {
		if !finite(in.LambdaTimeoutSeconds) || in.LambdaTimeoutSeconds < 1 || in.LambdaTimeoutSeconds > MaxLambdaTimeoutSeconds {
			return 0, "", inputErr("lambda_timeout_seconds", "must be between 1 and %d seconds, as Lambda accepts, got %v", MaxLambdaTimeoutSeconds, in.LambdaTimeoutSeconds)
		}
		// Exact: 6 × 166.666666666667 s is 1,000.000000000002 s, so
		// 1,001 s (the ceiling of the product rounded to 15 digits was
		// 1,000). 6 × 900 s is 5,400 s, within SQS's 12 hours.
		v := ceilFloat(mul(ratInt(LambdaVisibilityFactor), dec(in.LambdaTimeoutSeconds)))
		return int64(v), "lambda_timeout_seconds", nil
	}
	if err := checkPositive("max_processing_seconds", in.MaxProcessingSeconds); err != nil {
		return 0, "", err
	}
	if err := checkNonNegative("visibility_margin", in.VisibilityMargin); err != nil {
		return 0, "", err
	}
	// Exact: 900 s with a margin of 0.1 is 990 s, not 991.
	v := ceilFloat(mul(dec(in.MaxProcessingSeconds), add(ratOne, dec(in.VisibilityMargin))))
	if !finite(v) || v > MaxVisibilityTimeoutSeconds {
		return 0, "", inputErr("max_processing_seconds", "needs a visibility timeout of %s s, max_processing_seconds × (1 + visibility_margin), longer than the SQS maximum of 12 hours (%d s)",
			Decimal(v), MaxVisibilityTimeoutSeconds)
	}
	return int64(v), "max_processing_seconds", nil
}

// DeadLetterNotLongerWarning warns when the dead-letter queue cannot keep
// messages longer than the source queue.
func DeadLetterNotLongerWarning(s Settings) *Warning {
	if !s.DeadLetterNotLonger {
		return nil
	}
	return &Warning{
		Summary: "The dead-letter queue cannot keep messages longer than the source queue",
		Detail: fmt.Sprintf("message_retention_seconds = %d, the SQS maximum, so dead_letter_message_retention_seconds (%d) is not longer: "+
			"a standard queue keeps a message's original enqueue time when it moves it to the dead-letter queue, so a message that reaches it late expires there soon after. "+
			"Add consumers or lower min_retention_seconds so that the source queue needs less.", s.Retention, s.DeadLetterRetention),
	}
}
