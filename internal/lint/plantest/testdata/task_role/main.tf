# An ECS service that IAM alone links to its queue: its task definition's
# task role has an aws_iam_policy_document over the queue's ARN (and its
# dead-letter queue's, which a consumer of the queue does not consume).
# 2 × 50 msg/s leaves no surplus over 100 msg/s.
resource "aws_sqs_queue" "orders" {
  name           = "orders"
  tags           = { "queuecap:arrival_rate" = 100 }
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.orders_dlq.arn, maxReceiveCount = 5 })
}

resource "aws_sqs_queue" "orders_dlq" {
  name                      = "orders-dlq"
  message_retention_seconds = 1209600
}

data "aws_iam_policy_document" "assume_ecs_tasks" {
  statement {
    actions = ["sts:AssumeRole"]
    principals {
      type        = "Service"
      identifiers = ["ecs-tasks.amazonaws.com"]
    }
  }
}

resource "aws_iam_role" "task" {
  name               = "orders-worker-task"
  assume_role_policy = data.aws_iam_policy_document.assume_ecs_tasks.json
}

data "aws_iam_policy_document" "consume" {
  statement {
    sid       = "ConsumeOrders"
    actions   = ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes", "sqs:ChangeMessageVisibility"]
    resources = [aws_sqs_queue.orders.arn, aws_sqs_queue.orders_dlq.arn]
  }
}

resource "aws_iam_role_policy" "consume" {
  name   = "consume-orders"
  role   = aws_iam_role.task.id
  policy = data.aws_iam_policy_document.consume.json
}

resource "aws_ecs_task_definition" "worker" {
  family        = "orders-worker"
  task_role_arn = aws_iam_role.task.arn
  container_definitions = jsonencode([{
    name      = "worker"
    image     = "orders/worker:1"
    essential = true
    memory    = 512
  }])
}

resource "aws_ecs_service" "worker" {
  name            = "orders-worker"
  cluster         = "orders"
  task_definition = aws_ecs_task_definition.worker.arn
  desired_count   = 2
  tags            = { "queuecap:per_consumer_rate" = 50 }
}
