# Alarms for the orders queue: 5,000 msg/s, a 10 s SLA, workers completing
# 10 msg/s each, and 30 minutes to clear a backlog.
data "queuecap_alarm_thresholds" "orders" {
  arrival_rate           = 5000
  sla_seconds            = 10
  per_consumer_rate      = 10
  rto_seconds            = 1800
  queue_name             = "orders"
  dead_letter_queue_name = "orders-dlq"
}

# One aws_cloudwatch_metric_alarm per recommended alarm, with no glue code.
resource "aws_cloudwatch_metric_alarm" "orders" {
  for_each = { for a in data.queuecap_alarm_thresholds.orders.alarms : a.name => a }

  alarm_name          = "orders-${each.key}"
  alarm_description   = each.value.description
  comparison_operator = each.value.comparison_operator
  threshold           = each.value.threshold
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
