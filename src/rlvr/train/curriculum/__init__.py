"""The GRPO curriculum as one unit: per-prompt reward history and the retire/draw rule
(`history`, pure), and the `trl.GRPOTrainer` subclass that applies it (`trainer`)."""
