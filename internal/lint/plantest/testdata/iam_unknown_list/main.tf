# testdata/iam with the policy document's resources a list the plan does
# not know as a whole (compact() over an ARN known only after apply): the
# plan gives no type for it, and the role links the queue as the HCL does.
resource "aws_sqs_queue" "jobs" {
  name = "jobs"
  tags = { "queuecap:arrival_rate" = 100 }
}

resource "aws_iam_role" "worker" {
  name               = "worker"
  assume_role_policy = jsonencode({ Version = "2012-10-17", Statement = [{ Effect = "Allow", Action = "sts:AssumeRole", Principal = { Service = "lambda.amazonaws.com" } }] })
}

data "aws_iam_policy_document" "consume" {
  statement {
    actions   = ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes"]
    resources = compact([aws_sqs_queue.jobs.arn])
  }
}

resource "aws_iam_role_policy" "consume" {
  role   = aws_iam_role.worker.id
  policy = data.aws_iam_policy_document.consume.json
}

resource "aws_lambda_function" "worker" {
  function_name                  = "worker"
  role                           = aws_iam_role.worker.arn
  reserved_concurrent_executions = 10
  tags                           = { "queuecap:per_consumer_rate" = "10" }
}
