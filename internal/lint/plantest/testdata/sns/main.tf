# A queue whose arrivals are what two SNS topics publish, each subscribed
# with protocol "sqs" and each declaring its rate: 60 + 40 msg/s arrive,
# and the Lambda function that consumes the queue, 10 concurrent × 10
# msg/s, leaves no surplus. The topics' and the queue's ARNs are known only
# after apply.
resource "aws_sns_topic" "orders" {
  name = "orders"
  tags = { "queuecap:arrival_rate" = 60 }
}

resource "aws_sns_topic" "refunds" {
  name = "refunds"
  tags = { "queuecap:arrival_rate" = 40 }
}

resource "aws_sqs_queue" "ledger" {
  name                       = "ledger"
  visibility_timeout_seconds = 180
}

resource "aws_sns_topic_subscription" "orders" {
  topic_arn = aws_sns_topic.orders.arn
  protocol  = "sqs"
  endpoint  = aws_sqs_queue.ledger.arn
}

resource "aws_sns_topic_subscription" "refunds" {
  topic_arn            = aws_sns_topic.refunds.arn
  protocol             = "sqs"
  endpoint             = aws_sqs_queue.ledger.arn
  raw_message_delivery = true
}

resource "aws_lambda_function" "ledger" {
  function_name                  = "ledger"
  role                           = "arn:aws:iam::123456789012:role/ledger"
  timeout                        = 30
  reserved_concurrent_executions = 10
  tags                           = { "queuecap:per_consumer_rate" = 10 }
}

resource "aws_lambda_event_source_mapping" "ledger" {
  event_source_arn = aws_sqs_queue.ledger.arn
  function_name    = aws_lambda_function.ledger.arn
}
