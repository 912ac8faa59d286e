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

# The real queuecap provider, served beside the stand-in: read at plan, as
# its arguments are known.
data "queuecap_consumers" "workers" {
  arrival_rate      = 10000
  per_consumer_rate = 400
  max_backlog       = 5000000
  rto_seconds       = 1800
}

resource "aws_autoscaling_group" "workers" {
  name     = "workers"
  min_size = 1
  max_size = data.queuecap_consumers.workers.required_consumers
}
