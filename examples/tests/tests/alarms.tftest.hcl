# The alarm thresholds queuecap derives from the SLA.
mock_provider "aws" {}

variables {
  launch_template_id = "lt-0123456789abcdef0"
  subnet_ids         = ["subnet-0123456789abcdef0"]
}

run "sla_thresholds" {
  command = plan

  # Little's law: 10,000 msg/s × 10 s = 100,000 messages wait at most.
  assert {
    condition     = aws_cloudwatch_metric_alarm.depth.threshold == 100000
    error_message = "depth threshold ${aws_cloudwatch_metric_alarm.depth.threshold}, want 100000"
  }
  assert {
    condition     = aws_cloudwatch_metric_alarm.age.threshold == 10
    error_message = "age threshold ${aws_cloudwatch_metric_alarm.age.threshold}, want the SLA, 10 s"
  }
}

run "longer_sla" {
  command = plan

  variables {
    sla_seconds = 30
  }

  assert {
    condition     = aws_cloudwatch_metric_alarm.depth.threshold == 300000
    error_message = "depth threshold ${aws_cloudwatch_metric_alarm.depth.threshold}, want 300000"
  }
}
