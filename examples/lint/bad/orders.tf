# orders: the checkout service sends every order here; an EC2 Auto Scaling
# group of workers consumes it. Its rates are the arguments of the
# queuecap_consumers data source that sizes the group (max_size), plus an
# SLA declared as a tag on the queue.

data "queuecap_consumers" "order_workers" {
  arrival_rate      = 500     # orders/s at the evening peak
  per_consumer_rate = 25      # orders/s one c7g.large worker completes
  max_backlog       = 1800000 # one hour of outage at the peak: 500 × 3600
  rto_seconds       = 7200    # that backlog must be gone within two hours

  # The scale-out alarm below needs 2 breaching minutes: the 20 steady-state
  # workers hold the backlog alone until then, and 31 clear the rest in the
  # 7,080 s left.
  provisioning_lag_seconds = 120
}

resource "aws_sqs_queue" "orders_dlq" {
  name                      = "orders-dlq"
  message_retention_seconds = 1209600
}

resource "aws_sqs_queue" "orders" {
  name                       = "orders"
  visibility_timeout_seconds = 120
  # BAD (queuecap_retention_shorter_than_drain): the worst backlog takes
  # 1,800,000 / (775 − 500) = 6,545.45 s to drain; orders expire after
  # 3,600 s.
  message_retention_seconds = 3600
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.orders_dlq.arn
    maxReceiveCount     = 5
  })

  tags = {
    team                   = "checkout"
    "queuecap:sla_seconds" = 120
    # BAD (queuecap_metastable_retry_storm): the checkout service sends an
    # order again when it is not confirmed within 30 s. The 31 workers drain
    # the worst backlog in 6,545.45 s when nobody retries, but every order
    # waiting over 30 s comes back: 500 × (1 + 1) = 1,000 orders/s against
    # 775 completed, and the backlog never drains.
    "queuecap:retries_per_timeout"    = 1
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

  # BAD (queuecap_surplus_during_deploy): a new launch template version
  # refreshes the group at AWS's default 90 % healthy: ceil(31 × 90 %) = 28
  # workers, 700 orders/s, clear the worst backlog in 1,800,000 / (700 − 500)
  # = 9,000 s, over the 7,200 s allowed.
  instance_refresh {
    strategy = "Rolling"
  }

  lifecycle {
    ignore_changes = [desired_capacity]
  }
}

# BAD (queuecap_depth_only_scaling): the only scale-out signal is the raw
# depth of the queue. 5,000 messages is 10 s of arrivals whether the workers
# are catching up or falling further behind.
resource "aws_autoscaling_policy" "order_workers_scale_out" {
  name                   = "order-workers-scale-out"
  autoscaling_group_name = aws_autoscaling_group.order_workers.name
  policy_type            = "StepScaling"
  adjustment_type        = "ChangeInCapacity"

  step_adjustment {
    metric_interval_lower_bound = 0
    scaling_adjustment          = 5
  }
}

resource "aws_autoscaling_policy" "order_workers_scale_in" {
  name                   = "order-workers-scale-in"
  autoscaling_group_name = aws_autoscaling_group.order_workers.name
  policy_type            = "StepScaling"
  adjustment_type        = "ChangeInCapacity"

  step_adjustment {
    metric_interval_upper_bound = 0
    scaling_adjustment          = -2
  }
}

resource "aws_cloudwatch_metric_alarm" "orders_depth_high" {
  alarm_name          = "orders-depth-high"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  dimensions          = { QueueName = aws_sqs_queue.orders.name }
  statistic           = "Maximum"
  period              = 60
  evaluation_periods  = 2
  comparison_operator = "GreaterThanThreshold"
  threshold           = 5000
  alarm_actions       = [aws_autoscaling_policy.order_workers_scale_out.arn]
}

resource "aws_cloudwatch_metric_alarm" "orders_depth_low" {
  alarm_name          = "orders-depth-low"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  dimensions          = { QueueName = aws_sqs_queue.orders.name }
  statistic           = "Maximum"
  period              = 300
  evaluation_periods  = 3
  comparison_operator = "LessThanThreshold"
  threshold           = 100
  alarm_actions       = [aws_autoscaling_policy.order_workers_scale_in.arn]
}

# BAD (queuecap_depth_alarm_after_sla): 500 orders/s × 120 s = 60,000
# messages already breaches the SLA; at 100,000 an order waits 200 s.
resource "aws_cloudwatch_metric_alarm" "orders_backlog_page" {
  alarm_name          = "orders-backlog-page"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  dimensions          = { QueueName = aws_sqs_queue.orders.name }
  statistic           = "Maximum"
  period              = 60
  evaluation_periods  = 3
  comparison_operator = "GreaterThanThreshold"
  threshold           = 100000
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
