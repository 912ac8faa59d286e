# A consumer's queue, dead-lettering into the parent's, and its mapping.

variable "name" {
  type = string
}

variable "dlq_arn" {
  type = string
}

resource "aws_sqs_queue" "q" {
  name                       = var.name
  visibility_timeout_seconds = 45
  redrive_policy = jsonencode({
    deadLetterTargetArn = var.dlq_arn
    maxReceiveCount     = 3
  })
}

resource "aws_lambda_event_source_mapping" "q" {
  event_source_arn = aws_sqs_queue.q.arn
  function_name    = var.name
  batch_size       = 25
}

output "queue_arn" {
  value = aws_sqs_queue.q.arn
}
