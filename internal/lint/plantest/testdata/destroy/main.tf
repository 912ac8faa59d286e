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

# Removed before the second plan, which destroys them: a destroyed queue is
# not linted.
resource "aws_sqs_queue" "legacy" {
  name = "legacy"
}

resource "aws_lambda_function" "legacy" {
  function_name = "legacy"
  role          = "arn:aws:iam::123456789012:role/legacy"
  timeout       = 60
}

resource "aws_lambda_event_source_mapping" "legacy" {
  event_source_arn = aws_sqs_queue.legacy.arn
  function_name    = aws_lambda_function.legacy.arn
}
