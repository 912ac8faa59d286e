# mapping.tofu.json replaces mapping.tf.json, which names a retired function.
resource "aws_lambda_function" "worker" {
  function_name = "worker"
  timeout       = 30
}
