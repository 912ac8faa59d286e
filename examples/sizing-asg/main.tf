# The sizing of examples/sizing wired into a real SQS queue and EC2 worker
# fleet. It needs the AWS provider and credentials, so `make demo` does not
# run it; copy it into your own configuration.

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
  default     = 10000
}

variable "per_consumer_rate" {
  description = "Messages one worker instance completes per second."
  type        = number
  default     = 400
}

variable "message_ttl_seconds" {
  description = "Age after which a message is worthless; consumers skip older ones."
  type        = number
  default     = 480
}

variable "launch_template_id" {
  description = "Launch template of the worker instances."
  type        = string
}

variable "subnet_ids" {
  description = "Subnets for the worker instances."
  type        = list(string)
}

data "queuecap_ttl_backlog" "outage" {
  arrival_rate     = var.arrival_rate
  incident_seconds = 1800
  ttl_seconds      = var.message_ttl_seconds
}

data "queuecap_consumers" "everyday" {
  arrival_rate      = var.arrival_rate
  per_consumer_rate = var.per_consumer_rate
  min_headroom      = 0.2
}

data "queuecap_consumers" "recovery" {
  arrival_rate      = var.arrival_rate
  per_consumer_rate = var.per_consumer_rate
  max_backlog       = data.queuecap_ttl_backlog.outage.ttl_bounded_backlog
  rto_seconds       = 1800
}

resource "aws_sqs_queue" "jobs_dlq" {
  name = "jobs-dlq"
}

# Consumers skip messages older than the TTL, which bounds the backlog;
# retention keeps the rest for a day, long enough to drain it.
resource "aws_sqs_queue" "jobs" {
  name                       = "jobs"
  message_retention_seconds  = 86400
  visibility_timeout_seconds = 60
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.jobs_dlq.arn
    maxReceiveCount     = 5
  })

  # Declared rates, read by `queuecap lint`.
  tags = {
    "queuecap:arrival_rate" = var.arrival_rate
    "queuecap:max_backlog"  = data.queuecap_ttl_backlog.outage.ttl_bounded_backlog
    "queuecap:rto_seconds"  = 1800
  }
}

resource "aws_autoscaling_group" "workers" {
  name                = "jobs-workers"
  vpc_zone_identifier = var.subnet_ids
  min_size            = data.queuecap_consumers.recovery.steady_state_consumers
  desired_capacity    = data.queuecap_consumers.everyday.required_consumers
  max_size            = data.queuecap_consumers.recovery.required_consumers

  launch_template {
    id      = var.launch_template_id
    version = "$Latest"
  }

  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = var.per_consumer_rate
    propagate_at_launch = false
  }

  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.jobs"
    propagate_at_launch = false
  }

  # Scaling policies change the desired capacity between min and max.
  lifecycle {
    ignore_changes = [desired_capacity]
  }
}
