locals {
  reports = provider::queuecap::prometheus_rules({
    arrival_rate      = 500
    sla_seconds       = 10
    per_consumer_rate = 10
    rto_seconds       = 1800
    queue_name        = "reports"
  })
}

output "alerts" {
  value = [for r in local.reports.rules : r.alert] # QueueNotDraining, QueueDrainSlowerThanRTO, QueueDepthAboveSLA, QueueProjectedDepthAboveSLA
}

output "max_depth" {
  value = local.reports.max_depth # 5000: 500 jobs/s × 10 s
}

output "rule_file" {
  value = local.reports.rule_group_yaml
}
