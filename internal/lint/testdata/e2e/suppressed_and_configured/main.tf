# queuecap-ignore-file: queuecap_visibility_timeout_too_short # long jobs checkpoint themselves

resource "aws_sqs_queue" "reports" {
  name                       = "reports"
  visibility_timeout_seconds = 300
  tags = {
    "queuecap:arrival_rate" = 5
    "queuecap:sla_seconds"  = 60
  }
}

resource "aws_lambda_function" "reports" {
  function_name = "reports"
  timeout       = 900
  tags          = { "queuecap:per_consumer_rate" = 0.1 }
}

resource "aws_lambda_event_source_mapping" "reports" {
  event_source_arn = aws_sqs_queue.reports.arn
  function_name    = aws_lambda_function.reports.function_name
  scaling_config {
    maximum_concurrency = 50 # queuecap-ignore: queuecap_zero_surplus # batch window, reviewed in OPS-7
  }
}

resource "aws_cloudwatch_metric_alarm" "reports_depth" {
  alarm_name          = "reports-depth"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  comparison_operator = "GreaterThanThreshold"
  # queuecap-ignore: queuecap_depth_alarm_after_sla, queuecap_depth_only_scaling
  threshold  = 1000
  dimensions = { QueueName = aws_sqs_queue.reports.name }
}
