# The shape of terraform-aws-modules/sqs: the redrive policy is attached by
# a separate aws_sqs_queue_redrive_policy, not inline. The consumer is a
# Lambda function; both queues are counted resources.

variable "create_dlq" {
  type    = bool
  default = true
}

resource "aws_sqs_queue" "this" {
  count                      = 1
  name                       = "ingest"
  visibility_timeout_seconds = 90
}

resource "aws_sqs_queue" "dlq" {
  count = var.create_dlq ? 1 : 0
  name  = "ingest-dlq"
}

resource "aws_sqs_queue_redrive_policy" "dlq" {
  count     = var.create_dlq ? 1 : 0
  queue_url = aws_sqs_queue.this[0].url
  redrive_policy = jsonencode(merge(
    {
      deadLetterTargetArn = aws_sqs_queue.dlq[0].arn
      maxReceiveCount     = 5
    },
    {}
  ))
}

resource "aws_sqs_queue_redrive_allow_policy" "dlq" {
  count     = var.create_dlq ? 1 : 0
  queue_url = aws_sqs_queue.dlq[0].url
  redrive_allow_policy = jsonencode({
    redrivePermission = "byQueue"
    sourceQueueArns   = [aws_sqs_queue.this[0].arn]
  })
}

resource "aws_lambda_function" "ingest" {
  function_name = "ingest"
  timeout       = 15
}

resource "aws_lambda_event_source_mapping" "ingest" {
  event_source_arn = aws_sqs_queue.this[0].arn
  function_name    = aws_lambda_function.ingest.function_name
}

resource "aws_lambda_event_source_mapping" "dlq_replay" {
  event_source_arn = aws_sqs_queue.dlq[0].arn
  function_name    = aws_lambda_function.ingest.function_name
  enabled          = false
}
