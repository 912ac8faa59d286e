terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
    queuecap = {
      source = "queuecap/queuecap"
    }
  }
}

# One place for the names: the fleet plan's dimensions and the resources
# read the same locals (the group reading the plan and the plan the
# group's name would be a cycle).
locals {
  queue   = "orders"
  group   = "workers"
  cluster = "main"
  service = "orders-consumer"
}

# MATH.md's worked example: 25 steady, 30 with 20 % headroom, 33 with a
# provisioning lag of 180 s.
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
  ecs_cluster_name         = local.cluster
  ecs_service_name         = local.service
}

resource "aws_sqs_queue" "orders" {
  name           = local.queue
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.orders_dlq.arn, maxReceiveCount = 5 })
}

resource "aws_sqs_queue" "orders_dlq" {
  name                      = "orders-dlq"
  message_retention_seconds = 1209600
}

resource "aws_autoscaling_group" "workers" {
  name             = local.group
  min_size         = data.queuecap_fleet.orders.min_size
  desired_capacity = data.queuecap_fleet.orders.desired_capacity
  max_size         = data.queuecap_fleet.orders.max_size

  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
}

# The plan's blocks, each a list, dropped in with dynamic blocks and no
# other expression.
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

resource "aws_ecs_service" "consumer" {
  name            = local.service
  cluster         = local.cluster
  task_definition = "orders-consumer:1"
  tags            = { "queuecap:queue" = "aws_sqs_queue.orders" }
}

resource "aws_appautoscaling_target" "consumer" {
  service_namespace  = data.queuecap_fleet.orders.ecs_scaling_policy.service_namespace
  scalable_dimension = data.queuecap_fleet.orders.ecs_scaling_policy.scalable_dimension
  resource_id        = "service/${local.cluster}/${aws_ecs_service.consumer.name}"
  min_capacity       = data.queuecap_fleet.orders.min_size
  max_capacity       = data.queuecap_fleet.orders.max_size
}

resource "aws_appautoscaling_policy" "consumer" {
  name               = "orders-backlog-per-task"
  policy_type        = data.queuecap_fleet.orders.ecs_scaling_policy.policy_type
  service_namespace  = aws_appautoscaling_target.consumer.service_namespace
  resource_id        = aws_appautoscaling_target.consumer.resource_id
  scalable_dimension = aws_appautoscaling_target.consumer.scalable_dimension

  dynamic "target_tracking_scaling_policy_configuration" {
    for_each = data.queuecap_fleet.orders.ecs_scaling_policy.target_tracking_scaling_policy_configuration
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

resource "aws_lambda_function" "consumer" {
  function_name = "orders-consumer"
  role          = "arn:aws:iam::123456789012:role/orders-consumer"
  filename      = "consumer.zip"
  handler       = "index.handler"
  runtime       = "nodejs20.x"
}

resource "aws_lambda_event_source_mapping" "orders" {
  event_source_arn = aws_sqs_queue.orders.arn
  function_name    = aws_lambda_function.consumer.arn

  dynamic "scaling_config" {
    for_each = data.queuecap_fleet.orders.lambda_scaling_config
    content {
      maximum_concurrency = scaling_config.value.maximum_concurrency
    }
  }
}
