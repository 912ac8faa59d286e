resource "aws_sqs_queue" "orders" {
  name                      = "orders"
  message_retention_seconds = 0 / 0
}
