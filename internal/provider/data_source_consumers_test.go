// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

const consumersAddr = "data.queuecap_consumers.test"

func TestConsumersDataSource(t *testing.T) {
	unitTest(t,
		// MATH.md's headroom formula: 25 + 6.94 → 32 consumers, overhead 28 %.
		resource.TestStep{
			Config: `data "queuecap_consumers" "test" {
  arrival_rate      = 10000
  per_consumer_rate = 400
  max_backlog       = 5000000
  rto_seconds       = 1800
}`,
			ConfigStateChecks: expectValues(consumersAddr, map[string]knownvalue.Check{
				"effective_arrival_rate": num(10000),
				"steady_state_consumers": knownvalue.Int64Exact(25),
				"required_consumers":     knownvalue.Int64Exact(32),
				"capacity":               num(12800),
				"surplus":                num(2800),
				"utilization":            num(0.78125),
				"headroom":               num(0.28),
				"overhead":               num(0.28),
				"drain_seconds":          num(5e6 / 2800.0),
				// Null optionals are filled with their defaults.
				"retry_rate":   num(0),
				"avg_retries":  num(0),
				"min_headroom": num(0),
			}),
		},
		// No backlog: the steady state is all that is required, and the
		// drain time of nothing is 0.
		resource.TestStep{
			Config: `data "queuecap_consumers" "test" {
  arrival_rate      = 10000
  per_consumer_rate = 400
}`,
			ConfigStateChecks: expectValues(consumersAddr, map[string]knownvalue.Check{
				"required_consumers": knownvalue.Int64Exact(25),
				"surplus":            num(0),
				"headroom":           num(0),
				"overhead":           num(0),
				"drain_seconds":      num(0),
				"max_backlog":        num(0),
				"rto_seconds":        knownvalue.Null(),
			}),
		},
		// Retries amplify arrivals (1000 × (1 + 0.5 × 2) = 2000) and the
		// min_headroom floor ceil(2000 × 1.25 / 100) = 25 beats the formula's 20.
		resource.TestStep{
			Config: `data "queuecap_consumers" "test" {
  arrival_rate      = 1000
  per_consumer_rate = 100
  retry_rate        = 0.5
  avg_retries       = 2
  min_headroom      = 0.25
}`,
			ConfigStateChecks: expectValues(consumersAddr, map[string]knownvalue.Check{
				"effective_arrival_rate": num(2000),
				"steady_state_consumers": knownvalue.Int64Exact(20),
				"required_consumers":     knownvalue.Int64Exact(25),
				"headroom":               num(0.25),
				"overhead":               num(0.25),
			}),
		},
		// Zero arrivals: headroom and overhead are undefined, so null.
		resource.TestStep{
			Config: `data "queuecap_consumers" "test" {
  arrival_rate      = 0
  per_consumer_rate = 400
}`,
			ConfigStateChecks: expectValues(consumersAddr, map[string]knownvalue.Check{
				"steady_state_consumers": knownvalue.Int64Exact(0),
				"required_consumers":     knownvalue.Int64Exact(0),
				"utilization":            num(0),
				"headroom":               knownvalue.Null(),
				"overhead":               knownvalue.Null(),
			}),
		},
		// 0.3 / 0.1 is 2.9999999999999996 in float64: still 3 consumers.
		resource.TestStep{
			Config: `data "queuecap_consumers" "test" {
  arrival_rate      = 0.3
  per_consumer_rate = 0.1
}`,
			ConfigStateChecks: expectValues(consumersAddr, map[string]knownvalue.Check{
				"steady_state_consumers": knownvalue.Int64Exact(3),
				"required_consumers":     knownvalue.Int64Exact(3),
				"surplus":                num(0),
			}),
		},
		// Huge but finite: 1e300 msg/s at 1e292 msg/s per consumer is 1e8 consumers.
		resource.TestStep{
			Config: `data "queuecap_consumers" "test" {
  arrival_rate      = 1e300
  per_consumer_rate = 1e292
}`,
			ConfigStateChecks: expectValues(consumersAddr, map[string]knownvalue.Check{
				"required_consumers": knownvalue.Int64Exact(100000000),
			}),
		},
	)
}

func TestConsumersDataSourceInvalid(t *testing.T) {
	cases := map[string]struct {
		config string
		err    string
	}{
		"negative arrival rate": {`arrival_rate = -1
  per_consumer_rate = 400`, `Attribute arrival_rate value must be at least 0, got: -1`},
		"zero per-consumer rate": {`arrival_rate = 10000
  per_consumer_rate = 0`, `Attribute per_consumer_rate value must be greater than 0, got: 0`},
		"retry rate above 1": {`arrival_rate = 10000
  per_consumer_rate = 400
  retry_rate = 1.5`, `Attribute retry_rate value must be between 0 and 1, got: 1.5`},
		"max_backlog without rto_seconds": {`arrival_rate = 10000
  per_consumer_rate = 400
  max_backlog = 5000000`, `Attribute rto_seconds is required when max_backlog is greater than 0 (it is 5000000): the time allowed to clear that backlog`},
		"infinite arrival rate": {`arrival_rate = 1/0
  per_consumer_rate = 400`, `Attribute arrival_rate must be a finite number within the float64 range`},
		"beyond float64": {`arrival_rate = 1e400
  per_consumer_rate = 400`, `Attribute arrival_rate must be a finite number within the float64 range`},
		"count too large": {`arrival_rate = 1e300
  per_consumer_rate = 1`, `arrival_rate makes steady_state_consumers 1e+300, more than the largest supported count`},
		"backlog term overflows": {`arrival_rate = 0
  per_consumer_rate = 1e-300
  max_backlog = 1e300
  rto_seconds = 1e-10`, `max_backlog makes the backlog term max_backlog / (per_consumer_rate × rto_seconds) overflow the float64 range`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			unitTest(t, resource.TestStep{
				Config:      "data \"queuecap_consumers\" \"test\" {\n  " + tc.config + "\n}",
				ExpectError: errorWords(tc.err),
			})
		})
	}
}

// An input known only after apply defers the read: the outputs are unknown
// at plan, with no error, and known once the input is.
func TestConsumersDataSourceUnknownInput(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: `resource "terraform_data" "rate" {
  input = 10000
}

data "queuecap_consumers" "test" {
  arrival_rate      = terraform_data.rate.output
  per_consumer_rate = 400
  max_backlog       = 5000000
  rto_seconds       = 1800
}

output "required" {
  value = data.queuecap_consumers.test.required_consumers
}`,
		ConfigPlanChecks: resource.ConfigPlanChecks{
			PreApply: []plancheck.PlanCheck{plancheck.ExpectUnknownOutputValue("required")},
		},
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownOutputValue("required", knownvalue.Int64Exact(32)),
		},
	})
}
