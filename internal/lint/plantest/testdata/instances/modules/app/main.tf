variable "name" {
  type = string
}

variable "max" {
  type = number
}

resource "aws_sqs_queue" "q" {
  name           = var.name
  tags           = { "queuecap:arrival_rate" = "10000", "queuecap:max_backlog" = "50000" }
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.dlq.arn, maxReceiveCount = 5 })
}

resource "aws_sqs_queue" "dlq" {
  name                      = "${var.name}-dlq"
  message_retention_seconds = 1209600
}

resource "aws_autoscaling_group" "w" {
  name     = var.name
  min_size = 1
  max_size = var.max

  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = "400"
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.q"
    propagate_at_launch = false
  }
}
