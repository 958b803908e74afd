"""All matplotlib drawing: shared helpers (`common`), a run's training plots (`training`,
read by `training_data`) and the observation report's plots (`observe`). matplotlib is
imported only inside the drawing functions (the `plot` extra)."""
