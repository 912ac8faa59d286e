# Two fleets on one queue of 10,000 msg/s at 400 msg/s each: 25 consumers
# have no surplus. The batch fleet's size comes from TF_VAR_batch_max_size,
# the stream fleet's from the workspace.
variable "batch_max_size" {
  type = number
}

locals {
  stream_max_size = {
    default = 40
    prod    = 25
  }
}

resource "aws_sqs_queue" "batch" {
  name = "batch"
  tags = {
    "queuecap:arrival_rate" = "10000"
  }
}

resource "aws_sqs_queue" "stream" {
  name = "stream-${terraform.workspace}"
  tags = {
    "queuecap:arrival_rate" = "10000"
  }
}

resource "aws_autoscaling_group" "batch" {
  name     = "batch"
  min_size = 1
  max_size = var.batch_max_size

  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = "400"
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.batch"
    propagate_at_launch = false
  }
}

resource "aws_autoscaling_group" "stream" {
  name     = "stream"
  min_size = 1
  max_size = local.stream_max_size[terraform.workspace]

  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = "400"
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.stream"
    propagate_at_launch = false
  }
}
