# payments: every order's charge goes through this queue to an ECS service
# scaled by Application Auto Scaling. The queue and the service carry no
# queuecap tags: their rates are declared in examples/lint/queuecap.hcl
# (queue "aws_sqs_queue.payments"), passed with --config.

resource "aws_sqs_queue" "payments_dlq" {
  name                      = "payments-dlq"
  message_retention_seconds = 1209600
}

# BAD (queuecap_missing_dead_letter_queue): payments_dlq exists but nothing
# redrives into it, so a charge that always fails comes back every 60 s.
resource "aws_sqs_queue" "payments" {
  name                       = "payments"
  visibility_timeout_seconds = 60
}

resource "aws_ecs_task_definition" "payments" {
  family                   = "payments"
  requires_compatibilities = ["FARGATE"]
  network_mode             = "awsvpc"
  cpu                      = 512
  memory                   = 1024
  container_definitions = jsonencode([{
    name        = "processor"
    image       = var.payments_image
    essential   = true
    environment = [{ name = "QUEUE_NAME", value = "payments" }]
  }])
}

resource "aws_ecs_service" "payments" {
  name            = "payments"
  cluster         = aws_ecs_cluster.main.id
  task_definition = aws_ecs_task_definition.payments.arn
  desired_count   = 10
  launch_type     = "FARGATE"

  network_configuration {
    subnets = var.subnet_ids
  }

  lifecycle {
    ignore_changes = [desired_count]
  }
}

# BAD (queuecap_zero_surplus): 20 tasks × 50 msg/s = 1,000 msg/s, exactly
# the effective arrival rate 800 × (1 + 0.25 × 1) = 1,000 msg/s.
resource "aws_appautoscaling_target" "payments" {
  service_namespace  = "ecs"
  scalable_dimension = "ecs:service:DesiredCount"
  resource_id        = "service/${aws_ecs_cluster.main.name}/${aws_ecs_service.payments.name}"
  min_capacity       = 10
  max_capacity       = 20
}

# Backlog per task: visible messages / running tasks, tracked at 30 s of
# acceptable latency × 50 msg/s per task = 1,500 messages.
resource "aws_appautoscaling_policy" "payments_backlog_per_task" {
  name               = "payments-backlog-per-task"
  policy_type        = "TargetTrackingScaling"
  service_namespace  = aws_appautoscaling_target.payments.service_namespace
  scalable_dimension = aws_appautoscaling_target.payments.scalable_dimension
  resource_id        = aws_appautoscaling_target.payments.resource_id

  target_tracking_scaling_policy_configuration {
    target_value = 1500

    customized_metric_specification {
      metrics {
        id          = "visible"
        return_data = false
        metric_stat {
          stat = "Sum"
          metric {
            namespace   = "AWS/SQS"
            metric_name = "ApproximateNumberOfMessagesVisible"
            dimensions {
              name  = "QueueName"
              value = aws_sqs_queue.payments.name
            }
          }
        }
      }
      metrics {
        id          = "tasks"
        return_data = false
        metric_stat {
          stat = "Average"
          metric {
            namespace   = "ECS/ContainerInsights"
            metric_name = "RunningTaskCount"
            dimensions {
              name  = "ClusterName"
              value = aws_ecs_cluster.main.name
            }
            dimensions {
              name  = "ServiceName"
              value = aws_ecs_service.payments.name
            }
          }
        }
      }
      metrics {
        id          = "backlog_per_task"
        label       = "payments backlog per task"
        expression  = "visible / tasks"
        return_data = true
      }
    }
  }
}

resource "aws_cloudwatch_metric_alarm" "payments_dlq_not_empty" {
  alarm_name          = "payments-dlq-not-empty"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  dimensions          = { QueueName = aws_sqs_queue.payments_dlq.name }
  statistic           = "Maximum"
  period              = 300
  evaluation_periods  = 1
  comparison_operator = "GreaterThanThreshold"
  threshold           = 0
  alarm_actions       = [aws_sns_topic.alerts.arn]
}
