bulk_pollers      = 20
thumbnail_pollers = { minimum = 2, maximum = 20 }
