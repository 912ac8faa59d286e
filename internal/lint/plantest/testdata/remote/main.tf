# TestPlanRemoteModule writes the module call here, its source a git
# repository the test makes.
