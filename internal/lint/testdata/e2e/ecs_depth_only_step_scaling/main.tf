# A Fargate worker scaled the way many SQS examples do it: +1 task when the
# queue is non-empty, -1 when it is empty. Rates cannot be tagged on this
# account's queues, so they are declared in .queuecap.hcl.

resource "aws_sqs_queue" "transformer_dlq" {
  name = "transformer-dlq"
}

resource "aws_sqs_queue" "transformer" {
  name                       = "transformer"
  visibility_timeout_seconds = 600
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.transformer_dlq.arn
    maxReceiveCount     = 4
  })
}

resource "aws_ecs_service" "transformer" {
  name          = "transformer"
  cluster       = "pipeline"
  desired_count = 0
  launch_type   = "FARGATE"
}

resource "aws_appautoscaling_target" "transformer" {
  service_namespace  = "ecs"
  scalable_dimension = "ecs:service:DesiredCount"
  resource_id        = "service/pipeline/${aws_ecs_service.transformer.name}"
  min_capacity       = 0
  max_capacity       = 3
}

resource "aws_appautoscaling_policy" "scale_up" {
  name               = "transformer-scale-up"
  policy_type        = "StepScaling"
  resource_id        = aws_appautoscaling_target.transformer.resource_id
  scalable_dimension = aws_appautoscaling_target.transformer.scalable_dimension
  service_namespace  = aws_appautoscaling_target.transformer.service_namespace

  step_scaling_policy_configuration {
    adjustment_type         = "ChangeInCapacity"
    cooldown                = 60
    metric_aggregation_type = "Maximum"
    step_adjustment {
      metric_interval_lower_bound = 0
      scaling_adjustment          = 1
    }
  }
}

resource "aws_appautoscaling_policy" "scale_down" {
  name               = "transformer-scale-down"
  policy_type        = "StepScaling"
  resource_id        = aws_appautoscaling_target.transformer.resource_id
  scalable_dimension = aws_appautoscaling_target.transformer.scalable_dimension
  service_namespace  = aws_appautoscaling_target.transformer.service_namespace

  step_scaling_policy_configuration {
    adjustment_type         = "ChangeInCapacity"
    cooldown                = 60
    metric_aggregation_type = "Maximum"
    step_adjustment {
      metric_interval_upper_bound = 0
      scaling_adjustment          = -1
    }
  }
}

resource "aws_cloudwatch_metric_alarm" "queue_high" {
  alarm_name          = "transformer-queue-high"
  comparison_operator = "GreaterThanOrEqualToThreshold"
  evaluation_periods  = 1
  metric_name         = "ApproximateNumberOfMessagesVisible"
  namespace           = "AWS/SQS"
  period              = 60
  statistic           = "Sum"
  threshold           = 1
  dimensions = {
    QueueName = aws_sqs_queue.transformer.name
  }
  alarm_actions = [aws_appautoscaling_policy.scale_up.arn]
}

resource "aws_cloudwatch_metric_alarm" "queue_low" {
  alarm_name          = "transformer-queue-low"
  comparison_operator = "LessThanThreshold"
  evaluation_periods  = 5
  threshold           = 1
  alarm_actions       = [aws_appautoscaling_policy.scale_down.arn]

  metric_query {
    id          = "e1"
    expression  = "visible + in_flight"
    return_data = true
  }
  metric_query {
    id = "visible"
    metric {
      namespace   = "AWS/SQS"
      metric_name = "ApproximateNumberOfMessagesVisible"
      period      = 60
      stat        = "Sum"
      dimensions  = { QueueName = aws_sqs_queue.transformer.name }
    }
  }
  metric_query {
    id = "in_flight"
    metric {
      namespace   = "AWS/SQS"
      metric_name = "ApproximateNumberOfMessagesNotVisible"
      period      = 60
      stat        = "Sum"
      dimensions  = { QueueName = aws_sqs_queue.transformer.name }
    }
  }
}

resource "aws_cloudwatch_metric_alarm" "dlq_not_empty" {
  alarm_name          = "transformer-dlq-not-empty"
  comparison_operator = "GreaterThanThreshold"
  evaluation_periods  = 1
  metric_name         = "ApproximateNumberOfMessagesVisible"
  namespace           = "AWS/SQS"
  period              = 60
  statistic           = "Average"
  threshold           = 0
  dimensions          = { QueueName = aws_sqs_queue.transformer_dlq.name }
  alarm_actions       = ["arn:aws:sns:eu-west-1:123456789012:pipeline-alerts"]
}
