variable "queue_name" {
  type = string
}

variable "arrival_rate" {
  type = number
}

variable "per_consumer_rate" {
  type = number
}

variable "max_backlog" {
  type = number
}

variable "rto_seconds" {
  type = number
}

variable "spare_instances" {
  type    = number
  default = 0
}

data "queuecap_consumers" "this" {
  arrival_rate      = var.arrival_rate
  per_consumer_rate = var.per_consumer_rate
  max_backlog       = var.max_backlog
  rto_seconds       = var.rto_seconds
}

resource "aws_autoscaling_group" "this" {
  name     = "${var.queue_name}-workers"
  min_size = data.queuecap_consumers.this.steady_state_consumers
  max_size = data.queuecap_consumers.this.required_consumers + var.spare_instances
}

resource "aws_autoscaling_policy" "age" {
  name                   = "${var.queue_name}-age"
  autoscaling_group_name = aws_autoscaling_group.this.name
  policy_type            = "StepScaling"
  adjustment_type        = "ChangeInCapacity"

  step_adjustment {
    metric_interval_lower_bound = 0
    scaling_adjustment          = 4
  }
}

resource "aws_cloudwatch_metric_alarm" "age" {
  alarm_name          = "${var.queue_name}-oldest-message"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateAgeOfOldestMessage"
  statistic           = "Maximum"
  period              = 60
  evaluation_periods  = 2
  comparison_operator = "GreaterThanThreshold"
  threshold           = 120
  dimensions          = { QueueName = var.queue_name }
  alarm_actions       = [aws_autoscaling_policy.age.arn]
}
