# The bounds on consumers that Terraform does not hold, declared in
# .queuecap.hcl: a FIFO queue whose 8 active message groups let 8 of its
# 25 workers take at most 80 of its 100 msg/s
# (queuecap_fifo_throughput_ceiling, and no queuecap_zero_surplus beside
# it), and a queue whose provisioned mapping's pollers (maximum_pollers
# from terraform.tfvars) carry 20 × 1 MB/s ÷ 200,000 B = 100 of its 150
# msg/s (queuecap_zero_surplus, naming the pollers' payload).

variable "image_pollers" {
  type = number
}

resource "aws_sqs_queue" "dlq" {
  name                      = "groups-dlq.fifo"
  fifo_queue                = true
  message_retention_seconds = 1209600
}

resource "aws_sqs_queue" "orders" {
  name           = "orders.fifo"
  fifo_queue     = true
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.dlq.arn, maxReceiveCount = 5 })
}

resource "aws_lambda_function" "fulfil_orders" {
  function_name                  = "fulfil-orders"
  role                           = "arn:aws:iam::123456789012:role/fulfil-orders"
  reserved_concurrent_executions = 25
  tags                           = { "queuecap:per_consumer_rate" = 10 }
}

resource "aws_lambda_event_source_mapping" "orders" {
  event_source_arn        = aws_sqs_queue.orders.arn
  function_name           = aws_lambda_function.fulfil_orders.arn
  function_response_types = ["ReportBatchItemFailures"]
}

resource "aws_sqs_queue" "image_dlq" {
  name                      = "images-dlq"
  message_retention_seconds = 1209600
}

resource "aws_sqs_queue" "images" {
  name           = "images"
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.image_dlq.arn, maxReceiveCount = 5 })
}

resource "aws_lambda_function" "resize_images" {
  function_name = "resize-images"
  role          = "arn:aws:iam::123456789012:role/resize-images"
  tags          = { "queuecap:per_consumer_rate" = 10 }
}

resource "aws_lambda_event_source_mapping" "images" {
  event_source_arn        = aws_sqs_queue.images.arn
  function_name           = aws_lambda_function.resize_images.arn
  function_response_types = ["ReportBatchItemFailures"]
  provisioned_poller_config {
    minimum_pollers = 2
    maximum_pollers = var.image_pollers
  }
}
