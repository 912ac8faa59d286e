// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules_test

import (
	"fmt"
	"strings"
	"testing"
)

// stepScaled is a queue, an auto scaling group of at least one instance
// and a step policy driven by the alarm given (lines 23 on), plus any
// extra resources.
func stepScaled(alarm string) string {
	return `resource "aws_sqs_queue" "orders" {
  name = "orders"
  tags = { "queuecap:arrival_rate" = 50 }
}

resource "aws_autoscaling_group" "workers" {
  name     = "workers"
  max_size = 10
  min_size = 1
}

resource "aws_autoscaling_policy" "scale_out" {
  name                   = "scale-out"
  autoscaling_group_name = aws_autoscaling_group.workers.name
  policy_type            = "StepScaling"
  adjustment_type        = "ChangeInCapacity"
  step_adjustment {
    scaling_adjustment          = 2
    metric_interval_lower_bound = 0
  }
}

` + alarm
}

// simpleAlarm is an alarm on one AWS/SQS metric of the orders queue,
// driving the scale_out policy.
func simpleAlarm(name, metric, comparison, threshold string) string {
	return fmt.Sprintf(`resource "aws_cloudwatch_metric_alarm" %q {
  alarm_name          = "orders-%s"
  namespace           = "AWS/SQS"
  metric_name         = %s
  statistic           = "Sum"
  period              = 60
  evaluation_periods  = 1
  comparison_operator = %q
  threshold           = %s
  dimensions = {
    QueueName = aws_sqs_queue.orders.name
  }
  alarm_actions = [aws_autoscaling_policy.scale_out.arn]
}
`, name, name, metric, comparison, threshold)
}

const depthFix = ": scale on backlog per consumer (ApproximateNumberOfMessagesVisible / GroupInServiceInstances), the age of the oldest message (ApproximateAgeOfOldestMessage) or the depth's RATE() instead"

// fromZeroFix is the advice for a fleet that may reach 0 consumers, as
// lead says, counted by the metric consumers.
func fromZeroFix(lead, consumers string) string {
	backlog := "ApproximateNumberOfMessagesVisible / " + consumers
	return ": " + lead + ", where backlog per consumer (" + backlog + ") has no data, so start the first consumer with a step policy on ApproximateNumberOfMessagesVisible > 0 while " +
		consumers + " is 0, then scale on " + backlog + ", the age of the oldest message (ApproximateAgeOfOldestMessage) or the depth's RATE()"
}

// mathAlarm is a metric math alarm over the orders queue's depth and a
// second metric, returning expression e1.
func mathAlarm(expression, secondNamespace, secondMetric, secondDims string) string {
	return fmt.Sprintf(`resource "aws_cloudwatch_metric_alarm" "backlog" {
  alarm_name          = "orders-backlog"
  comparison_operator = "GreaterThanOrEqualToThreshold"
  evaluation_periods  = 2
  threshold           = 100
  alarm_actions       = [aws_autoscaling_policy.scale_out.arn]

  metric_query {
    id          = "e1"
    expression  = %q
    return_data = true
  }
  metric_query {
    id = "m1"
    metric {
      namespace   = "AWS/SQS"
      metric_name = "ApproximateNumberOfMessagesVisible"
      period      = 60
      stat        = "Sum"
      dimensions  = { QueueName = aws_sqs_queue.orders.name }
    }
  }
  metric_query {
    id = "m2"
    metric {
      namespace   = %q
      metric_name = %q
      period      = 60
      stat        = "Average"
      dimensions  = %s
    }
  }
}
`, expression, secondNamespace, secondMetric, secondDims)
}

// cpuMathAlarm is a scale-out metric math alarm returning expression
// over one metric, m1, of the AWS/namespace.
func cpuMathAlarm(expression, namespace, metric string) string {
	return fmt.Sprintf(`resource "aws_cloudwatch_metric_alarm" "cpu" {
  alarm_name          = "workers-cpu"
  comparison_operator = "GreaterThanThreshold"
  evaluation_periods  = 2
  threshold           = 0
  alarm_actions       = [aws_autoscaling_policy.scale_out.arn]

  metric_query {
    id          = "e1"
    expression  = "%s"
    return_data = true
  }
  metric_query {
    id = "m1"
    metric {
      namespace   = "AWS/%s"
      metric_name = %q
      period      = 60
      stat        = "Average"
      dimensions  = { AutoScalingGroupName = aws_autoscaling_group.workers.name }
    }
  }
}
`, expression, namespace, metric)
}

const cpuLimit = "\nvariable \"cpu_limit\" {\n  type = number\n}\n"

func TestDepthOnlyScaling(t *testing.T) {
	depthAlarm := simpleAlarm("depth_high", `"ApproximateNumberOfMessagesVisible"`, "GreaterThanThreshold", "1000")
	flagged := issue{
		Message: "every scale-out trigger of aws_autoscaling_group.workers reads only the absolute depth of its queue: aws_cloudwatch_metric_alarm.depth_high (ApproximateNumberOfMessagesVisible > 1,000). A depth of 1,000 messages is 1,000 / 50 = 20 s of arrivals whether the backlog is growing or draining" + depthFix,
		Start:   at(23, 1), End: at(23, 52),
		Facts: facts("triggers", 1, "threshold", 1000, "arrival_rate", 50, "threshold_seconds_of_arrivals", 20, "min_consumers", 1),
	}
	runRuleCases(t, "queuecap_depth_only_scaling", []ruleCase{
		{
			name:   "step policy driven by a depth alarm",
			files:  map[string]string{"main.tf": stepScaled(depthAlarm)},
			issues: []issue{flagged},
		},
		{
			name:   "alarm linked to the queue by its literal name",
			files:  map[string]string{"main.tf": stepScaled(strings.Replace(depthAlarm, "aws_sqs_queue.orders.name", `"orders"`, 1))},
			issues: []issue{flagged},
		},
		{
			name:  "an age alarm also scales out",
			files: map[string]string{"main.tf": stepScaled(depthAlarm + "\n" + simpleAlarm("age_high", `"ApproximateAgeOfOldestMessage"`, "GreaterThanThreshold", "60"))},
		},
		{
			name: "a CPU target tracking policy also scales out",
			files: map[string]string{"main.tf": stepScaled(depthAlarm) + `
resource "aws_autoscaling_policy" "cpu" {
  autoscaling_group_name = aws_autoscaling_group.workers.name
  policy_type            = "TargetTrackingScaling"
  target_tracking_configuration {
    predefined_metric_specification {
      predefined_metric_type = "ASGAverageCPUUtilization"
    }
    target_value = 60
  }
}
`},
		},
		{
			name:  "a scale-in alarm on depth is not a scale-out trigger",
			files: map[string]string{"main.tf": stepScaled(simpleAlarm("depth_low", `"ApproximateNumberOfMessagesVisible"`, "LessThanThreshold", "1"))},
		},
		{
			name:  "metric math over depth alone, linked through metric_query dimensions",
			files: map[string]string{"main.tf": stepScaled(mathAlarm("m1 + m2", "AWS/SQS", "ApproximateNumberOfMessagesNotVisible", "{ QueueName = aws_sqs_queue.orders.name }"))},
			issues: []issue{{Summary: "scale-out reads only the queue's absolute depth: scale on backlog per consumer, message age or the depth's RATE()",
				Message: "every scale-out trigger of aws_autoscaling_group.workers reads only the absolute depth of its queue: aws_cloudwatch_metric_alarm.backlog (ApproximateNumberOfMessagesVisible, ApproximateNumberOfMessagesNotVisible ≥ 100). A depth of 100 messages is 100 / 50 = 2 s of arrivals whether the backlog is growing or draining" + depthFix,
				Start:   at(23, 1), End: at(23, 49),
				Facts: facts("triggers", 1, "threshold", 100, "arrival_rate", 50, "threshold_seconds_of_arrivals", 2, "min_consumers", 1),
			}},
		},
		{
			name:  "backlog per instance",
			files: map[string]string{"main.tf": stepScaled(mathAlarm("m1 / m2", "AWS/AutoScaling", "GroupInServiceInstances", "{ AutoScalingGroupName = aws_autoscaling_group.workers.name }"))},
		},
		{
			// GroupInServiceInstances is fetched but the returned
			// expression reads the depth alone.
			name:  "a per-instance metric fetched but not used",
			files: map[string]string{"main.tf": stepScaled(mathAlarm("m1", "AWS/AutoScaling", "GroupInServiceInstances", "{ AutoScalingGroupName = aws_autoscaling_group.workers.name }"))},
			issues: []issue{{Summary: "scale-out reads only the queue's absolute depth: scale on backlog per consumer, message age or the depth's RATE()",
				Message: "every scale-out trigger of aws_autoscaling_group.workers reads only the absolute depth of its queue: aws_cloudwatch_metric_alarm.backlog (ApproximateNumberOfMessagesVisible ≥ 100). A depth of 100 messages is 100 / 50 = 2 s of arrivals whether the backlog is growing or draining" + depthFix,
				Start:   at(23, 1), End: at(23, 49),
				Facts: facts("triggers", 1, "threshold", 100, "arrival_rate", 50, "threshold_seconds_of_arrivals", 2, "min_consumers", 1),
			}},
		},
		{
			name:  "rate of change of depth",
			files: map[string]string{"main.tf": stepScaled(mathAlarm("RATE(m1) + m2", "AWS/SQS", "ApproximateNumberOfMessagesNotVisible", "{ QueueName = aws_sqs_queue.orders.name }"))},
		},
		{
			name:  "alarm metric unknown before apply",
			files: map[string]string{"main.tf": stepScaled(simpleAlarm("depth_high", "var.metric", "GreaterThanThreshold", "1000")) + "\nvariable \"metric\" {\n  type = string\n}\n"},
			skips: []skip{{Reason: "the metric aws_cloudwatch_metric_alarm.depth_high reads is not known before apply", Line: 23}},
		},
		{
			// Only a threshold inside IF() is unknown: whatever the
			// expression, it reads CPU alone, no depth.
			name:  "a CPU metric math alarm whose expression is not known before apply",
			files: map[string]string{"main.tf": stepScaled(cpuMathAlarm("IF(m1 > ${var.cpu_limit}, 1, 0)", "EC2", "CPUUtilization")) + cpuLimit},
		},
		{
			name:  "a depth alarm and a CPU metric math alarm whose expression is not known before apply",
			files: map[string]string{"main.tf": stepScaled(depthAlarm+cpuMathAlarm("IF(m1 > ${var.cpu_limit}, 1, 0)", "EC2", "CPUUtilization")) + cpuLimit},
		},
		{
			// The unknown expression may return the depth alone.
			name:  "a depth metric math alarm whose expression is not known before apply",
			files: map[string]string{"main.tf": stepScaled(mathAlarm("IF(m2 > ${var.cpu_limit}, m1, 0)", "AWS/EC2", "CPUUtilization", "{ AutoScalingGroupName = aws_autoscaling_group.workers.name }")) + cpuLimit},
			skips: []skip{{Reason: "the metric aws_cloudwatch_metric_alarm.backlog reads is not known before apply", Line: 23}},
		},
		{
			name:  "policy type unknown before apply",
			files: map[string]string{"main.tf": strings.Replace(stepScaled(depthAlarm), `"StepScaling"`, "var.policy_type", 1) + "\nvariable \"policy_type\" {}\n"},
			skips: []skip{{Reason: "the policy type of aws_autoscaling_policy.scale_out is not known before apply or not one the rule judges", Line: 12}},
		},
		{
			name:   "alarm metric from a variable default",
			files:  map[string]string{"main.tf": stepScaled(simpleAlarm("depth_high", "var.metric", "GreaterThanThreshold", "1000")) + "\nvariable \"metric\" {\n  default = \"ApproximateNumberOfMessagesVisible\"\n}\n"},
			issues: []issue{flagged},
		},
		{
			name: "target tracking on raw depth",
			files: map[string]string{"main.tf": `resource "aws_sqs_queue" "orders" {
  name = "orders"
}

resource "aws_autoscaling_group" "workers" {
  name     = "workers"
  max_size = 10
}

resource "aws_autoscaling_policy" "depth" {
  autoscaling_group_name = aws_autoscaling_group.workers.name
  policy_type            = "TargetTrackingScaling"
  target_tracking_configuration {
    customized_metric_specification {
      namespace   = "AWS/SQS"
      metric_name = "ApproximateNumberOfMessagesVisible"
      statistic   = "Average"
      metric_dimension {
        name  = "QueueName"
        value = aws_sqs_queue.orders.name
      }
    }
    target_value = 500
  }
}
`},
			issues: []issue{{Summary: "scale-out reads only the queue's depth and may reach 0 consumers: start one on depth > 0, then track backlog",
				Message: "every scale-out trigger of aws_autoscaling_group.workers reads only the absolute depth of its queue: aws_autoscaling_policy.depth (target tracking on ApproximateNumberOfMessagesVisible)" +
					fromZeroFix("with no min_size in the configuration it may reach 0 consumers", "GroupInServiceInstances"),
				Start: at(10, 1), End: at(10, 42),
				Facts: facts("triggers", 1),
			}},
		},
		{
			name: "ECS service scaled by a step policy through its scaling target",
			files: map[string]string{"main.tf": `resource "aws_sqs_queue" "jobs" {
  name = "jobs"
}

resource "aws_ecs_service" "worker" {
  name    = "worker"
  cluster = "main"
}

resource "aws_appautoscaling_target" "worker" {
  service_namespace  = "ecs"
  scalable_dimension = "ecs:service:DesiredCount"
  resource_id        = "service/main/worker"
  min_capacity       = 0
  max_capacity       = 4
}

resource "aws_appautoscaling_policy" "up" {
  name               = "up"
  service_namespace  = aws_appautoscaling_target.worker.service_namespace
  scalable_dimension = aws_appautoscaling_target.worker.scalable_dimension
  resource_id        = aws_appautoscaling_target.worker.resource_id
  step_scaling_policy_configuration {
    adjustment_type = "ChangeInCapacity"
    step_adjustment {
      scaling_adjustment          = 1
      metric_interval_lower_bound = 0
    }
  }
}

resource "aws_appautoscaling_policy" "down" {
  name               = "down"
  service_namespace  = aws_appautoscaling_target.worker.service_namespace
  scalable_dimension = aws_appautoscaling_target.worker.scalable_dimension
  resource_id        = aws_appautoscaling_target.worker.resource_id
  step_scaling_policy_configuration {
    adjustment_type = "ChangeInCapacity"
    step_adjustment {
      scaling_adjustment          = -1
      metric_interval_upper_bound = 0
    }
  }
}

resource "aws_cloudwatch_metric_alarm" "high" {
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  statistic           = "Sum"
  comparison_operator = "GreaterThanOrEqualToThreshold"
  threshold           = 1
  evaluation_periods  = 1
  period              = 60
  dimensions          = { QueueName = aws_sqs_queue.jobs.name }
  alarm_actions       = [aws_appautoscaling_policy.up.arn]
}

resource "aws_cloudwatch_metric_alarm" "low" {
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  statistic           = "Sum"
  comparison_operator = "LessThanThreshold"
  threshold           = 1
  evaluation_periods  = 1
  period              = 60
  dimensions          = { QueueName = aws_sqs_queue.jobs.name }
  alarm_actions       = [aws_appautoscaling_policy.down.arn]
}
`},
			issues: []issue{{
				Message: "every scale-out trigger of aws_ecs_service.worker reads only the absolute depth of its queue: aws_cloudwatch_metric_alarm.high (ApproximateNumberOfMessagesVisible ≥ 1)" +
					fromZeroFix("with min_capacity 0 it can reach 0 consumers", "RunningTaskCount"),
				Start: at(46, 1), End: at(46, 46),
				Facts: facts("triggers", 1, "threshold", 1, "min_consumers", 0),
			}},
		},
		{
			name: "a dead-letter queue alarm that notifies is no scaling trigger",
			files: map[string]string{"main.tf": `resource "aws_sqs_queue" "q" {
  name           = "q"
  redrive_policy = templatefile("${path.module}/redrive.json.tpl", { dlq_arn = aws_sqs_queue.dlq.arn })
}

resource "aws_sqs_queue" "dlq" {
  name = "q_dlq"
}

resource "aws_autoscaling_group" "workers" {
  max_size = 3
}

resource "aws_cloudwatch_metric_alarm" "dlq_not_empty" {
  comparison_operator = "GreaterThanThreshold"
  evaluation_periods  = 1
  metric_name         = "ApproximateNumberOfMessagesVisible"
  namespace           = "AWS/SQS"
  period              = 60
  threshold           = 0
  statistic           = "Average"
  dimensions          = { QueueName = aws_sqs_queue.dlq.name }
  alarm_actions       = ["arn:aws:sns:eu-west-1:123456789012:alerts"]
}
`},
		},
		{
			name: "across a local module that receives the queue name",
			files: map[string]string{
				"main.tf": `resource "aws_sqs_queue" "orders" {
  name = "orders"
  tags = { "queuecap:arrival_rate" = 50 }
}

module "workers" {
  source     = "./modules/workers"
  queue_name = aws_sqs_queue.orders.name
}
`,
				"modules/workers/main.tf": `variable "queue_name" {
  type = string
}

resource "aws_autoscaling_group" "this" {
  name     = "${var.queue_name}-workers"
  max_size = 10
  min_size = 1
}

resource "aws_autoscaling_policy" "out" {
  autoscaling_group_name = aws_autoscaling_group.this.name
  policy_type            = "StepScaling"
  step_adjustment {
    scaling_adjustment          = 1
    metric_interval_lower_bound = 0
  }
}

resource "aws_cloudwatch_metric_alarm" "depth" {
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  comparison_operator = "GreaterThanThreshold"
  threshold           = 500
  evaluation_periods  = 1
  period              = 60
  statistic           = "Sum"
  dimensions          = { QueueName = var.queue_name }
  alarm_actions       = [aws_autoscaling_policy.out.arn]
}
`,
			},
			issues: []issue{{
				Message: "every scale-out trigger of module.workers.aws_autoscaling_group.this reads only the absolute depth of its queue: module.workers.aws_cloudwatch_metric_alarm.depth (ApproximateNumberOfMessagesVisible > 500). A depth of 500 messages is 500 / 50 = 10 s of arrivals whether the backlog is growing or draining" + depthFix,
				File:    "modules/workers/main.tf",
				Start:   at(20, 1), End: at(20, 47),
				Facts: facts("triggers", 1, "threshold", 500, "arrival_rate", 50, "threshold_seconds_of_arrivals", 10, "min_consumers", 1),
			}},
		},
		{
			name: "remote module installed by terraform init",
			files: map[string]string{
				"main.tf": `resource "aws_sqs_queue" "orders" {
  name = "orders"
  tags = { "queuecap:arrival_rate" = 50 }
}

module "workers" {
  source     = "app.terraform.io/acme/workers/aws"
  version    = "1.2.0"
  queue_name = aws_sqs_queue.orders.name
}
`,
				".terraform/modules/modules.json": `{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"workers","Source":"app.terraform.io/acme/workers/aws","Version":"1.2.0","Dir":".terraform/modules/workers"}]}`,
				".terraform/modules/workers/main.tf": `variable "queue_name" {}

resource "aws_autoscaling_group" "this" {
  max_size = 10
  min_size = 1
}

resource "aws_autoscaling_policy" "out" {
  autoscaling_group_name = aws_autoscaling_group.this.name
  policy_type            = "SimpleScaling"
  scaling_adjustment     = 1
}

resource "aws_cloudwatch_metric_alarm" "depth" {
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  comparison_operator = "GreaterThanThreshold"
  threshold           = 500
  dimensions          = { QueueName = var.queue_name }
  alarm_actions       = [aws_autoscaling_policy.out.arn]
}
`,
			},
			issues: []issue{{
				Message: "every scale-out trigger of module.workers.aws_autoscaling_group.this reads only the absolute depth of its queue: module.workers.aws_cloudwatch_metric_alarm.depth (ApproximateNumberOfMessagesVisible > 500). A depth of 500 messages is 500 / 50 = 10 s of arrivals whether the backlog is growing or draining" + depthFix,
				// Inside an installed remote module: reported at the call
				// that brings it in, the place a pull request can change.
				File:  "main.tf",
				Start: at(6, 1), End: at(6, 17),
				Facts: facts("triggers", 1, "threshold", 500, "arrival_rate", 50, "threshold_seconds_of_arrivals", 10, "min_consumers", 1),
			}},
		},
		{
			name: "remote module not installed is skipped",
			files: map[string]string{"main.tf": `resource "aws_sqs_queue" "orders" {
  name = "orders"
}

module "workers" {
  source     = "app.terraform.io/acme/workers/aws"
  queue_name = aws_sqs_queue.orders.name
}
`},
			skips: []skip{{Reason: `module.workers (source "app.terraform.io/acme/workers/aws") is not installed, so nothing it declares was checked: run terraform init (the linter reads .terraform/modules/modules.json), or lint a plan`, Line: 5}},
		},
	})
}

// ladderScaled is a queue and an ECS service whose scaling target has the
// given minimum and maximum capacity, scaled out by a step policy of the
// given adjustment type and steps (from step), driven by an alarm on the
// queue's visible messages at or above threshold (line 18).
func ladderScaled(minCapacity, maxCapacity, adjustmentType, threshold string, steps ...string) string {
	return fmt.Sprintf(`resource "aws_sqs_queue" "jobs" {
  name = "jobs"
}

resource "aws_ecs_service" "worker" {
  name    = "worker"
  cluster = "main"
}

resource "aws_appautoscaling_target" "worker" {
  service_namespace  = "ecs"
  scalable_dimension = "ecs:service:DesiredCount"
  resource_id        = "service/main/worker"
  min_capacity       = %s
  max_capacity       = %s
}

resource "aws_cloudwatch_metric_alarm" "depth" {
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  statistic           = "Maximum"
  comparison_operator = "GreaterThanOrEqualToThreshold"
  threshold           = %s
  evaluation_periods  = 1
  period              = 60
  dimensions          = { QueueName = aws_sqs_queue.jobs.name }
  alarm_actions       = [aws_appautoscaling_policy.up.arn]
}

resource "aws_appautoscaling_policy" "up" {
  name               = "up"
  service_namespace  = aws_appautoscaling_target.worker.service_namespace
  scalable_dimension = aws_appautoscaling_target.worker.scalable_dimension
  resource_id        = aws_appautoscaling_target.worker.resource_id
  step_scaling_policy_configuration {
    adjustment_type = %s
%s  }
}
`, minCapacity, maxCapacity, threshold, adjustmentType, strings.Join(steps, ""))
}

// step is a step_adjustment block; "" leaves a bound open.
func step(lower, upper, adjustment string) string {
	var b strings.Builder
	b.WriteString("    step_adjustment {\n")
	if lower != "" {
		b.WriteString("      metric_interval_lower_bound = " + lower + "\n")
	}
	if upper != "" {
		b.WriteString("      metric_interval_upper_bound = " + upper + "\n")
	}
	b.WriteString("      scaling_adjustment          = " + adjustment + "\n    }\n")
	return b.String()
}

func TestDepthOnlyScalingSteps(t *testing.T) {
	// From the alarm's threshold of 1: 1-20 messages → 1 task, 21-40 → 2,
	// 41 on → 3, one task per 20 messages.
	perTwenty := []string{step("0", "20", "1"), step("20", "40", "2"), step("40", "", "3")}
	depthAlarm := "aws_cloudwatch_metric_alarm.depth (ApproximateNumberOfMessagesVisible ≥ 1"
	lead := "every scale-out trigger of aws_ecs_service.worker reads only the absolute depth of its queue: "
	perTask := ": scale on backlog per consumer (ApproximateNumberOfMessagesVisible / RunningTaskCount), the age of the oldest message (ApproximateAgeOfOldestMessage) or the depth's RATE() instead"
	fromZero := fromZeroFix("with min_capacity 0 it can reach 0 consumers", "RunningTaskCount")
	at18 := func(msg string, kv ...any) []issue {
		return []issue{{Message: msg, Start: at(18, 1), End: at(18, 47), Facts: facts(kv...)}}
	}
	runRuleCases(t, "queuecap_depth_only_scaling", []ruleCase{
		{
			// The ladder is what target tracking on 20 messages per task
			// would do, from 0 tasks up to max_capacity.
			name:  "an ExactCapacity ladder proportional to depth up to max_capacity",
			files: map[string]string{"main.tf": ladderScaled("0", "3", `"ExactCapacity"`, "1", perTwenty...)},
		},
		{
			name:  "a generated ladder, one task per 10 messages",
			files: map[string]string{"main.tf": ladderScaled("0", "5", `"ExactCapacity"`, "1", step("0", "11", "1"), step("11", "21", "2"), step("21", "31", "3"), step("31", "41", "4"), step("41", "", "5"))},
		},
		{
			// Beyond 41 messages, 3 tasks whether 41 or 41,000 wait.
			name:  "an ExactCapacity ladder proportional to depth that stops below max_capacity",
			files: map[string]string{"main.tf": ladderScaled("1", "10", `"ExactCapacity"`, "1", perTwenty...)},
			issues: at18(lead+depthAlarm+", ExactCapacity steps proportional to depth that stop at 3 consumers from 41 messages on, below max_capacity 10)"+
				": continue the steps of aws_appautoscaling_policy.up in proportion to depth up to max_capacity 10",
				"triggers", 1, "ladder_top_depth", 41, "ladder_top_consumers", 3, "max_consumers", 10, "threshold", 1),
		},
		{
			name:  "a single ExactCapacity step",
			files: map[string]string{"main.tf": ladderScaled("0", "5", `"ExactCapacity"`, "1", step("0", "", "5"))},
			issues: at18(lead+depthAlarm+", ExactCapacity steps not proportional to depth)"+fromZero,
				"triggers", 1, "threshold", 1, "min_consumers", 0),
		},
		{
			// 1 task up to 11 messages, then all 5.
			name:  "two ExactCapacity levels",
			files: map[string]string{"main.tf": ladderScaled("0", "5", `"ExactCapacity"`, "1", step("0", "10", "1"), step("10", "", "5"))},
			issues: at18(lead+depthAlarm+", ExactCapacity steps not proportional to depth)"+fromZero,
				"triggers", 1, "threshold", 1, "min_consumers", 0),
		},
		{
			// The same bounds adding 1, 2 or 3 tasks: the step grows with
			// the breach, not with the fleet's size against the backlog.
			name:   "a ChangeInCapacity ladder",
			files:  map[string]string{"main.tf": ladderScaled("0", "3", `"ChangeInCapacity"`, "1", perTwenty...)},
			issues: at18(lead+depthAlarm+")"+fromZero, "triggers", 1, "threshold", 1, "min_consumers", 0),
		},
		{
			name:   "a PercentChangeInCapacity step",
			files:  map[string]string{"main.tf": ladderScaled("2", "10", `"PercentChangeInCapacity"`, "1", step("0", "", "50"))},
			issues: at18(lead+depthAlarm+")"+perTask, "triggers", 1, "threshold", 1, "min_consumers", 2),
		},
		{
			name: "min_capacity not known before apply",
			files: map[string]string{"main.tf": ladderScaled("var.min", "3", `"ChangeInCapacity"`, "1", step("0", "", "1")) + `
variable "min" {
  type = number
}
`},
			issues: at18(lead+depthAlarm+")"+fromZeroFix("with min_capacity not known before apply it may reach 0 consumers", "RunningTaskCount"),
				"triggers", 1, "threshold", 1),
		},
		{
			name: "adjustment type not known before apply",
			files: map[string]string{"main.tf": ladderScaled("0", "3", "var.adjustment", "1", perTwenty...) + `
variable "adjustment" {
  type = string
}
`},
			skips: []skip{{Reason: "the adjustment type of aws_appautoscaling_policy.up is not known before apply", Line: 18}},
		},
		{
			name: "threshold of an ExactCapacity ladder not known before apply",
			files: map[string]string{"main.tf": ladderScaled("0", "3", `"ExactCapacity"`, "var.threshold", perTwenty...) + `
variable "threshold" {
  type = number
}
`},
			skips: []skip{{Reason: "the threshold of aws_cloudwatch_metric_alarm.depth, which places the ExactCapacity steps of aws_appautoscaling_policy.up, is not known before apply", Line: 18}},
		},
		{
			name: "an ExactCapacity step not known before apply",
			files: map[string]string{"main.tf": ladderScaled("0", "3", `"ExactCapacity"`, "1", step("0", "20", "1"), step("20", "", "var.top")) + `
variable "top" {
  type = number
}
`},
			skips: []skip{{Reason: "the step adjustments of aws_appautoscaling_policy.up are not known before apply", Line: 18}},
		},
		{
			name: "max_capacity of an ExactCapacity ladder not known before apply",
			files: map[string]string{"main.tf": ladderScaled("0", "var.max", `"ExactCapacity"`, "1", perTwenty...) + `
variable "max" {
  type = number
}
`},
			skips: []skip{{Reason: "max_capacity of aws_ecs_service.worker, which the ExactCapacity steps of aws_appautoscaling_policy.up should reach, is not known before apply", Line: 18}},
		},
		{
			// range(1, var.max_tasks + 1): the loader does not expand
			// dynamic blocks, so it cannot see the ladder.
			name: "ExactCapacity steps from a dynamic block",
			files: map[string]string{"main.tf": ladderScaled("0", "var.max_tasks", `"ExactCapacity"`, "1", `    dynamic "step_adjustment" {
      for_each = range(1, var.max_tasks + 1)
      content {
        metric_interval_lower_bound = (step_adjustment.value - 1) * 10
        metric_interval_upper_bound = step_adjustment.value == var.max_tasks ? null : step_adjustment.value * 10
        scaling_adjustment          = step_adjustment.value
      }
    }
`) + `
variable "max_tasks" {
  default = 5
}
`},
			skips: []skip{{Reason: "the step adjustments of aws_appautoscaling_policy.up come from a dynamic block, which queuecap lint does not expand", Line: 18}},
		},
		{
			name:  "an auto scaling group of minimum 0",
			files: map[string]string{"main.tf": strings.Replace(stepScaled(simpleAlarm("depth_high", `"ApproximateNumberOfMessagesVisible"`, "GreaterThanThreshold", "1000")), "min_size = 1", "min_size = 0", 1)},
			issues: []issue{{
				Message: "every scale-out trigger of aws_autoscaling_group.workers reads only the absolute depth of its queue: aws_cloudwatch_metric_alarm.depth_high (ApproximateNumberOfMessagesVisible > 1,000). A depth of 1,000 messages is 1,000 / 50 = 20 s of arrivals whether the backlog is growing or draining" +
					fromZeroFix("with min_size 0 it can reach 0 consumers", "GroupInServiceInstances"),
				Start: at(23, 1), End: at(23, 52),
				Facts: facts("triggers", 1, "threshold", 1000, "arrival_rate", 50, "threshold_seconds_of_arrivals", 20, "min_consumers", 0),
			}},
		},
		{
			// The advice followed: the depth step stays, an alarm starts
			// the first instance while none runs.
			name: "a fleet of minimum 0 with an alarm that starts the first instance",
			files: map[string]string{"main.tf": strings.Replace(stepScaled(simpleAlarm("depth_high", `"ApproximateNumberOfMessagesVisible"`, "GreaterThanThreshold", "1000")), "min_size = 1", "min_size = 0", 1) + `
resource "aws_cloudwatch_metric_alarm" "none_running" {
  comparison_operator = "GreaterThanOrEqualToThreshold"
  evaluation_periods  = 1
  threshold           = 1
  alarm_actions       = [aws_autoscaling_policy.scale_out.arn]

  metric_query {
    id          = "waiting_with_none_running"
    expression  = "IF(FILL(in_service, 0) == 0 AND visible > 0, 1, 0)"
    return_data = true
  }
  metric_query {
    id = "visible"
    metric {
      namespace   = "AWS/SQS"
      metric_name = "ApproximateNumberOfMessagesVisible"
      period      = 60
      stat        = "Maximum"
      dimensions  = { QueueName = aws_sqs_queue.orders.name }
    }
  }
  metric_query {
    id = "in_service"
    metric {
      namespace   = "AWS/AutoScaling"
      metric_name = "GroupInServiceInstances"
      period      = 60
      stat        = "Minimum"
      dimensions  = { AutoScalingGroupName = aws_autoscaling_group.workers.name }
    }
  }
}
`},
		},
	})
}
