locals {
  incident = provider::queuecap::ttl_backlog_plan({
    arrival_rate     = 10000
    incident_seconds = 3600
    ttl_seconds      = 600
  })
}

output "incident" {
  value = {
    unbounded_backlog   = local.incident.unbounded_backlog   # 36000000
    ttl_bounded_backlog = local.incident.ttl_bounded_backlog # 6000000
  }
}
