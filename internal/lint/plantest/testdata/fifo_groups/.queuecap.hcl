queue "aws_sqs_queue.orders" {
  arrival_rate   = 100
  message_groups = 8
}

queue "aws_sqs_queue.images" {
  arrival_rate       = 150
  message_size_bytes = 200000
}
