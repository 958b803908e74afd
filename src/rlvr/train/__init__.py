"""Training: turn a `TrainConfig` into TRL's GRPOConfig + PEFT LoRA and run GRPOTrainer."""
