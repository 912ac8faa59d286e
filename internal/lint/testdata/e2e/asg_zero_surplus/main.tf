# Order workers on EC2, sized to exactly the steady-state load of the
# incident write-up: 25 instances × 400 msg/s against 10,000 msg/s.

resource "aws_sqs_queue" "orders_dlq" {
  name                      = "orders-dlq"
  message_retention_seconds = 1209600
}

resource "aws_sqs_queue" "orders" {
  name                       = "orders"
  visibility_timeout_seconds = 120
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.orders_dlq.arn
    maxReceiveCount     = 5
  })

  tags = {
    team                    = "payments"
    "queuecap:arrival_rate" = "10000"
  }
}

resource "aws_launch_template" "workers" {
  name_prefix   = "orders-"
  image_id      = "ami-0123456789abcdef0"
  instance_type = "c7g.large"
}

resource "aws_autoscaling_group" "workers" {
  name                = "orders-workers"
  min_size            = 5
  max_size            = 25
  vpc_zone_identifier = ["subnet-a", "subnet-b"]

  launch_template {
    id      = aws_launch_template.workers.id
    version = "$Latest"
  }

  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = "400"
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
}

resource "aws_autoscaling_policy" "backlog_per_instance" {
  name                   = "orders-backlog-per-instance"
  autoscaling_group_name = aws_autoscaling_group.workers.name
  policy_type            = "TargetTrackingScaling"

  target_tracking_configuration {
    target_value = 100
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
              value = aws_sqs_queue.orders.name
            }
          }
        }
      }
      metrics {
        id          = "instances"
        return_data = false
        metric_stat {
          stat = "Average"
          metric {
            namespace   = "AWS/AutoScaling"
            metric_name = "GroupInServiceInstances"
            dimensions {
              name  = "AutoScalingGroupName"
              value = aws_autoscaling_group.workers.name
            }
          }
        }
      }
      metrics {
        id          = "backlog_per_instance"
        expression  = "visible / instances"
        return_data = true
      }
    }
  }
}
