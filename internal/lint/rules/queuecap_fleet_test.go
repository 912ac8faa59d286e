// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules_test

import (
	"fmt"
	"testing"
)

// fleetSized is a queue and an auto scaling group whose max_size is
// expr, sized by a queuecap_fleet data source with these arguments.
func fleetSized(args, expr string) string {
	return fmt.Sprintf(`data "queuecap_fleet" "orders" {
  arrival_rate      = 10000
  per_consumer_rate = 400
  sla_seconds       = 10
%s}

resource "aws_sqs_queue" "orders" {
  name = "orders"
}

resource "aws_autoscaling_group" "workers" {
  max_size = %s
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
}
`, args, expr)
}

// queuecap_fleet is evaluated from the catalog like queuecap_consumers:
// its arguments declare the rates of the fleet it sizes.
func TestFleetDataSourceZeroSurplus(t *testing.T) {
	runRuleCases(t, "queuecap_zero_surplus", []ruleCase{
		{
			name:  "max_size of a fleet plan without a backlog or headroom",
			files: map[string]string{"main.tf": fleetSized("", "data.queuecap_fleet.orders.max_size")},
			issues: []issue{{Message: "max_size 25 × 400 msg/s = 10,000 msg/s does not exceed the declared arrival rate 10,000 msg/s: surplus 0 msg/s, any backlog never drains",
				Start: at(12, 3), End: at(12, 49), Facts: facts("arrival_rate", 10000, "effective_arrival_rate", 10000, "per_consumer_rate", 400, "max_consumers", 25, "capacity", 10000, "surplus", 0)}},
		},
		{
			name:  "max_size of a fleet plan with a backlog",
			files: map[string]string{"main.tf": fleetSized("  max_backlog = 5000000\n  rto_seconds = 1800\n  provisioning_lag_seconds = 180\n", "data.queuecap_fleet.orders.max_size")},
		},
		{
			name: "max_size of provider::queuecap::fleet_plan",
			files: map[string]string{"main.tf": `resource "aws_sqs_queue" "orders" {
  name = "orders"
}

resource "aws_autoscaling_group" "workers" {
  max_size = provider::queuecap::fleet_plan({ arrival_rate = 10000, per_consumer_rate = 400, sla_seconds = 10 }).max_size
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
}
`},
			issues: []issue{{Message: "max_size 25 × 400 msg/s = 10,000 msg/s does not exceed the declared arrival rate 10,000 msg/s: surplus 0 msg/s, any backlog never drains",
				Start: at(6, 3), End: at(6, 122), Facts: facts("arrival_rate", 10000, "effective_arrival_rate", 10000, "per_consumer_rate", 400, "max_consumers", 25, "capacity", 10000, "surplus", 0)}},
		},
	})
}

func TestFleetDataSourceHeadroom(t *testing.T) {
	runRuleCases(t, "queuecap_insufficient_headroom", []ruleCase{
		{
			name:  "below the min_headroom of the fleet plan",
			files: map[string]string{"main.tf": fleetSized("  min_headroom = 0.2\n", "data.queuecap_fleet.orders.max_size - 4")},
			issues: []issue{{Message: "max_size 26 × 400 msg/s = 10,400 msg/s is only 4 % above the declared arrival rate 10,000 msg/s, below the minimum headroom of 20 %: ceil(10,000 × (1 + 0.2) / 400) = 30 consumers give it",
				Start: at(13, 3), End: at(13, 53), Facts: facts("arrival_rate", 10000, "effective_arrival_rate", 10000, "per_consumer_rate", 400, "max_consumers", 26, "capacity", 10400, "surplus", 400, "headroom", 0.04, "min_headroom", 0.2, "required_consumers", 30)}},
		},
		{
			name:  "at the max_size of the fleet plan",
			files: map[string]string{"main.tf": fleetSized("  min_headroom = 0.2\n  max_backlog = 5000000\n  rto_seconds = 1800\n", "data.queuecap_fleet.orders.max_size")},
		},
		{
			name:  "below the backlog term of the fleet plan",
			files: map[string]string{"main.tf": fleetSized("  max_backlog = 5000000\n  rto_seconds = 1800\n", "data.queuecap_fleet.orders.max_size - 1")},
			issues: []issue{{Message: "max_size 31 × 400 msg/s = 12,400 msg/s leaves a surplus of 2,400 msg/s over the declared arrival rate 10,000 msg/s, which clears max_backlog 5,000,000 in 2,083.33 s, more than rto_seconds 1,800: the headroom formula ceil(10,000 / 400 + 5,000,000 / (400 × 1,800)) needs 32 consumers",
				Start: at(14, 3), End: at(14, 53), Facts: facts("arrival_rate", 10000, "effective_arrival_rate", 10000, "per_consumer_rate", 400, "max_consumers", 31, "capacity", 12400, "surplus", 2400, "max_backlog", 5e+06, "rto_seconds", 1800, "drain_seconds", 2083.33333333333, "required_consumers", 32)}},
		},
	})
}
