# Notifications: an SLA of 30 s, a depth alarm set "generously", and a
# retention shortened to save cost.

locals {
  arrival_rate = 2000
  sla_seconds  = 30
}

resource "aws_sqs_queue" "notifications_dlq" {
  name = "notifications-dlq"
}

resource "aws_sqs_queue" "notifications" {
  name                      = "notifications"
  message_retention_seconds = 3600
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.notifications_dlq.arn
    maxReceiveCount     = 3
  })
  tags = {
    "queuecap:arrival_rate" = local.arrival_rate
    "queuecap:sla_seconds"  = local.sla_seconds
    "queuecap:max_backlog"  = local.arrival_rate * 3600
    "queuecap:rto_seconds"  = 7200
  }
}

resource "aws_ecs_service" "sender" {
  name          = "notification-sender"
  cluster       = "messaging"
  desired_count = 4
  tags = {
    "queuecap:per_consumer_rate" = 750
    "queuecap:queue"             = "aws_sqs_queue.notifications"
  }
}

resource "aws_cloudwatch_metric_alarm" "backlog" {
  alarm_name          = "notifications-backlog"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  statistic           = "Maximum"
  comparison_operator = "GreaterThanOrEqualToThreshold"
  threshold           = 100000
  evaluation_periods  = 3
  period              = 60
  dimensions          = { QueueName = "notifications" }
  alarm_actions       = ["arn:aws:sns:eu-west-1:123456789012:oncall"]
}
