// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules_test

import (
	"fmt"
	"testing"
)

// asgWorkers is a queue declaring its arrival rate in tags and an auto
// scaling group declaring μ and its queue in `tag {}` blocks.
func asgWorkers(arrival, maxSize string) string {
	return fmt.Sprintf(`resource "aws_sqs_queue" "orders" {
  name = "orders"
  tags = {
    "queuecap:arrival_rate" = "%s"
  }
}

resource "aws_autoscaling_group" "workers" {
  name     = "workers"
  min_size = 1
  max_size = %s

  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = "400"
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
}
`, arrival, maxSize)
}

// lambdaWorker is a queue declaring its arrival rate consumed by a Lambda
// function through an event source mapping; extra is written at the end
// of the function's arguments (line 8).
func lambdaWorker(extra string) string {
	return `resource "aws_sqs_queue" "orders" {
  tags = { "queuecap:arrival_rate" = 500 }
}

resource "aws_lambda_function" "worker" {
  function_name = "worker"
  tags          = { "queuecap:per_consumer_rate" = 10 }` + extra + `
}

resource "aws_lambda_event_source_mapping" "orders" {
  event_source_arn = aws_sqs_queue.orders.arn
  function_name    = aws_lambda_function.worker.arn
}
`
}

// ecsWorkers is an ECS service scaled by an Application Auto Scaling
// target; the target carries the rates and the queue in its tags map and
// a step policy reaches it through resource_id.
func ecsWorkers(maxCapacity string) string {
	return fmt.Sprintf(`resource "aws_sqs_queue" "jobs" {
  name = "jobs"
  tags = { "queuecap:arrival_rate" = 1200 }
  redrive_policy = jsonencode({ deadLetterTargetArn = "arn:aws:sqs:eu-west-1:1:jobs-dlq", maxReceiveCount = 5 })
}

resource "aws_ecs_service" "worker" {
  name          = "worker"
  cluster       = "main"
  desired_count = 2
}

resource "aws_appautoscaling_target" "worker" {
  service_namespace  = "ecs"
  scalable_dimension = "ecs:service:DesiredCount"
  resource_id        = "service/main/${aws_ecs_service.worker.name}"
  min_capacity       = 1
  max_capacity       = %s
  tags = {
    "queuecap:per_consumer_rate" = "100"
    "queuecap:queue"             = "aws_sqs_queue.jobs"
  }
}
`, maxCapacity)
}

func TestZeroSurplus(t *testing.T) {
	zero := "max_size 25 × 400 msg/s = 10,000 msg/s does not exceed the declared arrival rate 10,000 msg/s: surplus 0 msg/s, any backlog never drains"
	runRuleCases(t, "queuecap_zero_surplus", []ruleCase{
		{
			name:   "asg tag blocks, the worked example",
			files:  map[string]string{"main.tf": asgWorkers("10000", "25")},
			issues: []issue{{Summary: "max_size 25 cannot drain any backlog: raise it to 26", Message: zero, Start: at(11, 3), End: at(11, 16), Facts: facts("arrival_rate", 10000, "effective_arrival_rate", 10000, "per_consumer_rate", 400, "max_consumers", 25, "capacity", 10000, "surplus", 0)}},
		},
		{
			name:  "asg with headroom",
			files: map[string]string{"main.tf": asgWorkers("10000", "32")},
		},
		{
			name:   "negative surplus",
			files:  map[string]string{"main.tf": asgWorkers("10000", "20")},
			issues: []issue{{Message: "max_size 20 × 400 msg/s = 8,000 msg/s does not exceed the declared arrival rate 10,000 msg/s: surplus -2,000 msg/s, any backlog never drains", Start: at(11, 3), End: at(11, 16), Facts: facts("arrival_rate", 10000, "effective_arrival_rate", 10000, "per_consumer_rate", 400, "max_consumers", 20, "capacity", 8000, "surplus", -2000)}},
		},
		{
			name:  "max_size unknown before apply",
			files: map[string]string{"main.tf": asgWorkers("10000", "var.max_size") + "\nvariable \"max_size\" {\n  type = number\n}\n"},
			skips: []skip{{Reason: "max_size of aws_autoscaling_group.workers comes from var.max_size, which has no value here (set it with --var, a tfvars file or TF_VAR_max_size)", Line: 11}},
		},
		{
			// storacha/storoku: sizes and counts built in locals from a
			// variable Terragrunt or CI sets.
			name:  "max_size from a local built from a variable without a value",
			files: map[string]string{"main.tf": asgWorkers("10000", "local.size") + "\nvariable \"environment\" {\n  type = string\n}\n\nlocals {\n  prod = var.environment == \"prod\"\n  size = local.prod ? 40 : 10\n}\n"},
			skips: []skip{{Reason: "max_size of aws_autoscaling_group.workers comes from local.size, which comes from var.environment, which has no value here (set it with --var, a tfvars file or TF_VAR_environment)", Line: 11}},
		},
		{
			// A queuecap data source that refers to a managed resource is
			// read only at apply; the skip names it, the argument and the fix.
			name: "max_size from a data source deferred to apply",
			files: map[string]string{"main.tf": asgWorkers("10000", "data.queuecap_fleet.w.max_size") + `
data "queuecap_fleet" "w" {
  arrival_rate      = 10000
  per_consumer_rate = 400
  max_backlog       = 5e6
  rto_seconds       = 1800
  sla_seconds       = 60
  queue_name        = aws_sqs_queue.orders.name
}
`},
			skips: []skip{{Reason: "max_size of aws_autoscaling_group.workers comes from data.queuecap_fleet.w, which Terraform reads only at apply: its queue_name refers to aws_sqs_queue.orders, " +
				"a resource with changes to make (on the first apply, every one), and a data source that depends on one is deferred. " +
				"Set queue_name from a literal or a local, or call provider::queuecap::fleet_plan instead, which Terraform calls at plan", Line: 11}},
		},
		{
			name: "max_size from a data source whose argument has no value",
			files: map[string]string{"main.tf": asgWorkers("10000", "data.queuecap_consumers.w.required_consumers") + `
variable "rate" {
  type = number
}

data "queuecap_consumers" "w" {
  arrival_rate      = var.rate
  per_consumer_rate = 400
}
`},
			skips: []skip{{Reason: "max_size of aws_autoscaling_group.workers comes from data.queuecap_consumers.w, whose arrival_rate comes from var.rate, which has no value here (set it with --var, a tfvars file or TF_VAR_rate)", Line: 11}},
		},
		{
			name:   "max_size from a variable default, a tfvars file and --var",
			files:  map[string]string{"main.tf": asgWorkers("10000", "var.max_size") + "\nvariable \"max_size\" {\n  type    = number\n  default = 40\n}\n", "terraform.tfvars": "max_size = 30\n"},
			vars:   []string{"max_size=25"},
			issues: []issue{{Message: zero, Start: at(11, 3), End: at(11, 26), Facts: facts("arrival_rate", 10000, "effective_arrival_rate", 10000, "per_consumer_rate", 400, "max_consumers", 25, "capacity", 10000, "surplus", 0)}},
		},
		{
			name:  "arrival rate unknown before apply",
			files: map[string]string{"main.tf": asgWorkers("${var.rate}", "25") + "\nvariable \"rate\" {}\n"},
			skips: []skip{{Reason: "arrival_rate of aws_sqs_queue.orders is not known before apply", Line: 3}},
		},
		{
			name: "arithmetic in locals and functions",
			files: map[string]string{"main.tf": asgWorkers("${local.rate}", "min(local.cap, 100)") + `
locals {
  rate = 4 * 2500
  cap  = ceil(local.rate / 400)
}
`},
			issues: []issue{{Message: zero, Start: at(11, 3), End: at(11, 33), Facts: facts("arrival_rate", 10000, "effective_arrival_rate", 10000, "per_consumer_rate", 400, "max_consumers", 25, "capacity", 10000, "surplus", 0)}},
		},
		{
			name: "retries raise the effective arrival rate",
			files: map[string]string{"main.tf": `resource "aws_sqs_queue" "orders" {
  name = "orders"
  tags = {
    "queuecap:arrival_rate" = 8000
    "queuecap:retry_rate"   = 0.25
    "queuecap:avg_retries"  = 1
  }
}

resource "aws_lambda_function" "worker" {
  function_name                  = "worker"
  reserved_concurrent_executions = 25
  tags = {
    "queuecap:per_consumer_rate" = 400
  }
}

resource "aws_lambda_event_source_mapping" "orders" {
  event_source_arn = aws_sqs_queue.orders.arn
  function_name    = aws_lambda_function.worker.arn
}
`},
			issues: []issue{{Summary: "reserved_concurrent_executions 25 cannot drain any backlog: raise it to 26", Message: "reserved_concurrent_executions 25 × 400 msg/s = 10,000 msg/s does not exceed the effective arrival rate 8,000 × (1 + 0.25 × 1) = 10,000 msg/s: surplus 0 msg/s, any backlog never drains", Start: at(12, 3), End: at(12, 38), Facts: facts("arrival_rate", 8000, "effective_arrival_rate", 10000, "per_consumer_rate", 400, "max_consumers", 25, "capacity", 10000, "surplus", 0)}},
		},
		{
			name: "lambda event source mapping maximum_concurrency bounds the fleet",
			files: map[string]string{"main.tf": `resource "aws_sqs_queue" "orders" {
  tags = { "queuecap:arrival_rate" = 500 }
}

resource "aws_lambda_function" "worker" {
  function_name                  = "worker"
  reserved_concurrent_executions = 100
  tags                           = { "queuecap:per_consumer_rate" = 10 }
}

resource "aws_lambda_event_source_mapping" "orders" {
  event_source_arn = aws_sqs_queue.orders.arn
  function_name    = "arn:aws:lambda:eu-west-1:123456789012:function:worker"
  scaling_config {
    maximum_concurrency = 50
  }
}
`},
			issues: []issue{{Message: "maximum_concurrency 50 × 10 msg/s = 500 msg/s does not exceed the declared arrival rate 500 msg/s: surplus 0 msg/s, any backlog never drains", Start: at(15, 5), End: at(15, 29), Facts: facts("arrival_rate", 500, "effective_arrival_rate", 500, "per_consumer_rate", 10, "max_consumers", 50, "capacity", 500, "surplus", 0)}},
		},
		{
			// ben-kahl/govgraph: the lambda module's default of -1. The
			// mapping's standard mode bounds it: at most 1,250 × 10 msg/s.
			name:  "lambda with unreserved concurrency",
			files: map[string]string{"main.tf": lambdaWorker("\n  reserved_concurrent_executions = -1")},
		},
		{
			name:  "lambda without reserved concurrency",
			files: map[string]string{"main.tf": lambdaWorker("")},
		},
		{
			name:   "ecs service through an appautoscaling target's tags",
			files:  map[string]string{"main.tf": ecsWorkers("12")},
			issues: []issue{{Message: "max_capacity 12 × 100 msg/s = 1,200 msg/s does not exceed the declared arrival rate 1,200 msg/s: surplus 0 msg/s, any backlog never drains", Start: at(18, 3), End: at(18, 26), Facts: facts("arrival_rate", 1200, "effective_arrival_rate", 1200, "per_consumer_rate", 100, "max_consumers", 12, "capacity", 1200, "surplus", 0)}},
		},
		{
			name:  "ecs service with room",
			files: map[string]string{"main.tf": ecsWorkers("16")},
		},
		{
			name: "ecs desired_count without a scaling target, tags on the service",
			files: map[string]string{"main.tf": `resource "aws_sqs_queue" "jobs" {
  tags = { "queuecap:arrival_rate" = 90 }
}

resource "aws_ecs_service" "worker" {
  name          = "worker"
  desired_count = 3
  tags = {
    "queuecap:per_consumer_rate" = 30
    "queuecap:queue"             = "aws_sqs_queue.jobs"
  }
}
`},
			issues: []issue{{Message: "desired_count 3 × 30 msg/s = 90 msg/s does not exceed the declared arrival rate 90 msg/s: surplus 0 msg/s, any backlog never drains", Start: at(7, 3), End: at(7, 20), Facts: facts("arrival_rate", 90, "effective_arrival_rate", 90, "per_consumer_rate", 30, "max_consumers", 3, "capacity", 90, "surplus", 0)}},
		},
		{
			name: "rates and consumer declared in .queuecap.hcl",
			files: map[string]string{"main.tf": `resource "aws_sqs_queue" "orders" {
  name = "orders"
}

resource "aws_autoscaling_group" "workers" {
  max_size = 10
}
`},
			config: `queue "aws_sqs_queue.orders" {
  arrival_rate      = 4000
  per_consumer_rate = 200
  consumer          = "aws_autoscaling_group.workers"
}
`,
			issues: []issue{{Message: "max_size 10 × 200 msg/s = 2,000 msg/s does not exceed the declared arrival rate 4,000 msg/s: surplus -2,000 msg/s, any backlog never drains", Start: at(6, 3), End: at(6, 16), Facts: facts("arrival_rate", 4000, "effective_arrival_rate", 4000, "per_consumer_rate", 200, "max_consumers", 10, "capacity", 2000, "surplus", -2000)}},
		},
		{
			name: "fleet sized from a queuecap_consumers data source",
			files: map[string]string{"main.tf": `data "queuecap_consumers" "orders" {
  arrival_rate      = 10000
  per_consumer_rate = 400
}

resource "aws_sqs_queue" "orders" {
  name = "orders"
}

resource "aws_autoscaling_group" "workers" {
  max_size = data.queuecap_consumers.orders.steady_state_consumers
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
}
`},
			issues: []issue{{Message: zero, Start: at(11, 3), End: at(11, 67), Facts: facts("arrival_rate", 10000, "effective_arrival_rate", 10000, "per_consumer_rate", 400, "max_consumers", 25, "capacity", 10000, "surplus", 0)}},
		},
		{
			// The data source's arguments declare the rates wherever it
			// sizes the fleet: here an Application Auto Scaling target.
			name: "ECS target max_capacity from a queuecap_consumers data source",
			files: map[string]string{"main.tf": `data "queuecap_consumers" "p" {
  arrival_rate      = 1000
  per_consumer_rate = 50
}

resource "aws_sqs_queue" "q" {
  name = "payments"
}

resource "aws_ecs_service" "s" {
  name = "payments"
  tags = { "queuecap:queue" = "aws_sqs_queue.q" }
}

resource "aws_appautoscaling_target" "t" {
  resource_id  = "service/main/${aws_ecs_service.s.name}"
  max_capacity = data.queuecap_consumers.p.steady_state_consumers
}
`},
			issues: []issue{{Message: "max_capacity 20 × 50 msg/s = 1,000 msg/s does not exceed the declared arrival rate 1,000 msg/s: surplus 0 msg/s, any backlog never drains",
				Start: at(17, 3), End: at(17, 66), Facts: facts("arrival_rate", 1000, "effective_arrival_rate", 1000, "per_consumer_rate", 50, "max_consumers", 20, "capacity", 1000, "surplus", 0)}},
		},
		{
			name: "event source mapping maximum_concurrency from a queuecap_consumers data source",
			files: map[string]string{"main.tf": `data "queuecap_consumers" "n" {
  arrival_rate      = 300
  per_consumer_rate = 10
}

resource "aws_sqs_queue" "q" {
  name = "notifications"
}

resource "aws_lambda_function" "f" {
  function_name = "notify"
}

resource "aws_lambda_event_source_mapping" "m" {
  event_source_arn = aws_sqs_queue.q.arn
  function_name    = aws_lambda_function.f.function_name
  scaling_config {
    maximum_concurrency = data.queuecap_consumers.n.steady_state_consumers
  }
}
`},
			issues: []issue{{Message: "maximum_concurrency 30 × 10 msg/s = 300 msg/s does not exceed the declared arrival rate 300 msg/s: surplus 0 msg/s, any backlog never drains",
				Start: at(18, 5), End: at(18, 75), Facts: facts("arrival_rate", 300, "effective_arrival_rate", 300, "per_consumer_rate", 10, "max_consumers", 30, "capacity", 300, "surplus", 0)}},
		},
		{
			// The function docs teach this: the linter calls the provider
			// function with the catalog code the provider runs, and its
			// arguments declare the rates as a data source's do.
			name: "fleet sized by provider::queuecap::required_consumers",
			files: map[string]string{"main.tf": `resource "aws_sqs_queue" "orders" {
  name = "orders"
}

resource "aws_autoscaling_group" "workers" {
  max_size = provider::queuecap::required_consumers(10000, 400, 0, 1800)
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
}
`},
			issues: []issue{{Message: zero, Start: at(6, 3), End: at(6, 73), Facts: facts("arrival_rate", 10000, "effective_arrival_rate", 10000, "per_consumer_rate", 400, "max_consumers", 25, "capacity", 10000, "surplus", 0)}},
		},
		{
			name: "fleet sized by provider::queuecap::capacity_plan has a surplus",
			files: map[string]string{"main.tf": `locals {
  plan = provider::queuecap::capacity_plan({ arrival_rate = "10000", per_consumer_rate = 400, max_backlog = 5e6, rto_seconds = 1800 })
}

resource "aws_sqs_queue" "orders" {
  name = "orders"
}

resource "aws_autoscaling_group" "workers" {
  max_size = local.plan.required_consumers
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
}
`},
		},
		{
			name: "fleet sized to required_consumers has a surplus",
			files: map[string]string{"main.tf": sizedByConsumers(`  arrival_rate      = 10000
  per_consumer_rate = 400
  max_backlog       = 5000000
  rto_seconds       = 1800`)},
		},
		{
			name: "two fleets on one queue",
			files: map[string]string{"main.tf": `resource "aws_sqs_queue" "orders" {
  tags = {
    "queuecap:arrival_rate"      = 10000
    "queuecap:per_consumer_rate" = 400
  }
}

resource "aws_autoscaling_group" "a" {
  max_size = 10
}

resource "aws_autoscaling_group" "b" {
  max_size = 15
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = true
  }
}
`},
			config: `queue "aws_sqs_queue.orders" {
  consumer = "aws_autoscaling_group.a"
}
`,
			issues: []issue{{Summary: "the consumers' 10,000 msg/s cannot drain any backlog: raise their capacity above 10,000 msg/s", Message: "aws_autoscaling_group.b max_size 15 × 400 msg/s + aws_autoscaling_group.a max_size 10 × 400 msg/s = 10,000 msg/s does not exceed the declared arrival rate 10,000 msg/s: surplus 0 msg/s, any backlog never drains", Start: at(1, 1), End: at(1, 34), Facts: facts("arrival_rate", 10000, "effective_arrival_rate", 10000, "max_consumers", 25, "capacity", 10000, "surplus", 0)}},
		},
		{
			name: "the config's consumer is one fleet of two",
			files: map[string]string{"main.tf": `resource "aws_sqs_queue" "orders" {
  tags = {
    "queuecap:arrival_rate"      = 10000
    "queuecap:per_consumer_rate" = 400
  }
}

resource "aws_autoscaling_group" "a" {
  max_size = 10
}

resource "aws_autoscaling_group" "b" {
  max_size = 15
}
`},
			config: `queue "aws_sqs_queue.orders" {
  consumer = "aws_autoscaling_group.a"
}
`,
			issues: []issue{{Message: "max_size 10 × 400 msg/s = 4,000 msg/s does not exceed the declared arrival rate 10,000 msg/s: surplus -6,000 msg/s, any backlog never drains", Start: at(9, 3), End: at(9, 16), Facts: facts("arrival_rate", 10000, "effective_arrival_rate", 10000, "per_consumer_rate", 400, "max_consumers", 10, "capacity", 4000, "surplus", -6000)}},
		},
		{
			name: "no consumer, nothing to check",
			files: map[string]string{"main.tf": `resource "aws_sqs_queue" "orders" {
  tags = { "queuecap:arrival_rate" = 10000 }
}
`},
		},
		{
			name: "per_consumer_rate not declared",
			files: map[string]string{"main.tf": `resource "aws_sqs_queue" "orders" {
  tags = { "queuecap:arrival_rate" = 10000 }
}

resource "aws_autoscaling_group" "workers" {
  max_size = 10
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = true
  }
}
`},
			skips: []skip{{Reason: "per_consumer_rate is not declared for aws_autoscaling_group.workers (tag queuecap:per_consumer_rate, a queue block in .queuecap.hcl, or a queuecap data source)", Line: 5}},
		},
		{
			name: "count = 0 creates no fleet",
			files: map[string]string{"main.tf": asgWorkers("10000", "25") + `
resource "aws_autoscaling_group" "spare" {
  count    = 0
  max_size = 1
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = true
  }
}
`},
			issues: []issue{{Message: zero, Start: at(11, 3), End: at(11, 16), Facts: facts("arrival_rate", 10000, "effective_arrival_rate", 10000, "per_consumer_rate", 400, "max_consumers", 25, "capacity", 10000, "surplus", 0)}},
		},
	})
}

// TestZeroSurplusFix: the fix a first line names meets what the queue
// declares, here the seed's backlog within its RTO: 32, not the 26 that
// merely drains.
func TestZeroSurplusFix(t *testing.T) {
	backlog := `"queuecap:arrival_rate" = 10000, "queuecap:max_backlog" = 5000000, "queuecap:rto_seconds" = 1800`
	runRuleCases(t, "queuecap_zero_surplus", []ruleCase{{
		name:  "the seed's backlog and RTO",
		files: map[string]string{"main.tf": tagged(backlog, "", "25")},
		issues: []issue{{Summary: "max_size 25 cannot drain any backlog: raise it to 32",
			Message: "max_size 25 × 400 msg/s = 10,000 msg/s does not exceed the declared arrival rate 10,000 msg/s: surplus 0 msg/s, any backlog never drains",
			Start:   at(9, 3), End: at(9, 16),
			Facts: facts("arrival_rate", 10000, "effective_arrival_rate", 10000, "per_consumer_rate", 400, "max_consumers", 25, "capacity", 10000, "surplus", 0)}},
	}})
}
