locals {
  replay = provider::queuecap::replay_budget_plan({
    downstream_limit = 1000
    live_usage       = 700
    retry_usage      = 100
    calls_per_job    = 2
    safety_margin    = 0
    dlq_depth        = 50000
  })
}

output "replay" {
  value = {
    replay_jobs_per_second = local.replay.replay_jobs_per_second # 100
    replay_seconds         = local.replay.replay_seconds         # 500
  }
}
