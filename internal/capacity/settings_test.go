// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

func TestQueueSettings(t *testing.T) {
	// The headroom fleet of MATH.md: 32 consumers of 400 msg/s against
	// 10,000 msg/s leave 2,800 msg/s, which drain 5 M in 1,785.7 s.
	base := capacity.SettingsInput{ArrivalRate: 10000, PerConsumerRate: 400, Consumers: 32, MaxBacklog: 5e6,
		RetentionMargin: 0.5, MinRetentionSeconds: capacity.DefaultRetentionSeconds, LambdaTimeoutSeconds: 30}
	cases := []struct {
		name                                 string
		edit                                 func(*capacity.SettingsInput)
		drain                                float64
		visibility, receives, retention, dlq int64
		notLonger                            bool
	}{
		// 6 × 30 s = 180 s visibility; 5 receives × 180 s = 900 s of
		// redeliveries; (1,785.7 + 900) × 1.5 = 4,028.6 s is under four
		// days, so the default four days it is.
		{"lambda, default minimum", func(*capacity.SettingsInput) {}, 5e6 / 2800.0, 180, 5, capacity.DefaultRetentionSeconds, capacity.MaxRetentionSeconds, false},
		// Without a minimum the drain decides: ceil((1,785.71 + 900) × 1.5) = 4,029.
		{"lambda, no minimum", func(in *capacity.SettingsInput) { in.MinRetentionSeconds = 60 }, 5e6 / 2800.0, 180, 5, 4029, capacity.MaxRetentionSeconds, false},
		// A worker taking up to 45 s with the default margin of 1: 90 s;
		// 7.5 retries need ceil(8.5) = 9 receives; retries raise λ_eff to
		// 10,000 × (1 + 0.1 × 7.5) = 17,500, leaving 12,800 − 17,500 < 0…
		// so 64 consumers: 25,600 − 17,500 = 8,100 msg/s drain 1e9 in
		// 123,456.8 s; (123,456.79 + 810) × 1.5 = 186,400.2 → 186,401.
		{"worker, retries, a long drain", func(in *capacity.SettingsInput) {
			in.LambdaTimeoutSeconds, in.MaxProcessingSeconds, in.VisibilityMargin = 0, 45, 1
			in.Retries = capacity.Retries{Rate: 0.1, Average: 7.5}
			in.Consumers, in.MaxBacklog, in.MinRetentionSeconds = 64, 1e9, 60
		}, 1e9 / 8100, 90, 9, 186401, capacity.MaxRetentionSeconds, false},
		// No backlog: only the redeliveries count; ceil(0.5 × 2) = 1 s of
		// visibility, 5 receives, ceil(5 × 1.5) = 8 s, raised to SQS's
		// least retention of 60 s.
		{"no backlog", func(in *capacity.SettingsInput) {
			in.LambdaTimeoutSeconds, in.MaxProcessingSeconds, in.VisibilityMargin, in.MaxBacklog, in.MinRetentionSeconds = 0, 0.5, 1, 0, 60
		}, 0, 1, 5, 60, capacity.MaxRetentionSeconds, false},
		// 6 × 166.666666666667 s is 1,000.000000000002 s: the visibility
		// timeout is its exact ceiling, 1,001 s, not the ceiling of the
		// product rounded to 15 digits (1,000 s, less than six timeouts).
		// (1,785.71 + 5 × 1,001) × 1.5 = 10,186.07 → 10,187 s.
		{"lambda, six timeouts just above a whole second", func(in *capacity.SettingsInput) {
			in.LambdaTimeoutSeconds, in.MinRetentionSeconds = 166.666666666667, 60
		},
			5e6 / 2800.0, 1001, 5, 10187, capacity.MaxRetentionSeconds, false},
		// The source needs the 14 days itself: the dead-letter queue
		// cannot keep messages longer.
		{"source at the maximum", func(in *capacity.SettingsInput) { in.MinRetentionSeconds = capacity.MaxRetentionSeconds },
			5e6 / 2800.0, 180, 5, capacity.MaxRetentionSeconds, capacity.MaxRetentionSeconds, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := base
			tc.edit(&in)
			s, err := capacity.QueueSettings(in)
			if err != nil {
				t.Fatal(err)
			}
			assertClose(t, "DrainSeconds", s.DrainSeconds, tc.drain)
			if s.VisibilityTimeout != tc.visibility || s.MaxReceiveCount != tc.receives || s.Retention != tc.retention || s.DeadLetterRetention != tc.dlq || s.DeadLetterNotLonger != tc.notLonger {
				t.Errorf("got visibility %d, receives %d, retention %d, dead-letter %d (not longer %v); want %d, %d, %d, %d (%v)",
					s.VisibilityTimeout, s.MaxReceiveCount, s.Retention, s.DeadLetterRetention, s.DeadLetterNotLonger,
					tc.visibility, tc.receives, tc.retention, tc.dlq, tc.notLonger)
			}
			if (capacity.DeadLetterNotLongerWarning(s) != nil) != tc.notLonger {
				t.Errorf("warning %v, want %v", capacity.DeadLetterNotLongerWarning(s), tc.notLonger)
			}
		})
	}
}

func TestQueueSettingsInvalid(t *testing.T) {
	base := capacity.SettingsInput{ArrivalRate: 10000, PerConsumerRate: 400, Consumers: 32, MaxBacklog: 5e6,
		RetentionMargin: 0.5, MinRetentionSeconds: capacity.DefaultRetentionSeconds, LambdaTimeoutSeconds: 30}
	cases := []struct {
		name  string
		edit  func(*capacity.SettingsInput)
		field string
	}{
		// 2,800 msg/s drain 5e9 in 20.7 days: longer than 14.
		{"drain beyond 14 days", func(in *capacity.SettingsInput) { in.MaxBacklog = 5e9 }, "max_backlog"},
		// 1,785.7 + 900 s fits, but not with a margin of 500.
		{"margin beyond 14 days", func(in *capacity.SettingsInput) { in.RetentionMargin = 500 }, "retention_margin"},
		// 1,000 receives of 12 hours.
		{"redeliveries beyond 14 days", func(in *capacity.SettingsInput) {
			in.LambdaTimeoutSeconds, in.MaxProcessingSeconds, in.VisibilityMargin, in.Retries, in.MaxBacklog = 0, 21600, 1, capacity.Retries{Rate: 0.1, Average: 999}, 0
		}, "max_processing_seconds"},
		{"zero surplus", func(in *capacity.SettingsInput) { in.Consumers = 25 }, "consumers"},
		// 3 × 0.1 is 0.30000000000000004 in float64: a surplus of
		// rounding error, which would drain 10 messages in 1.8e17 s.
		{"zero surplus but for rounding", func(in *capacity.SettingsInput) {
			in.ArrivalRate, in.PerConsumerRate, in.Consumers, in.MaxBacklog = 0.3, 0.1, 3, 10
		}, "consumers"},
		{"visibility beyond 12 hours", func(in *capacity.SettingsInput) {
			in.LambdaTimeoutSeconds, in.MaxProcessingSeconds, in.VisibilityMargin = 0, 30000, 1
		}, "max_processing_seconds"},
		{"lambda timeout beyond 900 s", func(in *capacity.SettingsInput) { in.LambdaTimeoutSeconds = 901 }, "lambda_timeout_seconds"},
		{"too many receives", func(in *capacity.SettingsInput) {
			in.Retries, in.MaxBacklog = capacity.Retries{Rate: 0.001, Average: 1000}, 0
		}, "avg_retries"},
		{"minimum below 60 s", func(in *capacity.SettingsInput) { in.MinRetentionSeconds = 10 }, "min_retention_seconds"},
		{"no processing time", func(in *capacity.SettingsInput) { in.LambdaTimeoutSeconds = 0 }, "max_processing_seconds"},
		{"negative backlog", func(in *capacity.SettingsInput) { in.MaxBacklog = -1 }, "max_backlog"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := base
			tc.edit(&in)
			_, err := capacity.QueueSettings(in)
			assertInputError(t, err, tc.field)
		})
	}
}
