max_size = 25
