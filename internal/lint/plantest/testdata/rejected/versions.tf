terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
    queuecap = {
      source = "queuecap/queuecap"
    }
  }
}
