# Alerting rules for the reports queue: 500 jobs/s, a 10 s SLA, workers
# completing 10 jobs/s each, and 30 minutes to clear a backlog.
data "queuecap_prometheus_rules" "reports" {
  arrival_rate      = 500
  sla_seconds       = 10
  per_consumer_rate = 10
  rto_seconds       = 1800
  queue_name        = "reports"
  age_metric        = "queue_oldest_job_age_seconds"
}

# Amazon Managed Service for Prometheus takes the rule file as it is.
resource "aws_prometheus_rule_group_namespace" "reports" {
  name         = "queuecap-reports"
  workspace_id = aws_prometheus_workspace.main.id
  data         = data.queuecap_prometheus_rules.reports.rule_group_yaml
}

# The Prometheus Operator: the rule file is a PrometheusRule's spec.
resource "kubernetes_manifest" "reports_rules" {
  manifest = {
    apiVersion = "monitoring.coreos.com/v1"
    kind       = "PrometheusRule"
    metadata   = { name = "queuecap-reports", namespace = "monitoring" }
    spec       = yamldecode(data.queuecap_prometheus_rules.reports.rule_group_yaml)
  }
}
