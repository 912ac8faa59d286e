variable "subnet_ids" {
  description = "Private subnets for the order workers and the payments tasks."
  type        = list(string)
  default     = []
}

variable "worker_ami_id" {
  description = "AMI of the order worker instances."
  type        = string
  default     = "ami-0123456789abcdef0"
}

variable "payments_image" {
  description = "Container image of the payments processor."
  type        = string
  default     = "123456789012.dkr.ecr.eu-west-1.amazonaws.com/payments:1.42.0"
}
