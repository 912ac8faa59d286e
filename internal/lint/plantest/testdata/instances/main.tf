# Instances: two queues and two fleets under count, and a module under
# for_each. audit[0] and module.worker["orders"] cannot drain a backlog;
# both audit instances skip the same check alike.

resource "aws_sqs_queue" "q" {
  count          = 2
  name           = "audit-${count.index}"
  tags           = { "queuecap:arrival_rate" = "100" }
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.dlq.arn, maxReceiveCount = 5 })
}

resource "aws_sqs_queue" "dlq" {
  name                      = "audit-dlq"
  message_retention_seconds = 1209600
}

resource "aws_autoscaling_group" "audit" {
  count    = 2
  name     = "audit-${count.index}"
  min_size = 1
  max_size = [10, 20][count.index]

  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = "10"
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.q[${count.index}]"
    propagate_at_launch = false
  }
}

module "worker" {
  source   = "./modules/app"
  for_each = { orders = 25, invoices = 30 }
  name     = each.key
  max      = each.value
}
