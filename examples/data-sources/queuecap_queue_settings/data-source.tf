# Settings for the orders queue: 10,000 msg/s, 32 consumers of 400 msg/s
# at most (capacity_plan's required_consumers), a worst backlog of 5 M and
# a Lambda consumer with a 30 s timeout.
data "queuecap_queue_settings" "orders" {
  arrival_rate           = 10000
  per_consumer_rate      = 400
  consumers              = 32
  max_backlog            = 5000000
  lambda_timeout_seconds = 30
}

resource "aws_sqs_queue" "orders_dlq" {
  name                      = "orders-dlq"
  message_retention_seconds = data.queuecap_queue_settings.orders.dead_letter_message_retention_seconds # 1209600
}

resource "aws_sqs_queue" "orders" {
  name                       = "orders"
  visibility_timeout_seconds = data.queuecap_queue_settings.orders.visibility_timeout_seconds # 180
  message_retention_seconds  = data.queuecap_queue_settings.orders.message_retention_seconds  # 345600
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.orders_dlq.arn
    maxReceiveCount     = data.queuecap_queue_settings.orders.max_receive_count # 5
  })
}
