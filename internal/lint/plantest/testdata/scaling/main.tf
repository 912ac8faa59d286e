# A queue whose auto scaling group scales out on absolute depth alone, and an
# ECS service sized by an Application Auto Scaling target: the policies, the
# alarm and the target reach their fleets through names and IDs.
resource "aws_sqs_queue" "orders" {
  name                      = "orders"
  message_retention_seconds = 3600
  tags = {
    "queuecap:arrival_rate" = "50"
    "queuecap:max_backlog"  = "500000"
    "queuecap:rto_seconds"  = "600"
  }
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.dlq.arn, maxReceiveCount = 5 })
}

resource "aws_sqs_queue" "dlq" {
  name                      = "orders-dlq"
  message_retention_seconds = 1209600
}

resource "aws_autoscaling_group" "workers" {
  name     = "workers"
  max_size = 10
  min_size = 1

  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = "10"
    propagate_at_launch = false
  }
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

resource "aws_cloudwatch_metric_alarm" "depth" {
  alarm_name          = "orders-depth"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  statistic           = "Sum"
  period              = 60
  evaluation_periods  = 1
  comparison_operator = "GreaterThanThreshold"
  threshold           = 1000
  dimensions = {
    QueueName = aws_sqs_queue.orders.name
  }
  alarm_actions = [aws_autoscaling_policy.scale_out.arn]
}

resource "aws_sqs_queue" "jobs" {
  name = "jobs"
  tags = { "queuecap:arrival_rate" = 1200 }
  redrive_policy = jsonencode({ deadLetterTargetArn = "arn:aws:sqs:us-east-1:123456789012:jobs-dlq", maxReceiveCount = 5 })
}

resource "aws_ecs_service" "worker" {
  name          = "worker"
  cluster       = "main"
  desired_count = 2
}

resource "aws_appautoscaling_target" "worker" {
  service_namespace  = "ecs"
  scalable_dimension = "ecs:service:DesiredCount"
  resource_id        = "service/main/${aws_ecs_service.worker.name}"
  min_capacity       = 1
  max_capacity       = 12
  tags = {
    "queuecap:per_consumer_rate" = "100"
    "queuecap:queue"             = "aws_sqs_queue.jobs"
  }
}
