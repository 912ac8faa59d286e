# An image resizer fed by S3 notifications through SQS.

variable "resizer_timeout_seconds" {
  type    = number
  default = 60
}

resource "aws_sqs_queue" "uploads" {
  name                       = "image-uploads"
  visibility_timeout_seconds = 180
  message_retention_seconds  = 86400
  tags = {
    "queuecap:arrival_rate"  = 300
    "queuecap:retry_rate"    = 0.2
    "queuecap:avg_retries"   = 1.5
    "queuecap:max_backlog"   = 500000
    "queuecap:rto_seconds"   = 3600
    "queuecap:min_headroom"  = 0.25
  }
}

resource "aws_lambda_function" "resizer" {
  function_name = "image-resizer"
  role          = "arn:aws:iam::123456789012:role/resizer"
  handler       = "main.handler"
  runtime       = "python3.12"
  filename      = "resizer.zip"
  timeout       = var.resizer_timeout_seconds
  memory_size   = 1024

  tags = {
    "queuecap:per_consumer_rate" = 2
  }
}

resource "aws_lambda_event_source_mapping" "uploads" {
  event_source_arn = aws_sqs_queue.uploads.arn
  function_name    = aws_lambda_function.resizer.arn
  batch_size       = 10

  scaling_config {
    maximum_concurrency = 250
  }
}
