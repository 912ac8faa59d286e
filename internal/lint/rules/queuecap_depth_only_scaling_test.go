package rules_test

import (
	"fmt"
	"strings"
	"testing"
)

// stepScaled is a queue, an auto scaling group and a step policy driven by
// the alarm given (lines 22 on), plus any extra resources.
func stepScaled(alarm string) string {
	return `resource "aws_sqs_queue" "orders" {
  name = "orders"
  tags = { "queuecap:arrival_rate" = 50 }
}

resource "aws_autoscaling_group" "workers" {
  name     = "workers"
  max_size = 10
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

func TestDepthOnlyScaling(t *testing.T) {
	depthAlarm := simpleAlarm("depth_high", `"ApproximateNumberOfMessagesVisible"`, "GreaterThanThreshold", "1000")
	flagged := issue{
		Message: "every scale-out trigger of aws_autoscaling_group.workers reads only the absolute depth of its queue: aws_cloudwatch_metric_alarm.depth_high (ApproximateNumberOfMessagesVisible > 1000). A depth of 1000 messages is 1000 / 50 = 20 s of arrivals whether the backlog is growing or draining" + depthFix,
		Start:   at(22, 1), End: at(22, 52),
		Facts: facts("triggers", 1, "threshold", 1000, "arrival_rate", 50, "threshold_seconds_of_arrivals", 20),
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
			issues: []issue{{
				Message: "every scale-out trigger of aws_autoscaling_group.workers reads only the absolute depth of its queue: aws_cloudwatch_metric_alarm.backlog (ApproximateNumberOfMessagesVisible, ApproximateNumberOfMessagesNotVisible ≥ 100). A depth of 100 messages is 100 / 50 = 2 s of arrivals whether the backlog is growing or draining" + depthFix,
				Start:   at(22, 1), End: at(22, 49),
				Facts: facts("triggers", 1, "threshold", 100, "arrival_rate", 50, "threshold_seconds_of_arrivals", 2),
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
			issues: []issue{{
				Message: "every scale-out trigger of aws_autoscaling_group.workers reads only the absolute depth of its queue: aws_cloudwatch_metric_alarm.backlog (ApproximateNumberOfMessagesVisible ≥ 100). A depth of 100 messages is 100 / 50 = 2 s of arrivals whether the backlog is growing or draining" + depthFix,
				Start:   at(22, 1), End: at(22, 49),
				Facts: facts("triggers", 1, "threshold", 100, "arrival_rate", 50, "threshold_seconds_of_arrivals", 2),
			}},
		},
		{
			name:  "rate of change of depth",
			files: map[string]string{"main.tf": stepScaled(mathAlarm("RATE(m1) + m2", "AWS/SQS", "ApproximateNumberOfMessagesNotVisible", "{ QueueName = aws_sqs_queue.orders.name }"))},
		},
		{
			name:  "alarm metric unknown before apply",
			files: map[string]string{"main.tf": stepScaled(simpleAlarm("depth_high", "var.metric", "GreaterThanThreshold", "1000")) + "\nvariable \"metric\" {\n  type = string\n}\n"},
			skips: []skip{{Reason: "the metric aws_cloudwatch_metric_alarm.depth_high reads is not known before apply", Line: 22}},
		},
		{
			name:  "policy type unknown before apply",
			files: map[string]string{"main.tf": strings.Replace(stepScaled(depthAlarm), `"StepScaling"`, "var.policy_type", 1) + "\nvariable \"policy_type\" {}\n"},
			skips: []skip{{Reason: "the policy type of aws_autoscaling_policy.scale_out is not known before apply or not one the rule judges", Line: 11}},
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
			issues: []issue{{
				Message: "every scale-out trigger of aws_autoscaling_group.workers reads only the absolute depth of its queue: aws_autoscaling_policy.depth (target tracking on ApproximateNumberOfMessagesVisible)" + depthFix,
				Start:   at(10, 1), End: at(10, 42),
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
				Message: "every scale-out trigger of aws_ecs_service.worker reads only the absolute depth of its queue: aws_cloudwatch_metric_alarm.high (ApproximateNumberOfMessagesVisible ≥ 1): scale on backlog per consumer (ApproximateNumberOfMessagesVisible / RunningTaskCount), the age of the oldest message (ApproximateAgeOfOldestMessage) or the depth's RATE() instead",
				Start:   at(46, 1), End: at(46, 46),
				Facts: facts("triggers", 1, "threshold", 1),
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
				Start:   at(19, 1), End: at(19, 47),
				Facts: facts("triggers", 1, "threshold", 500, "arrival_rate", 50, "threshold_seconds_of_arrivals", 10),
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
				Facts: facts("triggers", 1, "threshold", 500, "arrival_rate", 50, "threshold_seconds_of_arrivals", 10),
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
