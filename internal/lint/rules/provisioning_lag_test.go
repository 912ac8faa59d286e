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
			// Without a lag the backlog clears in exactly 7,200 s; any lag
			// would make it late, so the check is skipped.
			name:  "a period unknown before apply: a skip",
			files: map[string]string{"main.tf": "variable \"period\" {}\n" + tracked(targetTracking("      period      = var.period"))},
			skips: []skip{{Reason: "the period of the metric aws_autoscaling_policy.backlog tracks comes from var.period, which has no value here (set it with --var, a tfvars file or TF_VAR_period), so the provisioning lag of aws_autoscaling_group.workers is not known: without one, max_backlog 1,800,000 clears in 7,200 s, within rto_seconds 7,200",
				File: "main.tf", Line: 33}},
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

// stepPolicy is a step (or simple, without step_adjustment) scaling policy
// of the group, triggered by the alarm deep on the queue's depth with the
// arguments given.
func stepPolicy(policyType, alarm string) string {
	steps := `
  step_adjustment {
    scaling_adjustment          = 5
    metric_interval_lower_bound = 0
  }`
	if policyType == "SimpleScaling" {
		steps = `
  scaling_adjustment     = 5`
	}
	return fmt.Sprintf(`resource "aws_autoscaling_policy" "out" {
  name                   = "out"
  autoscaling_group_name = aws_autoscaling_group.workers.name
  policy_type            = %q
  adjustment_type        = "ChangeInCapacity"%s
}

resource "aws_cloudwatch_metric_alarm" "deep" {
  alarm_name          = "deep"
  comparison_operator = "GreaterThanThreshold"
  threshold           = 1000
%s
  alarm_actions       = [aws_autoscaling_policy.out.arn]
}
`, policyType, steps, alarm)
}

// queueDepthAlarm is the arguments of an alarm on the queue's depth, with its
// period and evaluation arguments.
func queueDepthAlarm(evaluation string) string {
	return `  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  dimensions          = { QueueName = aws_sqs_queue.orders.name }
  statistic           = "Maximum"
` + evaluation
}

// lagFinding is the finding on tracked's group (max_size at line 9) with
// a provisioning lag of lag seconds, why, when the advice is 31 consumers.
func lagFinding(lag float64, why string) issue {
	drain := 7200 + lag
	return issue{Summary: fmt.Sprintf("max_size 30 clears max_backlog 1,800,000 in %s s, over rto_seconds 7,200 after a %s s lag: raise it to 31", thousands(drain), thousands(lag)),
		Message: fmt.Sprintf("max_size 30 × 25 msg/s = 750 msg/s leaves a surplus of 250 msg/s over the declared arrival rate 500 msg/s, which clears max_backlog 1,800,000 in %s s (min_size 20 drains alone for the first %s s, the provisioning lag: %s), more than rto_seconds 7,200: with the lag, ceil(500 / 25 + max(0, 1,800,000 − 0 × %s) / (25 × (7,200 − %s))) needs 31 consumers",
			thousands(drain), thousands(lag), why, thousands(lag), thousands(lag)),
		Start: at(9, 3), End: at(9, 16),
		Facts: facts("arrival_rate", 500, "effective_arrival_rate", 500, "per_consumer_rate", 25, "max_consumers", 30, "capacity", 750, "surplus", 250,
			"max_backlog", 1800000, "rto_seconds", 7200, "drain_seconds", drain, "provisioning_lag_seconds", lag, "min_consumers", 20, "required_consumers", 31)}
}

// shifted is the finding lines lower, under a variable block.
func shifted(is issue, lines int) issue {
	is.Start.Line += lines
	is.End.Line += lines
	return is
}

// thousands writes a whole number with thousands separators, as findings do.
func thousands(v float64) string {
	s := fmt.Sprintf("%d", int64(v))
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// A step or simple policy scales out only once its alarm is in ALARM: M
// breaching datapoints of the alarm's period after the backlog appears.
func TestInsufficientHeadroomStepPolicyLag(t *testing.T) {
	runRuleCases(t, "queuecap_insufficient_headroom", []ruleCase{
		{
			// 3 × 60 = 180 s: 180 + 1,800,000 / 250 = 7,380 s; ceil(20 +
			// 1,800,000 / (25 × 7,020)) = ceil(20 + 10.26) = 31.
			name:   "a step policy: evaluation_periods × period",
			files:  map[string]string{"main.tf": tracked(stepPolicy("StepScaling", queueDepthAlarm("  period              = 60\n  evaluation_periods  = 3")))},
			issues: []issue{lagFinding(180, "aws_autoscaling_policy.out scales out only once aws_cloudwatch_metric_alarm.deep is in ALARM, after evaluation_periods 3 breaching datapoints of its 60 s period: 3 × 60 = 180 s")},
		},
		{
			// M out of N: 2 × 30 = 60 s, not 5 × 30.
			name:   "a simple policy: datapoints_to_alarm × period",
			files:  map[string]string{"main.tf": tracked(stepPolicy("SimpleScaling", queueDepthAlarm("  period              = 30\n  evaluation_periods  = 5\n  datapoints_to_alarm = 2")))},
			issues: []issue{lagFinding(60, "aws_autoscaling_policy.out scales out only once aws_cloudwatch_metric_alarm.deep is in ALARM, after datapoints_to_alarm 2 breaching datapoints of its 30 s period: 2 × 30 = 60 s")},
		},
		{
			// Metric math: the shortest period of its metrics, 2 × 30 s.
			name: "metric math: the shortest period",
			files: map[string]string{"main.tf": tracked(stepPolicy("StepScaling", `  evaluation_periods  = 2
  metric_query {
    id          = "backlog"
    expression  = "visible + delayed"
    return_data = true
  }
  metric_query {
    id = "visible"
    metric {
      namespace   = "AWS/SQS"
      metric_name = "ApproximateNumberOfMessagesVisible"
      dimensions  = { QueueName = aws_sqs_queue.orders.name }
      stat        = "Maximum"
      period      = 60
    }
  }
  metric_query {
    id = "delayed"
    metric {
      namespace   = "AWS/SQS"
      metric_name = "ApproximateNumberOfMessagesDelayed"
      dimensions  = { QueueName = aws_sqs_queue.orders.name }
      stat        = "Maximum"
      period      = 30
    }
  }`))},
			issues: []issue{lagFinding(60, "aws_autoscaling_policy.out scales out only once aws_cloudwatch_metric_alarm.deep is in ALARM, after evaluation_periods 2 breaching datapoints of its 30 s period: 2 × 30 = 60 s")},
		},
		{
			// The step policy's 3 × 60 = 180 s and target tracking's 60 s:
			// the smaller holds.
			name:   "with target tracking: the smallest lag",
			files:  map[string]string{"main.tf": tracked(stepPolicy("StepScaling", queueDepthAlarm("  period              = 60\n  evaluation_periods  = 3")) + targetTracking(""))},
			issues: []issue{lagFinding(60, "one 60 s period of the metric aws_autoscaling_policy.backlog tracks (AWS's default, target_tracking_metric_period_default_seconds), before which it cannot scale out")},
		},
		{
			// A second alarm of 1 × 60 s on the same policy acts sooner.
			name: "two alarms: the sooner",
			files: map[string]string{"main.tf": tracked(stepPolicy("StepScaling", queueDepthAlarm("  period              = 60\n  evaluation_periods  = 3"))) + `
resource "aws_cloudwatch_metric_alarm" "old" {
  alarm_name          = "old"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateAgeOfOldestMessage"
  dimensions          = { QueueName = aws_sqs_queue.orders.name }
  statistic           = "Maximum"
  comparison_operator = "GreaterThanThreshold"
  threshold           = 600
  period              = 60
  evaluation_periods  = 1
  alarm_actions       = [aws_autoscaling_policy.out.arn]
}
`},
			issues: []issue{lagFinding(60, "aws_autoscaling_policy.out scales out only once aws_cloudwatch_metric_alarm.old is in ALARM, after evaluation_periods 1 breaching datapoint of its 60 s period: 1 × 60 = 60 s")},
		},
		{
			// Without a lag, exactly 7,200 s: no finding, and a skip.
			name:  "datapoints_to_alarm unknown before apply: a skip",
			files: map[string]string{"main.tf": "variable \"m\" {}\n" + tracked(stepPolicy("StepScaling", queueDepthAlarm("  period              = 60\n  evaluation_periods  = 3\n  datapoints_to_alarm = var.m")))},
			skips: []skip{{Reason: "datapoints_to_alarm of aws_cloudwatch_metric_alarm.deep comes from var.m, which has no value here (set it with --var, a tfvars file or TF_VAR_m), so the provisioning lag of aws_autoscaling_group.workers is not known: without one, max_backlog 1,800,000 clears in 7,200 s, within rto_seconds 7,200",
				File: "main.tf", Line: 44}},
		},
		{
			name:  "the alarm's period unknown before apply: a skip",
			files: map[string]string{"main.tf": "variable \"p\" {}\n" + tracked(stepPolicy("StepScaling", queueDepthAlarm("  period              = var.p\n  evaluation_periods  = 3")))},
			skips: []skip{{Reason: "period of aws_cloudwatch_metric_alarm.deep comes from var.p, which has no value here (set it with --var, a tfvars file or TF_VAR_p), so the provisioning lag of aws_autoscaling_group.workers is not known: without one, max_backlog 1,800,000 clears in 7,200 s, within rto_seconds 7,200",
				File: "main.tf", Line: 42}},
		},
		{
			// The value given, the lag is known and the finding comes.
			name:   "the alarm's period through --var",
			files:  map[string]string{"main.tf": "variable \"p\" {}\n" + tracked(stepPolicy("StepScaling", queueDepthAlarm("  period              = var.p\n  evaluation_periods  = 3")))},
			vars:   []string{"p=60"},
			issues: []issue{shifted(lagFinding(180, "aws_autoscaling_policy.out scales out only once aws_cloudwatch_metric_alarm.deep is in ALARM, after evaluation_periods 3 breaching datapoints of its 60 s period: 3 × 60 = 180 s"), 1)},
		},
		{
			// Metric queries a dynamic block generates are not expanded: a
			// period among them may be shorter. No bound, and nothing not
			// known to skip for.
			name: "dynamic metric queries: no lag",
			files: map[string]string{"main.tf": tracked(stepPolicy("StepScaling", `  evaluation_periods  = 3
  dynamic "metric_query" {
    for_each = toset(["ApproximateNumberOfMessagesVisible"])
    content {
      id          = "m"
      return_data = true
      metric {
        namespace   = "AWS/SQS"
        metric_name = metric_query.value
        dimensions  = { QueueName = aws_sqs_queue.orders.name }
        stat        = "Maximum"
        period      = 60
      }
    }
  }`))},
		},
		{
			// The same step policy with a predictive policy that forecasts
			// and scales: it may scale out before any backlog.
			name: "a predictive policy that scales: no lag",
			files: map[string]string{"main.tf": tracked(stepPolicy("StepScaling", queueDepthAlarm("  period              = 60\n  evaluation_periods  = 3"))) + `
resource "aws_autoscaling_policy" "forecast" {
  name                   = "forecast"
  autoscaling_group_name = aws_autoscaling_group.workers.name
  policy_type            = "PredictiveScaling"
  predictive_scaling_configuration {
    mode = "ForecastAndScale"
    metric_specification {
      target_value = 50
      predefined_metric_pair_specification {
        predefined_metric_type = "ASGCPUUtilization"
      }
    }
  }
}
`},
		},
		{
			// A predictive policy that only forecasts scales nothing: the
			// step policy's lag holds.
			name: "a forecast-only predictive policy: the step policy's lag",
			files: map[string]string{"main.tf": tracked(stepPolicy("StepScaling", queueDepthAlarm("  period              = 60\n  evaluation_periods  = 3"))) + `
resource "aws_autoscaling_policy" "forecast" {
  name                   = "forecast"
  autoscaling_group_name = aws_autoscaling_group.workers.name
  policy_type            = "PredictiveScaling"
  predictive_scaling_configuration {
    metric_specification {
      target_value = 50
      predefined_metric_pair_specification {
        predefined_metric_type = "ASGCPUUtilization"
      }
    }
  }
}
`},
			issues: []issue{lagFinding(180, "aws_autoscaling_policy.out scales out only once aws_cloudwatch_metric_alarm.deep is in ALARM, after evaluation_periods 3 breaching datapoints of its 60 s period: 3 × 60 = 180 s")},
		},
	})
}

// ecsScaled is tracked's queue consumed by an ECS service whose scaling
// target has min_capacity 20 and max_capacity 30, with the policy given.
func ecsScaled(minCapacity, policy string) string {
	return fmt.Sprintf(`resource "aws_sqs_queue" "orders" {
  name = "orders"
  tags = { "queuecap:arrival_rate" = 500, "queuecap:max_backlog" = 1800000, "queuecap:rto_seconds" = 7200 }
}

resource "aws_ecs_service" "workers" {
  name          = "workers"
  cluster       = "main"
  desired_count = 20
  tags = {
    "queuecap:per_consumer_rate" = 25
    "queuecap:queue"             = "aws_sqs_queue.orders"
  }
}

resource "aws_appautoscaling_target" "workers" {
  service_namespace  = "ecs"
  scalable_dimension = "ecs:service:DesiredCount"
  resource_id        = "service/main/workers"
  min_capacity       = %s
  max_capacity       = 30
}

%s`, minCapacity, policy)
}

// ecsStep is an Application Auto Scaling step policy of the service,
// triggered by the alarm deep with the arguments given.
func ecsStep(alarm string) string {
	return `resource "aws_appautoscaling_policy" "out" {
  name               = "out"
  service_namespace  = aws_appautoscaling_target.workers.service_namespace
  scalable_dimension = aws_appautoscaling_target.workers.scalable_dimension
  resource_id        = aws_appautoscaling_target.workers.resource_id
  step_scaling_policy_configuration {
    adjustment_type = "ChangeInCapacity"
    step_adjustment {
      scaling_adjustment          = 5
      metric_interval_lower_bound = 0
    }
  }
}

resource "aws_cloudwatch_metric_alarm" "deep" {
  alarm_name          = "deep"
  comparison_operator = "GreaterThanThreshold"
  threshold           = 1000
` + alarm + `
  alarm_actions       = [aws_appautoscaling_policy.out.arn]
}
`
}

// An ECS service scaled by Application Auto Scaling: its step policies'
// alarms bound the lag as an auto scaling group's do, and min_capacity
// drains alone; its target tracking bounds nothing AWS publishes.
func TestInsufficientHeadroomECSLag(t *testing.T) {
	const why = "aws_appautoscaling_policy.out scales out only once aws_cloudwatch_metric_alarm.deep is in ALARM, after evaluation_periods 3 breaching datapoints of its 60 s period: 3 × 60 = 180 s"
	threeMinutes := queueDepthAlarm("  period              = 60\n  evaluation_periods  = 3")
	runRuleCases(t, "queuecap_insufficient_headroom", []ruleCase{
		{
			// As for the group: 180 + 1,800,000 / 250 = 7,380 s, and 31.
			name:  "a step policy",
			files: map[string]string{"main.tf": ecsScaled("20", ecsStep(threeMinutes))},
			issues: []issue{{Summary: "max_capacity 30 clears max_backlog 1,800,000 in 7,380 s, over rto_seconds 7,200 after a 180 s lag: raise it to 31",
				Message: "max_capacity 30 × 25 msg/s = 750 msg/s leaves a surplus of 250 msg/s over the declared arrival rate 500 msg/s, which clears max_backlog 1,800,000 in 7,380 s (min_capacity 20 drains alone for the first 180 s, the provisioning lag: " + why + "), more than rto_seconds 7,200: with the lag, ceil(500 / 25 + max(0, 1,800,000 − 0 × 180) / (25 × (7,200 − 180))) needs 31 consumers",
				Start:   at(21, 3), End: at(21, 26),
				Facts: facts("arrival_rate", 500, "effective_arrival_rate", 500, "per_consumer_rate", 25, "max_consumers", 30, "capacity", 750, "surplus", 250,
					"max_backlog", 1800000, "rto_seconds", 7200, "drain_seconds", 7380, "provisioning_lag_seconds", 180, "min_consumers", 20, "required_consumers", 31)}},
		},
		{
			// 15,000 / 250 = 60 s without the lag, 180 + 60 = 240 s with
			// it: the finding is at min_capacity.
			name:  "an RTO within the lag",
			files: map[string]string{"main.tf": strings.Replace(ecsScaled("20", ecsStep(threeMinutes)), `"queuecap:max_backlog" = 1800000, "queuecap:rto_seconds" = 7200`, `"queuecap:max_backlog" = 15000, "queuecap:rto_seconds" = 120`, 1)},
			issues: []issue{{Summary: "the backlog is due within the 180 s lag before scale-out: raise min_capacity",
				Message: "max_capacity 30 × 25 msg/s = 750 msg/s leaves a surplus of 250 msg/s over the declared arrival rate 500 msg/s, which clears max_backlog 15,000 in 240 s (min_capacity 20 drains alone for the first 180 s, the provisioning lag: " + why + "), more than rto_seconds 120: rto_seconds 120 is within the 180 s lag, so no max_capacity meets it: min_capacity must clear the backlog alone",
				Start:   at(20, 3), End: at(20, 26),
				Facts: facts("arrival_rate", 500, "effective_arrival_rate", 500, "per_consumer_rate", 25, "max_consumers", 30, "capacity", 750, "surplus", 250,
					"max_backlog", 15000, "rto_seconds", 120, "drain_seconds", 240, "provisioning_lag_seconds", 180, "min_consumers", 20)}},
		},
		{
			name: "target tracking: no lag AWS publishes",
			files: map[string]string{"main.tf": ecsScaled("20", `resource "aws_appautoscaling_policy" "backlog" {
  name               = "backlog"
  policy_type        = "TargetTrackingScaling"
  service_namespace  = aws_appautoscaling_target.workers.service_namespace
  scalable_dimension = aws_appautoscaling_target.workers.scalable_dimension
  resource_id        = aws_appautoscaling_target.workers.resource_id
  target_tracking_scaling_policy_configuration {
    target_value = 1500
    customized_metric_specification {
      metric_name = "ApproximateNumberOfMessagesVisible"
      namespace   = "AWS/SQS"
      statistic   = "Sum"
      dimensions {
        name  = "QueueName"
        value = aws_sqs_queue.orders.name
      }
    }
  }
}
`)},
		},
		{
			name:  "min_capacity unknown before apply: a skip",
			files: map[string]string{"main.tf": "variable \"min\" {}\n" + ecsScaled("var.min", ecsStep(threeMinutes))},
			skips: []skip{{Reason: "the minimum size of aws_ecs_service.workers (min_capacity) comes from var.min, which has no value here (set it with --var, a tfvars file or TF_VAR_min), so the provisioning lag of aws_ecs_service.workers is not known: without one, max_backlog 1,800,000 clears in 7,200 s, within rto_seconds 7,200",
				File: "main.tf", Line: 21}},
		},
		{
			name:  "min_capacity equal to max_capacity: no lag",
			files: map[string]string{"main.tf": ecsScaled("30", ecsStep(threeMinutes))},
		},
		{
			// Without a scaling target, desired_count 30 is its size, and it
			// has no minimum to drain alone: 1,800,000 / 250 = 7,200 s.
			name: "no scaling target: no lag",
			files: map[string]string{"main.tf": strings.Replace(ecsScaled("20", "")[:strings.Index(ecsScaled("20", ""), `resource "aws_appautoscaling_target"`)], "desired_count = 20", "desired_count = 30", 1) + strings.NewReplacer("aws_appautoscaling_target.workers.service_namespace", `"ecs"`,
				"aws_appautoscaling_target.workers.scalable_dimension", `"ecs:service:DesiredCount"`,
				"aws_appautoscaling_target.workers.resource_id", `"service/main/workers"`).Replace(ecsStep(threeMinutes))},
		},
	})
}

// withWarmup is tracked's group with the warmup arguments given after
// max_size, so that max_size stays at line 9.
func withWarmup(files, warmup string) string {
	return strings.Replace(files, "  max_size = 30\n", "  max_size = 30\n"+warmup, 1)
}

// The advice offers a second sizing with the lag's instances' warmup
// counted, as an estimate: the warmup never decides the finding.
func TestInsufficientHeadroomWarmupEstimate(t *testing.T) {
	const why = "aws_autoscaling_policy.out scales out only once aws_cloudwatch_metric_alarm.deep is in ALARM, after evaluation_periods 3 breaching datapoints of its 60 s period: 3 × 60 = 180 s"
	threeMinutes := stepPolicy("StepScaling", queueDepthAlarm("  period              = 60\n  evaluation_periods  = 3"))
	estimated := func(words string, more ...any) issue {
		is := lagFinding(180, why)
		is.Message += words
		is.Facts = append(is.Facts, facts(more...)...)
		return is
	}
	runRuleCases(t, "queuecap_insufficient_headroom", []ruleCase{
		{
			// 180 + 900 = 1,080 s: ceil(20 + 1,800,000 / (25 × 6,120)) =
			// ceil(20 + 11.76) = 32.
			name:  "default_instance_warmup",
			files: map[string]string{"main.tf": withWarmup(tracked(threeMinutes), "  default_instance_warmup = 900\n")},
			issues: []issue{estimated("; if instances take work only once default_instance_warmup 900 s has passed (an estimate: AWS's warmup says when an instance's metrics count, not when it takes messages), the lag is 180 + 900 = 1,080 s and ceil(500 / 25 + max(0, 1,800,000 − 0 × 1,080) / (25 × (7,200 − 1,080))) needs 32 consumers",
				"warmup_seconds", 900, "required_consumers_with_warmup", 32)},
		},
		{
			// The policy's own warmup overrides the group's: 180 + 1,800 =
			// 1,980 s, ceil(20 + 1,800,000 / (25 × 5,220)) = ceil(33.79).
			name: "the policy's estimated_instance_warmup",
			files: map[string]string{"main.tf": withWarmup(strings.Replace(tracked(threeMinutes), `  adjustment_type        = "ChangeInCapacity"`, `  adjustment_type        = "ChangeInCapacity"
  estimated_instance_warmup = 1800`, 1), "  default_instance_warmup = 900\n")},
			issues: []issue{estimated("; if instances take work only once estimated_instance_warmup of aws_autoscaling_policy.out 1,800 s has passed (an estimate: AWS's warmup says when an instance's metrics count, not when it takes messages), the lag is 180 + 1,800 = 1,980 s and ceil(500 / 25 + max(0, 1,800,000 − 0 × 1,980) / (25 × (7,200 − 1,980))) needs 34 consumers",
				"warmup_seconds", 1800, "required_consumers_with_warmup", 34)},
		},
		{
			name:  "a warmup past the RTO",
			files: map[string]string{"main.tf": withWarmup(tracked(threeMinutes), "  default_instance_warmup = 7020\n")},
			issues: []issue{estimated("; if instances take work only once default_instance_warmup 7,020 s has passed (an estimate: AWS's warmup says when an instance's metrics count, not when it takes messages), the lag is 180 + 7,020 = 7,200 s and rto_seconds 7,200 is within it: no max_size meets it",
				"warmup_seconds", 7020)},
		},
		{
			// Without a lag, the backlog clears in exactly 7,200 s: a
			// warmup alone never makes a finding.
			name:  "a warmup without a lag: no finding",
			files: map[string]string{"main.tf": withWarmup(tracked(""), "  default_instance_warmup = 900\n")},
		},
		{
			// AWS's -1 turns the warmup off.
			name:   "default_instance_warmup -1: no estimate",
			files:  map[string]string{"main.tf": withWarmup(tracked(threeMinutes), "  default_instance_warmup = -1\n")},
			issues: []issue{lagFinding(180, why)},
		},
	})
}
