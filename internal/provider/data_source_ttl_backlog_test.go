// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
)

func TestTTLBacklogDataSource(t *testing.T) {
	const addr = "data.queuecap_ttl_backlog.test"
	unitTest(t,
		// MATH.md's build-up: 1,200 in, 1,000 out for 15 min is 180,000;
		// a one-hour TTL window (4.32 M) does not bound it.
		resource.TestStep{
			Config: `data "queuecap_ttl_backlog" "test" {
  arrival_rate             = 1200
  incident_seconds         = 900
  ttl_seconds              = 3600
  degraded_completion_rate = 1000
}`,
			ConfigStateChecks: expectValues(addr, map[string]knownvalue.Check{
				"effective_arrival_rate": num(1200),
				"unbounded_backlog":      num(180000),
				"ttl_bounded_backlog":    num(180000),
				"ttl_bound_applies":      knownvalue.Bool(false),
				"retry_rate":             num(0),
				"avg_retries":            num(0),
			}),
		},
		// A one-hour full outage at 10,000 msg/s is 36 M messages; a
		// 10-minute TTL holds the backlog at 6 M.
		resource.TestStep{
			Config: `data "queuecap_ttl_backlog" "test" {
  arrival_rate     = 10000
  incident_seconds = 3600
  ttl_seconds      = 600
}`,
			ConfigStateChecks: expectValues(addr, map[string]knownvalue.Check{
				"degraded_completion_rate": num(0),
				"unbounded_backlog":        num(3.6e7),
				"ttl_bounded_backlog":      num(6e6),
				"ttl_bound_applies":        knownvalue.Bool(true),
			}),
		},
		// Retries: 1,000 × (1 + 0.1 × 3) = 1,300 msg/s, a 300 s window of 390,000.
		resource.TestStep{
			Config: `data "queuecap_ttl_backlog" "test" {
  arrival_rate     = 1000
  incident_seconds = 3600
  ttl_seconds      = 300
  retry_rate       = 0.1
  avg_retries      = 3
}`,
			ConfigStateChecks: expectValues(addr, map[string]knownvalue.Check{
				"effective_arrival_rate": num(1300),
				"unbounded_backlog":      num(1300 * 3600),
				"ttl_bounded_backlog":    num(390000),
				"ttl_bound_applies":      knownvalue.Bool(true),
			}),
		},
		// Degraded completion above arrivals: nothing builds up.
		resource.TestStep{
			Config: `data "queuecap_ttl_backlog" "test" {
  arrival_rate             = 500
  incident_seconds         = 3600
  ttl_seconds              = 60
  degraded_completion_rate = 800
}`,
			ConfigStateChecks: expectValues(addr, map[string]knownvalue.Check{
				"unbounded_backlog":   num(0),
				"ttl_bounded_backlog": num(0),
				"ttl_bound_applies":   knownvalue.Bool(false),
			}),
		},
	)
}

func TestTTLBacklogDataSourceInvalid(t *testing.T) {
	cases := map[string]struct{ body, err string }{
		"zero ttl":               {"arrival_rate = 1\nincident_seconds = 60\nttl_seconds = 0", `Attribute ttl_seconds value must be greater than 0, got: 0`},
		"negative incident":      {"arrival_rate = 1\nincident_seconds = -60\nttl_seconds = 10", `Attribute incident_seconds value must be at least 0, got: -60`},
		"negative degraded rate": {"arrival_rate = 1\nincident_seconds = 60\nttl_seconds = 10\ndegraded_completion_rate = -1", `Attribute degraded_completion_rate value must be at least 0, got: -1`},
		"negative avg_retries":   {"arrival_rate = 1\nincident_seconds = 60\nttl_seconds = 10\navg_retries = -2", `Attribute avg_retries value must be at least 0, got: -2`},
		"overflow":               {"arrival_rate = 1e300\nincident_seconds = 1e300\nttl_seconds = 10", `incident_seconds makes the unbounded backlog`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			unitTest(t, resource.TestStep{
				Config:      "data \"queuecap_ttl_backlog\" \"test\" {\n" + tc.body + "\n}",
				ExpectError: errorWords(tc.err),
			})
		})
	}
}
