resource "aws_sqs_queue" "half_written" {
  name = "half-written"
  tags = {
    "queuecap:arrival_rate" = 
  }
}
