# A one-hour outage at 10,000 msg/s with a 10-minute TTL: the backlog stops
# at 6 M messages instead of 36 M.
output "worst_backlog" {
  value = provider::queuecap::ttl_bounded_backlog(10000, 3600, 600, 0) # 6000000
}
