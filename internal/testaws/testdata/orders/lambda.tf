data "aws_iam_policy_document" "assume_lambda" {
  statement {
    actions = ["sts:AssumeRole"]
    principals {
      type        = "Service"
      identifiers = ["lambda.amazonaws.com"]
    }
  }
}

# Its resources are unknown until apply, so Terraform reads it at apply.
data "aws_iam_policy_document" "consume" {
  statement {
    sid       = "Consume"
    actions   = ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes"]
    resources = [aws_sqs_queue.orders.arn]
  }
}

resource "aws_iam_role" "consumer" {
  name               = "orders-consumer"
  assume_role_policy = data.aws_iam_policy_document.assume_lambda.json
}

resource "aws_iam_role_policy" "consume" {
  role   = aws_iam_role.consumer.id
  policy = data.aws_iam_policy_document.consume.json
}

resource "aws_iam_policy" "logs" {
  name_prefix = "orders-logs-"
  policy = jsonencode({
    Version   = "2012-10-17"
    Statement = [{ Effect = "Allow", Action = "logs:*", Resource = "*" }]
  })
}

resource "aws_iam_role_policy_attachment" "logs" {
  role       = aws_iam_role.consumer.name
  policy_arn = aws_iam_policy.logs.arn
}

resource "aws_iam_instance_profile" "workers" {
  name = "orders-workers"
  role = aws_iam_role.consumer.name
}

resource "aws_lambda_function" "consumer" {
  function_name                  = "orders-consumer"
  role                           = aws_iam_role.consumer.arn
  filename                       = "consumer.zip"
  handler                        = "index.handler"
  runtime                        = "nodejs20.x"
  timeout                        = 20
  reserved_concurrent_executions = var.max_consumers
}

resource "aws_lambda_event_source_mapping" "orders" {
  event_source_arn = aws_sqs_queue.orders.arn
  function_name    = aws_lambda_function.consumer.arn
  batch_size       = 10

  scaling_config {
    maximum_concurrency = var.max_consumers
  }
}

resource "aws_pipes_pipe" "orders" {
  name     = "orders-to-consumer"
  role_arn = aws_iam_role.consumer.arn
  source   = aws_sqs_queue.orders.arn
  target   = aws_lambda_function.consumer.arn

  source_parameters {
    sqs_queue_parameters {
      batch_size = 5
    }
  }
}
