# A partner API accepts 1,000 calls/s; live work uses 700 and its retries
# 100. Each replayed job makes 2 calls, and 10 % of the limit stays free.
data "queuecap_replay_budget" "orders_dlq" {
  downstream_limit = 1000
  live_usage       = 700
  retry_usage      = 100
  calls_per_job    = 2
  safety_margin    = 0.1
  dlq_depth        = 90000
}

# 100 calls/s are left: replay at most 50 jobs/s, 90,000 jobs in 30 minutes.
output "redrive_rate" {
  value = data.queuecap_replay_budget.orders_dlq.replay_jobs_per_second # 50
}

output "redrive_minutes" {
  value = data.queuecap_replay_budget.orders_dlq.replay_seconds / 60 # 30
}
