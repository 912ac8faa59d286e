# Deployments and predictive scaling, read from the plan
# (queuecap_surplus_during_deploy): an auto scaling group whose instance
# refresh keeps 80 % healthy, from a variable known only through
# terraform.tfvars; an ECS service whose rolling deployment keeps 50 %, and
# its blue/green twin, which keeps every task; a group with a predictive
# policy that may raise it past max_size, whose supply is skipped; and a
# group whose target tracking period bounds its provisioning lag.

variable "min_healthy" {
  type = number
}

resource "aws_sqs_queue" "orders" {
  name           = "orders"
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.dlq.arn, maxReceiveCount = 5 })
  tags = {
    "queuecap:arrival_rate" = "9000"
  }
}

resource "aws_sqs_queue" "dlq" {
  name                      = "dlq"
  message_retention_seconds = 1209600
}

resource "aws_autoscaling_group" "orders" {
  name     = "orders"
  min_size = 1
  max_size = 25

  instance_refresh {
    strategy = "Rolling"
    preferences {
      min_healthy_percentage = var.min_healthy
    }
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

resource "aws_sqs_queue" "payments" {
  name           = "payments"
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.dlq.arn, maxReceiveCount = 5 })
  tags = {
    "queuecap:arrival_rate" = "900"
  }
}

resource "aws_ecs_service" "payments" {
  name                               = "payments"
  cluster                            = "main"
  desired_count                      = 10
  deployment_minimum_healthy_percent = 50
  tags = {
    "queuecap:per_consumer_rate" = "100"
    "queuecap:queue"             = "aws_sqs_queue.payments"
  }
}

resource "aws_sqs_queue" "refunds" {
  name           = "refunds"
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.dlq.arn, maxReceiveCount = 5 })
  tags = {
    "queuecap:arrival_rate" = "900"
  }
}

resource "aws_ecs_service" "refunds" {
  name                               = "refunds"
  cluster                            = "main"
  desired_count                      = 10
  deployment_minimum_healthy_percent = 50
  deployment_configuration {
    strategy = "BLUE_GREEN"
  }
  tags = {
    "queuecap:per_consumer_rate" = "100"
    "queuecap:queue"             = "aws_sqs_queue.refunds"
  }
}

resource "aws_sqs_queue" "reports" {
  name           = "reports"
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.dlq.arn, maxReceiveCount = 5 })
  tags = {
    "queuecap:arrival_rate" = "1000"
  }
}

resource "aws_autoscaling_group" "reports" {
  name     = "reports"
  min_size = 1
  max_size = 10

  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = "100"
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.reports"
    propagate_at_launch = false
  }
}

resource "aws_autoscaling_policy" "reports_forecast" {
  name                   = "reports-forecast"
  autoscaling_group_name = aws_autoscaling_group.reports.name
  policy_type            = "PredictiveScaling"
  predictive_scaling_configuration {
    mode                         = "ForecastAndScale"
    max_capacity_breach_behavior = "IncreaseMaxCapacity"
    max_capacity_buffer          = "10"
    metric_specification {
      target_value = 50
      predefined_metric_pair_specification {
        predefined_metric_type = "ASGCPUUtilization"
      }
    }
  }
}

# The provisioning lag target tracking implies (queuecap_insufficient_headroom):
# a 30 s metric period, from a variable known only through terraform.tfvars,
# before which min_size 20 drains alone: 30 + 1,800,000 / 250 = 7,230 s.
variable "period" {
  type = number
}

resource "aws_sqs_queue" "invoices" {
  name           = "invoices"
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.dlq.arn, maxReceiveCount = 5 })
  tags = {
    "queuecap:arrival_rate" = "500"
    "queuecap:max_backlog"  = "1800000"
    "queuecap:rto_seconds"  = "7200"
  }
}

resource "aws_autoscaling_group" "invoices" {
  name     = "invoices"
  min_size = 20
  max_size = 30

  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = "25"
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.invoices"
    propagate_at_launch = false
  }
}

resource "aws_autoscaling_policy" "invoices_backlog" {
  name                   = "invoices-backlog"
  autoscaling_group_name = aws_autoscaling_group.invoices.name
  policy_type            = "TargetTrackingScaling"
  target_tracking_configuration {
    target_value = 1500
    customized_metric_specification {
      metric_name = "ApproximateNumberOfMessagesVisible"
      namespace   = "AWS/SQS"
      statistic   = "Sum"
      period      = var.period
      metric_dimension {
        name  = "QueueName"
        value = aws_sqs_queue.invoices.name
      }
    }
  }
}
