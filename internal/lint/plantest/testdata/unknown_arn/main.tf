resource "aws_sqs_queue" "jobs" {
  name_prefix = "jobs-"
}

resource "aws_lambda_function" "worker" {
  function_name = "worker"
  role          = "arn:aws:iam::123456789012:role/worker"
  timeout       = 60
}

# The queue's ARN, and with a name_prefix its name, are known only after
# apply: the plan links the mapping through the configuration's references.
resource "aws_lambda_event_source_mapping" "jobs" {
  event_source_arn = aws_sqs_queue.jobs.arn
  function_name    = aws_lambda_function.worker.arn
}

# A size known only after apply: its check is skipped, from the plan as
# from the HCL, whatever type the plan leaves unsaid.
resource "aws_sqs_queue" "batch" {
  name = "batch"
  tags = {
    "queuecap:arrival_rate" = "100"
  }
}

resource "aws_autoscaling_group" "batch" {
  name     = "batch"
  min_size = 1
  max_size = length(aws_sqs_queue.jobs.url)

  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = "10"
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.batch"
    propagate_at_launch = false
  }
}
