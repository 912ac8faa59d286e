# A limit of 1,000 calls/s, 700 used by live work and 100 by retries, 2 calls
# per job and no safety margin: 200 calls/s left, at most 100 jobs/s.
output "redrive_rate" {
  value = provider::queuecap::replay_jobs_per_second(1000, 700, 100, 2, 0) # 100
}
