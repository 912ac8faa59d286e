vcpus = 20
