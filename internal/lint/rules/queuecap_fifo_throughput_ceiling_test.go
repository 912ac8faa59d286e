// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules_test

import "testing"

// fifoQueue is a FIFO queue with extra arguments after fifo_queue (from
// line 4 on) and its declared rates in tags, on the line after them.
func fifoQueue(extra, tags string) string {
	return `resource "aws_sqs_queue" "orders" {
  name       = "orders.fifo"
  fifo_queue = true` + extra + `
  tags       = { ` + tags + ` }
}
`
}

func TestFIFOThroughputCeiling(t *testing.T) {
	highThroughput := `
  fifo_throughput_limit = "perMessageGroupId"
  deduplication_scope   = "messageGroup"`
	runRuleCases(t, "queuecap_fifo_throughput_ceiling", []ruleCase{
		{
			name:   "without high throughput",
			files:  map[string]string{"main.tf": fifoQueue("", `"queuecap:arrival_rate" = 4000`)},
			issues: []issue{{Summary: "4,000 msg/s exceed a FIFO queue's 3,000 msg/s: enable high throughput or shard across queues", Message: "the declared arrival rate 4,000 msg/s exceeds what aws_sqs_queue.orders takes without high throughput: 300 API calls/s per action (SendMessage, ReceiveMessage, DeleteMessage; sqs_fifo_transactions_per_second in docs/aws-limits.md) × 10 messages per batch = 3,000 msg/s, which assumes every call carries a full batch of 10 (unbatched it is 300 msg/s); the backlog grows by 1,000 msg/s whatever consumes it: enable high throughput with fifo_throughput_limit = \"perMessageGroupId\" and deduplication_scope = \"messageGroup\", or shard the messages across queues", File: "main.tf", Start: at(3, 3), End: at(3, 20), Facts: facts("arrival_rate", 4000, "effective_arrival_rate", 4000, "fifo_transactions_per_second", 300, "batch_messages", 10, "fifo_messages_per_second", 3000, "excess", 1000)}},
		},
		{
			name:   "retries raise the effective rate over the ceiling",
			files:  map[string]string{"main.tf": fifoQueue("", `"queuecap:arrival_rate" = 2000, "queuecap:retry_rate" = 0.5, "queuecap:avg_retries" = 2`)},
			issues: []issue{{Message: "the effective arrival rate 2,000 × (1 + 0.5 × 2) = 4,000 msg/s exceeds what aws_sqs_queue.orders takes without high throughput: 300 API calls/s per action (SendMessage, ReceiveMessage, DeleteMessage; sqs_fifo_transactions_per_second in docs/aws-limits.md) × 10 messages per batch = 3,000 msg/s, which assumes every call carries a full batch of 10 (unbatched it is 300 msg/s); the backlog grows by 1,000 msg/s whatever consumes it: enable high throughput with fifo_throughput_limit = \"perMessageGroupId\" and deduplication_scope = \"messageGroup\", or shard the messages across queues", File: "main.tf", Start: at(3, 3), End: at(3, 20), Facts: facts("arrival_rate", 2000, "retry_rate", 0.5, "avg_retries", 2, "effective_arrival_rate", 4000, "fifo_transactions_per_second", 300, "batch_messages", 10, "fifo_messages_per_second", 3000, "excess", 1000)}},
		},
		{
			name:  "at the ceiling",
			files: map[string]string{"main.tf": fifoQueue("", `"queuecap:arrival_rate" = 3000`)},
		},
		{
			name: "a standard queue",
			files: map[string]string{"main.tf": `resource "aws_sqs_queue" "orders" {
  tags = { "queuecap:arrival_rate" = 40000 }
}
`},
		},
		{
			name: "fifo_queue false",
			files: map[string]string{"main.tf": `resource "aws_sqs_queue" "orders" {
  fifo_queue = false
  tags = { "queuecap:arrival_rate" = 40000 }
}
`},
		},
		{
			name: "perQueue set",
			files: map[string]string{"main.tf": fifoQueue(`
  fifo_throughput_limit = "perQueue"`, `"queuecap:arrival_rate" = 4000`)},
			issues: []issue{{Message: "the declared arrival rate 4,000 msg/s exceeds what aws_sqs_queue.orders takes without high throughput: 300 API calls/s per action (SendMessage, ReceiveMessage, DeleteMessage; sqs_fifo_transactions_per_second in docs/aws-limits.md) × 10 messages per batch = 3,000 msg/s, which assumes every call carries a full batch of 10 (unbatched it is 300 msg/s); the backlog grows by 1,000 msg/s whatever consumes it: enable high throughput with fifo_throughput_limit = \"perMessageGroupId\" and deduplication_scope = \"messageGroup\", or shard the messages across queues", File: "main.tf", Start: at(4, 3), End: at(4, 37), Facts: facts("arrival_rate", 4000, "effective_arrival_rate", 4000, "fifo_transactions_per_second", 300, "batch_messages", 10, "fifo_messages_per_second", 3000, "excess", 1000)}},
		},
		{
			name: "perMessageGroupId without messageGroup",
			files: map[string]string{"main.tf": fifoQueue(`
  fifo_throughput_limit = "perMessageGroupId"`, `"queuecap:arrival_rate" = 4000`)},
			issues: []issue{{Summary: "4,000 msg/s exceed a FIFO queue's 3,000 msg/s: set deduplication_scope = \"messageGroup\" for high throughput", Message: "the declared arrival rate 4,000 msg/s exceeds what aws_sqs_queue.orders takes without high throughput (fifo_throughput_limit is \"perMessageGroupId\" but deduplication_scope is \"queue\": high throughput takes both): 300 API calls/s per action (SendMessage, ReceiveMessage, DeleteMessage; sqs_fifo_transactions_per_second in docs/aws-limits.md) × 10 messages per batch = 3,000 msg/s, which assumes every call carries a full batch of 10 (unbatched it is 300 msg/s); the backlog grows by 1,000 msg/s whatever consumes it: set deduplication_scope = \"messageGroup\" to enable high throughput, or shard the messages across queues", File: "main.tf", Start: at(4, 3), End: at(4, 46), Facts: facts("arrival_rate", 4000, "effective_arrival_rate", 4000, "fifo_transactions_per_second", 300, "batch_messages", 10, "fifo_messages_per_second", 3000, "excess", 1000)}},
		},
		{
			name: "perMessageGroupId with deduplication_scope queue",
			files: map[string]string{"main.tf": fifoQueue(`
  fifo_throughput_limit = "perMessageGroupId"
  deduplication_scope   = "queue"`, `"queuecap:arrival_rate" = 4000`)},
			issues: []issue{{Message: "the declared arrival rate 4,000 msg/s exceeds what aws_sqs_queue.orders takes without high throughput (fifo_throughput_limit is \"perMessageGroupId\" but deduplication_scope is \"queue\": high throughput takes both): 300 API calls/s per action (SendMessage, ReceiveMessage, DeleteMessage; sqs_fifo_transactions_per_second in docs/aws-limits.md) × 10 messages per batch = 3,000 msg/s, which assumes every call carries a full batch of 10 (unbatched it is 300 msg/s); the backlog grows by 1,000 msg/s whatever consumes it: set deduplication_scope = \"messageGroup\" to enable high throughput, or shard the messages across queues", File: "main.tf", Start: at(5, 3), End: at(5, 34), Facts: facts("arrival_rate", 4000, "effective_arrival_rate", 4000, "fifo_transactions_per_second", 300, "batch_messages", 10, "fifo_messages_per_second", 3000, "excess", 1000)}},
		},
		{
			name: "high throughput in us-east-1",
			files: map[string]string{"main.tf": fifoQueue(highThroughput+`
  region                = "us-east-1"`, `"queuecap:arrival_rate" = 100000`)},
		},
		{
			name: "high throughput in us-east-2, over its ceiling",
			files: map[string]string{"main.tf": fifoQueue(highThroughput+`
  region                = "us-east-2"`, `"queuecap:arrival_rate" = 200000`)},
			issues: []issue{{Summary: "200,000 msg/s exceed a high-throughput FIFO queue's 190,000 msg/s in us-east-2: shard across queues", Message: "the declared arrival rate 200,000 msg/s exceeds what aws_sqs_queue.orders takes with high throughput in us-east-2: 19,000 API calls/s per action (SendMessage, ReceiveMessage, DeleteMessage; sqs_fifo_high_throughput_transactions_per_second in docs/aws-limits.md) × 10 messages per batch = 190,000 msg/s, which assumes every call carries a full batch of 10 (unbatched it is 19,000 msg/s); the backlog grows by 10,000 msg/s whatever consumes it: shard the messages across queues", File: "main.tf", Start: at(6, 3), End: at(6, 38), Facts: facts("arrival_rate", 200000, "effective_arrival_rate", 200000, "fifo_transactions_per_second", 19000, "batch_messages", 10, "fifo_messages_per_second", 190000, "excess", 10000)}},
		},
		{
			name:  "high throughput, Region not known",
			files: map[string]string{"main.tf": fifoQueue(highThroughput, `"queuecap:arrival_rate" = 100000`)},
			skips: []skip{{Reason: "the Region of aws_sqs_queue.orders is not known: the linter does not read the provider block's region: the declared arrival rate 100,000 msg/s exceeds the 3,000 msg/s AWS's limits table gives a high-throughput FIFO queue in every Region, but not the 700,000 msg/s of eu-west-1, us-east-1, us-west-2; set region on the queue, or lint the plan (--plan), where the provider gives it", File: "main.tf", Line: 1}},
		},
		{
			name:  "high throughput, Region not known, within every Region's",
			files: map[string]string{"main.tf": fifoQueue(highThroughput, `"queuecap:arrival_rate" = 3000`)},
		},
		{
			name:   "high throughput, over every Region's",
			files:  map[string]string{"main.tf": fifoQueue(highThroughput, `"queuecap:arrival_rate" = 800000`)},
			issues: []issue{{Summary: "800,000 msg/s exceed a high-throughput FIFO queue's 700,000 msg/s in any Region: shard across queues", Message: "the declared arrival rate 800,000 msg/s exceeds what aws_sqs_queue.orders takes with high throughput in any Region (eu-west-1, us-east-1, us-west-2 take the most): 70,000 API calls/s per action (SendMessage, ReceiveMessage, DeleteMessage; sqs_fifo_high_throughput_transactions_per_second in docs/aws-limits.md) × 10 messages per batch = 700,000 msg/s, which assumes every call carries a full batch of 10 (unbatched it is 70,000 msg/s); the backlog grows by 100,000 msg/s whatever consumes it: shard the messages across queues", File: "main.tf", Start: at(3, 3), End: at(3, 20), Facts: facts("arrival_rate", 800000, "effective_arrival_rate", 800000, "fifo_transactions_per_second", 70000, "batch_messages", 10, "fifo_messages_per_second", 700000, "excess", 100000)}},
		},
		{
			name: "high throughput in a Region the table does not list",
			files: map[string]string{"main.tf": fifoQueue(highThroughput+`
  region                = "ap-south-1"`, `"queuecap:arrival_rate" = 10000`)},
			skips: []skip{{Reason: "AWS's limits table holds no high-throughput FIFO figure for ap-south-1, the Region of aws_sqs_queue.orders: the declared arrival rate 10,000 msg/s exceeds the 3,000 msg/s AWS's limits table gives a high-throughput FIFO queue in every Region, but not the 700,000 msg/s of eu-west-1, us-east-1, us-west-2; docs/aws-limits.md lists the Regions it knows", File: "main.tf", Line: 6}},
		},
		{
			name: "high throughput, region not known before apply",
			files: map[string]string{"main.tf": `variable "region" {
  type = string
}
` + fifoQueue(highThroughput+`
  region                = var.region`, `"queuecap:arrival_rate" = 100000`)},
			skips: []skip{{Reason: "region of aws_sqs_queue.orders comes from var.region, which has no value here (set it with --var, a tfvars file or TF_VAR_region): the declared arrival rate 100,000 msg/s exceeds the 3,000 msg/s AWS's limits table gives a high-throughput FIFO queue in every Region, but not the 700,000 msg/s of eu-west-1, us-east-1, us-west-2; give it a value, or lint the plan (--plan), which holds it", File: "main.tf", Line: 9}},
		},
		{
			name: "fifo_queue not known before apply",
			files: map[string]string{"main.tf": `variable "fifo" {
  type = bool
}

resource "aws_sqs_queue" "orders" {
  fifo_queue = var.fifo
  tags       = { "queuecap:arrival_rate" = 4000 }
}
`},
			skips: []skip{{Reason: "fifo_queue of aws_sqs_queue.orders comes from var.fifo, which has no value here (set it with --var, a tfvars file or TF_VAR_fifo): as a FIFO queue without high throughput, the declared arrival rate 4,000 msg/s would exceed its 3,000 msg/s", File: "main.tf", Line: 6}},
		},
		{
			// Whether it is a FIFO queue decides first.
			name: "fifo_queue and fifo_throughput_limit not known before apply",
			files: map[string]string{"main.tf": `variable "q" {}

resource "aws_sqs_queue" "orders" {
  fifo_queue            = var.q.fifo
  fifo_throughput_limit = var.q.limit
  tags                  = { "queuecap:arrival_rate" = 4000 }
}
`},
			skips: []skip{{Reason: "fifo_queue of aws_sqs_queue.orders comes from var.q, which has no value here (set it with --var, a tfvars file or TF_VAR_q): as a FIFO queue without high throughput, the declared arrival rate 4,000 msg/s would exceed its 3,000 msg/s", File: "main.tf", Line: 4}},
		},
		{
			name: "fifo_queue not known before apply, a rate any FIFO queue takes",
			files: map[string]string{"main.tf": `variable "fifo" {
  type = bool
}

resource "aws_sqs_queue" "orders" {
  fifo_queue = var.fifo
  tags       = { "queuecap:arrival_rate" = 1000 }
}
`},
		},
		{
			name: "fifo_throughput_limit not known before apply",
			files: map[string]string{"main.tf": `variable "limit" {
  type = string
}
` + fifoQueue(`
  fifo_throughput_limit = var.limit`, `"queuecap:arrival_rate" = 4000`)},
			skips: []skip{{Reason: "fifo_throughput_limit of aws_sqs_queue.orders comes from var.limit, which has no value here (set it with --var, a tfvars file or TF_VAR_limit): the declared arrival rate 4,000 msg/s exceeds the 3,000 msg/s of a FIFO queue without high throughput, and whether it has high throughput depends on it", File: "main.tf", Line: 7}},
		},
		{
			name: "arrival_rate not known before apply",
			files: map[string]string{"main.tf": `variable "rate" {
  type = number
}
` + fifoQueue("", `"queuecap:arrival_rate" = var.rate`)},
			skips: []skip{{Reason: "arrival_rate of aws_sqs_queue.orders is not known before apply", File: "main.tf", Line: 7}},
		},
		{
			name: "in a module",
			files: map[string]string{
				"main.tf": `module "orders" {
  source = "./queue"
  rate   = 5000
}
`,
				"queue/main.tf": `variable "rate" {
  type = number
}
` + fifoQueue("", `"queuecap:arrival_rate" = var.rate`),
			},
			issues: []issue{{Message: "the declared arrival rate 5,000 msg/s exceeds what module.orders.aws_sqs_queue.orders takes without high throughput: 300 API calls/s per action (SendMessage, ReceiveMessage, DeleteMessage; sqs_fifo_transactions_per_second in docs/aws-limits.md) × 10 messages per batch = 3,000 msg/s, which assumes every call carries a full batch of 10 (unbatched it is 300 msg/s); the backlog grows by 2,000 msg/s whatever consumes it: enable high throughput with fifo_throughput_limit = \"perMessageGroupId\" and deduplication_scope = \"messageGroup\", or shard the messages across queues", File: "queue/main.tf", Start: at(6, 3), End: at(6, 20), Facts: facts("arrival_rate", 5000, "effective_arrival_rate", 5000, "fifo_transactions_per_second", 300, "batch_messages", 10, "fifo_messages_per_second", 3000, "excess", 2000)}},
		},
	})
}
