# A queue-backed worker fleet whose every number comes from queuecap, from
# the rates declared once in local.rates:
#
#   * fleet_plan sizes the auto scaling group (min, desired and max, the
#     max with the 3 minutes new instances take to start) and gives the
#     target tracking policy on backlog per instance, dropped into
#     aws_autoscaling_policy with dynamic blocks and no glue;
#   * queue_settings gives the queue's retention (it outlives draining the
#     worst backlog), visibility timeout and max receive count, and the
#     dead-letter queue's retention;
#   * alarm_plan gives the CloudWatch alarms, one resource per alarm with
#     for_each, its thresholds known at plan.
#
# 10,000 msg/s arrive at the peak, a tenth of them retried once; a worker
# completes 400 msg/s and takes at most 5 s for a message; a message must
# wait at most 10 s (SLA) and a backlog of 5 M must clear within 30 min
# (RTO). Provider functions need Terraform 1.8+ or OpenTofu 1.7+.
# `queuecap lint examples/fleet` reports nothing here, and skips nothing:
# it expands the dynamic blocks as Terraform does.

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
  queue_name = "orders"
  group_name = "orders-workers"

  rates = {
    arrival_rate      = 10000
    per_consumer_rate = 400
    retry_rate        = 0.1
    avg_retries       = 1
  }
  sla_seconds = 10
  max_backlog = 5000000
  rto_seconds = 1800

  # λ_eff = 10,000 × 1.1 = 11,000 msg/s: 28 instances keep up (200 msg/s
  # to spare), 33 give 20 % headroom, and with 180 s to start the maximum
  # is ceil(27.5 + (5,000,000 − 200 × 180) / (400 × 1,620)) = 36 (35
  # without the lag).
  # A function is called at plan with what is known then, a queue's
  # configured name included; a queuecap_fleet data source given
  # aws_sqs_queue.orders.name would be read only at apply: use locals there.
  fleet = provider::queuecap::fleet_plan(merge(local.rates, {
    sla_seconds              = local.sla_seconds
    max_backlog              = local.max_backlog
    rto_seconds              = local.rto_seconds
    min_headroom             = 0.2
    provisioning_lag_seconds = 180
    queue_name               = local.queue_name
    autoscaling_group_name   = local.group_name
  }))

  settings = provider::queuecap::queue_settings(merge(local.rates, {
    consumers              = local.fleet.max_size
    max_backlog            = local.max_backlog
    max_processing_seconds = 5
  }))

  alarms = provider::queuecap::alarm_plan(merge(local.rates, {
    sla_seconds            = local.sla_seconds
    rto_seconds            = local.rto_seconds
    queue_name             = aws_sqs_queue.orders.name
    dead_letter_queue_name = aws_sqs_queue.orders_dlq.name
  }))
}

resource "aws_sqs_queue" "orders_dlq" {
  name                      = "${local.queue_name}-dlq"
  message_retention_seconds = local.settings.dead_letter_message_retention_seconds
}

resource "aws_sqs_queue" "orders" {
  name                       = local.queue_name
  message_retention_seconds  = local.settings.message_retention_seconds
  visibility_timeout_seconds = local.settings.visibility_timeout_seconds
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.orders_dlq.arn
    maxReceiveCount     = local.settings.max_receive_count
  })

  # The same rates, for queuecap lint.
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
  name                = local.group_name
  vpc_zone_identifier = var.subnet_ids
  min_size            = local.fleet.min_size
  desired_capacity    = local.fleet.desired_capacity
  max_size            = local.fleet.max_size

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

# Target tracking on backlog per instance (visible messages / instances in
# service, held at sla_seconds × per_consumer_rate), as fleet_plan shapes it.
resource "aws_autoscaling_policy" "backlog" {
  name                      = "${local.group_name}-backlog-per-instance"
  autoscaling_group_name    = aws_autoscaling_group.workers.name
  policy_type               = local.fleet.ec2_scaling_policy.policy_type
  estimated_instance_warmup = local.fleet.ec2_scaling_policy.estimated_instance_warmup

  dynamic "target_tracking_configuration" {
    for_each = local.fleet.ec2_scaling_policy.target_tracking_configuration
    iterator = tt
    content {
      target_value     = tt.value.target_value
      disable_scale_in = tt.value.disable_scale_in
      dynamic "customized_metric_specification" {
        for_each = tt.value.customized_metric_specification
        iterator = spec
        content {
          dynamic "metrics" {
            for_each = spec.value.metrics
            iterator = m
            content {
              id          = m.value.id
              label       = m.value.label
              expression  = m.value.expression
              return_data = m.value.return_data
              dynamic "metric_stat" {
                for_each = m.value.metric_stat
                iterator = ms
                content {
                  stat = ms.value.stat
                  dynamic "metric" {
                    for_each = ms.value.metric
                    content {
                      metric_name = metric.value.metric_name
                      namespace   = metric.value.namespace
                      dynamic "dimensions" {
                        for_each = metric.value.dimensions
                        content {
                          name  = dimensions.value.name
                          value = dimensions.value.value
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
}

# Every recommended alarm, keyed by its name.
resource "aws_cloudwatch_metric_alarm" "orders" {
  for_each = { for a in local.alarms.alarms : a.name => a }

  alarm_name          = "${local.queue_name}-${each.key}"
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

output "fleet" {
  description = "The fleet's sizes and how long the worst backlog takes to drain."
  value = {
    min_size      = local.fleet.min_size
    desired       = local.fleet.desired_capacity
    max_size      = local.fleet.max_size
    drain_seconds = local.fleet.drain_seconds
  }
}
