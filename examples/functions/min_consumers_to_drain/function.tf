# The seed's backlog of 3.6 M at 10,000 msg/s, 400 msg/s per worker, a 30 s
# timeout and ten hours: 26 workers drain it without retries, but with 1.5
# retries per timeout the fleet needs 63.
output "without_retries" {
  value = provider::queuecap::min_consumers_to_drain(10000, 400, 3600000, 0, 30, 36000) # 26
}

output "retry_storm" {
  value = provider::queuecap::min_consumers_to_drain(10000, 400, 3600000, 1.5, 30, 36000) # 63
}

# Within a 30-minute RTO (1,800 one-second steps).
output "retry_storm_within_rto" {
  value = provider::queuecap::min_consumers_to_drain(10000, 400, 3600000, 1.5, 30, 1800) # 68
}
