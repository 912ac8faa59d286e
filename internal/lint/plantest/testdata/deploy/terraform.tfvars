min_healthy = 80
