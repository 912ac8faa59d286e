# The provisioning lag of step policies and of an ECS service, read from
# the plan (queuecap_insufficient_headroom): each queue's worst backlog of
# 1,800,000 is due in 7,200 s, and 30 consumers of 25 msg/s clear it in
# exactly 7,200 s over 500 msg/s of arrivals, so any lag makes it late.
#
# The group's step policy scales out only once its alarm is in ALARM:
# 3 breaching datapoints of a period known only through terraform.tfvars
# (60 s), 180 s during which min_size 20 drains nothing. Its warmup, grace
# period and warm pool are read, and add nothing to the lag.
#
# The ECS service's step policy: datapoints_to_alarm 3 of 5, each of 30 s,
# 90 s during which min_capacity 20 drains nothing.

variable "period" {
  type = number
}

resource "aws_sqs_queue" "dlq" {
  name                      = "dlq"
  message_retention_seconds = 1209600
}

resource "aws_sqs_queue" "orders" {
  name           = "orders"
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.dlq.arn, maxReceiveCount = 5 })
  tags = {
    "queuecap:arrival_rate" = "500"
    "queuecap:max_backlog"  = "1800000"
    "queuecap:rto_seconds"  = "7200"
  }
}

resource "aws_autoscaling_group" "orders" {
  name                      = "orders"
  min_size                  = 20
  max_size                  = 30
  default_instance_warmup   = 300
  health_check_grace_period = 120

  warm_pool {
    pool_state = "Hibernated"
    min_size   = 2
  }

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

resource "aws_autoscaling_policy" "orders_out" {
  name                   = "orders-out"
  autoscaling_group_name = aws_autoscaling_group.orders.name
  policy_type            = "StepScaling"
  adjustment_type        = "ChangeInCapacity"
  step_adjustment {
    scaling_adjustment          = 5
    metric_interval_lower_bound = 0
  }
}

resource "aws_cloudwatch_metric_alarm" "orders_deep" {
  alarm_name          = "orders-deep"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateAgeOfOldestMessage"
  dimensions          = { QueueName = aws_sqs_queue.orders.name }
  statistic           = "Maximum"
  comparison_operator = "GreaterThanThreshold"
  threshold           = 60
  period              = var.period
  evaluation_periods  = 3
  alarm_actions       = [aws_autoscaling_policy.orders_out.arn]
}

resource "aws_sqs_queue" "refunds" {
  name           = "refunds"
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.dlq.arn, maxReceiveCount = 5 })
  tags = {
    "queuecap:arrival_rate" = "500"
    "queuecap:max_backlog"  = "1800000"
    "queuecap:rto_seconds"  = "7200"
  }
}

resource "aws_ecs_service" "refunds" {
  name                              = "refunds"
  cluster                           = "main"
  desired_count                     = 20
  health_check_grace_period_seconds = 60
  tags = {
    "queuecap:per_consumer_rate" = "25"
    "queuecap:queue"             = "aws_sqs_queue.refunds"
  }
}

resource "aws_appautoscaling_target" "refunds" {
  service_namespace  = "ecs"
  scalable_dimension = "ecs:service:DesiredCount"
  resource_id        = "service/main/${aws_ecs_service.refunds.name}"
  min_capacity       = 20
  max_capacity       = 30
}

resource "aws_appautoscaling_policy" "refunds_out" {
  name               = "refunds-out"
  service_namespace  = aws_appautoscaling_target.refunds.service_namespace
  scalable_dimension = aws_appautoscaling_target.refunds.scalable_dimension
  resource_id        = aws_appautoscaling_target.refunds.resource_id
  step_scaling_policy_configuration {
    adjustment_type = "ChangeInCapacity"
    step_adjustment {
      scaling_adjustment          = 5
      metric_interval_lower_bound = 0
    }
  }
}

resource "aws_cloudwatch_metric_alarm" "refunds_deep" {
  alarm_name          = "refunds-deep"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateAgeOfOldestMessage"
  dimensions          = { QueueName = aws_sqs_queue.refunds.name }
  statistic           = "Maximum"
  comparison_operator = "GreaterThanThreshold"
  threshold           = 60
  period              = 30
  evaluation_periods  = 5
  datapoints_to_alarm = 3
  alarm_actions       = [aws_appautoscaling_policy.refunds_out.arn]
}
