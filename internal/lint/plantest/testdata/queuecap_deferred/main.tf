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

# The arrival rate is known only after apply (terraform_data's output is),
# so the data source is read at apply, not at plan.
resource "terraform_data" "arrival_rate" {
  input = 10000
}

data "queuecap_consumers" "orders" {
  arrival_rate      = terraform_data.arrival_rate.output
  per_consumer_rate = 400
}

resource "aws_sqs_queue" "orders" {
  name           = "orders"
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.orders_dlq.arn, maxReceiveCount = 5 })
}

resource "aws_sqs_queue" "orders_dlq" {
  name                      = "orders-dlq"
  message_retention_seconds = 1209600
}

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
