# A worker fleet sized by queuecap, with its CloudWatch alarms: the module
# that tests/capacity.tftest.hcl unit-tests with `terraform test` (or
# `tofu test`), the AWS provider mocked. docs/guides/testing.md explains it.
#
# 500 msg/s arrive, a worker completes 25 msg/s, a backlog of 1.8 M
# messages must clear within 2 hours and a message may wait 2 minutes.

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

variable "arrival_rate" {
  description = "Peak messages per second into the queue."
  type        = number
  default     = 500
}

variable "per_consumer_rate" {
  description = "Messages one worker completes per second."
  type        = number
  default     = 25
}

variable "max_backlog" {
  description = "Worst backlog the fleet must clear, in messages."
  type        = number
  default     = 1800000
}

variable "rto_seconds" {
  description = "Time allowed to clear max_backlog."
  type        = number
  default     = 7200
}

variable "sla_seconds" {
  description = "The longest a message may wait."
  type        = number
  default     = 120
}

variable "max_size" {
  description = "The group's max_size; null sizes it with the headroom formula."
  type        = number
  default     = null
}

variable "launch_template_id" {
  description = "Launch template of the workers."
  type        = string
}

variable "subnet_ids" {
  description = "Subnets of the workers."
  type        = list(string)
}

data "queuecap_consumers" "workers" {
  arrival_rate      = var.arrival_rate
  per_consumer_rate = var.per_consumer_rate
  max_backlog       = var.max_backlog
  rto_seconds       = var.rto_seconds
}

data "queuecap_alarm_thresholds" "orders" {
  arrival_rate      = var.arrival_rate
  per_consumer_rate = var.per_consumer_rate
  rto_seconds       = var.rto_seconds
  sla_seconds       = var.sla_seconds
  queue_name        = "orders" # known at plan, so the alarms are too
}

locals {
  max_size = coalesce(var.max_size, data.queuecap_consumers.workers.required_consumers)
}

resource "aws_sqs_queue" "orders" {
  name                       = "orders"
  message_retention_seconds  = 86400
  visibility_timeout_seconds = 60
}

resource "aws_autoscaling_group" "workers" {
  name                = "order-workers"
  vpc_zone_identifier = var.subnet_ids
  min_size            = data.queuecap_consumers.workers.steady_state_consumers
  max_size            = local.max_size

  launch_template {
    id      = var.launch_template_id
    version = "$Latest"
  }
}

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

# A fleet at max_size that only keeps up with arrivals never drains a
# backlog. The check reads local.max_size, not the group's attribute: a
# data source that depends on a resource with changes is read only at apply.
check "surplus" {
  data "queuecap_drain" "at_max_size" {
    backlog           = var.max_backlog
    arrival_rate      = var.arrival_rate
    consumers         = local.max_size
    per_consumer_rate = var.per_consumer_rate
  }

  assert {
    condition     = data.queuecap_drain.at_max_size.net_rate > 0
    error_message = "max_size ${local.max_size} × ${var.per_consumer_rate} msg/s leaves no surplus over ${var.arrival_rate} msg/s: a backlog never drains."
  }
}
