// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"strings"
	"testing"
)

// documentPipe is an EventBridge pipe from the queue documents to target,
// with extra arguments: the shape of lindsaygelle/AWSComprehend's pipes.
func documentPipe(target, extra, more string) map[string]string {
	return map[string]string{"main.tf": `resource "aws_sqs_queue" "documents" {
  name = "documents"
}

resource "aws_pipes_pipe" "documents" {
  name     = "documents"
  role_arn = aws_iam_role.pipe.arn
  source   = aws_sqs_queue.documents.arn
  target   = ` + target + `
` + extra + `}

resource "aws_iam_role" "pipe" {
  name = "pipe"
}
` + more}
}

const lambdaIndex = `
resource "aws_lambda_function" "index" {
  function_name                  = "index-documents"
  reserved_concurrent_executions = 5
}
`

func TestPipeLinks(t *testing.T) {
	runLinkCases(t, []linkCase{
		{
			name: "to a state machine: the pipe consumes",
			files: documentPipe("aws_sfn_state_machine.detect_language.arn", `  target_parameters {
    step_function_state_machine_parameters {
      invocation_type = "FIRE_AND_FORGET"
    }
  }
`, `
resource "aws_sfn_state_machine" "detect_language" {
  name = "detect-language"
}
`),
			links: []string{"aws_sqs_queue.documents <- aws_pipes_pipe.documents"},
		},
		{
			name:  "to a Lambda function: the function consumes, through the pipe",
			files: documentPipe("aws_lambda_function.index.arn", "", lambdaIndex),
			links: []string{"aws_sqs_queue.documents <- aws_lambda_function.index (pipe aws_pipes_pipe.documents)"},
		},
		{
			name:  "to a Lambda function named by its ARN",
			files: documentPipe(`"arn:aws:lambda:eu-west-1:123456789012:function:index-documents:live"`, "", lambdaIndex),
			links: []string{"aws_sqs_queue.documents <- aws_lambda_function.index (pipe aws_pipes_pipe.documents)"},
		},
		{
			name:  "stopped",
			files: documentPipe("aws_lambda_function.index.arn", "  desired_state = \"STOPPED\"\n", lambdaIndex),
		},
		{
			// luciferous-animanch-bbs-database/cloud: a pipe from a DynamoDB
			// stream produces into the queue; it consumes none.
			name: "from a DynamoDB stream into the queue",
			files: map[string]string{"main.tf": `resource "aws_sqs_queue" "insert_thread" {
  name = "insert-thread"
}

resource "aws_dynamodb_table" "threads" {
  name = "threads"
}

resource "aws_pipes_pipe" "insert_thread" {
  source   = aws_dynamodb_table.threads.stream_arn
  target   = aws_sqs_queue.insert_thread.arn
  role_arn = "arn:aws:iam::123456789012:role/pipes"
}
`},
		},
		{
			name: "from a queue not known before apply",
			files: map[string]string{"main.tf": strings.Replace(documentPipe("aws_lambda_function.index.arn", "", lambdaIndex+"variable \"queue_arn\" {}\n")["main.tf"],
				"aws_sqs_queue.documents.arn", "var.queue_arn", 1)},
			skips: []linkSkip{{8, "pipe aws_pipes_pipe.documents: its source comes from var.queue_arn, which has no value here (set it with --var, a tfvars file or TF_VAR_queue_arn), so what it consumes is not checked"}},
		},
	})
}
