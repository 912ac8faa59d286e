# The check block on the fleet's surplus: a maximum pinned at the steady
# state fails it, one worker more passes.
mock_provider "aws" {}

variables {
  launch_template_id = "lt-0123456789abcdef0"
  subnet_ids         = ["subnet-0123456789abcdef0"]
}

run "pinned_at_steady_state" {
  command = plan

  # 25 × 400 msg/s = 10,000 msg/s: no surplus, a backlog never drains.
  variables {
    max_size = 25
  }

  expect_failures = [check.surplus]
}

run "one_worker_more" {
  command = plan

  variables {
    max_size = 26
  }

  assert {
    condition     = provider::queuecap::surplus(aws_autoscaling_group.workers.max_size, var.per_consumer_rate, var.arrival_rate) == 400
    error_message = "surplus with 26 workers, want 400 msg/s"
  }
}
