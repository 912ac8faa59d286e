# The AWS provider named with its Terraform registry's hostname, which
# OpenTofu does not assume.

terraform {
  required_providers {
    aws = {
      source = "registry.terraform.io/hashicorp/aws"
    }
  }
}

resource "aws_sqs_queue" "q" {
  name = "q"
}
