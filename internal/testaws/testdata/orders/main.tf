# A queue, its consumers and their scaling, in every shape queuecap reads,
# for the real CLIs to plan against the test-only AWS provider.

terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
  }
}

provider "aws" {
  region = var.region

  default_tags {
    tags = {
      team = "orders"
    }
  }
}

variable "region" {
  type    = string
  default = "us-east-1"
}

# From prod.tfvars.
variable "visibility_timeout_seconds" {
  type = number
}

# From -var.
variable "max_consumers" {
  type = number
}

variable "workers" {
  type    = set(string)
  default = ["email", "sms"]
}

resource "aws_sqs_queue" "dlq" {
  name                      = "orders-dlq"
  message_retention_seconds = 1209600
}

resource "aws_sqs_queue" "orders" {
  name                       = "orders"
  visibility_timeout_seconds = var.visibility_timeout_seconds
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.dlq.arn
    maxReceiveCount     = 5
  })
  tags = {
    "queuecap:arrival_rate" = "200"
  }
}

resource "aws_cloudwatch_metric_alarm" "backlog" {
  alarm_name          = "orders-backlog"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  statistic           = "Maximum"
  period              = 60
  evaluation_periods  = 5
  threshold           = 1000
  comparison_operator = "GreaterThanThreshold"
  dimensions = {
    QueueName = aws_sqs_queue.orders.name
  }
}

resource "aws_sns_topic_subscription" "orders" {
  topic_arn = "arn:aws:sns:us-east-1:123456789012:orders"
  protocol  = "sqs"
  endpoint  = aws_sqs_queue.orders.arn
}

module "worker" {
  source   = "./modules/worker"
  for_each = var.workers

  name      = "orders-${each.key}"
  dlq_arn   = aws_sqs_queue.dlq.arn
}

module "batch" {
  source = "./modules/worker"
  count  = 2

  name      = "batch-${count.index}"
  dlq_arn   = aws_sqs_queue.dlq.arn
}
