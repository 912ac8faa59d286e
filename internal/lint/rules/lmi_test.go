// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules_test

import (
	"strings"
	"testing"
)

// lmiWorker is lambdaWorker on Lambda Managed Instances: a capacity
// provider written with scaling (its capacity_provider_scaling_config
// argument, "" for none) and the function's capacity_provider_config
// settings (written in its lambda_managed_instances_capacity_provider_config
// block from line 13) and its own extra arguments (line 8).
func lmiWorker(scaling, extra, settings string) string {
	return `resource "aws_sqs_queue" "orders" {
  tags = { "queuecap:arrival_rate" = 500 }
}

resource "aws_lambda_function" "worker" {
  function_name = "worker"
  tags          = { "queuecap:per_consumer_rate" = 10 }` + extra + `

  capacity_provider_config {
    lambda_managed_instances_capacity_provider_config {
      capacity_provider_arn = aws_lambda_capacity_provider.workers.arn` + settings + `
    }
  }
}

resource "aws_lambda_event_source_mapping" "orders" {
  event_source_arn = aws_sqs_queue.orders.arn
  function_name    = aws_lambda_function.worker.arn
}

resource "aws_lambda_capacity_provider" "workers" {
  name = "workers"
  ` + scaling + `
}
`
}

// A capacity provider of max_vcpu_count vCPUs runs at most max_vcpu_count ÷
// vCPUs per execution environment environments, each taking
// per_execution_environment_max_concurrency invocations.
func TestLambdaManagedInstancesBound(t *testing.T) {
	const vcpus20 = `capacity_provider_scaling_config = [{ max_vcpu_count = 20, scaling_mode = "Manual", scaling_policies = [] }]`
	settings := func(perEnv string) string {
		return "\n      per_execution_environment_max_concurrency = " + perEnv + "\n      execution_environment_memory_gib_per_vcpu = 2"
	}
	runRuleCases(t, "queuecap_zero_surplus", []ruleCase{
		{
			// 4,096 MB at 2 GiB per vCPU is 2 vCPUs: 10 environments of 4,
			// 40 × 10 msg/s < 500 msg/s.
			name:  "the capacity provider binds",
			files: map[string]string{"main.tf": lmiWorker(vcpus20, "\n  memory_size   = 4096", settings("4"))},
			issues: []issue{{Summary: "the consumers' 400 msg/s cannot drain any backlog: raise their capacity above 500 msg/s",
				Message: "(max_vcpu_count 20 of aws_lambda_capacity_provider.workers ÷ 2 vCPUs per execution environment " +
					"(memory_size 4,096 MB ÷ 1,024 ÷ execution_environment_memory_gib_per_vcpu 2) = 10 execution environments × per_execution_environment_max_concurrency 4 = 40 concurrent invocations on Lambda Managed Instances) " +
					"× 10 msg/s = 400 msg/s does not exceed the declared arrival rate 500 msg/s: surplus -100 msg/s, any backlog never drains",
				Start: at(26, 3), End: at(26, 111), Facts: facts("arrival_rate", 500, "effective_arrival_rate", 500, "per_consumer_rate", 10, "max_consumers", 40, "capacity", 400, "surplus", -100)}},
		},
		{
			// 10 environments of 10: 1,000 msg/s.
			name:  "room on the capacity provider",
			files: map[string]string{"main.tf": lmiWorker(vcpus20, "\n  memory_size   = 4096", settings("10"))},
		},
		{
			// Without the memory, AWS's least of 1 vCPU: 20 environments of
			// 4 (80 × 10 msg/s), still an upper bound.
			name:  "memory not given: AWS's least vCPU",
			files: map[string]string{"main.tf": lmiWorker(vcpus20, "", settings("2"))},
			issues: []issue{{Message: "(max_vcpu_count 20 of aws_lambda_capacity_provider.workers ÷ 1 vCPU per execution environment (AWS's least) " +
				"= 20 execution environments × per_execution_environment_max_concurrency 2 = 40 concurrent invocations on Lambda Managed Instances) × 10 msg/s = 400 msg/s does not exceed the declared arrival rate 500 msg/s: " +
				"surplus -100 msg/s, any backlog never drains",
				Start: at(25, 3), End: at(25, 111), Facts: facts("arrival_rate", 500, "effective_arrival_rate", 500, "per_consumer_rate", 10, "max_consumers", 40, "capacity", 400, "surplus", -100)}},
		},
		{
			// Reserved concurrency 30 binds before the provider's 40.
			name:  "reserved concurrency binds first",
			files: map[string]string{"main.tf": lmiWorker(vcpus20, "\n  memory_size   = 4096\n  reserved_concurrent_executions = 30", settings("4"))},
			issues: []issue{{Message: "reserved_concurrent_executions 30 × 10 msg/s = 300 msg/s does not exceed the declared arrival rate 500 msg/s: surplus -200 msg/s, any backlog never drains",
				Start: at(9, 3), End: at(9, 38), Facts: facts("arrival_rate", 500, "effective_arrival_rate", 500, "per_consumer_rate", 10, "max_consumers", 30, "capacity", 300, "surplus", -200)}},
		},
		{
			name:  "max_vcpu_count unknown before apply",
			files: map[string]string{"main.tf": lmiWorker(`capacity_provider_scaling_config = [{ max_vcpu_count = var.vcpus, scaling_mode = "Manual", scaling_policies = [] }]`, "", settings("4")) + "variable \"vcpus\" {\n  type = number\n}\n"},
			skips: []skip{{Reason: "max_vcpu_count of aws_lambda_capacity_provider.workers comes from var.vcpus, " +
				"which has no value here (set it with --var, a tfvars file or TF_VAR_vcpus)", Line: 25}},
		},
		{
			// A bound not known leaves the queue checked at a cap of the
			// configuration, but not at standard mode's 1,250 alone.
			name: "max_vcpu_count unknown, reserved concurrency known",
			files: map[string]string{"main.tf": lmiWorker(`capacity_provider_scaling_config = [{ max_vcpu_count = var.vcpus, scaling_mode = "Manual", scaling_policies = [] }]`,
				"\n  reserved_concurrent_executions = 30", settings("4")) + "variable \"vcpus\" {\n  type = number\n}\n"},
			issues: []issue{{Message: "reserved_concurrent_executions 30 × 10 msg/s = 300 msg/s does not exceed the declared arrival rate 500 msg/s: surplus -200 msg/s, any backlog never drains",
				Start: at(8, 3), End: at(8, 38), Facts: facts("arrival_rate", 500, "effective_arrival_rate", 500, "per_consumer_rate", 10, "max_consumers", 30, "capacity", 300, "surplus", -200)}},
		},
		{
			name:  "no scaling config",
			files: map[string]string{"main.tf": lmiWorker("", "", settings("4"))},
			skips: []skip{{Reason: "max_vcpu_count of aws_lambda_capacity_provider.workers is not set in its capacity_provider_scaling_config: " +
				"AWS publishes no default, so the function's concurrency is not bounded by the configuration; set max_vcpu_count, or reserved_concurrent_executions", Line: 23}},
		},
		{
			// The ARN of a capacity provider elsewhere: no bound to make.
			name: "a capacity provider outside the configuration",
			files: map[string]string{"main.tf": strings.Replace(lmiWorker(vcpus20, "", ""), "aws_lambda_capacity_provider.workers.arn",
				`"arn:aws:lambda:eu-west-1:123456789012:capacity-provider:shared"`, 1)},
			skips: []skip{{Reason: "capacity_provider_arn of aws_lambda_function.worker names no aws_lambda_capacity_provider of this configuration, " +
				"so its concurrency on Lambda Managed Instances is not known; set reserved_concurrent_executions", Line: 11}},
		},
		{
			name: "capacity_provider_arn unknown before apply",
			files: map[string]string{"main.tf": strings.Replace(lmiWorker(vcpus20, "", ""), "aws_lambda_capacity_provider.workers.arn", "var.provider_arn", 1) +
				"variable \"provider_arn\" {\n  type = string\n}\n"},
			skips: []skip{{Reason: "capacity_provider_arn of aws_lambda_function.worker comes from var.provider_arn, which has no value here " +
				"(set it with --var, a tfvars file or TF_VAR_provider_arn), so its concurrency on Lambda Managed Instances is not known", Line: 11}},
		},
		{
			// The provider in a module, its ARN an output of it.
			name: "a capacity provider in a module",
			files: map[string]string{
				"main.tf": strings.Replace(strings.Replace(lmiWorker("", "\n  memory_size   = 4096", settings("4")), "aws_lambda_capacity_provider.workers.arn", "module.capacity.arn", 1),
					"resource \"aws_lambda_capacity_provider\" \"workers\" {\n  name = \"workers\"\n  \n}\n", "module \"capacity\" {\n  source = \"./capacity\"\n}\n", 1),
				"capacity/main.tf": "resource \"aws_lambda_capacity_provider\" \"this\" {\n  name = \"workers\"\n  " + vcpus20 + "\n}\n\noutput \"arn\" {\n  value = aws_lambda_capacity_provider.this.arn\n}\n",
			},
			issues: []issue{{Message: "(max_vcpu_count 20 of module.capacity.aws_lambda_capacity_provider.this ÷ 2 vCPUs per execution environment " +
				"(memory_size 4,096 MB ÷ 1,024 ÷ execution_environment_memory_gib_per_vcpu 2) = 10 execution environments × per_execution_environment_max_concurrency 4 = 40 concurrent invocations on Lambda Managed Instances) " +
				"× 10 msg/s = 400 msg/s does not exceed the declared arrival rate 500 msg/s: surplus -100 msg/s, any backlog never drains",
				File: "capacity/main.tf", Start: at(3, 3), End: at(3, 111), Facts: facts("arrival_rate", 500, "effective_arrival_rate", 500, "per_consumer_rate", 10, "max_consumers", 40, "capacity", 400, "surplus", -100)}},
		},
		{
			// Its name at the end of a written ARN finds it.
			name: "a capacity provider by its ARN",
			files: map[string]string{"main.tf": strings.Replace(lmiWorker(vcpus20, "\n  memory_size   = 4096", settings("4")), "aws_lambda_capacity_provider.workers.arn",
				`"arn:aws:lambda:eu-west-1:123456789012:capacity-provider:workers"`, 1)},
			issues: []issue{{Message: "(max_vcpu_count 20 of aws_lambda_capacity_provider.workers ÷ 2 vCPUs per execution environment " +
				"(memory_size 4,096 MB ÷ 1,024 ÷ execution_environment_memory_gib_per_vcpu 2) = 10 execution environments × per_execution_environment_max_concurrency 4 = 40 concurrent invocations on Lambda Managed Instances) " +
				"× 10 msg/s = 400 msg/s does not exceed the declared arrival rate 500 msg/s: surplus -100 msg/s, any backlog never drains",
				Start: at(26, 3), End: at(26, 111), Facts: facts("arrival_rate", 500, "effective_arrival_rate", 500, "per_consumer_rate", 10, "max_consumers", 40, "capacity", 400, "surplus", -100)}},
		},
		{
			// 1,600 per environment, AWS's greatest, when unset.
			name:  "per-environment concurrency unset",
			files: map[string]string{"main.tf": lmiWorker(vcpus20, "", "")},
		},
		{
			// per_execution_environment_max_concurrency of 0 is refused by
			// AWS: no bound, said at the provider.
			name:  "an invalid per-environment concurrency",
			files: map[string]string{"main.tf": lmiWorker(vcpus20, "", settings("0"))},
			skips: []skip{{Reason: "per_execution_environment_max_concurrency of aws_lambda_function.worker must be a whole number from 1 to 1600, got 0, " +
				"which AWS refuses, so the concurrency on Lambda Managed Instances is not known", Line: 12}},
		},
	})
}
