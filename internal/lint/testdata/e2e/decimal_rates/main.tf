# Small decimal rates, as a batch queue declares them. In float64 the
# effective arrival rate 0.2 × (1 + 0.2 × 2) is 0.27999999999999997; the
# message and the facts both say 0.28, the capacity 4 × 0.07.

resource "aws_sqs_queue" "reports_dlq" {
  name = "reports-dlq"
}

resource "aws_sqs_queue" "reports" {
  name = "reports"
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.reports_dlq.arn
    maxReceiveCount     = 5
  })
  tags = {
    "queuecap:arrival_rate" = 0.2
    "queuecap:retry_rate"   = 0.2
    "queuecap:avg_retries"  = 2
  }
}

resource "aws_ecs_service" "renderer" {
  name          = "report-renderer"
  cluster       = "batch"
  desired_count = 4
  tags = {
    "queuecap:per_consumer_rate" = 0.07
    "queuecap:queue"             = "aws_sqs_queue.reports"
  }
}
