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
