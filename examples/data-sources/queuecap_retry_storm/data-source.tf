# The seed's three fleets: 10,000 msg/s arrive, a worker completes 400 msg/s,
# 3.6 M messages wait, and producers time out after 30 s.
locals {
  fleets = {
    steady_state = { consumers = 25, retries_per_timeout = 0 }   # never drains
    headroom     = { consumers = 32, retries_per_timeout = 0 }   # drains in 1,286 s
    retry_storm  = { consumers = 32, retries_per_timeout = 1.5 } # never: peak ≈ 4.4e8
  }
}

data "queuecap_retry_storm" "fleet" {
  for_each = local.fleets

  arrival_rate        = 10000
  per_consumer_rate   = 400
  consumers           = each.value.consumers
  backlog             = 3600000
  retries_per_timeout = each.value.retries_per_timeout
  rto_seconds         = 1800
}

output "drain_minutes" {
  value = {
    for name, storm in data.queuecap_retry_storm.fleet :
    name => storm.drains ? storm.drain_seconds / 60 : null
  }
}

# The fleet that survives the storm: 63 consumers (26 without retries), or
# 68 to drain within the 30-minute RTO (30 without retries, as the headroom
# formula says: 25 + 3.6 M / (400 × 1800)).
output "max_size" {
  value = data.queuecap_retry_storm.fleet["retry_storm"].min_consumers_to_drain_within_rto # 68
}
