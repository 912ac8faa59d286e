# Alarms for queues that do not exist yet: their generated names are
# unknown at plan, the thresholds and alarm names are not, so for_each
# plans (keyed by the queues' own for_each keys).
resource "aws_sqs_queue" "q" {
  for_each    = toset(["orders", "billing"])
  name_prefix = "${each.key}-"
}

locals {
  alarms = merge([for k, q in aws_sqs_queue.q : {
    for a in provider::queuecap::alarm_plan({
      arrival_rate      = 5000
      sla_seconds       = 10
      per_consumer_rate = 10
      rto_seconds       = 1800
      retry_rate        = 0.2
      avg_retries       = 2
      queue_name        = q.name
    }).alarms : "${k}-${a.name}" => a
  }]...)
}

resource "aws_cloudwatch_metric_alarm" "q" {
  for_each = local.alarms

  alarm_name          = each.key
  alarm_description   = each.value.description
  comparison_operator = each.value.comparison_operator
  threshold           = each.value.threshold # depth_above_sla: 5,000 × 1.4 × 10 = 70,000 messages
  evaluation_periods  = each.value.evaluation_periods
  datapoints_to_alarm = each.value.datapoints_to_alarm
  treat_missing_data  = each.value.treat_missing_data
  metric_name         = each.value.metric_name
  namespace           = each.value.namespace
  statistic           = each.value.statistic
  period              = each.value.period
  dimensions          = each.value.dimensions

  dynamic "metric_query" {
    for_each = each.value.metric_queries
    content {
      id          = metric_query.value.id
      expression  = metric_query.value.expression
      label       = metric_query.value.label
      return_data = metric_query.value.return_data

      dynamic "metric" {
        for_each = metric_query.value.metric == null ? [] : [metric_query.value.metric]
        content {
          metric_name = metric.value.metric_name
          namespace   = metric.value.namespace
          stat        = metric.value.stat
          period      = metric.value.period
          dimensions  = metric.value.dimensions
        }
      }
    }
  }
}
