# One place for the names: the plan's metric dimensions and the resources
# read the same locals.
locals {
  queue = "orders"
  group = "orders-workers"
}

# 10,000 msg/s, 400 msg/s per instance, a 10 s acceptable latency, a backlog
# of 5 M to clear within 30 minutes, 20 % headroom, and instances that take
# 3 minutes to start: min 25, desired 30, max 33 (32 without the lag).
data "queuecap_fleet" "orders" {
  arrival_rate             = 10000
  per_consumer_rate        = 400
  sla_seconds              = 10
  max_backlog              = 5000000
  rto_seconds              = 1800
  min_headroom             = 0.2
  provisioning_lag_seconds = 180
  queue_name               = local.queue
  autoscaling_group_name   = local.group
}

resource "aws_autoscaling_group" "workers" {
  name             = local.group
  min_size         = data.queuecap_fleet.orders.min_size
  desired_capacity = data.queuecap_fleet.orders.desired_capacity
  max_size         = data.queuecap_fleet.orders.max_size
  # ...
}

# Target tracking on backlog per instance (4,000 messages), each nested
# block of the plan a list that a dynamic block takes as it is.
resource "aws_autoscaling_policy" "backlog" {
  name                      = "orders-backlog-per-instance"
  autoscaling_group_name    = aws_autoscaling_group.workers.name
  policy_type               = data.queuecap_fleet.orders.ec2_scaling_policy.policy_type
  estimated_instance_warmup = data.queuecap_fleet.orders.ec2_scaling_policy.estimated_instance_warmup

  dynamic "target_tracking_configuration" {
    for_each = data.queuecap_fleet.orders.ec2_scaling_policy.target_tracking_configuration
    iterator = tt
    content {
      target_value     = tt.value.target_value
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

# For a Lambda consumer instead: maximum_concurrency = max_size.
resource "aws_lambda_event_source_mapping" "orders" {
  event_source_arn = aws_sqs_queue.orders.arn
  function_name    = aws_lambda_function.consumer.arn

  dynamic "scaling_config" {
    for_each = data.queuecap_fleet.orders.lambda_scaling_config
    content {
      maximum_concurrency = scaling_config.value.maximum_concurrency
    }
  }

  # With lambda_concurrency_mode = "provisioned" the plan gives pollers
  # instead (ceil(concurrency / 10) each) and lambda_scaling_config is empty.
  dynamic "provisioned_poller_config" {
    for_each = data.queuecap_fleet.orders.lambda_provisioned_poller_config
    content {
      minimum_pollers = provisioned_poller_config.value.minimum_pollers
      maximum_pollers = provisioned_poller_config.value.maximum_pollers
    }
  }
}
