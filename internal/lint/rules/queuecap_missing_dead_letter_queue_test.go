// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules_test

import "testing"

func TestMissingDeadLetterQueue(t *testing.T) {
	ref := "aws_lambda_function.worker.function_name"
	flagged := issue{
		Message: "aws_sqs_queue.orders is consumed by aws_lambda_function.worker but has no redrive_policy: a message that always fails is received again every 30 s (visibility_timeout_seconds, the default), 86,400 / 30 = 2,880 times a day, until retention drops it",
		Start:   at(1, 1), End: at(1, 34),
		Facts: facts("visibility_timeout_seconds", 30, "receives_per_day", 2880),
	}
	dlq := `
resource "aws_sqs_queue" "dlq" {
  name = "orders-dlq"
}
`
	runRuleCases(t, "queuecap_missing_dead_letter_queue", []ruleCase{
		{
			name:   "consumed queue without a redrive policy",
			files:  map[string]string{"main.tf": lambdaConsumer("", "timeout = 5", ref)},
			issues: []issue{flagged},
		},
		{
			// The mapping's function is not in the configuration: the
			// queue is consumed all the same.
			name: "consumed through a mapping whose function is elsewhere",
			files: map[string]string{"main.tf": `resource "aws_sqs_queue" "orders" {
  name = "orders"
}

resource "aws_lambda_event_source_mapping" "orders" {
  event_source_arn = aws_sqs_queue.orders.arn
  function_name    = "arn:aws:lambda:eu-west-2:123456789012:function:other"
}
`},
			issues: []issue{{
				Message: "aws_sqs_queue.orders is consumed by the function of aws_lambda_event_source_mapping.orders but has no redrive_policy: a message that always fails is received again every 30 s (visibility_timeout_seconds, the default), 86,400 / 30 = 2,880 times a day, until retention drops it",
				Start:   at(1, 1), End: at(1, 34),
				Facts: facts("visibility_timeout_seconds", 30, "receives_per_day", 2880),
			}},
			skips: []skip{{Reason: "event source mapping aws_lambda_event_source_mapping.orders: its function (function_name) is \"arn:aws:lambda:eu-west-2:123456789012:function:other\", which matches no aws_lambda_function in the linted configuration (is it defined elsewhere?), so aws_sqs_queue.orders has no linked consumer here", Line: 7}},
		},
		{
			name:  "inline redrive policy",
			files: map[string]string{"main.tf": lambdaConsumer(`redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.dlq.arn, maxReceiveCount = 5 })`, "timeout = 5", ref) + dlq},
		},
		{
			name: "aws_sqs_queue_redrive_policy counts as a redrive",
			files: map[string]string{"main.tf": lambdaConsumer("count = 1", "timeout = 5", ref+"\n  # the mapping reads the counted queue") + dlq + `
resource "aws_sqs_queue_redrive_policy" "orders" {
  queue_url = aws_sqs_queue.orders[0].url
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.dlq.arn
    maxReceiveCount     = 5
  })
}
`},
		},
		{
			name: "an aws_sqs_queue_redrive_policy with count = 0 does not",
			files: map[string]string{"main.tf": lambdaConsumer("", "timeout = 5", ref) + dlq + `
resource "aws_sqs_queue_redrive_policy" "orders" {
  count          = var.create_redrive ? 1 : 0
  queue_url      = aws_sqs_queue.orders.id
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.dlq.arn, maxReceiveCount = 5 })
}

variable "create_redrive" {
  default = false
}
`},
			issues: []issue{flagged},
		},
		{
			name: "redrive policy rendered with templatefile()",
			files: map[string]string{
				"main.tf":          lambdaConsumer(`redrive_policy = templatefile("${path.module}/redrive.json.tpl", { dlq_arn = aws_sqs_queue.dlq.arn })`, "timeout = 5", ref) + dlq,
				"redrive.json.tpl": `{"deadLetterTargetArn": "${dlq_arn}", "maxReceiveCount": 3}`,
			},
		},
		{
			name: "the terraform-aws-modules/sqs count over length() of an empty object",
			files: map[string]string{"main.tf": lambdaConsumer("", "timeout = 5", ref) + dlq + `
variable "redrive_policy" {
  type    = any
  default = {}
}

resource "aws_sqs_queue_redrive_policy" "this" {
  count          = length(var.redrive_policy) > 0 ? 1 : 0
  queue_url      = aws_sqs_queue.orders.url
  redrive_policy = jsonencode(var.redrive_policy)
}
`},
			issues: []issue{flagged},
		},
		{
			name:   "redrive_policy = null is none",
			files:  map[string]string{"main.tf": lambdaConsumer("redrive_policy = null", "timeout = 5", ref)},
			issues: []issue{flagged},
		},
		{
			name:  "redrive policy unknown before apply",
			files: map[string]string{"main.tf": lambdaConsumer("redrive_policy = var.redrive", "timeout = 5", ref) + "variable \"redrive\" {\n  type = string\n}\n"},
			skips: []skip{{Reason: "redrive_policy of aws_sqs_queue.orders is not known before apply", Line: 3}},
		},
		{
			name: "a consumed dead-letter queue is not flagged",
			files: map[string]string{"main.tf": `resource "aws_sqs_queue" "main" {
  redrive_policy = templatefile("${path.module}/redrive.json.tpl", { dlq_arn = aws_sqs_queue.dlq.arn })
}

resource "aws_sqs_queue" "dlq" {
  name = "main-dlq"
}

resource "aws_lambda_function" "replay" {
  function_name = "replay"
}

resource "aws_lambda_event_source_mapping" "replay" {
  event_source_arn = aws_sqs_queue.dlq.arn
  function_name    = aws_lambda_function.replay.arn
}
`},
		},
		{
			name:  "a queue without a consumer",
			files: map[string]string{"main.tf": "resource \"aws_sqs_queue\" \"orders\" {\n  name = \"orders\"\n}\n"},
		},
		{
			name:  "consumer declared in .queuecap.hcl, visibility set",
			files: map[string]string{"main.tf": "resource \"aws_sqs_queue\" \"orders\" {\n  visibility_timeout_seconds = 600\n}\n\nresource \"aws_autoscaling_group\" \"workers\" {\n  max_size = 4\n}\n"},
			config: `queue "aws_sqs_queue.orders" {
  consumer = "aws_autoscaling_group.workers"
}
`,
			issues: []issue{{Summary: "no redrive_policy: a message that always fails is received 144 times a day; add a dead-letter queue",
				Message: "aws_sqs_queue.orders is consumed by aws_autoscaling_group.workers but has no redrive_policy: a message that always fails is received again every 600 s (visibility_timeout_seconds), 86,400 / 600 = 144 times a day, until retention drops it",
				Start:   at(1, 1), End: at(1, 34),
				Facts: facts("visibility_timeout_seconds", 600, "receives_per_day", 144),
			}},
		},
		{
			name: "two consumers",
			files: map[string]string{"main.tf": lambdaConsumer("", "", ref) + `
resource "aws_lambda_function" "audit" {
  function_name = "audit"
}

resource "aws_lambda_event_source_mapping" "audit" {
  event_source_arn = aws_sqs_queue.orders.arn
  function_name    = "audit"
}
`},
			issues: []issue{{Summary: "no redrive_policy: a message that always fails is received 2,880 times a day; add a dead-letter queue",
				Message: "aws_sqs_queue.orders is consumed by aws_lambda_function.worker and 1 more but has no redrive_policy: a message that always fails is received again every 30 s (visibility_timeout_seconds, the default), 86,400 / 30 = 2,880 times a day, until retention drops it",
				Start:   at(1, 1), End: at(1, 34),
				Facts: facts("visibility_timeout_seconds", 30, "receives_per_day", 2880),
			}},
		},
	})
}
