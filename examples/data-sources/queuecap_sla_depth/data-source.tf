# A 10-second SLA at 5,000 msg/s: a queue deeper than 50,000 messages has
# already breached it, so that is the depth alarm's threshold.
data "queuecap_sla_depth" "orders" {
  arrival_rate = 5000
  sla_seconds  = 10
}

output "depth_alarm_threshold" {
  value = data.queuecap_sla_depth.orders.max_depth # 50000
}
