# orders: the checkout service sends every order here; an EC2 Auto Scaling
# group of workers consumes it. Its rates are the arguments of the
# queuecap_consumers data source that sizes the group (max_size), plus an
# SLA declared as a tag on the queue.

data "queuecap_consumers" "order_workers" {
  arrival_rate      = 500     # orders/s at the evening peak
  per_consumer_rate = 25      # orders/s one c7g.large worker completes
  max_backlog       = 1800000 # one hour of outage at the peak: 500 × 3600
  rto_seconds       = 7200    # that backlog must be gone within two hours
  # FIXED: the group scales by target tracking, which acts only once its
  # metric has a datapoint, one 60 s period in: the 20 steady-state workers
  # hold the backlog alone until then, and 31 workers clear the rest in
  # the 7,140 s left (30 would take 7,260 s in all).
  provisioning_lag_seconds = 60
}

resource "aws_sqs_queue" "orders_dlq" {
  name                      = "orders-dlq"
  message_retention_seconds = 1209600
}

resource "aws_sqs_queue" "orders" {
  name                       = "orders"
  visibility_timeout_seconds = 120
  # FIXED: a day, well over the 6,545.45 s the worst backlog takes to drain.
  message_retention_seconds = 86400
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.orders_dlq.arn
    maxReceiveCount     = 5
  })

  tags = {
    team                   = "checkout"
    "queuecap:sla_seconds" = 120
    # FIXED: a retry budget in the checkout service (one resend per ten
    # orders not confirmed within 30 s): at most 500 × (1 + 0.1) = 550
    # orders/s arrive against 775 completed, and the worst backlog drains
    # (in 7,994 s of the retry storm simulation, 6,545.45 s without retries).
    "queuecap:retries_per_timeout"    = 0.1
    "queuecap:timeout_window_seconds" = 30
  }
}

resource "aws_launch_template" "order_worker" {
  name_prefix   = "order-worker-"
  image_id      = var.worker_ami_id
  instance_type = "c7g.large"
}

resource "aws_autoscaling_group" "order_workers" {
  name                = "order-workers"
  vpc_zone_identifier = var.subnet_ids
  min_size            = data.queuecap_consumers.order_workers.steady_state_consumers
  max_size            = data.queuecap_consumers.order_workers.required_consumers

  launch_template {
    id      = aws_launch_template.order_worker.id
    version = "$Latest"
  }

  # FIXED: the refresh launches new workers before it terminates old ones
  # (up to 110 %), so the group never drops below its 31 workers.
  instance_refresh {
    strategy = "Rolling"
    preferences {
      min_healthy_percentage = 90
      max_healthy_percentage = 110
    }
  }

  lifecycle {
    ignore_changes = [desired_capacity]
  }
}

# FIXED: track the backlog per instance (AWS's guidance for SQS workers):
# visible messages / in-service instances, held at 60 s of acceptable
# latency × 25 orders/s per worker = 1,500 messages per instance.
resource "aws_autoscaling_policy" "order_workers_backlog_per_instance" {
  name                   = "order-workers-backlog-per-instance"
  autoscaling_group_name = aws_autoscaling_group.order_workers.name
  policy_type            = "TargetTrackingScaling"

  target_tracking_configuration {
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
              value = aws_sqs_queue.orders.name
            }
          }
        }
      }
      metrics {
        id          = "in_service"
        return_data = false
        metric_stat {
          stat = "Average"
          metric {
            namespace   = "AWS/AutoScaling"
            metric_name = "GroupInServiceInstances"
            dimensions {
              name  = "AutoScalingGroupName"
              value = aws_autoscaling_group.order_workers.name
            }
          }
        }
      }
      metrics {
        id          = "backlog_per_instance"
        label       = "orders backlog per instance"
        expression  = "visible / in_service"
        return_data = true
      }
    }
  }
}

# FIXED: pages at the SLA depth, 500 orders/s × 120 s = 60,000 messages.
resource "aws_cloudwatch_metric_alarm" "orders_backlog_page" {
  alarm_name          = "orders-backlog-page"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  dimensions          = { QueueName = aws_sqs_queue.orders.name }
  statistic           = "Maximum"
  period              = 60
  evaluation_periods  = 3
  comparison_operator = "GreaterThanThreshold"
  threshold           = 60000
  alarm_actions       = [aws_sns_topic.alerts.arn]
}

resource "aws_cloudwatch_metric_alarm" "orders_dlq_not_empty" {
  alarm_name          = "orders-dlq-not-empty"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  dimensions          = { QueueName = aws_sqs_queue.orders_dlq.name }
  statistic           = "Maximum"
  period              = 300
  evaluation_periods  = 1
  comparison_operator = "GreaterThanThreshold"
  threshold           = 0
  alarm_actions       = [aws_sns_topic.alerts.arn]
}
