variable "max_size" {
  type    = number
  default = 20
}

resource "aws_sqs_queue" "orders" {
  name = "orders"
  tags = {
    "queuecap:arrival_rate" = "10000"
  }
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.orders_dlq.arn, maxReceiveCount = 5 })
}

resource "aws_sqs_queue" "orders_dlq" {
  name                      = "orders-dlq"
  message_retention_seconds = 1209600
}

resource "aws_autoscaling_group" "workers" {
  name     = "workers"
  min_size = 1
  max_size = var.max_size

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
