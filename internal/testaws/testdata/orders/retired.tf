# The destroy test deletes this file after an apply: its plan deletes the
# queue and its redrive policy.

resource "aws_sqs_queue" "retired" {
  name = "orders-retired"
}

resource "aws_sqs_queue_redrive_policy" "retired" {
  queue_url = aws_sqs_queue.retired.url
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.dlq.arn
    maxReceiveCount     = 3
  })
}
