# What names a fleet's role (a launch template or configuration's instance
# profile, a task definition's task role, a policy attached to the role)
# and a topic that could feed the queue, planned with their defaults and
# what AWS computes.

resource "aws_sns_topic" "orders" {
  name = "orders"
  tags = {
    "queuecap:arrival_rate" = "200"
  }
}

resource "aws_launch_template" "workers" {
  name_prefix   = "orders-workers-"
  image_id      = "ami-0123456789abcdef0"
  instance_type = "t3.small"

  iam_instance_profile {
    name = aws_iam_instance_profile.workers.name
  }
}

resource "aws_launch_configuration" "legacy" {
  name_prefix          = "orders-legacy-"
  image_id             = "ami-0123456789abcdef0"
  instance_type        = "t3.small"
  iam_instance_profile = aws_iam_instance_profile.workers.arn

  root_block_device {
    volume_size = 20
  }
}

resource "aws_ecs_task_definition" "consumer" {
  family        = "orders-consumer"
  task_role_arn = aws_iam_role.consumer.arn
  container_definitions = jsonencode([{
    name      = "consumer"
    image     = "orders/consumer:1"
    essential = true
    memory    = 512
  }])

  volume {
    name = "scratch"

    docker_volume_configuration {
      scope = "task"
    }
  }
}

resource "aws_iam_policy_attachment" "logs" {
  name       = "orders-logs"
  roles      = [aws_iam_role.consumer.name]
  policy_arn = aws_iam_policy.logs.arn
}
