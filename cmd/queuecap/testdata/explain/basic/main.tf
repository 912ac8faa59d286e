# A queue with a dead-letter queue, consumed by an Auto Scaling group that a
# depth alarm scales out, and a Lambda mapping whose function is not here.

resource "aws_sqs_queue" "orders_dlq" {
  name = "orders-dlq"
}

resource "aws_sqs_queue" "orders" {
  name = "orders"
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.orders_dlq.arn
    maxReceiveCount     = 5
  })

  tags = {
    "queuecap:arrival_rate" = 200
    "queuecap:max_backlog"  = 60000
  }
}

resource "aws_autoscaling_group" "workers" {
  name     = "order-workers"
  min_size = 2
  max_size = 12

  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = 25
    propagate_at_launch = false
  }
}

resource "aws_autoscaling_policy" "scale_out" {
  name                   = "orders-scale-out"
  autoscaling_group_name = aws_autoscaling_group.workers.name
  policy_type            = "StepScaling"
  adjustment_type        = "ChangeInCapacity"

  step_adjustment {
    metric_interval_lower_bound = 0
    scaling_adjustment          = 2
  }
}

resource "aws_cloudwatch_metric_alarm" "backlog" {
  alarm_name          = "orders-backlog"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  statistic           = "Maximum"
  period              = 60
  evaluation_periods  = 2
  comparison_operator = "GreaterThanThreshold"
  threshold           = 1000
  dimensions          = { QueueName = aws_sqs_queue.orders.name }
  alarm_actions       = [aws_autoscaling_policy.scale_out.arn]
}

resource "aws_lambda_event_source_mapping" "audit" {
  event_source_arn = aws_sqs_queue.orders.arn
  function_name    = "orders-audit"
}

variable "report_workers" {
  type = number
}

resource "aws_autoscaling_group" "reports" {
  name     = "reports"
  min_size = 0
  max_size = var.report_workers
}
