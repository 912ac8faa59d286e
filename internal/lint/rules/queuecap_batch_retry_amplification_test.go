// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules_test

import (
	"fmt"
	"strings"
	"testing"
)

// batchConsumer is a queue (its extra argument on line 3) consumed by a
// Lambda function through an event source mapping (its extra arguments
// from line 14), with a visibility timeout that meets six function
// timeouts.
func batchConsumer(queue, mapping string) string {
	return fmt.Sprintf(`resource "aws_sqs_queue" "orders" {
  name = "orders"
  %s
}

resource "aws_lambda_function" "worker" {
  function_name = "worker"
  timeout       = 5
}

resource "aws_lambda_event_source_mapping" "orders" {
  event_source_arn = aws_sqs_queue.orders.arn
  function_name    = aws_lambda_function.worker.function_name
  %s
}
`, queue, mapping)
}

const (
	batchLead = "aws_lambda_event_source_mapping.orders takes batches of 10 messages (batch_size %s) from aws_sqs_queue.orders without ReportBatchItemFailures in function_response_types, so a message is received again whenever any message of its batch fails: "
	batchFix  = `add function_response_types = ["ReportBatchItemFailures"] and return batchItemFailures, or set batch_size = 1`
	batchOne  = "batch_size 10: one failing message re-drives the whole batch; add ReportBatchItemFailures or set batch_size = 1"
	retryTag  = `tags = { "queuecap:retry_rate" = "0.05" }`
	redrive   = `redrive_policy = jsonencode({ deadLetterTargetArn = "arn:aws:sqs:eu-west-1:123456789012:orders-dlq", maxReceiveCount = 5 })`
)

func TestBatchRetryAmplification(t *testing.T) {
	// MATH.md's worked example without a maxReceiveCount: p_b = 40.13 %,
	// 1 / (1 − 0.401) = 1.67 receives instead of 1 / 0.95 = 1.05.
	arithmetic := "with retry_rate 0.05 per message, a batch fails with p_b = 1 − (1 − 0.05)^10 = 40.13 %, so a message is received 1.67 times instead of 1.05 (1 / (1 − p), LIMIT): the consumers see 1.67 × the arrival rate instead of 1.05 ×; " + batchFix
	amplified := facts("batch_size", 10, "retry_rate", 0.05, "batch_failure_probability", 0.401263060761621,
		"receives_per_message", 1.67018257011509, "receives_per_message_reported", 1.05263157894737)
	// And with the redrive policy's maxReceiveCount of 5, MATH.md's
	// worked number: (1 − 0.401^5) / (1 − 0.401) = 1.65 receives.
	limited := "with retry_rate 0.05 per message, a batch fails with p_b = 1 − (1 − 0.05)^10 = 40.13 %, so a message is received 1.65 times instead of 1.05 ((1 − p^5) / (1 − p), at most maxReceiveCount 5 receives, from the redrive policy of aws_sqs_queue.orders): the consumers see 1.65 × the arrival rate instead of 1.05 ×; " + batchFix
	limitedFacts := facts("batch_size", 10, "retry_rate", 0.05, "batch_failure_probability", 0.401263060761621,
		"receives_per_message", 1.65280816855205, "receives_per_message_reported", 1.05263125, "max_receive_count", 5)
	runRuleCases(t, "queuecap_batch_retry_amplification", []ruleCase{
		{
			name:  "the default batch size, no declared failure rate",
			files: map[string]string{"main.tf": batchConsumer("", "")},
			issues: []issue{{Summary: batchOne,
				Message: fmt.Sprintf(batchLead, "unset: AWS's default") + "a poison message takes the 9 other messages of its batch back to the queue every time it is received, and they are processed again; a retry_rate above 0 declared for aws_sqs_queue.orders (a queuecap:retry_rate tag or its block in .queuecap.hcl) gives the arrival multiplier; " + batchFix,
				Start:   at(11, 1), End: at(11, 52),
				Facts: facts("batch_size", 10),
			}},
		},
		{
			name:  "a declared failure rate and no redrive policy",
			files: map[string]string{"main.tf": batchConsumer(retryTag, "batch_size = 10")},
			issues: []issue{{Summary: batchOne,
				Message: fmt.Sprintf(batchLead, "10") + strings.Replace(arithmetic, "LIMIT", "no maxReceiveCount: aws_sqs_queue.orders has no redrive policy", 1),
				Start:   at(11, 1), End: at(11, 52),
				Facts: amplified,
			}},
		},
		{
			name: "a redrive policy and no response types, at the attribute",
			files: map[string]string{"main.tf": batchConsumer(retryTag+"\n  "+redrive,
				"batch_size = 10\n  function_response_types = []")},
			issues: []issue{{Summary: batchOne,
				Message: fmt.Sprintf(batchLead, "10") + limited,
				Start:   at(16, 3), End: at(16, 31),
				Facts: limitedFacts,
			}},
		},
		{
			name: "maxReceiveCount of an aws_sqs_queue_redrive_policy, written as a string",
			files: map[string]string{"main.tf": batchConsumer(retryTag, "batch_size = 10") + `
resource "aws_sqs_queue" "dlq" {
  name = "orders-dlq"
}

resource "aws_sqs_queue_redrive_policy" "orders" {
  queue_url      = aws_sqs_queue.orders.id
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.dlq.arn, maxReceiveCount = "5" })
}
`},
			issues: []issue{{Summary: batchOne, Message: fmt.Sprintf(batchLead, "10") + limited,
				Start: at(11, 1), End: at(11, 52), Facts: limitedFacts}},
		},
		{
			name: "maxReceiveCount not known before apply",
			files: map[string]string{"main.tf": batchConsumer(retryTag+"\n  "+`redrive_policy = jsonencode({ deadLetterTargetArn = "arn:aws:sqs:eu-west-1:123456789012:orders-dlq", maxReceiveCount = var.receives })`,
				"batch_size = 10") + "variable \"receives\" {\n  type = number\n}\n"},
			issues: []issue{{Summary: batchOne,
				Message: fmt.Sprintf(batchLead, "10") + strings.Replace(arithmetic, "LIMIT", "no maxReceiveCount assumed (the redrive policy's is not known before apply), the most any gives", 1),
				Start:   at(12, 1), End: at(12, 52), Facts: amplified}},
		},
		{
			name:  "a redrive policy that cannot be read",
			files: map[string]string{"main.tf": batchConsumer(retryTag+"\n  redrive_policy = var.redrive", "batch_size = 10") + "variable \"redrive\" {\n  type = string\n}\n"},
			issues: []issue{{Summary: batchOne,
				Message: fmt.Sprintf(batchLead, "10") + strings.Replace(arithmetic, "LIMIT", "no maxReceiveCount assumed (the redrive policy's cannot be read), the most any gives", 1),
				Start:   at(12, 1), End: at(12, 52), Facts: amplified}},
		},
		{
			name: "a declared failure rate of 0",
			files: map[string]string{"main.tf": batchConsumer(`tags = { "queuecap:retry_rate" = "0" }`,
				"batch_size = 3")},
			issues: []issue{{Summary: "batch_size 3: one failing message re-drives the whole batch; add ReportBatchItemFailures or set batch_size = 1",
				Message: "aws_lambda_event_source_mapping.orders takes batches of 3 messages (batch_size 3) from aws_sqs_queue.orders without ReportBatchItemFailures in function_response_types, so a message is received again whenever any message of its batch fails: " +
					"a poison message takes the 2 other messages of its batch back to the queue every time it is received, and they are processed again; a retry_rate above 0 declared for aws_sqs_queue.orders (a queuecap:retry_rate tag or its block in .queuecap.hcl) gives the arrival multiplier; " + batchFix,
				Start: at(11, 1), End: at(11, 52),
				Facts: facts("batch_size", 3),
			}},
		},
		{
			name:  "partial batch responses",
			files: map[string]string{"main.tf": batchConsumer(retryTag, `function_response_types = ["ReportBatchItemFailures"]`)},
		},
		{
			name:  "a batch of one",
			files: map[string]string{"main.tf": batchConsumer(retryTag, "batch_size = 1")},
		},
		{
			name:  "a disabled mapping consumes nothing",
			files: map[string]string{"main.tf": batchConsumer(retryTag, "enabled = false")},
		},
		{
			name:  "response types unknown before apply",
			files: map[string]string{"main.tf": batchConsumer(retryTag, "function_response_types = var.types") + "variable \"types\" {\n  type = set(string)\n}\n"},
			skips: []skip{{Reason: "function_response_types of aws_lambda_event_source_mapping.orders comes from var.types, which has no value here (set it with --var, a tfvars file or TF_VAR_types)", Line: 14}},
		},
		{
			name:  "batch size unknown before apply",
			files: map[string]string{"main.tf": batchConsumer(retryTag, "batch_size = var.batch") + "variable \"batch\" {\n  type = number\n}\n"},
			skips: []skip{{Reason: "batch_size of aws_lambda_event_source_mapping.orders comes from var.batch, which has no value here (set it with --var, a tfvars file or TF_VAR_batch)", Line: 14}},
		},
		{
			name:  "batch size set by --var",
			files: map[string]string{"main.tf": batchConsumer(retryTag, "batch_size = var.batch") + "variable \"batch\" {\n  type = number\n}\n"},
			vars:  []string{"batch=10"},
			issues: []issue{{Summary: batchOne,
				Message: fmt.Sprintf(batchLead, "10") + strings.Replace(arithmetic, "LIMIT", "no maxReceiveCount: aws_sqs_queue.orders has no redrive policy", 1),
				Start:   at(11, 1), End: at(11, 52),
				Facts: amplified,
			}},
		},
		{
			name: "mapping inside a module, failure rate from .queuecap.hcl",
			files: map[string]string{
				"main.tf": `resource "aws_sqs_queue" "orders" {
  name = "orders"
}

module "consumer" {
  source    = "./consumer"
  queue_arn = aws_sqs_queue.orders.arn
}
`,
				"consumer/main.tf": `variable "queue_arn" {}

resource "aws_lambda_function" "this" {
  function_name = "consumer"
}

resource "aws_lambda_event_source_mapping" "this" {
  event_source_arn = var.queue_arn
  function_name    = aws_lambda_function.this.arn
  batch_size       = 10
}
`,
			},
			config: "queue \"aws_sqs_queue.orders\" {\n  retry_rate = 0.05\n}\n",
			issues: []issue{{Summary: batchOne,
				File:    "consumer/main.tf",
				Message: "module.consumer.aws_lambda_event_source_mapping.this takes batches of 10 messages (batch_size 10) from aws_sqs_queue.orders without ReportBatchItemFailures in function_response_types, so a message is received again whenever any message of its batch fails: " + strings.Replace(arithmetic, "LIMIT", "no maxReceiveCount: aws_sqs_queue.orders has no redrive policy", 1),
				Start:   at(7, 1), End: at(7, 50),
				Facts: amplified,
			}},
		},
	})
}
