// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
)

const drainAddr = "data.queuecap_drain.test"

func drainConfig(body string) string {
	return "data \"queuecap_drain\" \"test\" {\n" + body + "\n}"
}

func TestDrainDataSource(t *testing.T) {
	unitTest(t,
		// MATH.md: 180,000 behind λ 800 and completion 1,000 drain in 900 s.
		resource.TestStep{
			Config: drainConfig(`backlog = 180000
arrival_rate = 800
completion_rate = 1000`),
			ConfigStateChecks: expectValues(drainAddr, map[string]knownvalue.Check{
				"effective_arrival_rate": num(800),
				"net_rate":               num(200),
				"drains":                 knownvalue.Bool(true),
				"drain_seconds":          num(900),
				"wait_seconds":           num(180),
				"should_shed":            knownvalue.Null(),
				"forecast_drains":        knownvalue.Null(),
				"forecast_drain_seconds": knownvalue.Null(),
				"forecast_step_seconds":  knownvalue.Null(),
				"retry_rate":             num(0),
				"avg_retries":            num(0),
			}),
		},
		// λ 1,200 against 1,000: never drains, so shed (TTL 600 s).
		resource.TestStep{
			Config: drainConfig(`backlog = 180000
arrival_rate = 1200
completion_rate = 1000
ttl_seconds = 600`),
			ConfigStateChecks: expectValues(drainAddr, map[string]knownvalue.Check{
				"net_rate":      num(-200),
				"drains":        knownvalue.Bool(false),
				"drain_seconds": knownvalue.Null(),
				"wait_seconds":  num(180),
				"should_shed":   knownvalue.Bool(true),
			}),
		},
		// The seed's headroom fleet: 32 × 400 against 10,000 clears 3.6 M in
		// 1,285.7 s, inside a one-hour TTL.
		resource.TestStep{
			Config: drainConfig(`backlog = 3600000
arrival_rate = 10000
consumers = 32
per_consumer_rate = 400
ttl_seconds = 3600`),
			ConfigStateChecks: expectValues(drainAddr, map[string]knownvalue.Check{
				"completion_rate": num(12800),
				"net_rate":        num(2800),
				"drains":          knownvalue.Bool(true),
				"drain_seconds":   num(3.6e6 / 2800.0),
				"should_shed":     knownvalue.Bool(false),
			}),
		},
		// The steady-state fleet, 25 × 400 = 10,000: zero surplus, never.
		resource.TestStep{
			Config: drainConfig(`backlog = 3600000
arrival_rate = 10000
consumers = 25
per_consumer_rate = 400`),
			ConfigStateChecks: expectValues(drainAddr, map[string]knownvalue.Check{
				"net_rate":      num(0),
				"drains":        knownvalue.Bool(false),
				"drain_seconds": knownvalue.Null(),
			}),
		},
		// Retries: 380 × (1 + 0.5 × 1) = 570 against 1,040 nets 470 msg/s.
		// A forecast of 900, 800, 500 against 1,000 removes 30,000 then
		// 60,000 in the first two 300 s steps, and the last 10,000 at 500/s
		// 20 s into the third: 620 s. Flat at 900 it would take 1,000 s.
		resource.TestStep{
			Config: drainConfig(`backlog = 100000
arrival_rate = 900
completion_rate = 1000
arrival_forecast = [900, 800, 500]`),
			ConfigStateChecks: expectValues(drainAddr, map[string]knownvalue.Check{
				"drain_seconds":          num(1000),
				"forecast_step_seconds":  num(300),
				"forecast_drains":        knownvalue.Bool(true),
				"forecast_drain_seconds": num(620),
			}),
		},
		// A forecast that never lets the backlog clear within its horizon.
		resource.TestStep{
			Config: drainConfig(`backlog = 100000
arrival_rate = 900
completion_rate = 1000
arrival_forecast = [950, 1200]
forecast_step_seconds = 60`),
			ConfigStateChecks: expectValues(drainAddr, map[string]knownvalue.Check{
				"drains":                 knownvalue.Bool(true),
				"forecast_step_seconds":  num(60),
				"forecast_drains":        knownvalue.Bool(false),
				"forecast_drain_seconds": knownvalue.Null(),
			}),
		},
		// Retries raise arrivals: 380 × (1 + 0.5 × 1) = 570 against 1,040.
		resource.TestStep{
			Config: drainConfig(`backlog = 380000
arrival_rate = 380
completion_rate = 1040
retry_rate = 0.5
avg_retries = 1`),
			ConfigStateChecks: expectValues(drainAddr, map[string]knownvalue.Check{
				"effective_arrival_rate": num(570),
				"net_rate":               num(470),
				"drain_seconds":          num(380000 / 470.0),
			}),
		},
		// No consumers: nothing completes, a message arriving now waits forever.
		resource.TestStep{
			Config: drainConfig(`backlog = 10
arrival_rate = 0
consumers = 0
per_consumer_rate = 5`),
			ConfigStateChecks: expectValues(drainAddr, map[string]knownvalue.Check{
				"completion_rate": num(0),
				"drains":          knownvalue.Bool(false),
				"wait_seconds":    knownvalue.Null(),
			}),
		},
	)
}

func TestDrainDataSourceInvalid(t *testing.T) {
	cases := map[string]struct {
		body, err string
	}{
		"both completion forms": {`backlog = 1
arrival_rate = 1
completion_rate = 10
consumers = 2
per_consumer_rate = 5`, `Attribute completion_rate is set together with consumers and per_consumer_rate: give the fleet's completion rate either as completion_rate, or as consumers together with per_consumer_rate, not both`},
		"neither completion form": {`backlog = 1
arrival_rate = 1`, `No completion rate is set: give the fleet's completion rate either as completion_rate`},
		"consumers without per_consumer_rate": {`backlog = 1
arrival_rate = 1
consumers = 2`, `consumers is set without per_consumer_rate`},
		"negative backlog": {`backlog = -5
arrival_rate = 1
completion_rate = 10`, `Attribute backlog value must be at least 0, got: -5`},
		"zero completion rate": {`backlog = 1
arrival_rate = 1
completion_rate = 0`, `Attribute completion_rate value must be greater than 0, got: 0`},
		"fractional consumers": {`backlog = 1
arrival_rate = 1
consumers = 2.5
per_consumer_rate = 1`, `consumers`},
		"negative forecast entry": {`backlog = 1
arrival_rate = 1
completion_rate = 10
arrival_forecast = [5, -1]`, `Attribute arrival_forecast[1] value must be at least 0, got: -1`},
		"null forecast entry": {`backlog = 1
arrival_rate = 1
completion_rate = 10
arrival_forecast = [5, null]`, `on terraform_plugin_test.tf line 15, in data "queuecap_drain" "test": 15: arrival_forecast = [5, null] Attribute arrival_forecast[1] must not be null`},
		"empty forecast": {`backlog = 1
arrival_rate = 1
completion_rate = 10
arrival_forecast = []`, `Attribute arrival_forecast list must contain at least 1 elements, got: 0`},
		"per_consumer_rate without consumers": {`backlog = 1
arrival_rate = 1
per_consumer_rate = 2`, `per_consumer_rate is set without consumers`},
		"step without forecast": {`backlog = 1
arrival_rate = 1
completion_rate = 10
forecast_step_seconds = 60`, `Attribute forecast_step_seconds requires arrival_forecast`},
		"infinite backlog": {`backlog = 1/0
arrival_rate = 1
completion_rate = 10`, `Attribute backlog must be a finite number within the float64 range`},
		"drain time overflows": {`backlog = 1e300
arrival_rate = 0
completion_rate = 1e-300`, `backlog makes the drain time backlog / net rate overflow the float64 range`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			unitTest(t, resource.TestStep{Config: drainConfig(tc.body), ExpectError: errorWords(tc.err)})
		})
	}
}
