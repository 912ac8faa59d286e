# A 10 s SLA at 5,000 msg/s: a queue deeper than 50,000 messages breaches it.
output "depth_alarm_threshold" {
  value = provider::queuecap::sla_max_depth(5000, 10) # 50000
}
