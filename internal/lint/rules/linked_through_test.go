// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules_test

import "testing"

// snsWorker is an SNS topic declaring 100 msg/s into the queue orders,
// consumed by an ECS service that only its task role links to the queue
// (desired_count on line 33); fleetTags are the service's tags.
func snsWorker(fleetTags string) string {
	return `resource "aws_sns_topic" "orders" {
  name = "orders"
  tags = { "queuecap:arrival_rate" = 100 }
}

resource "aws_sns_topic_subscription" "orders" {
  topic_arn = aws_sns_topic.orders.arn
  protocol  = "sqs"
  endpoint  = aws_sqs_queue.orders.arn
}

resource "aws_sqs_queue" "orders" {
  name = "orders"
}

resource "aws_iam_role" "task" {
  name = "worker-task"
  inline_policy {
    name   = "sqs"
    policy = jsonencode({ Statement = [{ Effect = "Allow", Action = "sqs:*", Resource = aws_sqs_queue.orders.arn }] })
  }
}

resource "aws_ecs_task_definition" "worker" {
  family        = "worker"
  task_role_arn = aws_iam_role.task.arn
}

resource "aws_ecs_service" "worker" {
  name            = "worker"
  cluster         = "main"
  task_definition = aws_ecs_task_definition.worker.arn
  desired_count   = 2
  tags            = { ` + fleetTags + ` }
}
`
}

// TestLinkedThrough checks that findings on a consumer only its
// configuration implies, and on an arrival rate a producer declares, say
// how each is linked.
func TestLinkedThrough(t *testing.T) {
	runRuleCases(t, "queuecap_zero_surplus", []ruleCase{
		{
			name:  "a consumer linked through IAM, arrivals from an SNS topic",
			files: map[string]string{"main.tf": snsWorker(`"queuecap:per_consumer_rate" = 50`)},
			issues: []issue{{Message: "aws_ecs_service.worker (linked through IAM role aws_iam_role.task) desired_count 2 × 50 msg/s = 100 msg/s does not exceed the declared arrival rate 100 msg/s of SNS topic aws_sns_topic.orders: surplus 0 msg/s, any backlog never drains",
				Start: at(33, 3), End: at(33, 22), Facts: facts("arrival_rate", 100, "effective_arrival_rate", 100, "per_consumer_rate", 50, "max_consumers", 2, "capacity", 100, "surplus", 0)}},
		},
		{
			name:  "a consumer linked through IAM without a per-consumer rate",
			files: map[string]string{"main.tf": snsWorker("")},
			skips: []skip{{Reason: "per_consumer_rate is not declared for aws_ecs_service.worker (linked through IAM role aws_iam_role.task) (tag queuecap:per_consumer_rate, a queue block in .queuecap.hcl, or a queuecap data source)", Line: 29}},
		},
		{
			name: "a pipe is one consumer",
			files: map[string]string{"main.tf": `resource "aws_sqs_queue" "documents" {
  name = "documents"
  tags = { "queuecap:arrival_rate" = 80 }
}

resource "aws_pipes_pipe" "documents" {
  source = aws_sqs_queue.documents.arn
  target = aws_sfn_state_machine.detect_language.arn
  tags   = { "queuecap:per_consumer_rate" = 40 }
}
`},
			issues: []issue{{Summary: "the consumers' 40 msg/s cannot drain any backlog: raise their capacity above 80 msg/s", Message: "pipe 1 × 40 msg/s = 40 msg/s does not exceed the declared arrival rate 80 msg/s: surplus -40 msg/s, any backlog never drains",
				Start: at(6, 1), End: at(6, 38), Facts: facts("arrival_rate", 80, "effective_arrival_rate", 80, "per_consumer_rate", 40, "max_consumers", 1, "capacity", 40, "surplus", -40)}},
		},
	})
}
