"""`rlvr observe`: textbook exhibits of the objectives computed by `rlvr.objectives`
(`exhibits`), next to real responses of local models (`collect`)."""
