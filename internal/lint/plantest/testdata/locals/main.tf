# The mapping's event source goes through a local value, which the plan does
# not record: only the configuration directory says it is the queue's ARN.
locals {
  jobs_arn = aws_sqs_queue.jobs.arn
}

resource "aws_sqs_queue" "jobs" {
  name_prefix = "jobs-"
}

resource "aws_lambda_function" "worker" {
  function_name = "worker"
  role          = "arn:aws:iam::123456789012:role/worker"
  timeout       = 60
}

resource "aws_lambda_event_source_mapping" "jobs" {
  event_source_arn = local.jobs_arn
  function_name    = aws_lambda_function.worker.arn
}
