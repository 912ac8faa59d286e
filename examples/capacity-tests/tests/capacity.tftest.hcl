# Capacity unit tests: `terraform test` (Terraform 1.7+) or `tofu test`
# (OpenTofu 1.8+) plans the module with the AWS provider mocked, so no
# credentials and no AWS calls, and the real queuecap provider computing
# the numbers the assertions check.

mock_provider "aws" {}

variables {
  launch_template_id = "lt-0123456789abcdef0"
  subnet_ids         = ["subnet-a", "subnet-b"]
}

# ceil(500 / 25 + 1,800,000 / (25 × 7,200)) = ceil(20 + 10) = 30 workers.
run "sized_for_recovery" {
  command = plan

  assert {
    condition     = data.queuecap_consumers.workers.required_consumers == 30
    error_message = "required_consumers is ${data.queuecap_consumers.workers.required_consumers}, want 30"
  }

  assert {
    condition     = aws_autoscaling_group.workers.min_size == 20 && aws_autoscaling_group.workers.max_size == 30
    error_message = "the group runs ${aws_autoscaling_group.workers.min_size} to ${aws_autoscaling_group.workers.max_size} workers, want 20 to 30"
  }
}

# Little's law: 500 msg/s × 120 s = 60,000 messages is the deepest the
# queue may be before a message waits longer than the SLA.
run "alarm_thresholds" {
  command = plan

  assert {
    condition     = aws_cloudwatch_metric_alarm.orders["depth_above_sla"].threshold == 60000
    error_message = "the depth alarm fires at ${aws_cloudwatch_metric_alarm.orders["depth_above_sla"].threshold} messages, want 60000"
  }

  assert {
    condition     = aws_cloudwatch_metric_alarm.orders["oldest_message_above_sla"].threshold == 120
    error_message = "the age alarm fires at ${aws_cloudwatch_metric_alarm.orders["oldest_message_above_sla"].threshold} s, want 120"
  }
}

# 20 workers × 25 msg/s = 500 msg/s: no surplus, so the check must fail.
run "zero_surplus_fails_the_check" {
  command = plan

  variables {
    max_size = 20
  }

  expect_failures = [check.surplus]
}
