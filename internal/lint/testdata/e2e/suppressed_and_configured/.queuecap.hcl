config {
  minimum_failure_severity = "warning"
}

rule "queuecap_missing_dead_letter_queue" {
  severity = "notice"
}

rule "queuecap_insufficient_headroom" {
  enabled = false
}
