# The orders pipeline, fixed: nothing for queuecap lint to flag. It is never
# applied: `queuecap lint` reads it, Terraform does not need to.
#
#   go run ./cmd/queuecap lint --config examples/lint/queuecap.hcl examples/lint/good

terraform {
  required_version = ">= 1.5"

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 6.0" # region on a resource
    }
    queuecap = {
      source  = "queuecap/queuecap"
      version = ">= 0.1"
    }
  }
}
