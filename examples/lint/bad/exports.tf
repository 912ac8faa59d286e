# Exports: a nightly job drops an hour of exports at once, and a Lambda
# function writes them out, one export a second per invocation.
resource "aws_sqs_queue" "exports_dlq" {
  name                      = "exports-dlq"
  message_retention_seconds = 1209600
}

resource "aws_sqs_queue" "exports" {
  name = "exports"
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.exports_dlq.arn
    maxReceiveCount     = 5
  })

  tags = {
    team                    = "reporting"
    "queuecap:arrival_rate" = 100
    "queuecap:max_backlog"  = 360000 # the nightly drop
    "queuecap:rto_seconds"  = 400
  }
}

resource "aws_lambda_function" "write_exports" {
  function_name = "write-exports"
  role          = "arn:aws:iam::123456789012:role/write-exports"
  runtime       = "python3.12"
  handler       = "app.handler"
  filename      = "build/write_exports.zip"

  tags = {
    team                         = "reporting"
    "queuecap:per_consumer_rate" = 1
  }
}

resource "aws_lambda_event_source_mapping" "exports" {
  event_source_arn        = aws_sqs_queue.exports.arn
  function_name           = aws_lambda_function.write_exports.arn
  function_response_types = ["ReportBatchItemFailures"]

  # BAD (queuecap_unreachable_within_rto): standard mode's 1,250 concurrent
  # invokes would clear the drop in 313 s, but the mapping starts at the 100
  # the arrivals keep busy and adds at most 300 a minute: 428 s, over 400.
}

resource "aws_cloudwatch_metric_alarm" "exports_dlq_not_empty" {
  alarm_name          = "exports-dlq-not-empty"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  dimensions          = { QueueName = aws_sqs_queue.exports_dlq.name }
  statistic           = "Maximum"
  period              = 300
  evaluation_periods  = 1
  comparison_operator = "GreaterThanThreshold"
  threshold           = 0
  alarm_actions       = [aws_sns_topic.alerts.arn]
}
