# queuecap lint configuration for examples/lint. The CLI reads .queuecap.hcl
# from the working directory by default; this one is passed explicitly:
#
#   go run ./cmd/queuecap lint --config examples/lint/queuecap.hcl examples/lint/bad

config {
  minimum_failure_severity = "warning"
}

# The payments queue and its ECS service carry no tags (the platform team's
# module owns them), so their rates are declared here.
queue "aws_sqs_queue.payments" {
  arrival_rate      = 800  # charges/s at the peak
  retry_rate        = 0.25 # a quarter of charges hit a card-network timeout...
  avg_retries       = 1    # ...and are retried once
  per_consumer_rate = 50   # charges/s one task completes
  consumer          = "aws_ecs_service.payments"
}
