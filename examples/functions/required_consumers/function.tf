# Keep up with 10,000 msg/s at 400 msg/s per worker and clear 5 M messages
# within 30 minutes: ceil(25 + 6.94) = 32 workers.
resource "aws_autoscaling_group" "workers" {
  # ...
  min_size = 25
  max_size = provider::queuecap::required_consumers(10000, 400, 5000000, 1800) # 32
}
