resource "aws_autoscaling_group" "workers" {
  name                = "orders-workers"
  min_size            = 1
  max_size            = 8
  desired_capacity    = 2
  vpc_zone_identifier = ["subnet-0a1b2c3d"]

  launch_template {
    id      = "lt-0123456789abcdef0"
    version = "$Latest"
  }

  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = "50"
    propagate_at_launch = false
  }
}

resource "aws_autoscaling_policy" "backlog" {
  name                   = "orders-backlog-per-instance"
  autoscaling_group_name = aws_autoscaling_group.workers.name
  policy_type            = "TargetTrackingScaling"

  target_tracking_configuration {
    target_value = 100

    customized_metric_specification {
      metric_name = "ApproximateNumberOfMessagesVisible"
      namespace   = "AWS/SQS"
      statistic   = "Average"

      metric_dimension {
        name  = "QueueName"
        value = aws_sqs_queue.orders.name
      }
    }
  }
}

resource "aws_ecs_service" "consumer" {
  name            = "orders-consumer"
  cluster         = "orders"
  task_definition = "orders-consumer:1"
  desired_count   = 2
}

resource "aws_appautoscaling_target" "consumer" {
  service_namespace  = "ecs"
  resource_id        = "service/orders/${aws_ecs_service.consumer.name}"
  scalable_dimension = "ecs:service:DesiredCount"
  min_capacity       = 1
  max_capacity       = var.max_consumers
}

resource "aws_appautoscaling_policy" "consumer" {
  name               = "orders-backlog"
  policy_type        = "TargetTrackingScaling"
  service_namespace  = aws_appautoscaling_target.consumer.service_namespace
  resource_id        = aws_appautoscaling_target.consumer.resource_id
  scalable_dimension = aws_appautoscaling_target.consumer.scalable_dimension

  target_tracking_scaling_policy_configuration {
    target_value = 100

    customized_metric_specification {
      metric_name = "ApproximateNumberOfMessagesVisible"
      namespace   = "AWS/SQS"
      statistic   = "Average"

      dimensions {
        name  = "QueueName"
        value = aws_sqs_queue.orders.name
      }
    }
  }
}
