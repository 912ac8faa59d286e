// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
)

const settingsAddr = "data.queuecap_queue_settings.test"

func TestQueueSettingsDataSource(t *testing.T) {
	unitTest(t,
		// The headroom fleet drains 5 M in 1,785.7 s; with a 30 s Lambda
		// (180 s visibility, 5 receives) the retention must outlive
		// (1,785.7 + 900) × 1.5 s, so four days (the default minimum) it is.
		resource.TestStep{
			Config: `data "queuecap_queue_settings" "test" {
  arrival_rate           = 10000
  per_consumer_rate      = 400
  consumers              = 32
  max_backlog            = 5000000
  lambda_timeout_seconds = 30
}`,
			ConfigStateChecks: expectValues(settingsAddr, map[string]knownvalue.Check{
				"effective_arrival_rate":                num(10000),
				"surplus":                               num(2800),
				"drain_seconds":                         num(5e6 / 2800.0),
				"visibility_timeout_seconds":            knownvalue.Int64Exact(180),
				"max_receive_count":                     knownvalue.Int64Exact(5),
				"redelivery_seconds":                    num(900),
				"message_retention_seconds":             knownvalue.Int64Exact(345600),
				"dead_letter_message_retention_seconds": knownvalue.Int64Exact(1209600),
				"retention_margin":                      num(0.5),
				"min_retention_seconds":                 num(345600),
				"retry_rate":                            num(0),
				"visibility_margin":                     knownvalue.Null(),
			}),
		},
		// A worker, retries and a backlog of 1e9: the drain decides.
		resource.TestStep{
			Config: `data "queuecap_queue_settings" "test" {
  arrival_rate           = 10000
  per_consumer_rate      = 400
  consumers              = 64
  max_backlog            = 1e9
  retry_rate             = 0.1
  avg_retries            = 7.5
  max_processing_seconds = 45
  min_retention_seconds  = 60
}`,
			ConfigStateChecks: expectValues(settingsAddr, map[string]knownvalue.Check{
				"effective_arrival_rate":     num(17500),
				"visibility_timeout_seconds": knownvalue.Int64Exact(90),
				"visibility_margin":          num(1),
				"max_receive_count":          knownvalue.Int64Exact(9),
				"message_retention_seconds":  knownvalue.Int64Exact(186401),
			}),
		},
		// The source needs the maximum itself: a warning, not an error.
		resource.TestStep{
			Config: `data "queuecap_queue_settings" "test" {
  arrival_rate           = 1
  per_consumer_rate      = 1
  consumers              = 2
  lambda_timeout_seconds = 30
  min_retention_seconds  = 1209600
}`,
			ConfigStateChecks: expectValues(settingsAddr, map[string]knownvalue.Check{
				"message_retention_seconds":             knownvalue.Int64Exact(1209600),
				"dead_letter_message_retention_seconds": knownvalue.Int64Exact(1209600),
				"drain_seconds":                         num(0),
			}),
		},
	)
}

func TestQueueSettingsDataSourceInvalid(t *testing.T) {
	const fleet = "arrival_rate = 10000\nper_consumer_rate = 400\nconsumers = 32\n"
	cases := map[string]struct{ body, err string }{
		"beyond 14 days": {fleet + "max_backlog = 5e9\nlambda_timeout_seconds = 30",
			`max_backlog needs a message_retention_seconds of 2679922: (drain 1785714.28571429 s + redeliveries 5 × 180 s) × (1 + 0.5), longer than the SQS maximum of 14 days (1209600 s)`},
		"no surplus":         {"arrival_rate = 10000\nper_consumer_rate = 400\nconsumers = 25\nmax_backlog = 1\nlambda_timeout_seconds = 30", `consumers leave no surplus to drain max_backlog`},
		"both forms":         {fleet + "lambda_timeout_seconds = 30\nmax_processing_seconds = 10", `give the consumer's processing time either as lambda_timeout_seconds, or as max_processing_seconds, not both`},
		"no form":            {fleet, `No processing time is set`},
		"margin without it":  {fleet + "lambda_timeout_seconds = 30\nvisibility_margin = 1", `visibility_margin requires max_processing_seconds`},
		"lambda over 900 s":  {fleet + "lambda_timeout_seconds = 901", `Attribute lambda_timeout_seconds value must be between 1 and 900, got: 901`},
		"retention under 60": {fleet + "lambda_timeout_seconds = 30\nmin_retention_seconds = 10", `Attribute min_retention_seconds value must be between 60 and 1209600, got: 10`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			unitTest(t, resource.TestStep{
				Config:      "data \"queuecap_queue_settings\" \"test\" {\n" + tc.body + "\n}",
				ExpectError: errorWords(tc.err),
			})
		})
	}
}

// An unknown argument defers the read, as for every data source.
func TestQueueSettingsDataSourceUnknown(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: `resource "terraform_data" "n" {
  input = 32
}

data "queuecap_queue_settings" "test" {
  arrival_rate           = 10000
  per_consumer_rate      = 400
  consumers              = terraform_data.n.output
  max_backlog            = 5000000
  lambda_timeout_seconds = 30
}

output "retention" {
  value = data.queuecap_queue_settings.test.message_retention_seconds
}
`,
		ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectUnknownOutputValue("retention")}},
	})
}
