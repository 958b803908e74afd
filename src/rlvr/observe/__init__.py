"""`rlvr observe`: textbook exhibits of the objectives computed by `rlvr.objectives`
(`report`), next to real responses of local models (`collect`)."""
