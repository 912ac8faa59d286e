resource "aws_autoscaling_group" "workers" {
  name     = "workers"
  min_size = 1
  max_size = provider::queuecap::required_consumers(-1, 25, 0, 60)
}
