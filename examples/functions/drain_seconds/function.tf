# 180,000 messages, 800 msg/s arriving, 1,000 msg/s completed: 900 s.
output "drain_seconds" {
  value = provider::queuecap::drain_seconds(800, 1000, 180000) # 900
}

# Arrivals above completions: null, the backlog never drains.
output "never" {
  value = provider::queuecap::drain_seconds(1200, 1000, 180000) == null # true
}
