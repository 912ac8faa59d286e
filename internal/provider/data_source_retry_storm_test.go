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

// seedStormConfig is seed 000's simulation of one fleet: λ 10,000, μ 400,
// B 3.6 M, with the default 30 s window and 36,000 steps.
func seedStormConfig(name, consumers, retries string) string {
	return `data "queuecap_retry_storm" "` + name + `" {
  arrival_rate        = 10000
  per_consumer_rate   = 400
  consumers           = ` + consumers + `
  backlog             = 3600000
  retries_per_timeout = ` + retries + `
  rto_seconds         = 1800
}
`
}

// TestRetryStormSeedTable reproduces the seed's table exactly: 25
// consumers never drain; 32 drain in 1,287 steps (depth 0 at t = 1,286)
// without retries, but never under 1.5 retries per timeout, peaking at
// about 4.4 × 10^8. The storm needs 63 consumers (26 without retries);
// within a 30-minute RTO 68 (30 without, the headroom formula's 25 + 5).
func TestRetryStormSeedTable(t *testing.T) {
	const (
		steady   = "data.queuecap_retry_storm.steady_state"
		headroom = "data.queuecap_retry_storm.headroom"
		storm    = "data.queuecap_retry_storm.storm"
	)
	checks := expectValues(steady, map[string]knownvalue.Check{
		"drains":                            knownvalue.Bool(false),
		"drain_seconds":                     knownvalue.Null(),
		"steps":                             knownvalue.Int64Exact(36000),
		"peak_depth":                        num(3.6e6),
		"final_depth":                       num(3.6e6),
		"peak_effective_arrival_rate":       num(10000),
		"min_consumers_to_drain":            knownvalue.Int64Exact(26),
		"min_consumers_to_drain_within_rto": knownvalue.Int64Exact(30),
		// Null optionals are filled with their defaults.
		"timeout_window_seconds": num(30),
		"max_seconds":            knownvalue.Int64Exact(36000),
	})
	checks = append(checks, expectValues(headroom, map[string]knownvalue.Check{
		"drains":                            knownvalue.Bool(true),
		"drain_seconds":                     num(1286),
		"steps":                             knownvalue.Int64Exact(1287),
		"peak_depth":                        num(3.6e6),
		"final_depth":                       num(0),
		"peak_effective_arrival_rate":       num(10000),
		"min_consumers_to_drain":            knownvalue.Int64Exact(26),
		"min_consumers_to_drain_within_rto": knownvalue.Int64Exact(30),
	})...)
	checks = append(checks, expectValues(storm, map[string]knownvalue.Check{
		"drains":        knownvalue.Bool(false),
		"drain_seconds": knownvalue.Null(),
		"steps":         knownvalue.Int64Exact(36000),
		// Past depth 300,000 every message times out: 25,000 msg/s arrive
		// against 12,800, and the depth grows 12,200 msg/s for ten hours.
		"peak_depth":                        num(442787800),
		"final_depth":                       num(442787800),
		"peak_effective_arrival_rate":       num(25000),
		"min_consumers_to_drain":            knownvalue.Int64Exact(63),
		"min_consumers_to_drain_within_rto": knownvalue.Int64Exact(68),
	})...)
	unitTest(t, resource.TestStep{
		Config: seedStormConfig("steady_state", "25", "0") +
			seedStormConfig("headroom", "32", "0") +
			seedStormConfig("storm", "32", "1.5"),
		ConfigStateChecks: checks,
	})
}

func TestRetryStormDataSource(t *testing.T) {
	const addr = "data.queuecap_retry_storm.test"
	unitTest(t,
		// Without rto_seconds there is no search within it.
		resource.TestStep{
			Config: `data "queuecap_retry_storm" "test" {
  arrival_rate        = 10000
  per_consumer_rate   = 400
  consumers           = 63
  backlog             = 3600000
  retries_per_timeout = 1.5
}`,
			ConfigStateChecks: expectValues(addr, map[string]knownvalue.Check{
				"drains":                            knownvalue.Bool(true),
				"min_consumers_to_drain":            knownvalue.Int64Exact(63),
				"rto_seconds":                       knownvalue.Null(),
				"min_consumers_to_drain_within_rto": knownvalue.Null(),
			}),
		},
		// max_seconds = 1 records t = 0 only: the backlog does not drain
		// within it, and no fleet would (null, as documented).
		resource.TestStep{
			Config: `data "queuecap_retry_storm" "test" {
  arrival_rate        = 10000
  per_consumer_rate   = 400
  consumers           = 32
  backlog             = 3600000
  retries_per_timeout = 1.5
  max_seconds         = 1
}`,
			ConfigStateChecks: expectValues(addr, map[string]knownvalue.Check{
				"drains":                 knownvalue.Bool(false),
				"steps":                  knownvalue.Int64Exact(1),
				"min_consumers_to_drain": knownvalue.Null(),
			}),
		},
		// No backlog: drained at t = 0 by any fleet, even none.
		resource.TestStep{
			Config: `data "queuecap_retry_storm" "test" {
  arrival_rate        = 10000
  per_consumer_rate   = 400
  consumers           = 0
  backlog             = 0
  retries_per_timeout = 1.5
  rto_seconds         = 60
}`,
			ConfigStateChecks: expectValues(addr, map[string]knownvalue.Check{
				"drains":                            knownvalue.Bool(true),
				"drain_seconds":                     num(0),
				"steps":                             knownvalue.Int64Exact(1),
				"peak_depth":                        num(0),
				"final_depth":                       num(0),
				"peak_effective_arrival_rate":       num(10000),
				"min_consumers_to_drain":            knownvalue.Int64Exact(0),
				"min_consumers_to_drain_within_rto": knownvalue.Int64Exact(0),
			}),
		},
		// A small fleet stepped by hand, with every input set: λ 3, μ 2, two
		// consumers, W 5 s, 2 retries per timeout. t = 0: depth 10, timeout
		// probability 10/15, arrivals 3 × (1 + 2 × 2/3) = 7 against 4, so
		// depth 13 at t = 1, then 3 × (1 + 2 × 13/15) = 8.2 arrive: 17.2 at
		// t = 2, the last second recorded (max_seconds = 3), where every
		// message times out and 3 × (1 + 2) = 9 arrive.
		resource.TestStep{
			Config: `data "queuecap_retry_storm" "test" {
  arrival_rate           = 3
  per_consumer_rate      = 2
  consumers              = 2
  backlog                = 10
  retries_per_timeout    = 2
  timeout_window_seconds = 5
  max_seconds            = 3
}`,
			ConfigStateChecks: expectValues(addr, map[string]knownvalue.Check{
				"timeout_window_seconds":      num(5),
				"max_seconds":                 knownvalue.Int64Exact(3),
				"drains":                      knownvalue.Bool(false),
				"drain_seconds":               knownvalue.Null(),
				"steps":                       knownvalue.Int64Exact(3),
				"peak_depth":                  num(17.2),
				"final_depth":                 num(17.2),
				"peak_effective_arrival_rate": num(9),
			}),
		},
	)
}

func TestRetryStormDataSourceInvalid(t *testing.T) {
	const valid = "arrival_rate = 10000\nper_consumer_rate = 400\nconsumers = 32\nbacklog = 3600000\nretries_per_timeout = 1.5\n"
	cases := map[string]struct{ body, err string }{
		"negative arrival rate":   {"arrival_rate = -1\nper_consumer_rate = 400\nconsumers = 32\nbacklog = 1\nretries_per_timeout = 0", `Attribute arrival_rate value must be at least 0, got: -1`},
		"zero per-consumer rate":  {"arrival_rate = 1\nper_consumer_rate = 0\nconsumers = 32\nbacklog = 1\nretries_per_timeout = 0", `Attribute per_consumer_rate value must be greater than 0, got: 0`},
		"negative consumers":      {"arrival_rate = 1\nper_consumer_rate = 1\nconsumers = -1\nbacklog = 1\nretries_per_timeout = 0", `Attribute consumers value must be at least 0, got: -1`},
		"fractional consumers":    {"arrival_rate = 1\nper_consumer_rate = 1\nconsumers = 2.5\nbacklog = 1\nretries_per_timeout = 0", `consumers`},
		"too many consumers":      {"arrival_rate = 1\nper_consumer_rate = 1\nconsumers = 1e17\nbacklog = 1\nretries_per_timeout = 0", `Attribute consumers value must be at most 9007199254740992 (2^53, the largest count a float64 holds exactly), got: 100000000000000000`},
		"negative backlog":        {"arrival_rate = 1\nper_consumer_rate = 1\nconsumers = 2\nbacklog = -1\nretries_per_timeout = 0", `Attribute backlog value must be at least 0, got: -1`},
		"infinite backlog":        {"arrival_rate = 1\nper_consumer_rate = 1\nconsumers = 2\nbacklog = 1/0\nretries_per_timeout = 0", `Attribute backlog must be a finite number within the float64 range`},
		"negative retries":        {"arrival_rate = 1\nper_consumer_rate = 1\nconsumers = 2\nbacklog = 1\nretries_per_timeout = -1", `Attribute retries_per_timeout value must be at least 0, got: -1`},
		"missing retries":         {"arrival_rate = 1\nper_consumer_rate = 1\nconsumers = 2\nbacklog = 1", `The argument "retries_per_timeout" is required`},
		"zero timeout window":     {valid + "timeout_window_seconds = 0", `Attribute timeout_window_seconds value must be greater than 0, got: 0`},
		"zero max_seconds":        {valid + "max_seconds = 0", `Attribute max_seconds value must be between 1 and 864000, got: 0`},
		"max_seconds beyond 10 d": {valid + "max_seconds = 1000000", `Attribute max_seconds value must be between 1 and 864000, got: 1000000`},
		"zero rto_seconds":        {valid + "rto_seconds = 0", `Attribute rto_seconds value must be between 1 and 864000, got: 0`},
		"rto beyond 10 d":         {valid + "rto_seconds = 1000000", `Attribute rto_seconds value must be between 1 and 864000, got: 1000000`},
		"depth overflows": {"arrival_rate = 1e300\nper_consumer_rate = 1\nconsumers = 0\nbacklog = 1e308\nretries_per_timeout = 1e10",
			`backlog makes the simulated depth overflow the float64 range`},
		"fleet beyond the largest count": {"arrival_rate = 1e300\nper_consumer_rate = 1\nconsumers = 0\nbacklog = 1\nretries_per_timeout = 0",
			`backlog needs more than 9007199254740992 consumers to drain by t = 35999 s`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			unitTest(t, resource.TestStep{
				Config:      "data \"queuecap_retry_storm\" \"test\" {\n" + tc.body + "\n}",
				ExpectError: errorWords(tc.err),
			})
		})
	}
}

// An input known only after apply defers the read: the outputs are unknown
// at plan, with no error, and known once the input is.
func TestRetryStormDataSourceUnknownInput(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: `resource "terraform_data" "fleet" {
  input = 32
}

data "queuecap_retry_storm" "test" {
  arrival_rate        = 10000
  per_consumer_rate   = 400
  consumers           = terraform_data.fleet.output
  backlog             = 3600000
  retries_per_timeout = 1.5
}

output "drains" {
  value = data.queuecap_retry_storm.test.drains
}`,
		ConfigPlanChecks: resource.ConfigPlanChecks{
			PreApply: []plancheck.PlanCheck{plancheck.ExpectUnknownOutputValue("drains")},
		},
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownOutputValue("drains", knownvalue.Bool(false)),
		},
	})
}
