# CloudWatch alarms and backlog-per-instance target tracking for an SQS
# worker fleet, every threshold derived from declared rates by queuecap
# instead of hand-picked constants.
#
# 500 msg/s arrive, a worker completes 10 msg/s, messages must wait at most
# 10 s (SLA) and are worthless after 10 minutes (TTL), and a backlog must
# clear within 30 minutes (RTO). `queuecap lint examples/alarms` reports nothing here.

terraform {
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
  # Names known at plan, so the thresholds are too (a name read from the
  # queue resource would be known only after apply).
  queue_name        = "orders"
  dlq_name          = "orders-dlq"
  arrival_rate      = 500
  per_consumer_rate = 10
  sla_seconds       = 10
  ttl_seconds       = 600
  rto_seconds       = 1800
}

# The worst backlog: nothing older than the TTL survives an outage.
data "queuecap_ttl_backlog" "outage" {
  arrival_rate     = local.arrival_rate
  incident_seconds = 3600
  ttl_seconds      = local.ttl_seconds
}

data "queuecap_consumers" "workers" {
  arrival_rate      = local.arrival_rate
  per_consumer_rate = local.per_consumer_rate
  max_backlog       = data.queuecap_ttl_backlog.outage.ttl_bounded_backlog
  rto_seconds       = local.rto_seconds
  # The group scales by target tracking, which acts only once its metric
  # has a datapoint: one 60 s period into a backlog at the earliest.
  provisioning_lag_seconds = 60
}

# queue_name from a local, not from aws_sqs_queue.orders.name: a data source
# that refers to a resource with changes to make is read only at apply, so
# its thresholds would be unknown at plan (alarm_plan takes the reference).
data "queuecap_alarm_thresholds" "orders" {
  arrival_rate           = local.arrival_rate
  sla_seconds            = local.sla_seconds
  per_consumer_rate      = local.per_consumer_rate
  rto_seconds            = local.rto_seconds
  ttl_seconds            = local.ttl_seconds
  queue_name             = local.queue_name
  dead_letter_queue_name = local.dlq_name
  fleet                  = "ec2"
}

resource "aws_sqs_queue" "orders_dlq" {
  name                      = local.dlq_name
  message_retention_seconds = 1209600
}

# Consumers skip messages older than the TTL (shedding bounds the backlog);
# retention keeps the rest for a day, long enough to drain the worst backlog.
resource "aws_sqs_queue" "orders" {
  name                       = local.queue_name
  message_retention_seconds  = 86400
  visibility_timeout_seconds = 60
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.orders_dlq.arn
    maxReceiveCount     = 5
  })

  tags = {
    "queuecap:arrival_rate" = local.arrival_rate
    "queuecap:sla_seconds"  = local.sla_seconds
    "queuecap:max_backlog"  = data.queuecap_ttl_backlog.outage.ttl_bounded_backlog
    "queuecap:rto_seconds"  = local.rto_seconds
  }
}

resource "aws_autoscaling_group" "workers" {
  name                = "orders-workers"
  vpc_zone_identifier = var.subnet_ids
  min_size            = data.queuecap_consumers.workers.steady_state_consumers
  max_size            = data.queuecap_consumers.workers.required_consumers

  launch_template {
    id      = var.launch_template_id
    version = "$Latest"
  }

  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = local.per_consumer_rate
    propagate_at_launch = false
  }
}

# Target tracking on backlog per instance, AWS's recommended shape:
# visible messages over in-service instances, held at SLA × μ.
resource "aws_autoscaling_policy" "backlog_per_instance" {
  name                   = "orders-backlog-per-instance"
  autoscaling_group_name = aws_autoscaling_group.workers.name
  policy_type            = "TargetTrackingScaling"

  target_tracking_configuration {
    target_value = data.queuecap_alarm_thresholds.orders.backlog_per_consumer_target

    customized_metric_specification {
      metrics {
        id          = "visible"
        return_data = false
        metric_stat {
          stat = "Sum"
          metric {
            metric_name = "ApproximateNumberOfMessagesVisible"
            namespace   = "AWS/SQS"
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
            metric_name = data.queuecap_alarm_thresholds.orders.backlog_per_consumer_metric
            namespace   = "AWS/AutoScaling"
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

# Every recommended alarm, straight from the data source.
resource "aws_cloudwatch_metric_alarm" "orders" {
  for_each = { for a in data.queuecap_alarm_thresholds.orders.alarms : a.name => a }

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

output "worker_fleet" {
  value = {
    min_size                    = data.queuecap_consumers.workers.steady_state_consumers
    max_size                    = data.queuecap_consumers.workers.required_consumers
    backlog_per_instance_target = data.queuecap_alarm_thresholds.orders.backlog_per_consumer_target
    depth_alarm_threshold       = data.queuecap_alarm_thresholds.orders.max_depth
  }
}
