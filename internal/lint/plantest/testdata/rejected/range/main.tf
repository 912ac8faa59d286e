resource "aws_sqs_queue" "orders" {
  name                      = "orders"
  message_retention_seconds = length(range(2000))
}
