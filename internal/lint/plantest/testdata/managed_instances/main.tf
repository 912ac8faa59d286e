# Lambda Managed Instances, read from the plan: a function whose capacity
# provider's max_vcpu_count (from a variable, known only through
# terraform.tfvars) allows 20 ÷ 2 vCPUs per execution environment = 10
# environments × 4 = 40 concurrent invocations, 400 msg/s for 500 msg/s
# arriving (queuecap_zero_surplus, at max_vcpu_count); and a function on a
# capacity provider without a scaling configuration, whose concurrency
# the configuration does not bound (a skip). The provider's
# capacity_provider_scaling_config is a list of objects, not a block.

variable "vcpus" {
  type = number
}

resource "aws_sqs_queue" "events" {
  name = "events"
  tags = {
    "queuecap:arrival_rate" = "500"
  }
}

resource "aws_lambda_capacity_provider" "workers" {
  name = "workers"

  capacity_provider_scaling_config = [{
    max_vcpu_count   = var.vcpus
    scaling_mode     = "Manual"
    scaling_policies = []
  }]

  permissions_config {
    capacity_provider_operator_role_arn = "arn:aws:iam::123456789012:role/lambda-operator"
  }

  vpc_config {
    subnet_ids         = ["subnet-0123456789abcdef0"]
    security_group_ids = ["sg-0123456789abcdef0"]
  }
}

resource "aws_lambda_function" "handler" {
  function_name = "events-handler"
  role          = "arn:aws:iam::123456789012:role/events-handler"
  memory_size   = 4096
  tags = {
    "queuecap:per_consumer_rate" = "10"
  }

  capacity_provider_config {
    lambda_managed_instances_capacity_provider_config {
      capacity_provider_arn                     = aws_lambda_capacity_provider.workers.arn
      per_execution_environment_max_concurrency = 4
      execution_environment_memory_gib_per_vcpu = 2
    }
  }
}

resource "aws_lambda_event_source_mapping" "events" {
  event_source_arn        = aws_sqs_queue.events.arn
  function_name           = aws_lambda_function.handler.arn
  function_response_types = ["ReportBatchItemFailures"]
}

resource "aws_sqs_queue" "audit" {
  name = "audit"
  tags = {
    "queuecap:arrival_rate" = "50"
  }
}

resource "aws_lambda_capacity_provider" "shared" {
  name = "shared"

  permissions_config {
    capacity_provider_operator_role_arn = "arn:aws:iam::123456789012:role/lambda-operator"
  }

  vpc_config {
    subnet_ids         = ["subnet-0123456789abcdef0"]
    security_group_ids = ["sg-0123456789abcdef0"]
  }
}

resource "aws_lambda_function" "auditor" {
  function_name = "auditor"
  role          = "arn:aws:iam::123456789012:role/auditor"
  tags = {
    "queuecap:per_consumer_rate" = "10"
  }

  capacity_provider_config {
    lambda_managed_instances_capacity_provider_config {
      capacity_provider_arn = aws_lambda_capacity_provider.shared.arn
    }
  }
}

resource "aws_lambda_event_source_mapping" "audit" {
  event_source_arn        = aws_sqs_queue.audit.arn
  function_name           = aws_lambda_function.auditor.arn
  function_response_types = ["ReportBatchItemFailures"]
}
