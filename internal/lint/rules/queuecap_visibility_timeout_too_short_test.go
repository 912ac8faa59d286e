// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules_test

import (
	"fmt"
	"strings"
	"testing"
)

// lambdaConsumer is a queue consumed by a Lambda function through an event
// source mapping: the queue's visibility on line 3, the function's timeout
// on line 8, the mapping's function_name on line 13.
func lambdaConsumer(visibility, timeout, functionName string) string {
	return fmt.Sprintf(`resource "aws_sqs_queue" "orders" {
  name = "orders"
  %s
}

resource "aws_lambda_function" "worker" {
  function_name = "worker"
  %s
}

resource "aws_lambda_event_source_mapping" "orders" {
  event_source_arn = aws_sqs_queue.orders.arn
  function_name    = %s
}
`, visibility, timeout, functionName)
}

const redelivery = ": a message still being processed becomes visible again and is delivered a second time, raising the effective arrival rate"

func TestVisibilityTimeoutTooShort(t *testing.T) {
	ref := "aws_lambda_function.worker.function_name"
	runRuleCases(t, "queuecap_visibility_timeout_too_short", []ruleCase{
		{
			name:  "visibility under six function timeouts",
			files: map[string]string{"main.tf": lambdaConsumer("visibility_timeout_seconds = 60", "timeout = 30", ref)},
			issues: []issue{{Summary: "visibility_timeout_seconds 60 is under 6 × the function's 30 s timeout: raise it to 180",
				Message: "visibility_timeout_seconds 60 is under 6 × the timeout 30 s of aws_lambda_function.worker = 180 s" + redelivery,
				Start:   at(3, 3), End: at(3, 34),
				Facts: facts("visibility_timeout_seconds", 60, "function_timeout_seconds", 30, "required_visibility_timeout_seconds", 180),
			}},
		},
		{
			// 6 × 4.2123 s is 25.2738 s: SQS takes whole seconds, and 25.27,
			// the advice rounded to hundredths, is still under it.
			name:  "advice in whole seconds above six decimal function timeouts",
			files: map[string]string{"main.tf": lambdaConsumer("visibility_timeout_seconds = 25", "timeout = 4.2123", ref)},
			issues: []issue{{Summary: "visibility_timeout_seconds 25 is under 6 × the function's 4.21 s timeout: raise it to 26",
				Message: "visibility_timeout_seconds 25 is under 6 × the timeout 4.21 s of aws_lambda_function.worker = 25.27 s, 26 s in whole seconds" + redelivery,
				Start:   at(3, 3), End: at(3, 34),
				Facts: facts("visibility_timeout_seconds", 25, "function_timeout_seconds", 4.2123, "required_visibility_timeout_seconds", 26),
			}},
		},
		{
			// AWS's guidance adds the batching window: 6 × 30 + 20 s.
			name:  "six function timeouts but not the batching window",
			files: map[string]string{"main.tf": lambdaConsumer("visibility_timeout_seconds = 180", "timeout = 30", ref+"\n  maximum_batching_window_in_seconds = 20")},
			issues: []issue{{Summary: "visibility_timeout_seconds 180 is under 6 × the function's 30 s timeout + the 20 s batching window: raise it to 200",
				Message: "visibility_timeout_seconds 180 is under 6 × the timeout 30 s of aws_lambda_function.worker + maximum_batching_window_in_seconds 20 s of aws_lambda_event_source_mapping.orders = 200 s" + redelivery,
				Start:   at(3, 3), End: at(3, 35),
				Facts: facts("visibility_timeout_seconds", 180, "function_timeout_seconds", 30, "maximum_batching_window_in_seconds", 20, "required_visibility_timeout_seconds", 200),
			}},
		},
		{
			name:  "six function timeouts and the batching window",
			files: map[string]string{"main.tf": lambdaConsumer("visibility_timeout_seconds = 200", "timeout = 30", ref+"\n  maximum_batching_window_in_seconds = 20")},
		},
		{
			name:  "a batching window of 0 is no window",
			files: map[string]string{"main.tf": lambdaConsumer("visibility_timeout_seconds = 180", "timeout = 30", ref+"\n  maximum_batching_window_in_seconds = 0")},
		},
		{
			name:  "batching window unknown before apply",
			files: map[string]string{"main.tf": lambdaConsumer("visibility_timeout_seconds = 180", "timeout = 30", ref+"\n  maximum_batching_window_in_seconds = var.window") + "variable \"window\" {\n  type = number\n}\n"},
			skips: []skip{{Reason: "maximum_batching_window_in_seconds of aws_lambda_event_source_mapping.orders comes from var.window, which has no value here (set it with --var, a tfvars file or TF_VAR_window)", Line: 14}},
		},
		{
			name:  "six function timeouts",
			files: map[string]string{"main.tf": lambdaConsumer("visibility_timeout_seconds = 180", "timeout = 30", ref)},
		},
		{
			// Six timeouts of 166.666666666667 s are 1,000.000000000002 s:
			// SQS counts whole seconds, and queue_settings sets 1,001.
			name:  "six timeouts just over a whole second",
			files: map[string]string{"main.tf": lambdaConsumer("visibility_timeout_seconds = 1000", "timeout = 166.666666666667", ref)},
			issues: []issue{{Summary: "visibility_timeout_seconds 1,000 is under 6 × the function's 166.67 s timeout: raise it to 1,001",
				Message: "visibility_timeout_seconds 1,000 is under 6 × the timeout 166.67 s of aws_lambda_function.worker = 1,000 s, 1,001 s in whole seconds" + redelivery,
				Start:   at(3, 3), End: at(3, 36),
				Facts: facts("visibility_timeout_seconds", 1000, "function_timeout_seconds", 166.666666666667, "required_visibility_timeout_seconds", 1001),
			}},
		},
		{
			name:  "six timeouts just over a whole second, met",
			files: map[string]string{"main.tf": lambdaConsumer("visibility_timeout_seconds = 1001", "timeout = 166.666666666667", ref)},
		},
		{
			name:  "the default visibility timeout",
			files: map[string]string{"main.tf": lambdaConsumer("", "timeout = 10", ref)},
			issues: []issue{{
				Message: "visibility_timeout_seconds 30 (the default) is under 6 × the timeout 10 s of aws_lambda_function.worker = 60 s" + redelivery,
				Start:   at(1, 1), End: at(1, 34),
				Facts: facts("visibility_timeout_seconds", 30, "function_timeout_seconds", 10, "required_visibility_timeout_seconds", 60),
			}},
		},
		{
			name:  "the default function timeout",
			files: map[string]string{"main.tf": lambdaConsumer("visibility_timeout_seconds = 10", "", ref)},
			issues: []issue{{
				Message: "visibility_timeout_seconds 10 is under 6 × the timeout 3 s (the default) of aws_lambda_function.worker = 18 s" + redelivery,
				Start:   at(3, 3), End: at(3, 34),
				Facts: facts("visibility_timeout_seconds", 10, "function_timeout_seconds", 3, "required_visibility_timeout_seconds", 18),
			}},
		},
		{
			name:  "both defaults are fine",
			files: map[string]string{"main.tf": lambdaConsumer("", "", ref)},
		},
		{
			name:  "function named by its ARN",
			files: map[string]string{"main.tf": lambdaConsumer("visibility_timeout_seconds = 60", "timeout = 30", `"arn:aws:lambda:eu-west-1:123456789012:function:worker"`)},
			issues: []issue{{
				Message: "visibility_timeout_seconds 60 is under 6 × the timeout 30 s of aws_lambda_function.worker = 180 s" + redelivery,
				Start:   at(3, 3), End: at(3, 34),
				Facts: facts("visibility_timeout_seconds", 60, "function_timeout_seconds", 30, "required_visibility_timeout_seconds", 180),
			}},
		},
		{
			name:  "function named by a qualified ARN",
			files: map[string]string{"main.tf": lambdaConsumer("visibility_timeout_seconds = 60", "timeout = 30", `"arn:aws:lambda:eu-west-1:123456789012:function:worker:live"`)},
			issues: []issue{{
				Message: "visibility_timeout_seconds 60 is under 6 × the timeout 30 s of aws_lambda_function.worker = 180 s" + redelivery,
				Start:   at(3, 3), End: at(3, 34),
				Facts: facts("visibility_timeout_seconds", 60, "function_timeout_seconds", 30, "required_visibility_timeout_seconds", 180),
			}},
		},
		{
			name: "queue named by a literal ARN",
			files: map[string]string{"main.tf": strings.Replace(lambdaConsumer("visibility_timeout_seconds = 60", "timeout = 30", `"worker"`),
				"aws_sqs_queue.orders.arn", `"arn:aws:sqs:eu-west-1:123456789012:orders"`, 1)},
			issues: []issue{{
				Message: "visibility_timeout_seconds 60 is under 6 × the timeout 30 s of aws_lambda_function.worker = 180 s" + redelivery,
				Start:   at(3, 3), End: at(3, 34),
				Facts: facts("visibility_timeout_seconds", 60, "function_timeout_seconds", 30, "required_visibility_timeout_seconds", 180),
			}},
		},
		{
			name:  "a function the configuration does not define",
			files: map[string]string{"main.tf": lambdaConsumer("visibility_timeout_seconds = 60", "timeout = 30", `"someone-elses-function"`)},
			skips: []skip{{Reason: `event source mapping aws_lambda_event_source_mapping.orders: its function (function_name) is "someone-elses-function", which matches no aws_lambda_function in the linted configuration (is it defined elsewhere?), so aws_sqs_queue.orders has no linked consumer here`, Line: 13}},
		},
		{
			name:  "a disabled mapping consumes nothing",
			files: map[string]string{"main.tf": lambdaConsumer("visibility_timeout_seconds = 60", "timeout = 30", ref+"\n  enabled          = false")},
		},
		{
			name:  "function timeout unknown before apply",
			files: map[string]string{"main.tf": lambdaConsumer("visibility_timeout_seconds = 60", "timeout = var.timeout", ref) + "variable \"timeout\" {\n  type = number\n}\n"},
			skips: []skip{{Reason: "timeout of aws_lambda_function.worker comes from var.timeout, which has no value here (set it with --var, a tfvars file or TF_VAR_timeout)", Line: 8}},
		},
		{
			name:  "visibility unknown before apply",
			files: map[string]string{"main.tf": lambdaConsumer("visibility_timeout_seconds = var.visibility", "timeout = 30", ref) + "variable \"visibility\" {\n  type = number\n}\n"},
			skips: []skip{{Reason: "visibility_timeout_seconds of aws_sqs_queue.orders comes from var.visibility, which has no value here (set it with --var, a tfvars file or TF_VAR_visibility)", Line: 3}},
		},
		{
			name: "mapping inside a module, queue ARN passed in",
			files: map[string]string{
				"main.tf": `resource "aws_sqs_queue" "orders" {
  visibility_timeout_seconds = 60
}

module "consumer" {
  source    = "./consumer"
  queue_arn = aws_sqs_queue.orders.arn
  timeout   = 15
}
`,
				"consumer/main.tf": `variable "queue_arn" {}
variable "timeout" {
  type = number
}

resource "aws_lambda_function" "this" {
  function_name = "consumer"
  timeout       = var.timeout
}

resource "aws_lambda_event_source_mapping" "this" {
  event_source_arn = var.queue_arn
  function_name    = aws_lambda_function.this.arn
}
`,
			},
			issues: []issue{{
				Message: "visibility_timeout_seconds 60 is under 6 × the timeout 15 s of module.consumer.aws_lambda_function.this = 90 s" + redelivery,
				Start:   at(2, 3), End: at(2, 34),
				Facts: facts("visibility_timeout_seconds", 60, "function_timeout_seconds", 15, "required_visibility_timeout_seconds", 90),
			}},
		},
	})
}
