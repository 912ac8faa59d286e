resource "aws_sqs_queue" "events" {
  name = "events"
}

resource "aws_lambda_function" "events" {
  function_name = "events"
  timeout       = 30
}

resource "aws_lambda_event_source_mapping" "events" {
  event_source_arn = aws_sqs_queue.events.arn
  function_name    = aws_lambda_function.events.arn
}
