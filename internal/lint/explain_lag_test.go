// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

// lagLines is a consumer's provisioning lag and warmup settings as
// "lag seconds why line" and "attribute=value text of address line", "?"
// for a value not known.
func lagLines(c model.ConsumerExplanation) []string {
	var out []string
	if l := c.ProvisioningLag; l != nil {
		s := "?"
		if l.Seconds != nil {
			s = fmt.Sprint(*l.Seconds)
		}
		out = append(out, fmt.Sprintf("lag %s %s line %d", s, l.Why, l.Range.Start.Line))
	}
	for _, w := range c.Warmup {
		v := "?"
		if w.Value != nil {
			v = fmt.Sprint(*w.Value)
		}
		out = append(out, fmt.Sprintf("%s=%s %s of %s line %d", w.Attribute, v, w.Text, w.Address, w.Range.Start.Line))
	}
	return out
}

// --explain shows each consumer's provisioning lag as the rules bound it
// (or which value keeps it from being known), and the warmup settings it
// read, which count in no lag.
func TestExplainProvisioningLag(t *testing.T) {
	res, _ := explain(t, map[string]string{"main.tf": `variable "period" {}

resource "aws_sqs_queue" "orders" {}
resource "aws_sqs_queue" "invoices" {}
resource "aws_sqs_queue" "refunds" {}

resource "aws_autoscaling_group" "orders" {
  min_size                  = 2
  max_size                  = 10
  default_instance_warmup   = 300
  health_check_grace_period = 120
  warm_pool {
    pool_state = "Hibernated"
    min_size   = 2
  }
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
}

resource "aws_autoscaling_policy" "orders" {
  name                      = "orders"
  autoscaling_group_name    = aws_autoscaling_group.orders.name
  policy_type               = "TargetTrackingScaling"
  estimated_instance_warmup = 240
  target_tracking_configuration {
    target_value = 100
    predefined_metric_specification {
      predefined_metric_type = "ASGAverageCPUUtilization"
    }
  }
}

resource "aws_autoscaling_group" "invoices" {
  min_size = 2
  max_size = 10
  warm_pool {}
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.invoices"
    propagate_at_launch = false
  }
}

resource "aws_autoscaling_policy" "invoices" {
  name                   = "invoices"
  autoscaling_group_name = aws_autoscaling_group.invoices.name
  policy_type            = "StepScaling"
  step_adjustment {
    scaling_adjustment          = 2
    metric_interval_lower_bound = 0
  }
}

resource "aws_cloudwatch_metric_alarm" "invoices" {
  alarm_name          = "invoices"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  dimensions          = { QueueName = "invoices" }
  statistic           = "Maximum"
  comparison_operator = "GreaterThanThreshold"
  threshold           = 100
  period              = var.period
  evaluation_periods  = 2
  alarm_actions       = [aws_autoscaling_policy.invoices.arn]
}

resource "aws_ecs_service" "refunds" {
  name                              = "refunds"
  cluster                           = "main"
  health_check_grace_period_seconds = 60
  tags = { "queuecap:queue" = "aws_sqs_queue.refunds" }
}

resource "aws_appautoscaling_target" "refunds" {
  service_namespace  = "ecs"
  scalable_dimension = "ecs:service:DesiredCount"
  resource_id        = "service/main/refunds"
  min_capacity       = 1
  max_capacity       = 8
}

resource "aws_appautoscaling_policy" "refunds" {
  name               = "refunds"
  service_namespace  = aws_appautoscaling_target.refunds.service_namespace
  scalable_dimension = aws_appautoscaling_target.refunds.scalable_dimension
  resource_id        = aws_appautoscaling_target.refunds.resource_id
  step_scaling_policy_configuration {
    adjustment_type = "ChangeInCapacity"
    step_adjustment {
      scaling_adjustment          = 1
      metric_interval_lower_bound = 0
    }
  }
}

resource "aws_cloudwatch_metric_alarm" "refunds" {
  alarm_name          = "refunds"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  dimensions          = { QueueName = "refunds" }
  statistic           = "Maximum"
  comparison_operator = "GreaterThanThreshold"
  threshold           = 100
  period              = 30
  evaluation_periods  = 5
  datapoints_to_alarm = 3
  alarm_actions       = [aws_appautoscaling_policy.refunds.arn]
}
`})
	want := map[string][]string{
		"aws_sqs_queue.orders": {
			"lag 60 one 60 s period of the metric aws_autoscaling_policy.orders tracks (AWS's default, target_tracking_metric_period_default_seconds), before which it cannot scale out line 23",
			"default_instance_warmup=300  of aws_autoscaling_group.orders line 10",
			"health_check_grace_period=120  of aws_autoscaling_group.orders line 11",
			"warm_pool=?  of aws_autoscaling_group.orders line 12",
			"warm_pool.pool_state=? Hibernated of aws_autoscaling_group.orders line 13",
			"warm_pool.min_size=2  of aws_autoscaling_group.orders line 14",
			"estimated_instance_warmup=240  of aws_autoscaling_policy.orders line 27",
		},
		"aws_sqs_queue.invoices": {
			"lag ? period of aws_cloudwatch_metric_alarm.invoices comes from var.period, which has no value here (set it with --var, a tfvars file or TF_VAR_period) line 65",
			"warm_pool=?  of aws_autoscaling_group.invoices line 39",
		},
		"aws_sqs_queue.refunds": {
			"lag 90 aws_appautoscaling_policy.refunds scales out only once aws_cloudwatch_metric_alarm.refunds is in ALARM, after datapoints_to_alarm 3 breaching datapoints of its 30 s period: 3 × 30 = 90 s line 109",
			"health_check_grace_period_seconds=60  of aws_ecs_service.refunds line 73",
		},
	}
	if qs := res.Explanation.Roots[0].Queues; len(qs) != len(want) {
		t.Fatalf("%d queues explained, want %d", len(qs), len(want))
	}
	for _, q := range res.Explanation.Roots[0].Queues {
		if len(q.Consumers) != 1 {
			t.Fatalf("%s: consumers %+v", q.Address, q.Consumers)
		}
		if got := lagLines(q.Consumers[0]); !slices.Equal(got, want[q.Address]) {
			t.Errorf("%s:\n%q\nwant\n%q", q.Address, got, want[q.Address])
		}
	}
}
