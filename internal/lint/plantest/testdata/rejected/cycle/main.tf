locals {
  a = local.b
  b = local.a
}

resource "aws_sqs_queue" "orders" {
  name                      = "orders"
  message_retention_seconds = local.a
}
