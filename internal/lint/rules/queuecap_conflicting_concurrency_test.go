// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules_test

import (
	"testing"
)

// polledMapping is a queue consumed by a Lambda function through a mapping
// with extra content from line 12.
func polledMapping(mapping string) string {
	return `resource "aws_sqs_queue" "orders" {
  name = "orders"
}

resource "aws_lambda_function" "worker" {
  function_name = "worker"
}

resource "aws_lambda_event_source_mapping" "orders" {
  event_source_arn = aws_sqs_queue.orders.arn
  function_name    = aws_lambda_function.worker.function_name
` + mapping + `}
`
}

func TestConflictingConcurrency(t *testing.T) {
	const mapping = "aws_lambda_event_source_mapping.orders"
	runRuleCases(t, "queuecap_conflicting_concurrency", []ruleCase{
		{
			name: "provisioned mode with maximum_concurrency",
			files: map[string]string{"main.tf": polledMapping(`  scaling_config {
    maximum_concurrency = 100
  }
  provisioned_poller_config {
    minimum_pollers = 2
    maximum_pollers = 20
  }
`)},
			issues: []issue{{Summary: "maximum_concurrency 100 cannot be combined with provisioned_poller_config: remove one",
				Message: mapping + " sets scaling_config's maximum_concurrency 100 and provisioned_poller_config (line 15): AWS takes either maximum concurrency or provisioned mode, they are mutually exclusive; in provisioned mode maximum_pollers bounds the concurrency (maximum_pollers 20 × 10 = 200 concurrent invokes)",
				Start:   at(13, 5), End: at(13, 30),
				Facts: facts("maximum_concurrency", 100)}},
		},
		{
			// The pollers' block exists only if var.pp is not null: the
			// mode is not known, so the combination is not an error.
			name: "provisioned mode from a dynamic block over an unknown for_each",
			files: map[string]string{"main.tf": "variable \"pp\" {}\n" + polledMapping(`  scaling_config {
    maximum_concurrency = 100
  }
  dynamic "provisioned_poller_config" {
    for_each = var.pp == null ? [] : [var.pp]
    content {
      minimum_pollers = provisioned_poller_config.value.min
      maximum_pollers = provisioned_poller_config.value.max
    }
  }
`)},
			skips: []skip{{Reason: "provisioned_poller_config of " + mapping + " comes from a dynamic block whose for_each is not known before apply, so whether the mapping is in provisioned mode is not known: its pollers, and whether they conflict with scaling_config's maximum_concurrency, are not checked", Line: 16}},
		},
		{
			name: "minimum_pollers above maximum_pollers",
			files: map[string]string{"main.tf": polledMapping(`  provisioned_poller_config {
    minimum_pollers = 50
    maximum_pollers = 20
  }
`)},
			issues: []issue{{Summary: "minimum_pollers 50 is above maximum_pollers 20: lower it to at most 20",
				Message: mapping + " keeps minimum_pollers 50 warm but allows at most maximum_pollers 20: 50 > 20, which AWS refuses",
				Start:   at(13, 5), End: at(13, 25),
				Facts: facts("minimum_pollers", 50, "maximum_pollers", 20)}},
		},
		{
			// maximum_pollers unset is AWS's 200.
			name: "minimum_pollers above the default maximum",
			files: map[string]string{"main.tf": polledMapping(`  provisioned_poller_config {
    minimum_pollers = 200
  }
`)},
		},
		{
			name: "pollers out of AWS's ranges",
			files: map[string]string{"main.tf": polledMapping(`  provisioned_poller_config {
    minimum_pollers = 1
    maximum_pollers = 20000
  }
`)},
			issues: []issue{
				{Summary: "minimum_pollers 1 is not a whole number from 2 to 200: AWS refuses it",
					Message: "minimum_pollers of " + mapping + " is 1; AWS accepts a whole number from 2 to 200 (lambda_sqs_minimum_pollers_default 2, lambda_sqs_minimum_pollers_max 200)",
					Start:   at(13, 5), End: at(13, 24),
					Facts: facts("minimum_pollers", 1, "minimum_pollers_min", 2, "minimum_pollers_max", 200)},
				{Summary: "maximum_pollers 20,000 is not a whole number from 2 to 10,000: AWS refuses it",
					Message: "maximum_pollers of " + mapping + " is 20,000; AWS accepts a whole number from 2 to 10,000 (lambda_sqs_minimum_pollers_default 2, lambda_sqs_maximum_pollers_max 10,000)",
					Start:   at(14, 5), End: at(14, 28),
					Facts: facts("maximum_pollers", 20000, "maximum_pollers_min", 2, "maximum_pollers_max", 10000)},
			},
		},
		{
			name: "maximum_concurrency out of range",
			files: map[string]string{"main.tf": polledMapping(`  scaling_config {
    maximum_concurrency = 1
  }
`)},
			issues: []issue{{Summary: "maximum_concurrency 1 is not a whole number from 2 to 1,000: AWS refuses it",
				Message: "maximum_concurrency of " + mapping + " is 1; AWS accepts a whole number from 2 to 1,000 (lambda_sqs_maximum_concurrency_min 2, lambda_sqs_maximum_concurrency_max 1,000)",
				Start:   at(13, 5), End: at(13, 28),
				Facts: facts("maximum_concurrency", 1, "maximum_concurrency_min", 2, "maximum_concurrency_max", 1000)}},
		},
		{
			name: "provisioned mode alone",
			files: map[string]string{"main.tf": polledMapping(`  provisioned_poller_config {
    minimum_pollers = 5
    maximum_pollers = 20
  }
`)},
		},
		{
			name: "maximum_concurrency alone",
			files: map[string]string{"main.tf": polledMapping(`  scaling_config {
    maximum_concurrency = 100
  }
`)},
		},
		{
			name: "maximum_pollers not known before apply",
			files: map[string]string{"main.tf": "variable \"pollers\" {}\n\n" + polledMapping(`  provisioned_poller_config {
    minimum_pollers = 50
    maximum_pollers = var.pollers
  }
`)},
			skips: []skip{{Reason: "maximum_pollers of " + mapping + " comes from var.pollers, which has no value here (set it with --var, a tfvars file or TF_VAR_pollers)", Line: 16}},
		},
		{
			// An overridden table moves the range.
			name:   "aws_limits override",
			config: "aws_limits {\n  lambda_sqs_maximum_pollers_max = 20000\n}\n",
			files: map[string]string{"main.tf": polledMapping(`  provisioned_poller_config {
    maximum_pollers = 20000
  }
`)},
		},
	})
}
