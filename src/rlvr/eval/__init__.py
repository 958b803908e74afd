"""Evaluation: batched generation (`generate`), calibration metrics (`metrics`, pure)
and the before/after report (`report`)."""
