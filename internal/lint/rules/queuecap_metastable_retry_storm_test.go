// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules_test

import (
	"fmt"
	"testing"
)

func TestMetastableRetryStorm(t *testing.T) {
	// The seed's storm: λ 10,000 msg/s, μ 400 msg/s, a backlog of 3.6 M.
	seed := `"queuecap:arrival_rate" = 10000, "queuecap:max_backlog" = 3600000`
	storm := seed + `, "queuecap:retries_per_timeout" = 1.5`
	// twoGroups is the seed's queue consumed by two auto scaling groups of
	// 16 workers at 400 msg/s.
	twoGroups := func(tags string) string {
		out := fmt.Sprintf("resource \"aws_sqs_queue\" \"orders\" {\n  tags = { %s }\n}\n", tags)
		for _, name := range []string{"blue", "green"} {
			out += fmt.Sprintf(`
resource "aws_autoscaling_group" "%s" {
  max_size = 16
  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = 400
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
}
`, name)
		}
		return out
	}
	runRuleCases(t, "queuecap_metastable_retry_storm", []ruleCase{
		{
			name:   "the seed's headroom fleet under 1.5 retries per timeout",
			files:  map[string]string{"main.tf": tagged(storm, "", "32")},
			issues: []issue{{Summary: "max_size 32 does not survive the retry storm from max_backlog 3,600,000: raise it to 63", Message: "max_size 32 × 400 msg/s = 12,800 msg/s drains max_backlog 3,600,000 in 1,285.71 s at the declared arrival rate 10,000 msg/s without timeout retries, but not within 36,000 s when each timed-out message (wait over 30 s) is retried 1.5 times: arrivals climb to 25,000 msg/s and the depth to 4.43e8 messages; 63 consumers drain it within 36,000 s under the same storm", Start: at(9, 3), End: at(9, 16), Facts: facts("arrival_rate", 10000, "effective_arrival_rate", 10000, "per_consumer_rate", 400, "max_consumers", 32, "capacity", 12800, "surplus", 2800, "max_backlog", 3600000, "retries_per_timeout", 1.5, "timeout_window_seconds", 30, "max_seconds", 36000, "drain_seconds_without_retries", 1285.71428571429, "peak_depth", 442787800, "peak_effective_arrival_rate", 25000, "min_consumers_to_drain", 63)}},
		},
		{
			name:   "one retry per timeout",
			files:  map[string]string{"main.tf": tagged(seed+`, "queuecap:retries_per_timeout" = 1`, "", "32")},
			issues: []issue{{Message: "max_size 32 × 400 msg/s = 12,800 msg/s drains max_backlog 3,600,000 in 1,285.71 s at the declared arrival rate 10,000 msg/s without timeout retries, but not within 36,000 s when each timed-out message (wait over 30 s) is retried once: arrivals climb to 20,000 msg/s and the depth to 2.63e8 messages; 51 consumers drain it within 36,000 s under the same storm", Start: at(9, 3), End: at(9, 16), Facts: facts("arrival_rate", 10000, "effective_arrival_rate", 10000, "per_consumer_rate", 400, "max_consumers", 32, "capacity", 12800, "surplus", 2800, "max_backlog", 3600000, "retries_per_timeout", 1, "timeout_window_seconds", 30, "max_seconds", 36000, "drain_seconds_without_retries", 1285.71428571429, "peak_depth", 262792800, "peak_effective_arrival_rate", 20000, "min_consumers_to_drain", 51)}},
		},
		{
			name:  "no retries per timeout: nothing to storm",
			files: map[string]string{"main.tf": tagged(seed+`, "queuecap:retries_per_timeout" = 0`, "", "32")},
		},
		{
			name:  "retries_per_timeout not declared",
			files: map[string]string{"main.tf": tagged(seed, "", "32")},
		},
		{
			name:  "the steady-state fleet: zero surplus is another rule's",
			files: map[string]string{"main.tf": tagged(storm, "", "25")},
		},
		{
			name:   "62 consumers still storm",
			files:  map[string]string{"main.tf": tagged(storm, "", "62")},
			issues: []issue{{Message: "max_size 62 × 400 msg/s = 24,800 msg/s drains max_backlog 3,600,000 in 243.24 s at the declared arrival rate 10,000 msg/s without timeout retries, but not within 36,000 s when each timed-out message (wait over 30 s) is retried 1.5 times: arrivals climb to 25,000 msg/s and the depth to 1.08e7 messages; 63 consumers drain it within 36,000 s under the same storm", Start: at(9, 3), End: at(9, 16), Facts: facts("arrival_rate", 10000, "effective_arrival_rate", 10000, "per_consumer_rate", 400, "max_consumers", 62, "capacity", 24800, "surplus", 14800, "max_backlog", 3600000, "retries_per_timeout", 1.5, "timeout_window_seconds", 30, "max_seconds", 36000, "drain_seconds_without_retries", 243.243243243243, "peak_depth", 10799800, "peak_effective_arrival_rate", 25000, "min_consumers_to_drain", 63)}},
		},
		{
			// 63 × 400 = 25200 msg/s exceeds even 10000 × (1 + 1.5) = 25000.
			name:  "63 consumers drain the storm",
			files: map[string]string{"main.tf": tagged(storm, "", "63")},
		},
		{
			name:   "a longer timeout window",
			files:  map[string]string{"main.tf": tagged(storm+`, "queuecap:timeout_window_seconds" = 60`, "", "32")},
			issues: []issue{{Message: "max_size 32 × 400 msg/s = 12,800 msg/s drains max_backlog 3,600,000 in 1,285.71 s at the declared arrival rate 10,000 msg/s without timeout retries, but not within 36,000 s when each timed-out message (wait over 60 s) is retried 1.5 times: arrivals climb to 25,000 msg/s and the depth to 4.43e8 messages; 63 consumers drain it within 36,000 s under the same storm", Start: at(9, 3), End: at(9, 16), Facts: facts("arrival_rate", 10000, "effective_arrival_rate", 10000, "per_consumer_rate", 400, "max_consumers", 32, "capacity", 12800, "surplus", 2800, "max_backlog", 3600000, "retries_per_timeout", 1.5, "timeout_window_seconds", 60, "max_seconds", 36000, "drain_seconds_without_retries", 1285.71428571429, "peak_depth", 442787800, "peak_effective_arrival_rate", 25000, "min_consumers_to_drain", 63)}},
		},
		{
			// Below the depth d* = (C − λ) × W / k = 2800 × 3600 / 1.5 =
			// 6.72 M, retries grow slower than the surplus drains.
			name:  "a window long enough to absorb the backlog",
			files: map[string]string{"main.tf": tagged(storm+`, "queuecap:timeout_window_seconds" = 3600`, "", "32")},
		},
		{
			name:   "ordinary retries raise the base arrival rate",
			files:  map[string]string{"main.tf": tagged(storm+`, "queuecap:retry_rate" = 0.1, "queuecap:avg_retries" = 2`, "", "32")},
			issues: []issue{{Message: "max_size 32 × 400 msg/s = 12,800 msg/s drains max_backlog 3,600,000 in 4,500 s at the effective arrival rate 10,000 × (1 + 0.1 × 2) = 12,000 msg/s without timeout retries, but not within 36,000 s when each timed-out message (wait over 30 s) is retried 1.5 times: arrivals climb to 30,000 msg/s and the depth to 6.23e8 messages; 76 consumers drain it within 36,000 s under the same storm", Start: at(9, 3), End: at(9, 16), Facts: facts("arrival_rate", 10000, "effective_arrival_rate", 12000, "per_consumer_rate", 400, "max_consumers", 32, "capacity", 12800, "surplus", 800, "max_backlog", 3600000, "retries_per_timeout", 1.5, "timeout_window_seconds", 30, "max_seconds", 36000, "drain_seconds_without_retries", 4500, "peak_depth", 622782800, "peak_effective_arrival_rate", 30000, "min_consumers_to_drain", 76)}},
		},
		{
			// 20 M / (10400 − 10000) = 50000 s > 36000 s: a slow recovery,
			// queuecap_insufficient_headroom's and retention's findings.
			name:  "too slow even without retries is not a storm",
			files: map[string]string{"main.tf": tagged(`"queuecap:arrival_rate" = 10000, "queuecap:max_backlog" = 20000000, "queuecap:retries_per_timeout" = 1.5`, "", "26")},
		},
		{
			name:  "a storm that grows slowly",
			files: map[string]string{"main.tf": tagged(`"queuecap:arrival_rate" = 100, "queuecap:max_backlog" = 36000, "queuecap:retries_per_timeout" = 3.1`, "", "1")},
			// 100 × (1 + 3.1) = 410 msg/s against 400: the depth grows by
			// 10 msg/s, and a depth under a million is written out.
			issues: []issue{{Message: "max_size 1 × 400 msg/s = 400 msg/s drains max_backlog 36,000 in 120 s at the declared arrival rate 100 msg/s without timeout retries, but not within 36,000 s when each timed-out message (wait over 30 s) is retried 3.1 times: arrivals climb to 410 msg/s and the depth to 395,990 messages; 2 consumers drain it within 36,000 s under the same storm", Start: at(9, 3), End: at(9, 15), Facts: facts("arrival_rate", 100, "effective_arrival_rate", 100, "per_consumer_rate", 400, "max_consumers", 1, "capacity", 400, "surplus", 300, "max_backlog", 36000, "retries_per_timeout", 3.1, "timeout_window_seconds", 30, "max_seconds", 36000, "drain_seconds_without_retries", 120, "peak_depth", 395990, "peak_effective_arrival_rate", 410, "min_consumers_to_drain", 2)}},
		},
		{
			name:  "max_backlog 0",
			files: map[string]string{"main.tf": tagged(`"queuecap:arrival_rate" = 10000, "queuecap:max_backlog" = 0, "queuecap:retries_per_timeout" = 1.5`, "", "32")},
		},
		{
			name:   "two fleets: their total capacity, no consumer count",
			files:  map[string]string{"main.tf": twoGroups(storm)},
			issues: []issue{{Summary: "timeout retries keep max_backlog 3,600,000 from draining within 36,000 s: add capacity or retry less", Message: "aws_autoscaling_group.blue max_size 16 × 400 msg/s + aws_autoscaling_group.green max_size 16 × 400 msg/s = 12,800 msg/s drains max_backlog 3,600,000 in 1,285.71 s at the declared arrival rate 10,000 msg/s without timeout retries, but not within 36,000 s when each timed-out message (wait over 30 s) is retried 1.5 times: arrivals climb to 25,000 msg/s and the depth to 4.43e8 messages", Start: at(1, 1), End: at(1, 34), Facts: facts("arrival_rate", 10000, "effective_arrival_rate", 10000, "max_consumers", 32, "capacity", 12800, "surplus", 2800, "max_backlog", 3600000, "retries_per_timeout", 1.5, "timeout_window_seconds", 30, "max_seconds", 36000, "drain_seconds_without_retries", 1285.71428571429, "peak_depth", 442787800, "peak_effective_arrival_rate", 25000)}},
		},
		{
			name: "declared in .queuecap.hcl",
			files: map[string]string{"main.tf": `resource "aws_sqs_queue" "orders" {
  name = "orders"
}

resource "aws_autoscaling_group" "workers" {
  max_size = 32
}
`},
			config: `queue "aws_sqs_queue.orders" {
  arrival_rate           = 10000
  per_consumer_rate      = 400
  max_backlog            = 3600000
  retries_per_timeout    = 1.5
  timeout_window_seconds = 30
  consumer               = "aws_autoscaling_group.workers"
}
`,
			issues: []issue{{Message: "max_size 32 × 400 msg/s = 12,800 msg/s drains max_backlog 3,600,000 in 1,285.71 s at the declared arrival rate 10,000 msg/s without timeout retries, but not within 36,000 s when each timed-out message (wait over 30 s) is retried 1.5 times: arrivals climb to 25,000 msg/s and the depth to 4.43e8 messages; 63 consumers drain it within 36,000 s under the same storm", Start: at(6, 3), End: at(6, 16), Facts: facts("arrival_rate", 10000, "effective_arrival_rate", 10000, "per_consumer_rate", 400, "max_consumers", 32, "capacity", 12800, "surplus", 2800, "max_backlog", 3600000, "retries_per_timeout", 1.5, "timeout_window_seconds", 30, "max_seconds", 36000, "drain_seconds_without_retries", 1285.71428571429, "peak_depth", 442787800, "peak_effective_arrival_rate", 25000, "min_consumers_to_drain", 63)}},
		},
		{
			name: "a queuecap_consumers data source sizes the fleet, the queue declares the storm",
			files: map[string]string{"main.tf": `data "queuecap_consumers" "workers" {
  arrival_rate      = 10000
  per_consumer_rate = 400
  max_backlog       = 5000000
  rto_seconds       = 1800
}

resource "aws_sqs_queue" "orders" {
  tags = { "queuecap:retries_per_timeout" = "1.5" }
}

resource "aws_autoscaling_group" "workers" {
  max_size = data.queuecap_consumers.workers.required_consumers
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
}
`},
			issues: []issue{{Message: "max_size 32 × 400 msg/s = 12,800 msg/s drains max_backlog 5,000,000 in 1,785.71 s at the declared arrival rate 10,000 msg/s without timeout retries, but not within 36,000 s when each timed-out message (wait over 30 s) is retried 1.5 times: arrivals climb to 25,000 msg/s and the depth to 4.44e8 messages; 63 consumers drain it within 36,000 s under the same storm", Start: at(13, 3), End: at(13, 64), Facts: facts("arrival_rate", 10000, "effective_arrival_rate", 10000, "per_consumer_rate", 400, "max_consumers", 32, "capacity", 12800, "surplus", 2800, "max_backlog", 5000000, "retries_per_timeout", 1.5, "timeout_window_seconds", 30, "max_seconds", 36000, "drain_seconds_without_retries", 1785.71428571429, "peak_depth", 444187800, "peak_effective_arrival_rate", 25000, "min_consumers_to_drain", 63)}},
		},
		{
			name:  "retries_per_timeout without max_backlog",
			files: map[string]string{"main.tf": tagged(`"queuecap:arrival_rate" = 10000, "queuecap:retries_per_timeout" = 1.5`, "", "32")},
			skips: []skip{{Reason: "retries_per_timeout of aws_sqs_queue.orders is declared without max_backlog, the backlog the retry storm starts from", Line: 3}},
		},
		{
			name:  "retries_per_timeout unknown before apply",
			files: map[string]string{"main.tf": tagged(seed+`, "queuecap:retries_per_timeout" = var.retries`, "", "32") + "variable \"retries\" {}\n"},
			skips: []skip{{Reason: "retries_per_timeout of aws_sqs_queue.orders is not known before apply", Line: 3}},
		},
		{
			name:  "max_backlog unknown before apply",
			files: map[string]string{"main.tf": tagged(`"queuecap:arrival_rate" = 10000, "queuecap:max_backlog" = var.backlog, "queuecap:retries_per_timeout" = 1.5`, "", "32") + "variable \"backlog\" {}\n"},
			skips: []skip{{Reason: "max_backlog of aws_sqs_queue.orders is not known before apply", Line: 3}},
		},
		{
			name:  "timeout_window_seconds unknown before apply",
			files: map[string]string{"main.tf": tagged(storm+`, "queuecap:timeout_window_seconds" = var.window`, "", "32") + "variable \"window\" {}\n"},
			skips: []skip{{Reason: "timeout_window_seconds of aws_sqs_queue.orders is not known before apply", Line: 3}},
		},
		{
			name:  "zero surplus: an unknown window does not matter",
			files: map[string]string{"main.tf": tagged(storm+`, "queuecap:timeout_window_seconds" = var.window`, "", "25") + "variable \"window\" {}\n"},
		},
		{
			name:  "max_size unknown before apply",
			files: map[string]string{"main.tf": tagged(storm, "", "var.size") + "variable \"size\" {\n  type = number\n}\n"},
			skips: []skip{{Reason: "max_size of aws_autoscaling_group.workers comes from var.size, which has no value here (set it with --var, a tfvars file or TF_VAR_size)", Line: 9}},
		},
		{
			name:   "a variable set with --var is known",
			files:  map[string]string{"main.tf": tagged(seed+`, "queuecap:retries_per_timeout" = var.retries`, "", "32") + "variable \"retries\" {}\n"},
			vars:   []string{"retries=1.5"},
			issues: []issue{{Message: "max_size 32 × 400 msg/s = 12,800 msg/s drains max_backlog 3,600,000 in 1,285.71 s at the declared arrival rate 10,000 msg/s without timeout retries, but not within 36,000 s when each timed-out message (wait over 30 s) is retried 1.5 times: arrivals climb to 25,000 msg/s and the depth to 4.43e8 messages; 63 consumers drain it within 36,000 s under the same storm", Start: at(9, 3), End: at(9, 16), Facts: facts("arrival_rate", 10000, "effective_arrival_rate", 10000, "per_consumer_rate", 400, "max_consumers", 32, "capacity", 12800, "surplus", 2800, "max_backlog", 3600000, "retries_per_timeout", 1.5, "timeout_window_seconds", 30, "max_seconds", 36000, "drain_seconds_without_retries", 1285.71428571429, "peak_depth", 442787800, "peak_effective_arrival_rate", 25000, "min_consumers_to_drain", 63)}},
		},
		{
			name:  "negative retries_per_timeout",
			files: map[string]string{"main.tf": tagged(seed+`, "queuecap:retries_per_timeout" = -1`, "", "32")},
			err:   "main.tf:3:112: Invalid queuecap tag: tag queuecap:retries_per_timeout value must be at least 0, got: -1",
		},
	})
}
