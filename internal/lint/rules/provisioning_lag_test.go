// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules_test

import (
	"fmt"
	"strings"
	"testing"
)

// tracked is a queue with a worst backlog of 1,800,000 due in 7,200 s and
// a group of min_size 20 to max_size 30 workers of 25 msg/s, scaled by
// the policy given: 30 × 25 − 500 = 250 msg/s clear it in exactly 7,200 s.
func tracked(policy string) string {
	return fmt.Sprintf(`resource "aws_sqs_queue" "orders" {
  name = "orders"
  tags = { "queuecap:arrival_rate" = 500, "queuecap:max_backlog" = 1800000, "queuecap:rto_seconds" = 7200 }
}

resource "aws_autoscaling_group" "workers" {
  name     = "workers"
  min_size = 20
  max_size = 30
  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = "25"
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
}

%s`, policy)
}

// targetTracking is a target tracking policy on the group's backlog per
// instance, with the customized metric's extra arguments.
func targetTracking(extra string) string {
	return fmt.Sprintf(`resource "aws_autoscaling_policy" "backlog" {
  name                   = "backlog"
  autoscaling_group_name = aws_autoscaling_group.workers.name
  policy_type            = "TargetTrackingScaling"
  target_tracking_configuration {
    target_value = 1500
    customized_metric_specification {
      metric_name = "ApproximateNumberOfMessagesVisible"
      namespace   = "AWS/SQS"
      statistic   = "Sum"
%s
      metric_dimension {
        name  = "QueueName"
        value = aws_sqs_queue.orders.name
      }
    }
  }
}
`, extra)
}

// The provisioning lag target tracking implies: no scale-out before one
// metric period, during which min_size drains alone.
func TestInsufficientHeadroomProvisioningLag(t *testing.T) {
	runRuleCases(t, "queuecap_insufficient_headroom", []ruleCase{
		{
			// 60 + 1,800,000 / 250 = 7,260 s; with the lag, ceil(500 / 25 +
			// 1,800,000 / (25 × 7,140)) = ceil(20 + 10.08) = 31.
			name:  "AWS's default 60 s period",
			files: map[string]string{"main.tf": tracked(targetTracking(""))},
			issues: []issue{{Summary: "max_size 30 clears max_backlog 1,800,000 in 7,260 s, over rto_seconds 7,200 after a 60 s lag: raise it to 31",
				Message: "max_size 30 × 25 msg/s = 750 msg/s leaves a surplus of 250 msg/s over the declared arrival rate 500 msg/s, which clears max_backlog 1,800,000 in 7,260 s (min_size 20 drains alone for the first 60 s, the provisioning lag: one 60 s period of the metric aws_autoscaling_policy.backlog tracks (AWS's default, target_tracking_metric_period_default_seconds), before which it cannot scale out), more than rto_seconds 7,200: with the lag, ceil(500 / 25 + max(0, 1,800,000 − 0 × 60) / (25 × (7,200 − 60))) needs 31 consumers",
				Start:   at(9, 3), End: at(9, 16),
				Facts: facts("arrival_rate", 500, "effective_arrival_rate", 500, "per_consumer_rate", 25, "max_consumers", 30, "capacity", 750, "surplus", 250,
					"max_backlog", 1800000, "rto_seconds", 7200, "drain_seconds", 7260, "provisioning_lag_seconds", 60, "min_consumers", 20, "required_consumers", 31)}},
		},
		{
			name:  "a high-resolution period",
			files: map[string]string{"main.tf": tracked(targetTracking("      period      = 10"))},
			issues: []issue{{Summary: "max_size 30 clears max_backlog 1,800,000 in 7,210 s, over rto_seconds 7,200 after a 10 s lag: raise it to 31",
				Message: "max_size 30 × 25 msg/s = 750 msg/s leaves a surplus of 250 msg/s over the declared arrival rate 500 msg/s, which clears max_backlog 1,800,000 in 7,210 s (min_size 20 drains alone for the first 10 s, the provisioning lag: one 10 s period of the metric aws_autoscaling_policy.backlog tracks, before which it cannot scale out), more than rto_seconds 7,200: with the lag, ceil(500 / 25 + max(0, 1,800,000 − 0 × 10) / (25 × (7,200 − 10))) needs 31 consumers",
				Start:   at(9, 3), End: at(9, 16),
				Facts: facts("arrival_rate", 500, "effective_arrival_rate", 500, "per_consumer_rate", 25, "max_consumers", 30, "capacity", 750, "surplus", 250,
					"max_backlog", 1800000, "rto_seconds", 7200, "drain_seconds", 7210, "provisioning_lag_seconds", 10, "min_consumers", 20, "required_consumers", 31)}},
		},
		{
			// 15,000 / 250 = 60 s without the lag; 60 + 60 = 120 s with it,
			// and no max_size clears anything before the lag ends.
			name:  "an RTO within the lag",
			files: map[string]string{"main.tf": strings.Replace(tracked(targetTracking("")), `"queuecap:max_backlog" = 1800000, "queuecap:rto_seconds" = 7200`, `"queuecap:max_backlog" = 15000, "queuecap:rto_seconds" = 60`, 1)},
			issues: []issue{{Summary: "the backlog is due within the 60 s lag before scale-out: raise min_size",
				Message: "max_size 30 × 25 msg/s = 750 msg/s leaves a surplus of 250 msg/s over the declared arrival rate 500 msg/s, which clears max_backlog 15,000 in 120 s (min_size 20 drains alone for the first 60 s, the provisioning lag: one 60 s period of the metric aws_autoscaling_policy.backlog tracks (AWS's default, target_tracking_metric_period_default_seconds), before which it cannot scale out), more than rto_seconds 60: rto_seconds 60 is within the 60 s lag, so no max_size meets it: min_size must clear the backlog alone",
				Start:   at(8, 3), End: at(8, 16),
				Facts: facts("arrival_rate", 500, "effective_arrival_rate", 500, "per_consumer_rate", 25, "max_consumers", 30, "capacity", 750, "surplus", 250,
					"max_backlog", 15000, "rto_seconds", 60, "drain_seconds", 120, "provisioning_lag_seconds", 60, "min_consumers", 20)}},
		},
		{
			name:  "a period unknown before apply bounds nothing",
			files: map[string]string{"main.tf": "variable \"period\" {}\n" + tracked(targetTracking("      period      = var.period"))},
		},
		{
			name: "a step policy may act sooner: no lag",
			files: map[string]string{"main.tf": tracked(`resource "aws_autoscaling_policy" "out" {
  name                   = "out"
  autoscaling_group_name = aws_autoscaling_group.workers.name
  policy_type            = "StepScaling"
  adjustment_type        = "ChangeInCapacity"
  step_adjustment {
    scaling_adjustment          = 5
    metric_interval_lower_bound = 0
  }
}
` + targetTracking(""))},
		},
		{
			name:  "no scaling policy: no lag",
			files: map[string]string{"main.tf": tracked("")},
		},
	})
}
