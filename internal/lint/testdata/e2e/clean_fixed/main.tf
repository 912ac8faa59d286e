# The fixed twin of asg_zero_surplus: sized with the headroom formula and
# the 60 s its age alarm takes to scale it out (1 × 60 s: the provisioning
# lag, during which min_size alone drains), scaled on age, with a
# dead-letter queue and a depth alarm at the SLA line. One value is only
# known at apply time.

variable "environment" {
  type = string
}

data "queuecap_consumers" "orders" {
  arrival_rate      = 10000
  per_consumer_rate = 400
  max_backlog       = 5000000
  rto_seconds       = 1800

  provisioning_lag_seconds = 60
}

data "queuecap_sla_depth" "orders" {
  arrival_rate = 10000
  sla_seconds  = 10
}

resource "aws_sqs_queue" "orders_dlq" {
  name                      = "orders-dlq-${var.environment}"
  message_retention_seconds = 1209600
}

resource "aws_sqs_queue" "orders" {
  name                       = "orders-${var.environment}"
  visibility_timeout_seconds = 120
  message_retention_seconds  = 345600
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.orders_dlq.arn
    maxReceiveCount     = 5
  })
  tags = {
    "queuecap:sla_seconds" = 10
  }
}

resource "aws_autoscaling_group" "workers" {
  name     = "orders-workers-${var.environment}"
  min_size = data.queuecap_consumers.orders.steady_state_consumers
  max_size = data.queuecap_consumers.orders.required_consumers

  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
}

resource "aws_autoscaling_policy" "age" {
  name                   = "orders-age"
  autoscaling_group_name = aws_autoscaling_group.workers.name
  policy_type            = "StepScaling"
  step_adjustment {
    metric_interval_lower_bound = 0
    scaling_adjustment          = 4
  }
}

resource "aws_cloudwatch_metric_alarm" "age" {
  alarm_name          = "orders-age"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateAgeOfOldestMessage"
  statistic           = "Maximum"
  comparison_operator = "GreaterThanThreshold"
  threshold           = 5
  evaluation_periods  = 1
  period              = 60
  dimensions          = { QueueName = aws_sqs_queue.orders.name }
  alarm_actions       = [aws_autoscaling_policy.age.arn]
}

resource "aws_cloudwatch_metric_alarm" "depth" {
  alarm_name          = "orders-depth-at-sla"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  statistic           = "Maximum"
  comparison_operator = "GreaterThanThreshold"
  threshold           = data.queuecap_sla_depth.orders.max_depth
  evaluation_periods  = 1
  period              = 60
  dimensions          = { QueueName = aws_sqs_queue.orders.name }
  alarm_actions       = ["arn:aws:sns:eu-west-1:123456789012:oncall"]
}

resource "aws_cloudwatch_metric_alarm" "batch_depth" {
  alarm_name          = "batch-depth"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  comparison_operator = "GreaterThanThreshold"
  threshold           = var.batch_threshold
  dimensions          = { QueueName = aws_sqs_queue.batch.name }
}

variable "batch_threshold" {
  type = number
}

resource "aws_sqs_queue" "batch" {
  name = "batch"
  tags = {
    "queuecap:arrival_rate" = 50
    "queuecap:sla_seconds"  = 600
  }
}
