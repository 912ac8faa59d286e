period = 60
