# Two auto scaling groups that nothing but IAM links to their queues: the
# role of the instance profile in each one's launch template may receive
# and delete the queue's messages. One names its template in a
# launch_template block, the other in its mixed instances policy; each
# template's ID, the queues' ARNs and so the policies are known only after
# apply. Each fleet has no surplus: 10 × 100 msg/s and 4 × 50 msg/s.
resource "aws_sqs_queue" "jobs" {
  name = "jobs"
  tags = { "queuecap:arrival_rate" = 1000 }
}

resource "aws_sqs_queue" "batch" {
  name = "batch"
  tags = { "queuecap:arrival_rate" = 200 }
}

resource "aws_iam_role" "worker" {
  name = "worker"
  assume_role_policy = jsonencode({
    Version   = "2012-10-17"
    Statement = [{ Effect = "Allow", Action = "sts:AssumeRole", Principal = { Service = "ec2.amazonaws.com" } }]
  })
}

resource "aws_iam_role_policy" "consume_jobs" {
  name = "consume-jobs"
  role = aws_iam_role.worker.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect   = "Allow"
      Action   = ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes"]
      Resource = aws_sqs_queue.jobs.arn
    }]
  })
}

resource "aws_iam_instance_profile" "worker" {
  name = "worker"
  role = aws_iam_role.worker.name
}

resource "aws_launch_template" "worker" {
  name_prefix   = "worker-"
  image_id      = "ami-0123456789abcdef0"
  instance_type = "c7g.large"

  iam_instance_profile {
    name = aws_iam_instance_profile.worker.name
  }
}

resource "aws_autoscaling_group" "workers" {
  name                = "workers"
  min_size            = 1
  max_size            = 10
  vpc_zone_identifier = ["subnet-0a1b2c3d"]

  launch_template {
    id      = aws_launch_template.worker.id
    version = "$Latest"
  }

  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = "100"
    propagate_at_launch = false
  }
}

resource "aws_iam_role" "batch" {
  name = "batch"
  assume_role_policy = jsonencode({
    Version   = "2012-10-17"
    Statement = [{ Effect = "Allow", Action = "sts:AssumeRole", Principal = { Service = "ec2.amazonaws.com" } }]
  })
}

resource "aws_iam_role_policy" "consume_batch" {
  name = "consume-batch"
  role = aws_iam_role.batch.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect   = "Allow"
      Action   = ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:ChangeMessageVisibility"]
      Resource = [aws_sqs_queue.batch.arn]
    }]
  })
}

resource "aws_iam_instance_profile" "batch" {
  name = "batch"
  role = aws_iam_role.batch.name
}

resource "aws_launch_template" "batch" {
  name          = "batch"
  image_id      = "ami-0123456789abcdef0"
  instance_type = "m7g.large"

  iam_instance_profile {
    arn = aws_iam_instance_profile.batch.arn
  }
}

resource "aws_autoscaling_group" "batch" {
  name                = "batch"
  min_size            = 0
  max_size            = 4
  vpc_zone_identifier = ["subnet-0a1b2c3d"]

  mixed_instances_policy {
    launch_template {
      launch_template_specification {
        launch_template_id = aws_launch_template.batch.id
        version            = "$Latest"
      }
      override {
        instance_type = "m7g.large"
      }
      override {
        instance_type = "m6g.large"
      }
    }
  }

  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = "50"
    propagate_at_launch = false
  }
}
