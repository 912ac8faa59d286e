# Lambda's batching, read from the plan: a mapping that takes batches of
# 10 without ReportBatchItemFailures (queuecap_batch_retry_amplification)
# and gathers them for a window its queue's visibility timeout does not
# cover (queuecap_visibility_timeout_too_short, 6 × 30 + 20 s); a second
# mapping that reports its batch item failures, with a window the
# visibility covers. The window and the response types come from
# variables, known only through terraform.tfvars.

variable "window_seconds" {
  type = number
}

variable "response_types" {
  type = set(string)
}

resource "aws_sqs_queue" "invoices" {
  name                       = "invoices"
  visibility_timeout_seconds = 180
  redrive_policy             = jsonencode({ deadLetterTargetArn = aws_sqs_queue.invoices_dlq.arn, maxReceiveCount = 5 })
  tags = {
    "queuecap:retry_rate" = "0.05"
  }
}

resource "aws_sqs_queue" "invoices_dlq" {
  name                      = "invoices-dlq"
  message_retention_seconds = 1209600
}

resource "aws_lambda_function" "render" {
  function_name = "render-invoice"
  role          = "arn:aws:iam::123456789012:role/render-invoice"
  timeout       = 30
}

resource "aws_lambda_event_source_mapping" "invoices" {
  event_source_arn                   = aws_sqs_queue.invoices.arn
  function_name                      = aws_lambda_function.render.arn
  batch_size                         = 10
  maximum_batching_window_in_seconds = var.window_seconds
}

resource "aws_sqs_queue" "receipts" {
  name                       = "receipts"
  visibility_timeout_seconds = 200
  redrive_policy             = jsonencode({ deadLetterTargetArn = aws_sqs_queue.invoices_dlq.arn, maxReceiveCount = 5 })
}

resource "aws_lambda_function" "mail" {
  function_name = "mail-receipt"
  role          = "arn:aws:iam::123456789012:role/mail-receipt"
  timeout       = 30
}

resource "aws_lambda_event_source_mapping" "receipts" {
  event_source_arn                   = aws_sqs_queue.receipts.arn
  function_name                      = aws_lambda_function.mail.arn
  batch_size                         = 100
  maximum_batching_window_in_seconds = var.window_seconds
  function_response_types            = var.response_types
}
