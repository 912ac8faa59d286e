locals {
  settings = provider::queuecap::queue_settings({
    arrival_rate           = 10000
    per_consumer_rate      = 400
    consumers              = 32
    max_backlog            = 5000000
    max_processing_seconds = 45
  })
}

output "queue" {
  value = {
    visibility_timeout_seconds = local.settings.visibility_timeout_seconds            # 90
    message_retention_seconds  = local.settings.message_retention_seconds             # 345600
    max_receive_count          = local.settings.max_receive_count                     # 5
    dead_letter_retention      = local.settings.dead_letter_message_retention_seconds # 1209600
  }
}
