# FIFO queues against their throughput ceilings. The ledger, without high
# throughput, takes 3,000 msg/s with full batches, under its 2,500 × (1 +
# 0.4 × 1) = 3,500 msg/s; the events queue has high throughput in
# us-east-2, 19,000 × 10 = 190,000 msg/s, under its 200,000; the audit
# queue has high throughput in us-east-1 and room to spare.
resource "aws_sqs_queue" "ledger" {
  name       = "ledger.fifo"
  fifo_queue = true
  tags = {
    "queuecap:arrival_rate" = 2500
    "queuecap:retry_rate"   = 0.4
    "queuecap:avg_retries"  = 1
  }
}

resource "aws_sqs_queue" "events" {
  name                  = "events.fifo"
  fifo_queue            = true
  fifo_throughput_limit = "perMessageGroupId"
  deduplication_scope   = "messageGroup"
  region                = "us-east-2"
  tags                  = { "queuecap:arrival_rate" = 200000 }
}

resource "aws_sqs_queue" "audit" {
  name                  = "audit.fifo"
  fifo_queue            = true
  fifo_throughput_limit = "perMessageGroupId"
  deduplication_scope   = "messageGroup"
  region                = "us-east-1"
  tags                  = { "queuecap:arrival_rate" = 200000 }
}
