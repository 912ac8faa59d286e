# 10 Erlangs of work (10 msg/s at 1 msg/s per consumer) on 12 consumers:
# 45 % of messages wait (Erlang C 0.4494), 0.22 s on average.
data "queuecap_wait_time" "support" {
  arrival_rate        = 10
  per_consumer_rate   = 1
  consumers           = 12
  percentile          = 0.99
  target_wait_seconds = 1
}

output "p99_wait_seconds" {
  value = data.queuecap_wait_time.support.percentile_wait_seconds # ≈ 1.9
}

# The smallest fleet whose p99 wait is at most 1 s.
output "consumers_for_target" {
  value = data.queuecap_wait_time.support.min_consumers_for_target # 14
}

# The seed's steady-state fleet is at 100 % utilization: no steady state,
# so stable = false and the wait figures are null.
data "queuecap_wait_time" "steady_state_fleet" {
  arrival_rate      = 10000
  per_consumer_rate = 400
  consumers         = 25
}
