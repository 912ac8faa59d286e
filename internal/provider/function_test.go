// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"math"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// functionTest runs steps only on CLIs with provider functions: Terraform
// 1.8+ and OpenTofu 1.7+ (whose version numbers pass the same check).
func functionTest(t *testing.T, steps ...resource.TestStep) {
	t.Helper()
	unitTestCase(t, resource.TestCase{
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_8_0)},
		Steps:                  steps,
	})
}

// outputCall is a configuration with one output holding a function call.
func outputCall(call string) string {
	return fmt.Sprintf("output \"result\" {\n  value = provider::queuecap::%s\n}\n", call)
}

func expectOutput(check knownvalue.Check) []statecheck.StateCheck {
	return []statecheck.StateCheck{statecheck.ExpectKnownOutputValue("result", check)}
}

func TestFunctionsKnown(t *testing.T) {
	cases := []struct {
		call string
		want knownvalue.Check
	}{
		{"effective_arrival_rate(10000, 0.2, 2)", num(14000)},
		{"surplus(10000, 400, 32)", num(2800)},
		{"surplus(10000, 400, 25)", num(0)},
		{"drain_seconds(800, 1000, 180000)", num(900)},
		{"drain_seconds(10000, 12800, 3600000)", num(3.6e6 / 2800)},
		// Never drains: null (an output holding null is not kept in state, so compare).
		{"drain_seconds(1200, 1000, 180000) == null", knownvalue.Bool(true)},
		{"drain_seconds(1200, 1000, 0)", num(0)},
		{"required_consumers(10000, 400, 5000000, 1800)", knownvalue.Int64Exact(32)},
		{"required_consumers(0.3, 0.1, 0, 1)", knownvalue.Int64Exact(3)},
		{"sla_max_depth(5000, 10)", num(50000)},
		{"ttl_bounded_backlog(10000, 3600, 600, 0)", num(6e6)},
		{"ttl_bounded_backlog(1200, 900, 86400, 1000)", num(180000)},
		{"backlog_per_consumer_target(10, 10)", num(100)},
		// The seed's retry storm: 63 consumers under 1.5 retries per
		// timeout, 26 without; 68 within 30 minutes; none for no backlog.
		{"min_consumers_to_drain(10000, 400, 3600000, 1.5, 30, 36000)", knownvalue.Int64Exact(63)},
		{"min_consumers_to_drain(10000, 400, 3600000, 0, 30, 36000)", knownvalue.Int64Exact(26)},
		{"min_consumers_to_drain(10000, 400, 3600000, 1.5, 30, 1800)", knownvalue.Int64Exact(68)},
		{"min_consumers_to_drain(10000, 400, 0, 1.5, 30, 36000)", knownvalue.Int64Exact(0)},
		// Empty by t = 1: 3.6 M plus the first second's 25,000 arrivals
		// (every message times out), over 400 msg/s a consumer.
		{"min_consumers_to_drain(10000, 400, 3600000, 1.5, 30, 1)", knownvalue.Int64Exact(9063)},
		// M/M/3 at a = 2: C = 4/9, p99 = ln((4/9) / 0.01) s; the median does not wait.
		{"percentile_wait_seconds(2, 1, 3, 0.99)", num(math.Log(4.0 / 9 / 0.01))},
		{"percentile_wait_seconds(2, 1, 3, 0.5)", num(0)},
		// Unstable (ρ = 1): no steady state, null.
		{"percentile_wait_seconds(10000, 400, 25, 0.99) == null", knownvalue.Bool(true)},
		{"replay_jobs_per_second(1000, 700, 100, 2, 0)", num(100)},
		{"replay_jobs_per_second(1000, 700, 100, 1, 0.1)", num(100)},
		// No room: 0, where the data source also warns.
		{"replay_jobs_per_second(1000, 850, 50, 1, 0.1)", num(0)},
		// The object functions, one attribute each (parity with the data
		// sources is TestFunctionDataSourceParity's).
		{"alarm_plan({ arrival_rate = 5000, sla_seconds = 10, per_consumer_rate = 10, rto_seconds = 1800, retry_rate = 0.2, avg_retries = 2 }).max_depth", num(70000)},
		{"drain_plan({ backlog = 380000, arrival_rate = 380, completion_rate = 520 }).net_rate", num(140)},
		{"retry_storm_plan({ arrival_rate = 10000, per_consumer_rate = 400, consumers = 32, backlog = 3600000, retries_per_timeout = 1.5 }).min_consumers_to_drain", knownvalue.Int64Exact(63)},
		{"wait_time_plan({ arrival_rate = 2, per_consumer_rate = 1, consumers = 3, target_wait_seconds = 0.5 }).min_consumers_for_target", knownvalue.Int64Exact(6)},
		{"ttl_backlog_plan({ arrival_rate = 10000, incident_seconds = 3600, ttl_seconds = 600 }).ttl_bounded_backlog", num(6e6)},
		{"replay_budget_plan({ downstream_limit = 1000, live_usage = 700, retry_usage = 100, calls_per_job = 2, safety_margin = 0, dlq_depth = 50000 }).replay_seconds", num(500)},
		{"queue_settings({ arrival_rate = 10000, per_consumer_rate = 400, consumers = 32, max_backlog = 5000000, lambda_timeout_seconds = 30 }).visibility_timeout_seconds", knownvalue.Int64Exact(180)},
		{"queue_settings({ arrival_rate = 10000, per_consumer_rate = 400, consumers = 32, max_backlog = 5000000, lambda_timeout_seconds = 30 }).dead_letter_message_retention_seconds", knownvalue.Int64Exact(1209600)},
	}
	for _, tc := range cases {
		t.Run(tc.call, func(t *testing.T) {
			functionTest(t, resource.TestStep{Config: outputCall(tc.call), ConfigStateChecks: expectOutput(tc.want)})
		})
	}
}

func TestFunctionCapacityPlan(t *testing.T) {
	functionTest(t,
		resource.TestStep{
			Config: outputCall(`capacity_plan({
    arrival_rate      = 10000
    per_consumer_rate = 400
    max_backlog       = 5000000
    rto_seconds       = 1800
  })`),
			ConfigStateChecks: expectOutput(knownvalue.ObjectPartial(map[string]knownvalue.Check{
				"steady_state_consumers": knownvalue.Int64Exact(25),
				"required_consumers":     knownvalue.Int64Exact(32),
				"capacity":               num(12800),
				"surplus":                num(2800),
				"overhead":               num(0.28),
				"headroom":               num(0.28),
				"drain_seconds":          num(5e6 / 2800.0),
				"retry_rate":             num(0),
				"min_headroom":           num(0),
			})),
		},
		resource.TestStep{
			Config: outputCall(`capacity_plan({ arrival_rate = 0, per_consumer_rate = 400 })`),
			ConfigStateChecks: expectOutput(knownvalue.ObjectPartial(map[string]knownvalue.Check{
				"required_consumers": knownvalue.Int64Exact(0),
				"headroom":           knownvalue.Null(),
				"overhead":           knownvalue.Null(),
				"rto_seconds":        knownvalue.Null(),
			})),
		},
	)
}

func TestFunctionsInvalid(t *testing.T) {
	cases := []struct{ call, err string }{
		{"surplus(10000, 400, 2.5)", `consumers must be a whole number, got: 2.5`},
		{"surplus(10000, 400, 1e30)", `consumers value must be at most 9007199254740992 (2^53, the largest count a float64 holds exactly), got: 1000000000000000000000000000000`},
		{"surplus(10000, 400, -1)", `value must be at least 0, got: -1`},
		{"surplus(10000, 0, 3)", `value must be greater than 0, got: 0`},
		{"effective_arrival_rate(10000, 1.5, 1)", `value must be between 0 and 1, got: 1.5`},
		{"drain_seconds(1, 10, 1/0)", `must be a finite number within the float64 range`},
		{"drain_seconds(0, 1e-300, 1e300)", `backlog makes the drain time backlog / net rate overflow the float64 range`},
		{"required_consumers(1e300, 1, 0, 1)", `arrival_rate makes steady_state_consumers 1e+300, more than the largest supported count`},
		{"sla_max_depth(5000, 0)", `value must be greater than 0, got: 0`},
		{"sla_max_depth(null, 10)", `argument must not be null`},
		{"capacity_plan({ arrival_rate = 1 })", `inputs.per_consumer_rate is required`},
		{"capacity_plan({ arrival_rate = 1, per_consumer_rate = 1, max_backlog = 5 })", `inputs.rto_seconds is required when max_backlog is greater than 0`},
		{"capacity_plan({ arrival_rate = 1, per_consumer_rate = 1, typo = 5 })", `inputs has no argument "typo"`},
		{"capacity_plan({ arrival_rate = 1, per_consumer_rate = 1, retry_rate = 2 })", `inputs.retry_rate value must be between 0 and 1, got: 2`},
		{"capacity_plan(5)", `inputs must be an object or a map of queuecap_consumers arguments, got a number`},
		{"min_consumers_to_drain(10000, 400, 3600000, 1.5, 30, 1.5)", `rto_seconds must be a whole number, got: 1.5`},
		{"min_consumers_to_drain(10000, 400, 3600000, 1.5, 30, 0)", `rto_seconds value must be between 1 and 864000, got: 0`},
		{"min_consumers_to_drain(10000, 400, 3600000, 1.5, 30, 1000000)", `rto_seconds value must be between 1 and 864000, got: 1000000`},
		{"min_consumers_to_drain(10000, 400, 3600000, -1, 30, 36000)", `value must be at least 0, got: -1`},
		{"min_consumers_to_drain(10000, 400, 3600000, 1.5, 0, 36000)", `value must be greater than 0, got: 0`},
		{"min_consumers_to_drain(1e300, 1, 1, 0, 30, 36000)", `backlog needs more than 9007199254740992 consumers to drain by t = 36000 s`},
		{"min_consumers_to_drain(10000, 400, null, 1.5, 30, 36000)", `argument must not be null`},
		{"percentile_wait_seconds(2, 1, 3, 1)", `value must be greater than 0 and less than 1, got: 1`},
		{"percentile_wait_seconds(2, 1, 0, 0.99)", `consumers value must be between 1 and 10000000, got: 0`},
		{"percentile_wait_seconds(2, 1, 2.5, 0.99)", `consumers must be a whole number, got: 2.5`},
		{"percentile_wait_seconds(2, 1, 20000000, 0.99)", `consumers value must be between 1 and 10000000, got: 20000000`},
		{"percentile_wait_seconds(1e300, 1e-300, 2, 0.99)", `arrival_rate makes the offered load arrival_rate / per_consumer_rate overflow the float64 range`},
		{"replay_jobs_per_second(0, 700, 100, 2, 0)", `value must be greater than 0, got: 0`},
		{"replay_jobs_per_second(1000, 700, 100, 0, 0)", `value must be greater than 0, got: 0`},
		{"replay_jobs_per_second(1000, 700, 100, 2, 1.5)", `value must be between 0 and 1, got: 1.5`},
		{"replay_jobs_per_second(null, 700, 100, 2, 0)", `argument must not be null`},
		{"alarm_plan({ arrival_rate = 1, per_consumer_rate = 1, rto_seconds = 60 })", `inputs.sla_seconds is required`},
		{"alarm_plan({ arrival_rate = 1, sla_seconds = 1, per_consumer_rate = 1, rto_seconds = 60, retry_rate = 2 })", `inputs.retry_rate value must be between 0 and 1, got: 2`},
		{"alarm_plan({ arrival_rate = 1, sla_seconds = 1, per_consumer_rate = 1, rto_seconds = 60, period_seconds = 45 })", `inputs.period_seconds must be 10, 20, 30 or a multiple of 60`},
		{"drain_plan({ backlog = 1, arrival_rate = 1 })", `inputs: No completion rate is set`},
		{"retry_storm_plan({ arrival_rate = 1, per_consumer_rate = 1, consumers = 1.5, backlog = 0, retries_per_timeout = 0 })", `inputs.consumers must be a whole number, got: 1.5`},
		{"wait_time_plan({ arrival_rate = 1, per_consumer_rate = 1, consumers = 0 })", `inputs.consumers value must be between 1 and 10000000, got: 0`},
		{"ttl_backlog_plan({ arrival_rate = 1, incident_seconds = 1 })", `inputs.ttl_seconds is required`},
		{"replay_budget_plan({ downstream_limit = 0, live_usage = 0, retry_usage = 0 })", `inputs.downstream_limit value must be greater than 0, got: 0`},
		{"queue_settings({ arrival_rate = 10000, per_consumer_rate = 400, consumers = 32, max_backlog = 5e9, lambda_timeout_seconds = 30 })",
			`inputs.max_backlog needs a message_retention_seconds of 2679922`},
		{"queue_settings({ arrival_rate = 10000, per_consumer_rate = 400, consumers = 32, lambda_timeout_seconds = 30, max_processing_seconds = 9 })",
			`inputs.lambda_timeout_seconds is set together with max_processing_seconds`},
	}
	for _, tc := range cases {
		t.Run(tc.call, func(t *testing.T) {
			functionTest(t, resource.TestStep{Config: outputCall(tc.call), ExpectError: errorWords(tc.err)})
		})
	}
}

// An argument known only after apply makes the result unknown at plan.
func TestFunctionsUnknown(t *testing.T) {
	for _, call := range []string{
		"surplus(10000, 400, terraform_data.n.output)",
		"drain_seconds(800, 1000, terraform_data.n.output)",
		"required_consumers(10000, 400, terraform_data.n.output, 1800)",
		"capacity_plan({ arrival_rate = 10000, per_consumer_rate = 400, max_backlog = terraform_data.n.output, rto_seconds = 1800 })",
		"min_consumers_to_drain(10000, 400, 3600000, 1.5, 30, terraform_data.n.output)",
		"percentile_wait_seconds(2, 1, terraform_data.n.output, 0.99)",
		"replay_jobs_per_second(1000, 700, terraform_data.n.output, 2, 0)",
		"drain_plan({ backlog = terraform_data.n.output, arrival_rate = 1, completion_rate = 2 })",
		"retry_storm_plan({ arrival_rate = 1, per_consumer_rate = 1, consumers = terraform_data.n.output, backlog = 0, retries_per_timeout = 0 })",
		"wait_time_plan({ arrival_rate = 1, per_consumer_rate = 1, consumers = terraform_data.n.output })",
		"ttl_backlog_plan({ arrival_rate = 1, incident_seconds = terraform_data.n.output, ttl_seconds = 60 })",
		"replay_budget_plan({ downstream_limit = 1000, live_usage = terraform_data.n.output, retry_usage = 0 })",
		"queue_settings({ arrival_rate = 10000, per_consumer_rate = 400, consumers = terraform_data.n.output, lambda_timeout_seconds = 30 })",
	} {
		t.Run(call, func(t *testing.T) {
			functionTest(t, resource.TestStep{
				Config: "resource \"terraform_data\" \"n\" {\n  input = 32\n}\n\n" + outputCall(call),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectUnknownOutputValue("result")},
				},
			})
		})
	}
}
