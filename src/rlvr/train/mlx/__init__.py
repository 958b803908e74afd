"""The MLX backend (`backend: mlx`): TrainConfig -> mlx-lm-lora settings (`settings`, pure),
rows (`rows`), model loading (`model`), adapter conversion (`adapter`) and the training
loop driver (`backend`). mlx is imported only inside the functions that need it."""
