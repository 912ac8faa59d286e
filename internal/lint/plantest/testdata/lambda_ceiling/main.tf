# Lambda's SQS scaling, read from the plan: the smallest of the caps that
# apply bounds each function, and the finding names it; a standard-mode
# mapping whose ramp misses the RTO (queuecap_unreachable_within_rto); a
# provisioned-mode mapping whose maximum_pollers bind
# (queuecap_zero_surplus); and one that keeps scaling_config's
# maximum_concurrency beside provisioned_poller_config
# (queuecap_conflicting_concurrency). The pollers come from variables,
# known only through terraform.tfvars.

variable "bulk_pollers" {
  type = number
}

variable "thumbnail_pollers" {
  type = object({ minimum = number, maximum = number })
}

resource "aws_sqs_queue" "dlq" {
  name                      = "lambda-dlq"
  message_retention_seconds = 1209600
}

resource "aws_sqs_queue" "exports" {
  name           = "exports"
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.dlq.arn, maxReceiveCount = 5 })
  tags = {
    "queuecap:arrival_rate" = 100
    "queuecap:max_backlog"  = 360000
    "queuecap:rto_seconds"  = 400
  }
}

resource "aws_lambda_function" "write_exports" {
  function_name = "write-exports"
  role          = "arn:aws:iam::123456789012:role/write-exports"
  tags          = { "queuecap:per_consumer_rate" = 1 }
}

resource "aws_lambda_event_source_mapping" "exports" {
  event_source_arn        = aws_sqs_queue.exports.arn
  function_name           = aws_lambda_function.write_exports.arn
  function_response_types = ["ReportBatchItemFailures"]
}

resource "aws_sqs_queue" "bulk" {
  name           = "bulk"
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.dlq.arn, maxReceiveCount = 5 })
  tags           = { "queuecap:arrival_rate" = 2000 }
}

resource "aws_lambda_function" "load_bulk" {
  function_name = "load-bulk"
  role          = "arn:aws:iam::123456789012:role/load-bulk"
  tags          = { "queuecap:per_consumer_rate" = 10 }
}

resource "aws_lambda_event_source_mapping" "bulk" {
  event_source_arn        = aws_sqs_queue.bulk.arn
  function_name           = aws_lambda_function.load_bulk.arn
  function_response_types = ["ReportBatchItemFailures"]
  provisioned_poller_config {
    minimum_pollers = 2
    maximum_pollers = var.bulk_pollers
  }
}

resource "aws_sqs_queue" "thumbnails" {
  name           = "thumbnails"
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.dlq.arn, maxReceiveCount = 5 })
  tags           = { "queuecap:arrival_rate" = 50 }
}

resource "aws_lambda_function" "render_thumbnails" {
  function_name = "render-thumbnails"
  role          = "arn:aws:iam::123456789012:role/render-thumbnails"
  tags          = { "queuecap:per_consumer_rate" = 2 }
}

resource "aws_lambda_event_source_mapping" "thumbnails" {
  event_source_arn        = aws_sqs_queue.thumbnails.arn
  function_name           = aws_lambda_function.render_thumbnails.arn
  function_response_types = ["ReportBatchItemFailures"]
  scaling_config {
    maximum_concurrency = 100
  }
  provisioned_poller_config {
    minimum_pollers = var.thumbnail_pollers.minimum
    maximum_pollers = var.thumbnail_pollers.maximum
  }
}
