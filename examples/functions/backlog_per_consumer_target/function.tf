# AWS's example: 10 s acceptable latency, 0.1 s per message (10 msg/s per
# instance): track 100 messages per instance.
output "target_value" {
  value = provider::queuecap::backlog_per_consumer_target(10, 10) # 100
}
