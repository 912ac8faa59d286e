// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules_test

import (
	"fmt"
	"testing"
)

// lambdaMapped is a queue declaring arrival msg/s consumed by a Lambda
// function declaring 10 msg/s per invocation, with fn in the function and
// mapping in its event source mapping.
func lambdaMapped(arrival, fn, mapping string) string {
	return fmt.Sprintf(`resource "aws_sqs_queue" "orders" {
  tags = { "queuecap:arrival_rate" = %s }
}

resource "aws_lambda_function" "worker" {
  function_name = "worker"
  tags          = { "queuecap:per_consumer_rate" = 10 }%s
}

resource "aws_lambda_event_source_mapping" "orders" {
  event_source_arn = aws_sqs_queue.orders.arn
  function_name    = aws_lambda_function.worker.arn%s
}
`, arrival, fn, mapping)
}

// The fleet's ceiling is the smallest of the caps that apply, and the
// finding names the one that binds.
func TestLambdaCeiling(t *testing.T) {
	const never = ": surplus 0 msg/s, any backlog never drains"
	pollers := func(p string) string {
		return "\n  provisioned_poller_config {\n" + p + "  }"
	}
	runRuleCases(t, "queuecap_zero_surplus", []ruleCase{
		{
			// No reserved concurrency, no maximum_concurrency: standard
			// mode's 1,250 per mapping is an upper bound (the account's
			// unreserved concurrency may be lower), so a fleet that cannot
			// keep up at it cannot at all.
			name:  "standard mode's cap binds",
			files: map[string]string{"main.tf": lambdaMapped("12500", "", "")},
			issues: []issue{{Summary: "the consumers' 12,500 msg/s cannot drain any backlog: raise their capacity above 12,500 msg/s",
				Message: "(at most 1,250 concurrent invokes, standard mode's cap per mapping (lambda_sqs_standard_max_concurrency)) × 10 msg/s = 12,500 msg/s does not exceed the declared arrival rate 12,500 msg/s" + never,
				Start:   at(10, 1), End: at(10, 52),
				Facts: facts("arrival_rate", 12500, "effective_arrival_rate", 12500, "per_consumer_rate", 10, "max_consumers", 1250, "capacity", 12500, "surplus", 0)}},
		},
		{
			// 1,001 concurrent invokes drain it, and AWS takes no
			// maximum_concurrency over 1,000: the advice is pollers.
			name:  "advice over AWS's most maximum_concurrency",
			files: map[string]string{"main.tf": lambdaMapped("10000", "", "\n  scaling_config {\n    maximum_concurrency = 900\n  }")},
			issues: []issue{{Summary: "maximum_concurrency 900 cannot drain any backlog: needs 1,001 > AWS's 1,000: use maximum_pollers 101",
				Message: "maximum_concurrency 900 × 10 msg/s = 9,000 msg/s does not exceed the declared arrival rate 10,000 msg/s: surplus -1,000 msg/s, any backlog never drains",
				Start:   at(14, 5), End: at(14, 30),
				Facts: facts("arrival_rate", 10000, "effective_arrival_rate", 10000, "per_consumer_rate", 10, "max_consumers", 900, "capacity", 9000, "surplus", -1000)}},
		},
		{
			name:  "standard mode's cap with room",
			files: map[string]string{"main.tf": lambdaMapped("12499", "", "")},
		},
		{
			name:  "reserved concurrency over standard mode's cap",
			files: map[string]string{"main.tf": lambdaMapped("12500", "\n  reserved_concurrent_executions = 3000", "")},
			issues: []issue{{Summary: "the consumers' 12,500 msg/s cannot drain any backlog: raise their capacity above 12,500 msg/s",
				Message: "(at most 1,250 concurrent invokes, standard mode's cap per mapping (lambda_sqs_standard_max_concurrency)) × 10 msg/s = 12,500 msg/s does not exceed the declared arrival rate 12,500 msg/s" + never,
				Start:   at(11, 1), End: at(11, 52),
				Facts: facts("arrival_rate", 12500, "effective_arrival_rate", 12500, "per_consumer_rate", 10, "max_consumers", 1250, "capacity", 12500, "surplus", 0)}},
		},
		{
			name:  "reserved concurrency under maximum_concurrency",
			files: map[string]string{"main.tf": lambdaMapped("300", "\n  reserved_concurrent_executions = 30", "\n  scaling_config {\n    maximum_concurrency = 50\n  }")},
			issues: []issue{{Summary: "reserved_concurrent_executions 30 cannot drain any backlog: raise it to 31",
				Message: "reserved_concurrent_executions 30 × 10 msg/s = 300 msg/s does not exceed the declared arrival rate 300 msg/s" + never,
				Start:   at(8, 3), End: at(8, 38),
				Facts: facts("arrival_rate", 300, "effective_arrival_rate", 300, "per_consumer_rate", 10, "max_consumers", 30, "capacity", 300, "surplus", 0)}},
		},
		{
			name:  "maximum_pollers binds",
			files: map[string]string{"main.tf": lambdaMapped("2000", "", pollers("    maximum_pollers = 20\n"))},
			issues: []issue{{Summary: "the consumers' 2,000 msg/s cannot drain any backlog: raise their capacity above 2,000 msg/s",
				Message: "(maximum_pollers 20 × 10 = 200 concurrent invokes) × 10 msg/s = 2,000 msg/s does not exceed the declared arrival rate 2,000 msg/s" + never,
				Start:   at(14, 5), End: at(14, 25),
				Facts: facts("arrival_rate", 2000, "effective_arrival_rate", 2000, "per_consumer_rate", 10, "max_consumers", 200, "capacity", 2000, "surplus", 0)}},
		},
		{
			name:  "maximum_pollers' default",
			files: map[string]string{"main.tf": lambdaMapped("20000", "", pollers("    minimum_pollers = 2\n"))},
			issues: []issue{{Summary: "the consumers' 20,000 msg/s cannot drain any backlog: raise their capacity above 20,000 msg/s",
				Message: "(maximum_pollers 200 (the default) × 10 = 2,000 concurrent invokes) × 10 msg/s = 20,000 msg/s does not exceed the declared arrival rate 20,000 msg/s" + never,
				Start:   at(13, 3), End: at(13, 28),
				Facts: facts("arrival_rate", 20000, "effective_arrival_rate", 20000, "per_consumer_rate", 10, "max_consumers", 2000, "capacity", 20000, "surplus", 0)}},
		},
		{
			name:  "provisioned mode's most binds",
			files: map[string]string{"main.tf": lambdaMapped("200000", "", pollers("    maximum_pollers = 5000\n"))},
			issues: []issue{{Summary: "the consumers' 200,000 msg/s cannot drain any backlog: raise their capacity above 200,000 msg/s",
				Message: "(at most 20,000 concurrent invokes, provisioned mode's most per mapping (lambda_sqs_provisioned_max_concurrency), under maximum_pollers 5,000 × 10 = 50,000 concurrent invokes) × 10 msg/s = 200,000 msg/s does not exceed the declared arrival rate 200,000 msg/s" + never,
				Start:   at(14, 5), End: at(14, 27),
				Facts: facts("arrival_rate", 200000, "effective_arrival_rate", 200000, "per_consumer_rate", 10, "max_consumers", 20000, "capacity", 200000, "surplus", 0)}},
		},
		{
			name:  "reserved concurrency under the pollers",
			files: map[string]string{"main.tf": lambdaMapped("300", "\n  reserved_concurrent_executions = 30", pollers("    maximum_pollers = 20\n"))},
			issues: []issue{{Summary: "reserved_concurrent_executions 30 cannot drain any backlog: raise it to 31",
				Message: "reserved_concurrent_executions 30 × 10 msg/s = 300 msg/s does not exceed the declared arrival rate 300 msg/s" + never,
				Start:   at(8, 3), End: at(8, 38),
				Facts: facts("arrival_rate", 300, "effective_arrival_rate", 300, "per_consumer_rate", 10, "max_consumers", 30, "capacity", 300, "surplus", 0)}},
		},
		{
			name:  "maximum_pollers not known before apply",
			files: map[string]string{"main.tf": "variable \"pollers\" {}\n\n" + lambdaMapped("2000", "", pollers("    maximum_pollers = var.pollers\n"))},
			skips: []skip{{Reason: "maximum_pollers of aws_lambda_event_source_mapping.orders comes from var.pollers, which has no value here (set it with --var, a tfvars file or TF_VAR_pollers)", Line: 16}},
		},
		{
			// Without a mapping nothing bounds it but the account.
			name: "lambda linked by its tag alone",
			files: map[string]string{"main.tf": `resource "aws_sqs_queue" "orders" {
  tags = { "queuecap:arrival_rate" = 500 }
}

resource "aws_lambda_function" "worker" {
  function_name = "worker"
  tags          = { "queuecap:per_consumer_rate" = 10, "queuecap:queue" = "aws_sqs_queue.orders" }
}
`},
			skips: []skip{{Reason: "aws_lambda_function.worker sets no reserved_concurrent_executions: its concurrency is bounded only by the account's, so its capacity is not known; " +
				"set maximum_concurrency in the scaling_config of its event source mapping, or reserved_concurrent_executions", Line: 5}},
		},
	})
}
