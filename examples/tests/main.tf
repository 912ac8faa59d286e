# The worker fleet of an SQS queue, sized by queuecap from the rates a team
# knows: what arrives at the peak, what one worker completes, the worst
# backlog and the time allowed to clear it. Its capacity unit tests are in
# tests/: `terraform test` (Terraform 1.8+) or `tofu test` (OpenTofu 1.8+)
# runs them offline in seconds, the AWS provider mocked and queuecap real
# (docs/testing.md).

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

variable "name" {
  description = "Name of the queue; the workers and alarms are named after it."
  type        = string
  default     = "orders"
}

variable "arrival_rate" {
  description = "Peak messages per second into the queue."
  type        = number
  default     = 10000
}

variable "per_consumer_rate" {
  description = "Messages one worker completes per second."
  type        = number
  default     = 400
}

variable "max_backlog" {
  description = "Worst backlog the fleet must clear, in messages."
  type        = number
  default     = 5000000
}

variable "rto_seconds" {
  description = "Time allowed to clear max_backlog, in seconds."
  type        = number
  default     = 1800
}

variable "sla_seconds" {
  description = "The longest a message may wait, in seconds."
  type        = number
  default     = 10
}

variable "max_size" {
  description = "Pins the fleet's maximum size; null (the default) sizes it for max_backlog."
  type        = number
  default     = null
}

variable "launch_template_id" {
  description = "Launch template of the worker instances."
  type        = string
}

variable "subnet_ids" {
  description = "Subnets of the worker instances."
  type        = list(string)
}

# Everyday: the steady state keeps up. Recovery: the headroom formula
# clears max_backlog within rto_seconds.
data "queuecap_consumers" "workers" {
  arrival_rate      = var.arrival_rate
  per_consumer_rate = var.per_consumer_rate
  max_backlog       = var.max_backlog
  rto_seconds       = var.rto_seconds
}

data "queuecap_alarm_thresholds" "queue" {
  arrival_rate      = var.arrival_rate
  per_consumer_rate = var.per_consumer_rate
  sla_seconds       = var.sla_seconds
  rto_seconds       = var.rto_seconds
  queue_name        = var.name
}

resource "aws_sqs_queue" "dlq" {
  name                      = "${var.name}-dlq"
  message_retention_seconds = 1209600
}

resource "aws_sqs_queue" "queue" {
  name = var.name
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.dlq.arn
    maxReceiveCount     = 5
  })
}

resource "aws_autoscaling_group" "workers" {
  name                = "${var.name}-workers"
  vpc_zone_identifier = var.subnet_ids
  min_size            = data.queuecap_consumers.workers.steady_state_consumers
  max_size            = coalesce(var.max_size, data.queuecap_consumers.workers.required_consumers)

  launch_template {
    id      = var.launch_template_id
    version = "$Latest"
  }

  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.queue"
    propagate_at_launch = false
  }
}

# Pages before a message waits longer than the SLA: the depth the fleet
# clears within it (Little's law) and the age itself.
resource "aws_cloudwatch_metric_alarm" "depth" {
  alarm_name          = "${var.name}-depth-above-sla"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  dimensions          = { QueueName = aws_sqs_queue.queue.name }
  statistic           = "Maximum"
  period              = 60
  evaluation_periods  = 1
  comparison_operator = "GreaterThanThreshold"
  threshold           = data.queuecap_alarm_thresholds.queue.max_depth
  treat_missing_data  = "notBreaching"
}

resource "aws_cloudwatch_metric_alarm" "age" {
  alarm_name          = "${var.name}-oldest-message-above-sla"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateAgeOfOldestMessage"
  dimensions          = { QueueName = aws_sqs_queue.queue.name }
  statistic           = "Maximum"
  period              = 60
  evaluation_periods  = 1
  comparison_operator = "GreaterThanThreshold"
  threshold           = data.queuecap_alarm_thresholds.queue.oldest_message_age_seconds
  treat_missing_data  = "notBreaching"
}

# What the fleet at its maximum completes beyond the arrivals, in msg/s:
# the rate at which a backlog drains.
locals {
  surplus = provider::queuecap::surplus(var.arrival_rate, var.per_consumer_rate, aws_autoscaling_group.workers.max_size)
}

output "surplus" {
  description = "Messages per second the fleet at its maximum completes beyond the arrivals."
  value       = local.surplus
}

# A fleet whose maximum only keeps up never drains a backlog. A plan warns;
# a test fails, unless it expects the failure.
check "surplus" {
  assert {
    condition     = local.surplus > 0
    error_message = "max_size ${aws_autoscaling_group.workers.max_size} × ${var.per_consumer_rate} msg/s leaves no surplus over ${var.arrival_rate} msg/s: a backlog never drains."
  }
}
