locals {
  fleet = provider::queuecap::fleet_plan({
    arrival_rate             = 10000
    per_consumer_rate        = 400
    sla_seconds              = 10
    max_backlog              = 5000000
    rto_seconds              = 1800
    min_headroom             = 0.2
    provisioning_lag_seconds = 180
    queue_name               = "orders"
    ecs_cluster_name         = "main"
    ecs_service_name         = "orders-consumer"
  })
}

resource "aws_appautoscaling_target" "consumer" {
  service_namespace  = local.fleet.ecs_scaling_policy.service_namespace
  scalable_dimension = local.fleet.ecs_scaling_policy.scalable_dimension
  resource_id        = "service/main/orders-consumer"
  min_capacity       = local.fleet.min_size # 25
  max_capacity       = local.fleet.max_size # 33
}

# Target tracking on backlog per task, RunningTaskCount from Container Insights.
resource "aws_appautoscaling_policy" "backlog" {
  name               = "orders-backlog-per-task"
  policy_type        = local.fleet.ecs_scaling_policy.policy_type
  service_namespace  = aws_appautoscaling_target.consumer.service_namespace
  resource_id        = aws_appautoscaling_target.consumer.resource_id
  scalable_dimension = aws_appautoscaling_target.consumer.scalable_dimension

  dynamic "target_tracking_scaling_policy_configuration" {
    for_each = local.fleet.ecs_scaling_policy.target_tracking_scaling_policy_configuration
    iterator = tt
    content {
      target_value     = tt.value.target_value # 4000
      disable_scale_in = tt.value.disable_scale_in
      dynamic "customized_metric_specification" {
        for_each = tt.value.customized_metric_specification
        iterator = spec
        content {
          dynamic "metrics" {
            for_each = spec.value.metrics
            iterator = m
            content {
              id          = m.value.id
              label       = m.value.label
              expression  = m.value.expression
              return_data = m.value.return_data
              dynamic "metric_stat" {
                for_each = m.value.metric_stat
                iterator = ms
                content {
                  stat = ms.value.stat
                  dynamic "metric" {
                    for_each = ms.value.metric
                    content {
                      metric_name = metric.value.metric_name
                      namespace   = metric.value.namespace
                      dynamic "dimensions" {
                        for_each = metric.value.dimensions
                        content {
                          name  = dimensions.value.name
                          value = dimensions.value.value
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
}
