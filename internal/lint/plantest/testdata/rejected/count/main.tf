resource "aws_sqs_queue" "orders" {
  count = -1
  name  = "orders"
}
