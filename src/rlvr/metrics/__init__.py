"""Numbers computed from scored records, standard library only: calibration and honesty
(`calibration`), per-task metrics with intervals (`task_metrics`), interval formulas
(`stats`), and the run's `metrics.jsonl` file (`run_log`)."""
