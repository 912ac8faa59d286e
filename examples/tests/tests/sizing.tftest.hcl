# The fleet's size for known rates. The AWS provider is mocked: no
# credentials, nothing created. queuecap is the real provider, so the
# numbers are those a plan shows.
mock_provider "aws" {}

variables {
  launch_template_id = "lt-0123456789abcdef0"
  subnet_ids         = ["subnet-0123456789abcdef0"]
}

run "peak_with_outage_backlog" {
  command = plan

  # 10,000 / 400 = 25 workers keep up; clearing 5 M messages within
  # 30 minutes needs ceil(25 + 5,000,000 / (400 × 1,800)) = ceil(31.94) = 32.
  assert {
    condition     = data.queuecap_consumers.workers.required_consumers == 32
    error_message = "required_consumers is ${data.queuecap_consumers.workers.required_consumers}, want 32"
  }
  assert {
    condition     = aws_autoscaling_group.workers.min_size == 25
    error_message = "min_size is ${aws_autoscaling_group.workers.min_size}, want the steady state, 25"
  }
  assert {
    condition     = aws_autoscaling_group.workers.max_size == 32
    error_message = "max_size is ${aws_autoscaling_group.workers.max_size}, want required_consumers, 32"
  }
}

run "twice_the_traffic" {
  command = plan

  variables {
    arrival_rate = 20000
  }

  # 50 keep up; ceil(50 + 6.94) = 57.
  assert {
    condition     = aws_autoscaling_group.workers.max_size == 57
    error_message = "max_size is ${aws_autoscaling_group.workers.max_size}, want 57"
  }
}

run "applies_against_the_mock" {
  # apply, the default: the mocked provider makes up what AWS would return,
  # so the sizing is checked after apply too, with the check block.
  assert {
    condition     = aws_autoscaling_group.workers.max_size == 32
    error_message = "max_size is ${aws_autoscaling_group.workers.max_size} after apply, want 32"
  }
}
