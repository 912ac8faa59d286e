# An auto scaling group that IAM alone links to its queue, through its
# launch configuration's instance profile (named by its ARN, unknown until
# apply) and a managed policy attached to the profile's role with
# aws_iam_policy_attachment. 3 × 100 msg/s leaves no surplus over 300
# msg/s.
resource "aws_sqs_queue" "reports" {
  name = "reports"
  tags = { "queuecap:arrival_rate" = 300 }
}

resource "aws_iam_role" "reporter" {
  name = "reporter"
  assume_role_policy = jsonencode({
    Version   = "2012-10-17"
    Statement = [{ Effect = "Allow", Action = "sts:AssumeRole", Principal = { Service = "ec2.amazonaws.com" } }]
  })
}

resource "aws_iam_policy" "consume" {
  name = "consume-reports"
  policy = jsonencode({
    Version   = "2012-10-17"
    Statement = [{ Effect = "Allow", Action = "sqs:*", Resource = aws_sqs_queue.reports.arn }]
  })
}

resource "aws_iam_policy_attachment" "consume" {
  name       = "consume-reports"
  roles      = [aws_iam_role.reporter.name]
  policy_arn = aws_iam_policy.consume.arn
}

resource "aws_iam_instance_profile" "reporter" {
  name = "reporter"
  role = aws_iam_role.reporter.name
}

resource "aws_launch_configuration" "reporter" {
  name_prefix          = "reporter-"
  image_id             = "ami-0123456789abcdef0"
  instance_type        = "t3.medium"
  iam_instance_profile = aws_iam_instance_profile.reporter.arn
}

resource "aws_autoscaling_group" "reporters" {
  name                 = "reporters"
  min_size             = 1
  max_size             = 3
  launch_configuration = aws_launch_configuration.reporter.name
  vpc_zone_identifier  = ["subnet-0a1b2c3d"]

  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = "100"
    propagate_at_launch = false
  }
}
