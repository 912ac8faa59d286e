visibility_timeout_seconds = 120
