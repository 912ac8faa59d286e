# 2 msg/s on 3 consumers of 1 msg/s: 4/9 of messages wait, and the p99 wait
# is ln((4/9) / 0.01) ≈ 3.8 s.
output "p99_wait_seconds" {
  value = provider::queuecap::percentile_wait_seconds(2, 1, 3, 0.99) # 3.794
}

# At 100 % utilization there is no steady state: null.
output "unstable" {
  value = provider::queuecap::percentile_wait_seconds(10000, 400, 25, 0.99) == null # true
}
