// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// The data source cannot do what alarm_plan does. Terraform (1.5 and 1.11)
// and OpenTofu plan a data source whose configuration holds an unknown
// value without calling the provider: the read is deferred to apply and
// every computed attribute is unknown at plan, max_depth included, though
// it does not depend on queue_name. The provider is never asked, so no
// schema or read can change that. These tests hold the CLIs to it.
const alarmThresholdsUnknownQueue = `resource "terraform_data" "queue" {
  input = "orders"
}

data "queuecap_alarm_thresholds" "q" {
  arrival_rate      = 5000
  sla_seconds       = 10
  per_consumer_rate = 10
  rto_seconds       = 1800
  queue_name        = terraform_data.queue.output
}
`

func TestAlarmThresholdsDataSourceUnknownQueueNameDefers(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: alarmThresholdsUnknownQueue + `
output "max_depth" {
  value = data.queuecap_alarm_thresholds.q.max_depth
}
`,
		ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
			plancheck.ExpectUnknownOutputValue("max_depth"),
		}},
		// Read at apply, the numbers are there.
		ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownOutputValue("max_depth", num(50000))},
	})
}

// So for_each over its alarms fails at plan: the keys are unknown.
func TestAlarmThresholdsDataSourceUnknownQueueNameForEach(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: alarmThresholdsUnknownQueue + `
resource "terraform_data" "alarm" {
  for_each = { for a in data.queuecap_alarm_thresholds.q.alarms : a.name => a }
  input    = each.value.threshold
}
`,
		ExpectError: errorWords("Invalid for_each argument"),
	})
}

// With the queue name known the same data source is read at plan.
func TestAlarmThresholdsDataSourceKnownQueueNameReadsAtPlan(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: `data "queuecap_alarm_thresholds" "q" {
  arrival_rate      = 5000
  sla_seconds       = 10
  per_consumer_rate = 10
  rto_seconds       = 1800
  retry_rate        = 0.2
  avg_retries       = 2
  queue_name        = "orders"
}

output "max_depth" {
  value = data.queuecap_alarm_thresholds.q.max_depth
}
`,
		ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
			plancheck.ExpectKnownOutputValue("max_depth", num(70000)),
		}},
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownOutputValue("max_depth", num(70000)),
			statecheck.ExpectKnownValue("data.queuecap_alarm_thresholds.q", tfjsonpathAlarm(0, "treat_missing_data"), knownvalue.StringExact("notBreaching")),
			statecheck.ExpectKnownValue("data.queuecap_alarm_thresholds.q", tfjsonpath.New("effective_arrival_rate"), num(7000)),
		},
	})
}

func tfjsonpathAlarm(i int, attr string) tfjsonpath.Path {
	return tfjsonpath.New("alarms").AtSliceIndex(i).AtMapKey(attr)
}
