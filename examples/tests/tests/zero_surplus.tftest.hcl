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

  # A test's own assertions read the module's outputs rather than call
  # provider functions: OpenTofu 1.12.6 crashes on such a call.
  assert {
    condition     = output.surplus == 400
    error_message = "surplus ${output.surplus} msg/s with 26 workers, want 400"
  }
}
