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

# The rates are declared by the data source's arguments alone: the fleet
# sized from it declares them.
data "queuecap_consumers" "orders" {
  arrival_rate      = 10000
  per_consumer_rate = 400
  max_backlog       = 5000000
  rto_seconds       = 1800
}

resource "aws_sqs_queue" "orders" {
  name           = "orders"
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.orders_dlq.arn, maxReceiveCount = 5 })
}

resource "aws_sqs_queue" "orders_dlq" {
  name                      = "orders-dlq"
  message_retention_seconds = 1209600
}

# Sized for the steady state: 25 × 400 msg/s is exactly the arrival rate.
resource "aws_autoscaling_group" "workers" {
  name     = "workers"
  min_size = 1
  max_size = data.queuecap_consumers.orders.steady_state_consumers

  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
}
