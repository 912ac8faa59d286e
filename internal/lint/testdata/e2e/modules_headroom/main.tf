# The queue lives in the root module; the workers, their size and their
# scaling live in a local module that receives the queue's name.

resource "aws_sqs_queue" "invoices_dlq" {
  name = "invoices-dlq"
}

resource "aws_sqs_queue" "invoices" {
  name = "invoices"
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.invoices_dlq.arn
    maxReceiveCount     = 3
  })
}

module "invoice_workers" {
  source = "./modules/worker"

  queue_name        = aws_sqs_queue.invoices.name
  arrival_rate      = 10000
  per_consumer_rate = 400
  max_backlog       = 5000000
  rto_seconds       = 1800
  spare_instances   = -2
}
