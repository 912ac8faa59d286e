# An SQS queue, its dead-letter queue, its worker fleet and its alarms,
# every number derived by queuecap from declared rates:
#
#   * capacity_plan sizes the fleet for the worst backlog;
#   * queue_settings gives the retention that outlives draining that
#     backlog (and the redeliveries of a failing message), the visibility
#     timeout from the workers' processing time, the max receive count and
#     a dead-letter retention longer than the queue's;
#   * alarm_plan gives the alarms. The queue's name is read from the queue
#     resource, unknown at plan until the queue exists, yet the alarms'
#     thresholds and keys are known, so for_each plans on the first apply
#     (the queuecap_alarm_thresholds data source would defer its read to
#     apply and for_each over its alarms would fail).
#
# 500 msg/s arrive, a fifth of them are retried twice, a worker completes
# 10 msg/s and takes at most 20 s for one message, messages must wait at
# most 10 s (SLA) and a backlog of 1.8 M (an hour of arrivals) must clear
# within 30 minutes (RTO). Provider functions need Terraform 1.8+ or
# OpenTofu 1.7+. `queuecap lint examples/queue-settings` reports nothing here.

terraform {
  required_version = ">= 1.8"
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 5.0"
    }
    queuecap = {
      source = "queuecap/queuecap"
    }
  }
}

variable "launch_template_id" {
  description = "Launch template of the worker instances."
  type        = string
}

variable "subnet_ids" {
  description = "Subnets of the worker instances."
  type        = list(string)
}

variable "alarm_topic_arn" {
  description = "SNS topic that receives the alarms."
  type        = string
}

locals {
  rates = {
    arrival_rate      = 500
    per_consumer_rate = 10
    retry_rate        = 0.2
    avg_retries       = 2
  }
  sla_seconds = 10
  max_backlog = 1800000
  rto_seconds = 1800

  # 500 × (1 + 0.2 × 2) = 700 msg/s, so 70 workers keep up and
  # ceil(70 + 1,800,000 / (10 × 1,800)) = 170 clear the backlog in time.
  fleet = provider::queuecap::capacity_plan(merge(local.rates, {
    max_backlog = local.max_backlog
    rto_seconds = local.rto_seconds
  }))

  # 170 × 10 − 700 = 1,000 msg/s drain 1.8 M in 1,800 s; 40 s visibility
  # (twice the longest processing), 5 receives: ceil((1,800 + 200) × 1.5)
  # = 3,000 s, raised to SQS's default four days (345,600 s).
  settings = provider::queuecap::queue_settings(merge(local.rates, {
    consumers              = local.fleet.required_consumers
    max_backlog            = local.max_backlog
    max_processing_seconds = 20
  }))

  # Depth alarm at 700 msg/s × 10 s = 7,000 messages.
  alarms = provider::queuecap::alarm_plan(merge(local.rates, {
    sla_seconds            = local.sla_seconds
    rto_seconds            = local.rto_seconds
    queue_name             = aws_sqs_queue.orders.name
    dead_letter_queue_name = aws_sqs_queue.orders_dlq.name
  }))
}

resource "aws_sqs_queue" "orders_dlq" {
  name_prefix               = "orders-dlq-"
  message_retention_seconds = local.settings.dead_letter_message_retention_seconds
}

resource "aws_sqs_queue" "orders" {
  # A generated name: unknown until the queue exists.
  name_prefix                = "orders-"
  message_retention_seconds  = local.settings.message_retention_seconds
  visibility_timeout_seconds = local.settings.visibility_timeout_seconds
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.orders_dlq.arn
    maxReceiveCount     = local.settings.max_receive_count
  })

  tags = {
    "queuecap:arrival_rate" = local.rates.arrival_rate
    "queuecap:retry_rate"   = local.rates.retry_rate
    "queuecap:avg_retries"  = local.rates.avg_retries
    "queuecap:sla_seconds"  = local.sla_seconds
    "queuecap:max_backlog"  = local.max_backlog
    "queuecap:rto_seconds"  = local.rto_seconds
  }
}

resource "aws_autoscaling_group" "workers" {
  name                = "orders-workers"
  vpc_zone_identifier = var.subnet_ids
  min_size            = local.fleet.steady_state_consumers
  max_size            = local.fleet.required_consumers

  launch_template {
    id      = var.launch_template_id
    version = "$Latest"
  }

  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = local.rates.per_consumer_rate
    propagate_at_launch = false
  }

  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
}

# Every recommended alarm, keyed by its name: known at plan.
resource "aws_cloudwatch_metric_alarm" "orders" {
  for_each = { for a in local.alarms.alarms : a.name => a }

  alarm_name          = "orders-${each.key}"
  alarm_description   = each.value.description
  comparison_operator = each.value.comparison_operator
  threshold           = each.value.threshold
  evaluation_periods  = each.value.evaluation_periods
  datapoints_to_alarm = each.value.datapoints_to_alarm
  treat_missing_data  = each.value.treat_missing_data
  metric_name         = each.value.metric_name
  namespace           = each.value.namespace
  statistic           = each.value.statistic
  period              = each.value.period
  dimensions          = each.value.dimensions
  alarm_actions       = [var.alarm_topic_arn]
  ok_actions          = [var.alarm_topic_arn]

  dynamic "metric_query" {
    for_each = each.value.metric_queries
    content {
      id          = metric_query.value.id
      expression  = metric_query.value.expression
      label       = metric_query.value.label
      return_data = metric_query.value.return_data

      dynamic "metric" {
        for_each = metric_query.value.metric == null ? [] : [metric_query.value.metric]
        content {
          metric_name = metric.value.metric_name
          namespace   = metric.value.namespace
          stat        = metric.value.stat
          period      = metric.value.period
          dimensions  = metric.value.dimensions
        }
      }
    }
  }
}

output "orders" {
  value = {
    min_size                  = local.fleet.steady_state_consumers        # 70
    max_size                  = local.fleet.required_consumers            # 170
    message_retention_seconds = local.settings.message_retention_seconds  # 345600
    visibility_timeout        = local.settings.visibility_timeout_seconds # 40
    max_receive_count         = local.settings.max_receive_count          # 5
    depth_alarm_threshold     = local.alarms.max_depth                    # 7000
  }
}
