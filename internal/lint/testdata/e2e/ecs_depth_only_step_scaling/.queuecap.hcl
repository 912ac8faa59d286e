queue "aws_sqs_queue.transformer" {
  arrival_rate      = 12
  per_consumer_rate = 5
  max_backlog       = 20000
  rto_seconds       = 3600
}
