// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules_test

import (
	"fmt"
	"strings"
	"testing"
)

// rampQueue is a queue declaring 100 msg/s, max_backlog 360,000 and rto
// on line 2, consumed by a Lambda function taking 1 msg/s per invocation
// through a mapping (mapping from line 13).
func rampQueue(rto, mapping string) string {
	return fmt.Sprintf(`resource "aws_sqs_queue" "orders" {
  tags = { "queuecap:arrival_rate" = 100, "queuecap:max_backlog" = 360000, "queuecap:rto_seconds" = %s }
}

resource "aws_lambda_function" "worker" {
  function_name = "worker"
  tags          = { "queuecap:per_consumer_rate" = 1 }
}

resource "aws_lambda_event_source_mapping" "orders" {
  event_source_arn = aws_sqs_queue.orders.arn
  function_name    = aws_lambda_function.worker.arn
%s}
`, rto, mapping)
}

func TestUnreachableWithinRTO(t *testing.T) {
	provisioned := func(minimum string) string {
		return "  provisioned_poller_config {\n    minimum_pollers = " + minimum + "\n    maximum_pollers = 125\n  }\n"
	}
	runRuleCases(t, "queuecap_unreachable_within_rto", []ruleCase{
		{
			// MATH.md's ramp: 1,250 clears 360,000 at 1,150 msg/s in 313 s,
			// within 400; but from the 100 the arrivals keep busy, at 300
			// a minute, the ramp lasts 230 s and drains 2.5 × 230² =
			// 132,250; the rest takes 198 s more: 428 s.
			name:  "standard mode's ramp",
			files: map[string]string{"main.tf": rampQueue("400", "")},
			issues: []issue{{Summary: "the mapping's ramp clears max_backlog 360,000 in 428.04 s, over rto_seconds 400: use provisioned_poller_config",
				Message: "(at most 1,250 concurrent invokes, standard mode's cap per mapping (lambda_sqs_standard_max_concurrency)) × 1 msg/s = 1,250 msg/s would clear max_backlog 360,000 in 313.04 s, within rto_seconds 400, but aws_lambda_function.worker is not at that ceiling when the backlog is: standard mode starts at 5 concurrent invokes (lambda_sqs_standard_initial_concurrency), or the 100 the arrivals keep busy (100 / 1) and adds at most 300 a minute (lambda_sqs_standard_ramp_per_minute), so it reaches the 1,000 concurrent invokes the headroom formula asks for after 180 s and its ceiling after 230 s; by rto_seconds it has drained 327,750 of the 360,000 messages, and clears it at 428.04 s",
				Start:   at(10, 1), End: at(10, 52),
				Facts: facts("arrival_rate", 100, "effective_arrival_rate", 100, "per_consumer_rate", 1, "max_consumers", 1250, "capacity", 1250, "surplus", 1150, "max_backlog", 360000, "rto_seconds", 400, "start_consumers", 100, "ramp_per_minute", 300, "ramp_seconds", 230, "required_consumers", 1000, "drained_by_rto", 327750, "drain_seconds", 428.04347826087)}},
		},
		{
			// maximum_concurrency 1,000 clears 360,000 at 900 msg/s in 400
			// s; the ramp reaches it after 180 s, having drained 2.5 ×
			// 180² = 81,000, and the rest takes 310 s: 490 s. The fix
			// replaces scaling_config, which AWS refuses beside pollers.
			name:  "standard mode with maximum_concurrency",
			files: map[string]string{"main.tf": rampQueue("450", "  scaling_config {\n    maximum_concurrency = 1000\n  }\n")},
			issues: []issue{{Summary: "the mapping's ramp clears max_backlog 360,000 in 490 s, over rto_seconds 450: use pollers, not scaling_config",
				Message: "maximum_concurrency 1,000 × 1 msg/s = 1,000 msg/s would clear max_backlog 360,000 in 400 s, within rto_seconds 450, but aws_lambda_function.worker is not at that ceiling when the backlog is: standard mode starts at 5 concurrent invokes (lambda_sqs_standard_initial_concurrency), or the 100 the arrivals keep busy (100 / 1) and adds at most 300 a minute (lambda_sqs_standard_ramp_per_minute), so it reaches the 900 concurrent invokes the headroom formula asks for after 160 s and its ceiling after 180 s; by rto_seconds it has drained 324,000 of the 360,000 messages, and clears it at 490 s",
				Start:   at(10, 1), End: at(10, 52),
				Facts: facts("arrival_rate", 100, "effective_arrival_rate", 100, "per_consumer_rate", 1, "max_consumers", 1000, "capacity", 1000, "surplus", 900, "max_backlog", 360000, "rto_seconds", 450, "start_consumers", 100, "ramp_per_minute", 300, "ramp_seconds", 180, "required_consumers", 900, "drained_by_rto", 324000, "drain_seconds", 490)}},
		},
		{
			// The same ramp for a function on Lambda Managed Instances
			// (its capacity provider allows 1,600, over the mapping's
			// 1,250): from 100 to 1,000 is 10-fold, and AWS may throttle
			// traffic that more than doubles within 5 minutes.
			name: "on Lambda Managed Instances",
			files: map[string]string{"main.tf": strings.Replace(rampQueue("400", ""), `tags          = { "queuecap:per_consumer_rate" = 1 }`,
				`tags          = { "queuecap:per_consumer_rate" = 1 }
  capacity_provider_config {
    lambda_managed_instances_capacity_provider_config {
      capacity_provider_arn = aws_lambda_capacity_provider.workers.arn
    }
  }`, 1) + `
resource "aws_lambda_capacity_provider" "workers" {
  name                             = "workers"
  capacity_provider_scaling_config = [{ max_vcpu_count = 1 }]
}
`},
			issues: []issue{{Summary: "the mapping's ramp clears max_backlog 360,000 in 428.04 s, over rto_seconds 400: use provisioned_poller_config",
				Message: "(at most 1,250 concurrent invokes, standard mode's cap per mapping (lambda_sqs_standard_max_concurrency)) × 1 msg/s = 1,250 msg/s would clear max_backlog 360,000 in 313.04 s, within rto_seconds 400, but aws_lambda_function.worker is not at that ceiling when the backlog is: standard mode starts at 5 concurrent invokes (lambda_sqs_standard_initial_concurrency), or the 100 the arrivals keep busy (100 / 1) and adds at most 300 a minute (lambda_sqs_standard_ramp_per_minute), so it reaches the 1,000 concurrent invokes the headroom formula asks for after 180 s and its ceiling after 230 s; by rto_seconds it has drained 327,750 of the 360,000 messages, and clears it at 428.04 s" +
					"; on Lambda Managed Instances it must also grow 10-fold, from 100 to 1,000, and AWS may throttle traffic that more than doubles within 300 s (lambda_managed_instances_doubling_window_seconds) while it adds instances, so recovery may take longer still",
				Start: at(15, 1), End: at(15, 52),
				Facts: facts("arrival_rate", 100, "effective_arrival_rate", 100, "per_consumer_rate", 1, "max_consumers", 1250, "capacity", 1250, "surplus", 1150, "max_backlog", 360000, "rto_seconds", 400, "start_consumers", 100, "ramp_per_minute", 300, "ramp_seconds", 230, "required_consumers", 1000, "drained_by_rto", 327750, "drain_seconds", 428.04347826087)}},
		},
		{
			name:  "standard mode's ramp within the RTO",
			files: map[string]string{"main.tf": rampQueue("430", "")},
		},
		{
			// The ceiling itself misses it: queuecap_insufficient_headroom's.
			name:  "the ceiling misses the RTO",
			files: map[string]string{"main.tf": rampQueue("300", "")},
		},
		{
			// 1,000 a minute: the ramp lasts 69 s and drains 39,675; 347.5 s.
			name:  "provisioned mode's ramp",
			files: map[string]string{"main.tf": rampQueue("340", provisioned("2"))},
			issues: []issue{{Summary: "the mapping's ramp clears max_backlog 360,000 in 347.54 s, over rto_seconds 340: raise minimum_pollers",
				Message: "(maximum_pollers 125 × 10 = 1,250 concurrent invokes) × 1 msg/s = 1,250 msg/s would clear max_backlog 360,000 in 313.04 s, within rto_seconds 340, but aws_lambda_function.worker is not at that ceiling when the backlog is: provisioned mode keeps minimum_pollers 2 × 10 = 20 concurrent invokes warm, or the 100 the arrivals keep busy (100 / 1) and adds at most 1,000 a minute (lambda_sqs_provisioned_ramp_per_minute), so it reaches the 1,159 concurrent invokes the headroom formula asks for after 63.54 s and its ceiling after 69 s; by rto_seconds it has drained 351,325 of the 360,000 messages, and clears it at 347.54 s",
				Start:   at(14, 5), End: at(14, 24),
				Facts: facts("arrival_rate", 100, "effective_arrival_rate", 100, "per_consumer_rate", 1, "max_consumers", 1250, "capacity", 1250, "surplus", 1150, "max_backlog", 360000, "rto_seconds", 340, "start_consumers", 100, "ramp_per_minute", 1000, "ramp_seconds", 69, "required_consumers", 1159, "drained_by_rto", 351325, "drain_seconds", 347.54347826087)}},
		},
		{
			name:  "provisioned mode within the RTO",
			files: map[string]string{"main.tf": rampQueue("400", provisioned("2"))},
		},
		{
			// 100 pollers keep 1,000 warm: 314.7 s.
			name:  "minimum_pollers warm enough",
			files: map[string]string{"main.tf": rampQueue("340", provisioned("100"))},
		},
		{
			name:  "minimum_pollers not known before apply",
			files: map[string]string{"main.tf": "variable \"pollers\" {}\n\n" + rampQueue("340", provisioned("var.pollers"))},
			skips: []skip{{Reason: "minimum_pollers of aws_lambda_event_source_mapping.orders comes from var.pollers, which has no value here (set it with --var, a tfvars file or TF_VAR_pollers)", Line: 16}},
		},
		{
			name:  "a FIFO queue",
			files: map[string]string{"main.tf": strings.Replace(rampQueue("400", ""), "resource \"aws_sqs_queue\" \"orders\" {\n", "resource \"aws_sqs_queue\" \"orders\" {\n  fifo_queue = true\n", 1)},
			skips: []skip{{Reason: "aws_sqs_queue.orders is a FIFO queue (or may be): its mapping scales with the active message groups, not on the ramp AWS publishes for standard queues", Line: 1}},
		},
		{
			name:  "rto_seconds not known before apply",
			files: map[string]string{"main.tf": "variable \"rto\" {}\n\n" + rampQueue("var.rto", "")},
			skips: []skip{{Reason: "rto_seconds of aws_sqs_queue.orders is not known before apply", Line: 4}},
		},
	})
}
