# ledger: every order event, in order per order, for the accounting ledger:
# a FIFO queue whose message group is the order ID, written by a Lambda
# function. Rates are declared as tags, as for notifications.

resource "aws_sqs_queue" "ledger_dlq" {
  name                      = "ledger-dlq.fifo"
  fifo_queue                = true
  message_retention_seconds = 1209600
}

resource "aws_sqs_queue" "ledger" {
  name       = "ledger.fifo"
  fifo_queue = true
  # FIXED: high throughput, both settings, in a Region whose quota the
  # linter knows: 70,000 calls/s × 10 messages in us-east-1.
  fifo_throughput_limit = "perMessageGroupId"
  deduplication_scope   = "messageGroup"
  region                = "us-east-1"

  visibility_timeout_seconds = 180 # 6 × the function's 30 s timeout
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.ledger_dlq.arn
    maxReceiveCount     = 5
  })

  tags = {
    team                    = "accounting"
    "queuecap:arrival_rate" = 4000
    # Orders with events waiting at once: one consumer each at a time, so
    # at most 200 × 100 msg/s = 20,000 msg/s, not what bounds the fleet.
    "queuecap:message_groups" = 200
  }
}

resource "aws_iam_role" "write_ledger" {
  name = "write-ledger"
  assume_role_policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect    = "Allow"
      Action    = "sts:AssumeRole"
      Principal = { Service = "lambda.amazonaws.com" }
    }]
  })
}

resource "aws_lambda_function" "write_ledger" {
  function_name = "write-ledger"
  role          = aws_iam_role.write_ledger.arn
  runtime       = "python3.12"
  handler       = "app.handler"
  filename      = "build/write_ledger.zip"
  timeout       = 30

  tags = {
    team                         = "accounting"
    "queuecap:per_consumer_rate" = 100 # a batch of 10 in 0.1 s
  }
}

resource "aws_lambda_event_source_mapping" "ledger" {
  event_source_arn        = aws_sqs_queue.ledger.arn
  function_name           = aws_lambda_function.write_ledger.arn
  batch_size              = 10
  function_response_types = ["ReportBatchItemFailures"] # a failed message returns alone

  scaling_config {
    maximum_concurrency = 50 # 5,000 msg/s, if as many message groups are active
  }
}

resource "aws_cloudwatch_metric_alarm" "ledger_dlq_not_empty" {
  alarm_name          = "ledger-dlq-not-empty"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  dimensions          = { QueueName = aws_sqs_queue.ledger_dlq.name }
  statistic           = "Maximum"
  period              = 300
  evaluation_periods  = 1
  comparison_operator = "GreaterThanThreshold"
  threshold           = 0
  alarm_actions       = [aws_sns_topic.alerts.arn]
}
