resource "aws_sqs_queue" "orders" {
  for_each = ["orders"]
  name     = each.key
}
