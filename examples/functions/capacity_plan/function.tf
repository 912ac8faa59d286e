locals {
  plan = provider::queuecap::capacity_plan({
    arrival_rate      = 10000
    per_consumer_rate = 400
    max_backlog       = 5000000
    rto_seconds       = 1800
  })
}

output "fleet" {
  value = {
    min_size = local.plan.steady_state_consumers # 25
    max_size = local.plan.required_consumers     # 32
    overhead = local.plan.overhead               # 0.28
  }
}
