locals {
  reports = provider::queuecap::prometheus_rules({
    arrival_rate      = 500
    sla_seconds       = 10
    per_consumer_rate = 10
    rto_seconds       = 1800
    retry_rate        = 0.2
    avg_retries       = 2
    queue_name        = "reports"
  })
}

output "alerts" {
  value = [for r in local.reports.rules : r.alert] # QueueNotDraining, QueueDrainSlowerThanRTO, QueueDepthAboveSLA, QueueProjectedDepthAboveSLA
}

output "max_depth" {
  value = local.reports.max_depth # 7000: 500 jobs/s × (1 + 0.2 × 2) retries × 10 s, as alarm_plan's depth_above_sla
}

output "rule_file" {
  value = local.reports.rule_group_yaml
}
