# Sizes an SQS worker fleet for the seed's pipeline: 10,000 msg/s arrive,
# one worker completes 400 msg/s, and the backlog of a 30-minute outage must
# be cleared within 30 minutes of recovery. Messages older than 8 minutes are
# worthless and expire, which bounds the backlog.
#
# It uses only the queuecap provider, so it plans offline: `make demo`.

terraform {
  required_providers {
    queuecap = {
      source = "queuecap/queuecap"
    }
  }
}

variable "arrival_rate" {
  description = "Peak messages per second into the queue."
  type        = number
  default     = 10000
}

variable "per_consumer_rate" {
  description = "Messages one worker completes per second."
  type        = number
  default     = 400
}

variable "outage_seconds" {
  description = "Longest outage to recover from."
  type        = number
  default     = 1800
}

variable "message_ttl_seconds" {
  description = "Age after which a message is worthless (the queue's retention)."
  type        = number
  default     = 480
}

variable "rto_seconds" {
  description = "Time allowed to clear the backlog after the outage."
  type        = number
  default     = 1800
}

# The backlog an outage can leave: arrivals pile up for the outage's length,
# but nothing older than the TTL survives.
data "queuecap_ttl_backlog" "outage" {
  arrival_rate     = var.arrival_rate
  incident_seconds = var.outage_seconds
  ttl_seconds      = var.message_ttl_seconds
}

# Everyday running: keep 20 % spare so a spike does not start a backlog.
data "queuecap_consumers" "everyday" {
  arrival_rate      = var.arrival_rate
  per_consumer_rate = var.per_consumer_rate
  min_headroom      = 0.2
}

# Recovery: clear the worst backlog within the RTO while arrivals continue.
data "queuecap_consumers" "recovery" {
  arrival_rate      = var.arrival_rate
  per_consumer_rate = var.per_consumer_rate
  max_backlog       = data.queuecap_ttl_backlog.outage.ttl_bounded_backlog
  rto_seconds       = var.rto_seconds
}

# How long the recovery fleet takes, and what the steady-state fleet would do
# with the same backlog.
data "queuecap_drain" "steady_state_fleet" {
  backlog           = data.queuecap_ttl_backlog.outage.ttl_bounded_backlog
  arrival_rate      = var.arrival_rate
  consumers         = data.queuecap_consumers.recovery.steady_state_consumers
  per_consumer_rate = var.per_consumer_rate
  ttl_seconds       = var.message_ttl_seconds
}

data "queuecap_sla_depth" "alarm" {
  arrival_rate = var.arrival_rate
  sla_seconds  = 10
}

output "autoscaling_group" {
  description = "What the worker auto scaling group should take."
  value = {
    min_size         = data.queuecap_consumers.recovery.steady_state_consumers
    desired_capacity = data.queuecap_consumers.everyday.required_consumers
    max_size         = data.queuecap_consumers.recovery.required_consumers
  }
}

output "recovery" {
  description = "The backlog the fleet is sized for and how it clears."
  value = {
    worst_backlog_messages      = data.queuecap_ttl_backlog.outage.ttl_bounded_backlog
    unbounded_backlog_messages  = data.queuecap_ttl_backlog.outage.unbounded_backlog
    max_size_drain_minutes      = data.queuecap_consumers.recovery.drain_seconds / 60
    max_size_overhead_percent   = data.queuecap_consumers.recovery.overhead * 100
    steady_state_fleet_drains   = data.queuecap_drain.steady_state_fleet.drains
    steady_state_fleet_net_rate = data.queuecap_drain.steady_state_fleet.net_rate
  }
}

output "depth_alarm_threshold" {
  description = "Queue depth at which a 10 s SLA is already breached (Little's law)."
  value       = data.queuecap_sla_depth.alarm.max_depth
}
