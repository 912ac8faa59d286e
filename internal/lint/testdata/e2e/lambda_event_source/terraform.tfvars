resizer_timeout_seconds = 45
