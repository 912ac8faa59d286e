data "queuecap_consumers" "workers" {
  arrival_rate      = 1 / 0
  per_consumer_rate = 25
}

resource "aws_autoscaling_group" "workers" {
  name     = "workers"
  min_size = 1
  max_size = data.queuecap_consumers.workers.required_consumers
}
