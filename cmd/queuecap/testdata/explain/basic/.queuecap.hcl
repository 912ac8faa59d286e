queue "aws_sqs_queue.orders" {
  rto_seconds = 900
}

queue "aws_sqs_queue.order" {
  sla_seconds = 60
}
