image_pollers = 20
