variable "workers" {
  type = map(number)
}

# One pipeline per entry of var.workers (terraform.tfvars): orders at
# exactly the arrival rate, billing with headroom.
module "pipeline" {
  source   = "./modules/pipeline"
  for_each = var.workers
  name     = each.key
  max_size = each.value
}

module "batch" {
  source   = "./modules/pipeline"
  count    = 2
  name     = "batch-${count.index}"
  max_size = 25
}

# A queue per key, and a Lambda consumer per queue whose event source is
# the queue's ARN, passed through a module output and a variable.
module "queues" {
  source   = "./modules/queue"
  for_each = toset(["a", "b"])
  name     = "jobs-${each.key}"
}

module "consumer" {
  source    = "./modules/consumer"
  for_each  = toset(["a", "b"])
  name      = "consumer-${each.key}"
  queue_arn = module.queues[each.key].arn
}
