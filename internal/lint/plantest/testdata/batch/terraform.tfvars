window_seconds = 20
response_types = ["ReportBatchItemFailures"]
