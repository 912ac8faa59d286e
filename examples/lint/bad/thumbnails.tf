# Thumbnails: a Lambda function renders uploaded images, 2 a second per
# invocation; its mapping moved to provisioned mode.
resource "aws_sqs_queue" "thumbnails_dlq" {
  name                      = "thumbnails-dlq"
  message_retention_seconds = 1209600
}

resource "aws_sqs_queue" "thumbnails" {
  name = "thumbnails"
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.thumbnails_dlq.arn
    maxReceiveCount     = 5
  })

  tags = {
    team                    = "media"
    "queuecap:arrival_rate" = 50
  }
}

resource "aws_lambda_function" "render_thumbnails" {
  function_name = "render-thumbnails"
  role          = "arn:aws:iam::123456789012:role/render-thumbnails"
  runtime       = "python3.12"
  handler       = "app.handler"
  filename      = "build/render_thumbnails.zip"

  tags = {
    team                         = "media"
    "queuecap:per_consumer_rate" = 2
  }
}

resource "aws_lambda_event_source_mapping" "thumbnails" {
  event_source_arn        = aws_sqs_queue.thumbnails.arn
  function_name           = aws_lambda_function.render_thumbnails.arn
  function_response_types = ["ReportBatchItemFailures"]

  # BAD (queuecap_conflicting_concurrency): maximum_concurrency from before
  # provisioned mode; AWS takes one or the other.
  scaling_config {
    maximum_concurrency = 100
  }
  provisioned_poller_config {
    minimum_pollers = 2
    maximum_pollers = 20
  }
}

resource "aws_cloudwatch_metric_alarm" "thumbnails_dlq_not_empty" {
  alarm_name          = "thumbnails-dlq-not-empty"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  dimensions          = { QueueName = aws_sqs_queue.thumbnails_dlq.name }
  statistic           = "Maximum"
  period              = 300
  evaluation_periods  = 1
  comparison_operator = "GreaterThanThreshold"
  threshold           = 0
  alarm_actions       = [aws_sns_topic.alerts.arn]
}
