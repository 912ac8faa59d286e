# Where alarms that need a human go.
resource "aws_sns_topic" "alerts" {
  name = "orders-pipeline-alerts"
}

resource "aws_ecs_cluster" "main" {
  name = "orders-pipeline"

  setting {
    name  = "containerInsights"
    value = "enabled"
  }
}
