# 25 workers at 400 msg/s against 10,000 msg/s: surplus 0, a backlog never
# drains. 32 workers leave 2,800 msg/s to drain it.
output "steady_state_surplus" {
  value = provider::queuecap::surplus(10000, 400, 25) # 0
}

output "headroom_surplus" {
  value = provider::queuecap::surplus(10000, 400, 32) # 2800
}
