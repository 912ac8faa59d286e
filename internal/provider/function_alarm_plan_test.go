// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// alarmsForUnknownQueues creates one queue stand-in per name (terraform_data,
// whose output is unknown until apply, as aws_sqs_queue.q[each.key].name
// is) and one alarm stand-in per queue and alarm, keyed by both names.
const alarmsForUnknownQueues = `
locals {
  queues = toset(["orders", "billing"])
  alarms = merge([for q in local.queues : {
    for a in provider::queuecap::alarm_plan({
      arrival_rate           = 5000
      sla_seconds            = 10
      per_consumer_rate      = 10
      rto_seconds            = 1800
      retry_rate             = 0.2
      avg_retries            = 2
      queue_name             = terraform_data.queue[q].output
      dead_letter_queue_name = terraform_data.dlq[q].output
    }).alarms : "${q}/${a.name}" => a
  }]...)
}

resource "terraform_data" "queue" {
  for_each = local.queues
  input    = each.key
}

resource "terraform_data" "dlq" {
  for_each = local.queues
  input    = "${each.key}-dlq"
}

resource "terraform_data" "alarm" {
  for_each = local.alarms
  input = {
    threshold          = each.value.threshold
    description        = each.value.description
    treat_missing_data = each.value.treat_missing_data
    dimensions         = each.value.dimensions
  }
}
`

// alarm_plan takes queue names unknown at plan: for_each over its alarms
// plans with known keys and thresholds, only the dimensions unknown. The
// step only plans: terraform-plugin-testing cannot read back a state with
// for_each keys.
func TestFunctionAlarmPlanUnknownQueueName(t *testing.T) {
	alarm := func(key string) string { return `terraform_data.alarm["` + key + `"]` }
	functionTest(t, resource.TestStep{
		Config:             alarmsForUnknownQueues,
		PlanOnly:           true,
		ExpectNonEmptyPlan: true,
		// In a plan-only step this is the one plan.
		ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
			plancheck.ExpectResourceAction(alarm("orders/depth_above_sla"), plancheck.ResourceActionCreate),
			plancheck.ExpectResourceAction(alarm("billing/dead_letter_queue_not_empty"), plancheck.ResourceActionCreate),
			// 5,000 msg/s × (1 + 0.2 × 2) = 7,000 msg/s over a 10 s SLA.
			plancheck.ExpectKnownValue(alarm("orders/depth_above_sla"), tfjsonpath.New("input").AtMapKey("threshold"), num(70000)),
			plancheck.ExpectKnownValue(alarm("billing/projected_depth_above_sla"), tfjsonpath.New("input").AtMapKey("threshold"), num(70000)),
			plancheck.ExpectKnownValue(alarm("orders/oldest_message_above_sla"), tfjsonpath.New("input").AtMapKey("threshold"), num(10)),
			plancheck.ExpectKnownValue(alarm("orders/drain_slower_than_rto"), tfjsonpath.New("input").AtMapKey("threshold"), num(1800)),
			plancheck.ExpectKnownValue(alarm("billing/dead_letter_queue_not_empty"), tfjsonpath.New("input").AtMapKey("threshold"), num(0)),
			plancheck.ExpectKnownValue(alarm("orders/not_draining"), tfjsonpath.New("input").AtMapKey("treat_missing_data"), knownvalue.StringExact("notBreaching")),
			plancheck.ExpectKnownValue(alarm("billing/dead_letter_queue_not_empty"), tfjsonpath.New("input").AtMapKey("description"),
				knownvalue.StringRegexp(regexp.MustCompile(`^More than 0 visible messages: messages reached the dead-letter queue, .* Missing data is treated as notBreaching: `))),
			plancheck.ExpectUnknownValue(alarm("orders/depth_above_sla"), tfjsonpath.New("input").AtMapKey("dimensions").AtMapKey("QueueName")),
			plancheck.ExpectUnknownValue(alarm("billing/dead_letter_queue_not_empty"), tfjsonpath.New("input").AtMapKey("dimensions").AtMapKey("QueueName")),
		}},
	})
}

// With one queue and no for_each the same call applies: the dimensions
// unknown at plan hold the queue's name afterwards.
func TestFunctionAlarmPlanUnknownQueueNameApplies(t *testing.T) {
	functionTest(t, resource.TestStep{
		Config: `resource "terraform_data" "queue" {
  input = "orders"
}

locals {
  plan = provider::queuecap::alarm_plan({
    arrival_rate      = 5000
    sla_seconds       = 10
    per_consumer_rate = 10
    rto_seconds       = 1800
    queue_name        = terraform_data.queue.output
  })
}

output "threshold" {
  value = local.plan.alarms[0].threshold
}

output "names" {
  value = [for a in local.plan.alarms : a.name]
}

output "dimensions" {
  value = local.plan.alarms[0].dimensions
}

output "queue_name" {
  value = local.plan.queue_name
}
`,
		ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
			plancheck.ExpectKnownOutputValue("threshold", num(50000)),
			plancheck.ExpectKnownOutputValue("names", knownvalue.ListExact([]knownvalue.Check{
				knownvalue.StringExact("depth_above_sla"), knownvalue.StringExact("oldest_message_above_sla"),
				knownvalue.StringExact("projected_depth_above_sla"), knownvalue.StringExact("drain_slower_than_rto"), knownvalue.StringExact("not_draining"),
			})),
			plancheck.ExpectUnknownOutputValueAtPath("dimensions", tfjsonpath.New("QueueName")),
			plancheck.ExpectUnknownOutputValue("queue_name"),
		}},
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownOutputValue("dimensions", knownvalue.MapExact(map[string]knownvalue.Check{"QueueName": knownvalue.StringExact("orders")})),
			statecheck.ExpectKnownOutputValue("queue_name", knownvalue.StringExact("orders")),
		},
	})
}

// Any other unknown argument leaves the whole plan unknown, as for
// capacity_plan.
func TestFunctionAlarmPlanUnknownNumber(t *testing.T) {
	functionTest(t, resource.TestStep{
		Config: "resource \"terraform_data\" \"n\" {\n  input = 5000\n}\n\n" +
			outputCall(`alarm_plan({ arrival_rate = terraform_data.n.output, sla_seconds = 10, per_consumer_rate = 10, rto_seconds = 1800, queue_name = "orders" })`),
		ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectUnknownOutputValue("result")}},
	})
}
