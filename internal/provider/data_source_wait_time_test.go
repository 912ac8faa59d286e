// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"math"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

const waitAddr = "data.queuecap_wait_time.test"

func waitConfig(body string) string {
	return "data \"queuecap_wait_time\" \"test\" {\n" + body + "\n}"
}

// TestWaitTimePublishedValues checks Erlang C through Terraform against
// published values: M/M/3 at a = 2 Erlangs waits with probability 4/9 (the
// textbook closed form), and the call-centre table at a = 10 Erlangs gives
// C(11) = 0.6821 and C(12) = 0.4494.
func TestWaitTimePublishedValues(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: `data "queuecap_wait_time" "mm3" {
  arrival_rate      = 2
  per_consumer_rate = 1
  consumers         = 3
}

data "queuecap_wait_time" "c11" {
  arrival_rate      = 10
  per_consumer_rate = 1
  consumers         = 11
}

data "queuecap_wait_time" "c12" {
  arrival_rate      = 10
  per_consumer_rate = 1
  consumers         = 12
}`,
		ConfigStateChecks: append(append(
			// C = 4/9, Wq = C / (3 − 2) s, p99 = ln((4/9) / 0.01) / (3 − 2) s.
			expectValues("data.queuecap_wait_time.mm3", map[string]knownvalue.Check{
				"utilization":              num(2.0 / 3),
				"stable":                   knownvalue.Bool(true),
				"probability_of_wait":      num(4.0 / 9),
				"mean_wait_seconds":        num(4.0 / 9),
				"percentile_wait_seconds":  num(math.Log(4.0 / 9 / 0.01)),
				"percentile":               num(0.99),
				"target_wait_seconds":      knownvalue.Null(),
				"min_consumers_for_target": knownvalue.Null(),
			}),
			expectValues("data.queuecap_wait_time.c11", map[string]knownvalue.Check{
				"probability_of_wait": closeTo{0.6821, 5e-5},
				"mean_wait_seconds":   closeTo{0.6821, 5e-5}, // C / (11 − 10)
			})...),
			expectValues("data.queuecap_wait_time.c12", map[string]knownvalue.Check{
				"probability_of_wait": closeTo{0.4494, 5e-5},
				"mean_wait_seconds":   closeTo{0.4494 / 2, 5e-5},
			})...),
	})
}

func TestWaitTimeDataSource(t *testing.T) {
	unitTest(t,
		// A target of 1 s at p99 for M/M/·, a = 2: c = 4 waits ≈ 1.43 s, c = 5 ≈ 0.60 s.
		resource.TestStep{
			Config: waitConfig(`arrival_rate = 2
per_consumer_rate = 1
consumers = 3
target_wait_seconds = 1`),
			ConfigStateChecks: expectValues(waitAddr, map[string]knownvalue.Check{
				"percentile_wait_seconds":  num(math.Log(4.0 / 9 / 0.01)),
				"min_consumers_for_target": knownvalue.Int64Exact(5),
			}),
		},
		// The median message of M/M/3 at a = 2 does not wait: P(wait) 4/9 < 0.5.
		resource.TestStep{
			Config: waitConfig(`arrival_rate = 2
per_consumer_rate = 1
consumers = 3
percentile = 0.5`),
			ConfigStateChecks: expectValues(waitAddr, map[string]knownvalue.Check{
				"percentile":              num(0.5),
				"percentile_wait_seconds": num(0),
			}),
		},
		// The seed's steady-state fleet, 25 × 400 against 10,000: ρ = 1, no
		// steady state, so no wait figures; the target still sizes a fleet.
		// 26 consumers wait with C ≈ 0.782 and drain waits at 400 msg/s: a
		// p99 of ln(78.2) / 400 ≈ 10.9 ms; 27 (C ≈ 0.603, 800 msg/s) 5.1 ms.
		resource.TestStep{
			Config: waitConfig(`arrival_rate = 10000
per_consumer_rate = 400
consumers = 25
target_wait_seconds = 0.01`),
			ConfigStateChecks: expectValues(waitAddr, map[string]knownvalue.Check{
				"utilization":              num(1),
				"stable":                   knownvalue.Bool(false),
				"probability_of_wait":      knownvalue.Null(),
				"mean_wait_seconds":        knownvalue.Null(),
				"percentile_wait_seconds":  knownvalue.Null(),
				"min_consumers_for_target": knownvalue.Int64Exact(27),
			}),
		},
		// No arrivals: nothing waits.
		resource.TestStep{
			Config: waitConfig(`arrival_rate = 0
per_consumer_rate = 1
consumers = 1`),
			ConfigStateChecks: expectValues(waitAddr, map[string]knownvalue.Check{
				"utilization":             num(0),
				"stable":                  knownvalue.Bool(true),
				"probability_of_wait":     num(0),
				"mean_wait_seconds":       num(0),
				"percentile_wait_seconds": num(0),
			}),
		},
	)
}

// TestWaitTimeLargeFleet is the numerical stability check through
// Terraform: c = 100,000 at 95 % and 99 % utilization gives finite,
// sensible figures (a huge pool waits rarely, and briefly).
func TestWaitTimeLargeFleet(t *testing.T) {
	unitTest(t,
		resource.TestStep{
			Config: waitConfig(`arrival_rate = 95000
per_consumer_rate = 1
consumers = 100000
target_wait_seconds = 0.001`),
			ConfigStateChecks: expectValues(waitAddr, map[string]knownvalue.Check{
				"utilization":             num(0.95),
				"probability_of_wait":     closeTo{0, 1e-50},
				"percentile_wait_seconds": num(0),
				// Square-root staffing: a + β√a with β ≈ 2.1 for a 1 ms p99.
				"min_consumers_for_target": knownvalue.Int64Exact(95658),
			}),
		},
		// At 99 %: P(wait) ≈ 8.2e-4 and Wq = C / 1,000 s; the p99.99 wait is
		// ln(C / 1e-4) / 1,000 ≈ 2.1 ms.
		resource.TestStep{
			Config: waitConfig(`arrival_rate = 99000
per_consumer_rate = 1
consumers = 100000
percentile = 0.9999`),
			ConfigStateChecks: expectValues(waitAddr, map[string]knownvalue.Check{
				"probability_of_wait":     closeTo{8.219e-4, 1e-7},
				"mean_wait_seconds":       closeTo{8.219e-7, 1e-10},
				"percentile_wait_seconds": closeTo{math.Log(8.219e-4/1e-4) / 1000, 1e-6},
			}),
		},
	)
}

func TestWaitTimeDataSourceInvalid(t *testing.T) {
	cases := map[string]struct{ body, err string }{
		"negative arrival rate":  {"arrival_rate = -1\nper_consumer_rate = 1\nconsumers = 1", `Attribute arrival_rate value must be at least 0, got: -1`},
		"zero per-consumer rate": {"arrival_rate = 1\nper_consumer_rate = 0\nconsumers = 1", `Attribute per_consumer_rate value must be greater than 0, got: 0`},
		"no consumers":           {"arrival_rate = 1\nper_consumer_rate = 1\nconsumers = 0", `Attribute consumers value must be between 1 and 10000000, got: 0`},
		"fractional consumers":   {"arrival_rate = 1\nper_consumer_rate = 1\nconsumers = 1.5", `consumers`},
		"too many consumers":     {"arrival_rate = 1\nper_consumer_rate = 1\nconsumers = 20000000", `Attribute consumers value must be between 1 and 10000000, got: 20000000`},
		"percentile of 1":        {"arrival_rate = 1\nper_consumer_rate = 1\nconsumers = 2\npercentile = 1", `Attribute percentile value must be greater than 0 and less than 1, got: 1`},
		"percentile of 0":        {"arrival_rate = 1\nper_consumer_rate = 1\nconsumers = 2\npercentile = 0", `Attribute percentile value must be greater than 0 and less than 1, got: 0`},
		"zero target":            {"arrival_rate = 1\nper_consumer_rate = 1\nconsumers = 2\ntarget_wait_seconds = 0", `Attribute target_wait_seconds value must be greater than 0, got: 0`},
		"infinite arrival rate":  {"arrival_rate = 1/0\nper_consumer_rate = 1\nconsumers = 2", `Attribute arrival_rate must be a finite number within the float64 range`},
		"offered load overflows": {"arrival_rate = 1e300\nper_consumer_rate = 1e-300\nconsumers = 2", `arrival_rate makes the offered load arrival_rate / per_consumer_rate overflow the float64 range`},
		"target beyond any fleet": {"arrival_rate = 2e7\nper_consumer_rate = 1\nconsumers = 1\ntarget_wait_seconds = 1",
			`target_wait_seconds is not met by any fleet of up to 10000000 consumers`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			unitTest(t, resource.TestStep{Config: waitConfig(tc.body), ExpectError: errorWords(tc.err)})
		})
	}
}

func TestWaitTimeDataSourceUnknownInput(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: `resource "terraform_data" "fleet" {
  input = 3
}

data "queuecap_wait_time" "test" {
  arrival_rate      = 2
  per_consumer_rate = 1
  consumers         = terraform_data.fleet.output
}

output "p99" {
  value = data.queuecap_wait_time.test.percentile_wait_seconds
}`,
		ConfigPlanChecks: resource.ConfigPlanChecks{
			PreApply: []plancheck.PlanCheck{plancheck.ExpectUnknownOutputValue("p99")},
		},
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownOutputValue("p99", num(math.Log(4.0/9/0.01))),
		},
	})
}
