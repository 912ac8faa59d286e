# OpenTofu reads worker_override.tofu in place of this file.
resource "aws_lambda_function" "worker" {
  function_name = "worker"
  timeout       = 20
}
