// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules_test

import (
	"fmt"
	"testing"
)

func TestRetentionShorterThanDrain(t *testing.T) {
	backlog := `"queuecap:arrival_rate" = 10000, "queuecap:max_backlog" = 3600000`
	neverDrains := issue{
		Message: "message_retention_seconds 345,600 (the default) is finite but max_backlog 3,600,000 never drains: max_size 25 × 400 msg/s = 10,000 msg/s leaves a surplus of 0 msg/s over the declared arrival rate 10,000 msg/s, so every message of the backlog expires after 345,600 s",
		Start:   at(1, 1), End: at(1, 34),
		Facts: facts("arrival_rate", 10000, "effective_arrival_rate", 10000, "per_consumer_rate", 400, "max_consumers", 25, "capacity", 10000, "surplus", 0, "max_backlog", 3600000, "message_retention_seconds", 345600),
	}
	runRuleCases(t, "queuecap_retention_shorter_than_drain", []ruleCase{
		{
			name:  "messages expire before the backlog drains",
			files: map[string]string{"main.tf": tagged(backlog, "message_retention_seconds = 1200", "32")},
			issues: []issue{{Summary: "message_retention_seconds 1,200 expires messages before max_backlog drains in 1,285.71 s: raise it to at least 1,286",
				Message: "message_retention_seconds 1,200 is shorter than the 3,600,000 / (12,800 − 10,000) = 1,285.71 s it takes max_size 32 × 400 msg/s = 12,800 msg/s to drain max_backlog 3,600,000: messages expire during recovery",
				Start:   at(4, 3), End: at(4, 35),
				Facts: facts("arrival_rate", 10000, "effective_arrival_rate", 10000, "per_consumer_rate", 400, "max_consumers", 32, "capacity", 12800, "surplus", 2800, "max_backlog", 3600000, "message_retention_seconds", 1200, "drain_seconds", 1285.71428571429),
			}},
		},
		{
			// ceil((1,285.71 + 5 × 180) × 1.5) = 3,279 s outlives the drain.
			name:  "retention from queue_settings",
			files: map[string]string{"main.tf": tagged(backlog, "message_retention_seconds = "+queueSettings(32, 30), "32")},
		},
		{
			// Settings computed for a fleet of 1,000 and a 1 s timeout need
			// ceil((9.23 + 5 × 6) × 1.5) = 59 s, so the least of 60 s; the
			// fleet of 32 takes 1,285.71 s.
			name:  "retention from queue_settings for another fleet",
			files: map[string]string{"main.tf": tagged(backlog, "message_retention_seconds = "+queueSettings(1000, 1), "32")},
			issues: []issue{{Summary: "message_retention_seconds 60 expires messages before max_backlog drains in 1,285.71 s: raise it to at least 1,286",
				Message: "message_retention_seconds 60 is shorter than the 3,600,000 / (12,800 − 10,000) = 1,285.71 s it takes max_size 32 × 400 msg/s = 12,800 msg/s to drain max_backlog 3,600,000: messages expire during recovery",
				Start:   at(4, 3), End: at(4, 239),
				Facts: facts("arrival_rate", 10000, "effective_arrival_rate", 10000, "per_consumer_rate", 400, "max_consumers", 32, "capacity", 12800, "surplus", 2800, "max_backlog", 3600000, "message_retention_seconds", 60, "drain_seconds", 1285.71428571429),
			}},
		},
		{
			name:  "retention outlasts the drain",
			files: map[string]string{"main.tf": tagged(backlog, "message_retention_seconds = 1800", "32")},
		},
		{
			name:   "the default retention and a backlog that never drains",
			files:  map[string]string{"main.tf": tagged(backlog, "", "25")},
			issues: []issue{neverDrains},
		},
		{
			name:   "retention set to null is the default",
			files:  map[string]string{"main.tf": tagged(backlog, "message_retention_seconds = var.retention", "25") + "variable \"retention\" {\n  type    = number\n  default = null\n}\n"},
			issues: []issue{neverDrains},
		},
		{
			name:  "retention unknown before apply",
			files: map[string]string{"main.tf": tagged(backlog, "message_retention_seconds = var.retention", "32") + "variable \"retention\" {\n  type = number\n}\n"},
			skips: []skip{{Reason: "message_retention_seconds of aws_sqs_queue.orders comes from var.retention, which has no value here (set it with --var, a tfvars file or TF_VAR_retention)", Line: 4}},
		},
		{
			name:  "max_backlog unknown before apply",
			files: map[string]string{"main.tf": tagged(`"queuecap:arrival_rate" = 10000, "queuecap:max_backlog" = var.backlog`, "message_retention_seconds = 1200", "32") + "variable \"backlog\" {}\n"},
			skips: []skip{{Reason: "max_backlog of aws_sqs_queue.orders is not known before apply", Line: 3}},
		},
		{
			name:  "no max_backlog declared",
			files: map[string]string{"main.tf": tagged(`"queuecap:arrival_rate" = 10000`, "message_retention_seconds = 60", "25")},
		},
		{
			name:  "max_backlog from .queuecap.hcl",
			files: map[string]string{"main.tf": tagged(`"queuecap:arrival_rate" = 10000`, "message_retention_seconds = 1200", "32")},
			config: `queue "aws_sqs_queue.orders" {
  max_backlog = 3600000
}
`,
			issues: []issue{{Summary: "message_retention_seconds 1,200 expires messages before max_backlog drains in 1,285.71 s: raise it to at least 1,286",
				Message: "message_retention_seconds 1,200 is shorter than the 3,600,000 / (12,800 − 10,000) = 1,285.71 s it takes max_size 32 × 400 msg/s = 12,800 msg/s to drain max_backlog 3,600,000: messages expire during recovery",
				Start:   at(4, 3), End: at(4, 35),
				Facts: facts("arrival_rate", 10000, "effective_arrival_rate", 10000, "per_consumer_rate", 400, "max_consumers", 32, "capacity", 12800, "surplus", 2800, "max_backlog", 3600000, "message_retention_seconds", 1200, "drain_seconds", 1285.71428571429),
			}},
		},
	})
}

// queueSettings is the queue_settings function's retention for a fleet of
// that many consumers of 400 msg/s against 10,000 msg/s and a backlog of
// 3.6 M, consumed by a Lambda function with that timeout.
func queueSettings(consumers, lambdaTimeout int) string {
	return fmt.Sprintf("provider::queuecap::queue_settings({ arrival_rate = 10000, per_consumer_rate = 400, consumers = %d, max_backlog = 3600000, lambda_timeout_seconds = %d, min_retention_seconds = 60 }).message_retention_seconds",
		consumers, lambdaTimeout)
}
