// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
)

// unknownCompletion is a drain whose completion_rate is a resource's
// attribute, not known until apply, beside consumers and their rate.
func unknownCompletion(input string) string {
	return `resource "terraform_data" "completion" {
  input = ` + input + `
}

data "queuecap_drain" "test" {
  backlog           = 10
  arrival_rate      = 1
  completion_rate   = terraform_data.completion.output
  consumers         = 3
  per_consumer_rate = 5
}

resource "terraform_data" "margin" {
  input = ` + input + `
}

data "queuecap_queue_settings" "test" {
  arrival_rate           = 10
  per_consumer_rate      = 5
  consumers              = 3
  lambda_timeout_seconds = 30
  visibility_margin      = terraform_data.margin.output
}
`
}

// TestRulesAcrossInputsWaitForUnknowns: a rule across inputs judges only
// what is known. An argument not known at validate or plan (here a
// resource's attribute; a variable that defaults to null under
// `terraform validate` is another) may turn out null, so "set together"
// and "requires" wait for the read, which decides them on the known
// values: null passes, a number fails there.
func TestRulesAcrossInputsWaitForUnknowns(t *testing.T) {
	unitTest(t,
		resource.TestStep{
			Config: unknownCompletion("null"),
			ConfigStateChecks: append(expectValues("data.queuecap_drain.test", map[string]knownvalue.Check{
				"completion_rate": num(15),
				"drain_seconds":   num(10.0 / 14),
			}), expectValues("data.queuecap_queue_settings.test", map[string]knownvalue.Check{
				"visibility_timeout_seconds": num(180),
			})...),
		},
	)
	unitTest(t, resource.TestStep{
		Config:      unknownCompletion("20"),
		ExpectError: errorWords("Attribute completion_rate is set together with consumers and per_consumer_rate"),
	})
}
