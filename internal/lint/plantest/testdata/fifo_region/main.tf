# A high-throughput FIFO queue whose Region only the provider block says:
# the HCL leaves it unknown, and 200,000 msg/s lies between what every
# Region takes (3,000 msg/s) and what the highest take (700,000 msg/s), so
# the HCL skips it; the plan has the Region, us-east-2, whose 19,000 × 10 =
# 190,000 msg/s it exceeds.
provider "aws" {
  region = "us-east-2"
}

resource "aws_sqs_queue" "events" {
  name                  = "events.fifo"
  fifo_queue            = true
  fifo_throughput_limit = "perMessageGroupId"
  deduplication_scope   = "messageGroup"
  tags                  = { "queuecap:arrival_rate" = 200000 }
}
