# 10,000 msg/s of which 20 % are retried twice: 14,000 msg/s reach the fleet.
output "effective_arrival_rate" {
  value = provider::queuecap::effective_arrival_rate(10000, 0.2, 2) # 14000
}
