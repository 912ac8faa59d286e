// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

func FuzzQueueSettings(f *testing.F) {
	f.Add(10000.0, 400.0, int64(32), 0.0, 0.0, 5e6, 0.5, 345600.0, 30.0, 0.0, 0.0)
	f.Add(10000.0, 400.0, int64(64), 0.1, 7.5, 1e9, 0.5, 60.0, 0.0, 45.0, 1.0)
	f.Add(1.0, 1.0, int64(2), 0.0, 0.0, 0.0, 0.0, 1209600.0, 900.0, 0.0, 0.0)
	f.Fuzz(func(t *testing.T, lambda, mu float64, c int64, r, k, backlog, margin, minRetention, lambdaTimeout, processing, visibilityMargin float64) {
		in := capacity.SettingsInput{ArrivalRate: lambda, PerConsumerRate: mu, Consumers: c, Retries: capacity.Retries{Rate: r, Average: k},
			MaxBacklog: backlog, RetentionMargin: margin, MinRetentionSeconds: minRetention,
			LambdaTimeoutSeconds: lambdaTimeout, MaxProcessingSeconds: processing, VisibilityMargin: visibilityMargin}
		s, err := capacity.QueueSettings(in)
		if err != nil {
			checkFuzzError(t, err, "arrival_rate", "per_consumer_rate", "consumers", "retry_rate", "avg_retries", "max_backlog",
				"retention_margin", "min_retention_seconds", "lambda_timeout_seconds", "max_processing_seconds", "visibility_margin")
			return
		}
		checkFinite(t, map[string]any{"effective": s.EffectiveArrivalRate, "surplus": s.Surplus, "drain": s.DrainSeconds, "redelivery": s.RedeliverySeconds})
		if s.Retention < capacity.MinRetentionSeconds || s.Retention > capacity.MaxRetentionSeconds || float64(s.Retention) < minRetention {
			t.Errorf("retention %d outside [max(60, %v), %d]", s.Retention, minRetention, capacity.MaxRetentionSeconds)
		}
		if float64(s.Retention) < s.DrainSeconds+s.RedeliverySeconds {
			t.Errorf("retention %d shorter than the drain %v plus redeliveries %v", s.Retention, s.DrainSeconds, s.RedeliverySeconds)
		}
		if s.DeadLetterRetention != capacity.MaxRetentionSeconds || (s.DeadLetterRetention <= s.Retention) != s.DeadLetterNotLonger {
			t.Errorf("dead-letter retention %d against %d (not longer %v)", s.DeadLetterRetention, s.Retention, s.DeadLetterNotLonger)
		}
		if s.VisibilityTimeout < 1 || s.VisibilityTimeout > capacity.MaxVisibilityTimeoutSeconds || s.MaxReceiveCount < capacity.MinLambdaReceiveCount || s.MaxReceiveCount > capacity.MaxReceiveCount {
			t.Errorf("visibility %d, receives %d out of SQS's ranges", s.VisibilityTimeout, s.MaxReceiveCount)
		}
	})
}
