# Prometheus alerting rules for a job queue, every threshold derived from
# declared rates by queuecap instead of hand-picked constants.
#
# 500 jobs/s arrive, a worker completes 10 jobs/s, a job must wait at most
# 10 s (SLA), a backlog must clear within 30 minutes (RTO) and a new worker
# takes 3 minutes to start. The metrics are the seeds' (queue_depth,
# jobs_enqueued_total, jobs_completed_total, label queue) plus a gauge of
# the oldest job's age.
#
# It uses only the queuecap provider, so it plans offline. Write the rule
# file with
#
#   terraform apply && terraform output -raw rule_group_yaml > queue.rules.yml
#   promtool check rules queue.rules.yml
#
# or hand the same YAML to Amazon Managed Service for Prometheus:
#
#   resource "aws_prometheus_rule_group_namespace" "reports" {
#     name         = "queuecap-reports"
#     workspace_id = aws_prometheus_workspace.main.id
#     data         = data.queuecap_prometheus_rules.reports.rule_group_yaml
#   }
#
# or to the Prometheus Operator, with `kubernetes_manifest` and the
# `prometheus_rule` output below as its `manifest`.

terraform {
  required_providers {
    queuecap = {
      source = "queuecap/queuecap"
    }
  }
}

data "queuecap_prometheus_rules" "reports" {
  arrival_rate             = 500
  sla_seconds              = 10
  per_consumer_rate        = 10
  rto_seconds              = 1800
  provisioning_lag_seconds = 180
  queue_name               = "reports"
  age_metric               = "queue_oldest_job_age_seconds"
}

output "rule_group_yaml" {
  description = "A Prometheus rule file with one group: not draining, drain slower than the RTO, depth and oldest job above the SLA, depth projected by the provisioning lag."
  value       = data.queuecap_prometheus_rules.reports.rule_group_yaml
}

output "thresholds" {
  description = "The numbers in the rules: the SLA depth (500 × 10 = 5,000 jobs) and the not-draining floor (10 × 60 = 600 jobs)."
  value = {
    max_depth                = data.queuecap_prometheus_rules.reports.max_depth
    not_draining_depth_floor = data.queuecap_prometheus_rules.reports.not_draining_depth_floor
    net_rate_clamp           = data.queuecap_prometheus_rules.reports.net_rate_clamp
  }
}

output "alerts" {
  description = "Each alert's expression, by name."
  value       = { for r in data.queuecap_prometheus_rules.reports.rules : r.alert => r.expr }
}

output "prometheus_rule" {
  description = "A PrometheusRule for the Prometheus Operator: the rule file is its spec."
  value = {
    apiVersion = "monitoring.coreos.com/v1"
    kind       = "PrometheusRule"
    metadata   = { name = "queuecap-reports", namespace = "monitoring" }
    spec       = yamldecode(data.queuecap_prometheus_rules.reports.rule_group_yaml)
  }
}
