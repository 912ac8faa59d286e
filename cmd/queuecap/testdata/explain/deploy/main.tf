# Consumers that deployments replace, and predictive scaling policies:
# what --explain shows of each.

resource "aws_sqs_queue" "orders" {
  name = "orders"
  tags = { "queuecap:arrival_rate" = 200 }
}

# An instance refresh with AWS's default percentages: keeps ceil(12 × 90 %).
resource "aws_autoscaling_group" "refreshed" {
  name     = "refreshed"
  max_size = 12
  min_size = 2
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = "25"
    propagate_at_launch = false
  }

  instance_refresh {
    strategy = "Rolling"
  }
}

# A maintenance policy that launches before it terminates.
resource "aws_autoscaling_group" "maintained" {
  name     = "maintained"
  max_size = 10
  min_size = 1
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = "25"
    propagate_at_launch = false
  }

  instance_maintenance_policy {
    min_healthy_percentage = 100
    max_healthy_percentage = 120
  }
}

resource "aws_autoscaling_policy" "forecast" {
  autoscaling_group_name = aws_autoscaling_group.refreshed.name
  name                   = "forecast"
  policy_type            = "PredictiveScaling"
  predictive_scaling_configuration {
    metric_specification {
      target_value = 70
      predefined_metric_pair_specification {
        predefined_metric_type = "ASGCPUUtilization"
      }
    }
  }
}

resource "aws_autoscaling_policy" "grow" {
  autoscaling_group_name = aws_autoscaling_group.maintained.name
  name                   = "grow"
  policy_type            = "PredictiveScaling"
  predictive_scaling_configuration {
    mode                         = "ForecastAndScale"
    max_capacity_breach_behavior = "IncreaseMaxCapacity"
    max_capacity_buffer          = 10
    metric_specification {
      target_value = 70
      predefined_metric_pair_specification {
        predefined_metric_type = "ASGCPUUtilization"
      }
    }
  }
}

# An ECS rolling deployment at half its tasks.
resource "aws_ecs_service" "half" {
  name                               = "half"
  desired_count                      = 8
  deployment_minimum_healthy_percent = 50
  tags = {
    "queuecap:queue"             = "aws_sqs_queue.orders"
    "queuecap:per_consumer_rate" = 10
  }
}

# Blue/green: keeps its size.
resource "aws_ecs_service" "bluegreen" {
  name          = "bluegreen"
  desired_count = 4
  deployment_controller {
    type = "CODE_DEPLOY"
  }
  tags = {
    "queuecap:queue"             = "aws_sqs_queue.orders"
    "queuecap:per_consumer_rate" = 10
  }
}

# A strategy decided by a variable with no value.
variable "strategy" {
  type = string
}

resource "aws_ecs_service" "undecided" {
  name          = "undecided"
  desired_count = 4
  deployment_configuration {
    strategy = var.strategy
  }
  tags = {
    "queuecap:queue"             = "aws_sqs_queue.orders"
    "queuecap:per_consumer_rate" = 10
  }
}
