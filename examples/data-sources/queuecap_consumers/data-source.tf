# The seed's fleet: 10,000 msg/s arrive, one worker completes 400 msg/s, and
# a 5 M message backlog must clear within 30 minutes.
data "queuecap_consumers" "workers" {
  arrival_rate      = 10000
  per_consumer_rate = 400
  max_backlog       = 5000000
  rto_seconds       = 1800
}

# 25 consumers keep up (steady state) but never drain a backlog; 32 clear
# 5 M messages in about 30 minutes.
output "max_size" {
  value = data.queuecap_consumers.workers.required_consumers # 32
}

output "overhead" {
  value = data.queuecap_consumers.workers.overhead # 0.28
}
