# The configuration docs/tflint.md's "What was not checked" session runs
# on (TestDocumentedConsole): a Lambda function consumes a queue whose
# arrival rate nobody declared.

terraform {
  required_version = ">= 1.5"
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 5.0"
    }
  }
}

resource "aws_sqs_queue" "ingest" {
  name                       = "ingest"
  visibility_timeout_seconds = 90
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.ingest_dlq.arn
    maxReceiveCount     = 5
  })
}

resource "aws_sqs_queue" "ingest_dlq" {
  name = "ingest-dlq"
}

resource "aws_lambda_function" "ingest" {
  function_name = "ingest"
  timeout       = 15
}

resource "aws_lambda_event_source_mapping" "ingest" {
  event_source_arn        = aws_sqs_queue.ingest.arn
  function_name           = aws_lambda_function.ingest.function_name
  function_response_types = ["ReportBatchItemFailures"]
}
