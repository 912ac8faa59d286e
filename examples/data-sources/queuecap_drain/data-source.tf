# 380,000 report jobs behind a fleet completing 520 jobs/s while 380 jobs/s
# keep arriving: the backlog shrinks at 140 jobs/s, about 45 minutes, not the
# 12 minutes that 380,000 / 520 suggests.
data "queuecap_drain" "reports" {
  backlog         = 380000
  arrival_rate    = 380
  completion_rate = 520
  ttl_seconds     = 7200

  # Expected arrivals for the next hour in 5-minute steps, e.g. last week's.
  arrival_forecast = [380, 400, 430, 460, 480, 500, 500, 480, 450, 420, 400, 380]
}

output "drain_minutes" {
  value = data.queuecap_drain.reports.drains ? data.queuecap_drain.reports.drain_seconds / 60 : null
}

output "forecast_drain_minutes" {
  value = data.queuecap_drain.reports.forecast_drains ? data.queuecap_drain.reports.forecast_drain_seconds / 60 : null
}

# The same question asked of a fleet: 25 workers at 400 msg/s against
# 10,000 msg/s have zero surplus, so drains = false and drain_seconds = null.
data "queuecap_drain" "steady_state_fleet" {
  backlog           = 3600000
  arrival_rate      = 10000
  consumers         = 25
  per_consumer_rate = 400
}
