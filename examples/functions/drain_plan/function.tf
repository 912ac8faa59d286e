locals {
  drain = provider::queuecap::drain_plan({
    backlog         = 380000
    arrival_rate    = 380
    completion_rate = 520
  })
}

output "drain" {
  value = {
    net_rate      = local.drain.net_rate      # 140
    drain_seconds = local.drain.drain_seconds # 2714.29, about 45 minutes
    wait_seconds  = local.drain.wait_seconds  # 730.77
  }
}
