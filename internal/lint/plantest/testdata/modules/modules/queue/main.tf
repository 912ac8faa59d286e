variable "name" {
  type = string
}

resource "aws_sqs_queue" "q" {
  name           = var.name
  redrive_policy = jsonencode({ deadLetterTargetArn = "arn:aws:sqs:us-east-1:123456789012:${var.name}-dlq", maxReceiveCount = 5 })
}

output "arn" {
  value = aws_sqs_queue.q.arn
}
