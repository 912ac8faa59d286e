locals {
  storm = provider::queuecap::retry_storm_plan({
    arrival_rate        = 10000
    per_consumer_rate   = 400
    consumers           = 32
    backlog             = 3600000
    retries_per_timeout = 1.5
  })
}

output "storm" {
  value = {
    drains                 = local.storm.drains                 # false
    min_consumers_to_drain = local.storm.min_consumers_to_drain # 63
  }
}
