# notifications: order confirmations, sent by a Lambda function through an
# SQS event source mapping. Rates are declared as tags: the arrival rate on
# the queue, what one concurrent invocation completes on the function.

resource "aws_sqs_queue" "notifications_dlq" {
  name                      = "notifications-dlq"
  message_retention_seconds = 1209600
}

resource "aws_sqs_queue" "notifications" {
  name = "notifications"
  # FIXED: 6 × the function's 30 s timeout.
  visibility_timeout_seconds = 180
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.notifications_dlq.arn
    maxReceiveCount     = 5
  })

  tags = {
    team                    = "messaging"
    "queuecap:arrival_rate" = 300
    "queuecap:min_headroom" = 0.2  # at least 20 % spare capacity
    "queuecap:retry_rate"   = 0.02 # 2 % of sends fail and are retried
  }
}

resource "aws_iam_role" "send_notifications" {
  name = "send-notifications"
  assume_role_policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect    = "Allow"
      Action    = "sts:AssumeRole"
      Principal = { Service = "lambda.amazonaws.com" }
    }]
  })
}

resource "aws_lambda_function" "send_notifications" {
  function_name = "send-notifications"
  role          = aws_iam_role.send_notifications.arn
  runtime       = "python3.12"
  handler       = "app.handler"
  filename      = "build/send_notifications.zip"
  timeout       = 30

  tags = {
    team                         = "messaging"
    "queuecap:per_consumer_rate" = 10 # a batch of 10 in about a second
  }
}

resource "aws_lambda_event_source_mapping" "notifications" {
  event_source_arn = aws_sqs_queue.notifications.arn
  function_name    = aws_lambda_function.send_notifications.arn
  batch_size       = 10
  # FIXED: the function returns batchItemFailures, so only the failed
  # sends return to the queue.
  function_response_types = ["ReportBatchItemFailures"]

  # FIXED: 40 × 10 msg/s = 400 msg/s, 33 % above the 300 msg/s that arrive
  # (at least ceil(300 × 1.2 / 10) = 36 for the 20 % minimum).
  scaling_config {
    maximum_concurrency = 40
  }
}

resource "aws_cloudwatch_metric_alarm" "notifications_dlq_not_empty" {
  alarm_name          = "notifications-dlq-not-empty"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  dimensions          = { QueueName = aws_sqs_queue.notifications_dlq.name }
  statistic           = "Maximum"
  period              = 300
  evaluation_periods  = 1
  comparison_operator = "GreaterThanThreshold"
  threshold           = 0
  alarm_actions       = [aws_sns_topic.alerts.arn]
}
