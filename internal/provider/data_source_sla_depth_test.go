// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
)

func TestSLADepthDataSource(t *testing.T) {
	const addr = "data.queuecap_sla_depth.test"
	unitTest(t,
		// MATH.md: an SLA of 10 s at 5,000 msg/s allows 50,000 messages.
		resource.TestStep{
			Config: `data "queuecap_sla_depth" "test" {
  arrival_rate = 5000
  sla_seconds  = 10
}`,
			ConfigStateChecks: expectValues(addr, map[string]knownvalue.Check{"max_depth": num(50000)}),
		},
		resource.TestStep{
			Config: `data "queuecap_sla_depth" "test" {
  arrival_rate = 0
  sla_seconds  = 0.5
}`,
			ConfigStateChecks: expectValues(addr, map[string]knownvalue.Check{"max_depth": num(0)}),
		},
	)
}

func TestSLADepthDataSourceInvalid(t *testing.T) {
	cases := map[string]struct{ body, err string }{
		"zero sla":     {"arrival_rate = 5000\nsla_seconds = 0", `Attribute sla_seconds value must be greater than 0, got: 0`},
		"missing sla":  {"arrival_rate = 5000", `The argument "sla_seconds" is required`},
		"overflow":     {"arrival_rate = 1e300\nsla_seconds = 1e300", `arrival_rate makes the maximum depth arrival_rate × sla_seconds overflow the float64 range`},
		"negative λ":   {"arrival_rate = -0.5\nsla_seconds = 10", `Attribute arrival_rate value must be at least 0, got: -0.5`},
		"not a number": {"arrival_rate = \"fast\"\nsla_seconds = 10", `Inappropriate value for attribute "arrival_rate"`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			unitTest(t, resource.TestStep{
				Config:      "data \"queuecap_sla_depth\" \"test\" {\n" + tc.body + "\n}",
				ExpectError: errorWords(tc.err),
			})
		})
	}
}
