variable "name" {
  type = string
}

variable "queue_arn" {
  type = string
}

resource "aws_lambda_function" "fn" {
  function_name = var.name
  role          = "arn:aws:iam::123456789012:role/${var.name}"
  timeout       = 60
}

resource "aws_lambda_event_source_mapping" "m" {
  event_source_arn = var.queue_arn
  function_name    = aws_lambda_function.fn.arn
}
