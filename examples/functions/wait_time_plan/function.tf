locals {
  wait = provider::queuecap::wait_time_plan({
    arrival_rate        = 2
    per_consumer_rate   = 1
    consumers           = 3
    target_wait_seconds = 0.5
  })
}

output "wait" {
  value = {
    probability_of_wait      = local.wait.probability_of_wait      # 0.444
    percentile_wait_seconds  = local.wait.percentile_wait_seconds  # 3.79 (p99)
    min_consumers_for_target = local.wait.min_consumers_for_target # 6
  }
}
