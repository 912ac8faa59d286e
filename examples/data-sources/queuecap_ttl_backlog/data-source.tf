# A one-hour outage at 10,000 msg/s leaves 36 M messages; messages older than
# 10 minutes are worthless and expire, so the backlog stops at 6 M.
data "queuecap_ttl_backlog" "outage" {
  arrival_rate     = 10000
  incident_seconds = 3600
  ttl_seconds      = 600
}

# Size the fleet for the backlog that can actually exist.
data "queuecap_consumers" "workers" {
  arrival_rate      = 10000
  per_consumer_rate = 400
  max_backlog       = data.queuecap_ttl_backlog.outage.ttl_bounded_backlog
  rto_seconds       = 1800
}
