min_healthy = 80
period      = 30
