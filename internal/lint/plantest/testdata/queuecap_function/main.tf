terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
    queuecap = {
      source = "queuecap/queuecap"
    }
  }
}

variable "arrival_rate" {
  type    = number
  default = 10000
}

# The same rate known only after apply, for a test to size the fleet with.
resource "terraform_data" "arrival_rate" {
  input = var.arrival_rate
}

resource "aws_sqs_queue" "orders" {
  name           = "orders"
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.orders_dlq.arn, maxReceiveCount = 5 })
}

resource "aws_sqs_queue" "orders_dlq" {
  name                      = "orders-dlq"
  message_retention_seconds = 1209600
}

# The rates are declared by the function's arguments alone. Without a
# backlog to clear, the headroom formula is the steady state: 25 × 400
# msg/s is exactly the arrival rate (and 30 × 400 msg/s exactly 12000).
resource "aws_autoscaling_group" "workers" {
  name     = "workers"
  min_size = 1
  max_size = provider::queuecap::required_consumers(var.arrival_rate, 400, 0, 1800)

  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
}
