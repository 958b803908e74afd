"""A task run's cross-check sized to a share of its training time (rlvr.train.task_eval):
the budget rule, the rows a probe's cost affords, and tasks skipped with the reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from rlvr.config import load_config
from rlvr.eval import cross_check as cc
from rlvr.train import task_eval

CONFIGS = Path(__file__).resolve().parents[1] / "configs"


def test_budget_is_a_share_of_training_time_for_task_runs_only():
    task = load_config(CONFIGS / "gsm8k_grpo_cpu.yaml")
    calibration = load_config(CONFIGS / "selfaware_grpo_cpu.yaml")
    meta = {"timings": {"train_s": 200.0}}
    assert task_eval.check_budget(task, meta) == 50.0  # 0.25 x 200 s
    assert task_eval.check_budget(calibration, meta) is None  # auto: no limit
    calibration.cross_check_budget = 0.5
    assert task_eval.check_budget(calibration, meta) == 100.0
    task.cross_check_budget = None
    assert task_eval.check_budget(task, meta) is None
    assert task_eval.check_budget(calibration, {}) is None  # no training time measured


def probe_result(costs: dict[str, float]) -> dict:
    """What `likelihood_check` returns for a 2-row probe costing `costs` s per row."""
    return {"tasks": {t: {"n": 2, "seconds": {"base": c, "trained": c}}
                      for t, c in costs.items()},
            "skipped": {"mbpp": "no data"}, "meta": {}}


@pytest.mark.parametrize("budget, rows, skipped", [
    # share per task = (budget - the probe's own ~0 s) / 2 tasks:
    # 22 s -> 11 s each: gsm8k 1 s/row -> 10 (its limit), triviaqa 0.1 s/row -> 10
    (22.0, {"gsm8k": 10, "triviaqa": 10}, {"mbpp"}),
    # 6.5 s -> 3.25 s each: gsm8k affords 3 rows (< 5: skipped), triviaqa 30 -> its limit 10
    (6.5, {"triviaqa": 10}, {"mbpp", "gsm8k"}),
    # 14.5 s -> 7.25 s each: gsm8k 7 rows
    (14.5, {"gsm8k": 7, "triviaqa": 10}, {"mbpp"}),
])
def test_rows_follow_the_probe_cost(monkeypatch, budget, rows, skipped):
    cfg = load_config(CONFIGS / "gsm8k_grpo_cpu.yaml")
    monkeypatch.setattr(cc, "likelihood_check",
                        lambda *a, **k: probe_result({"gsm8k": 1.0, "triviaqa": 0.1}))
    got, sizing = task_eval.size_cross_check(cfg, None, None, budget)
    assert got == rows and set(sizing["skipped"]) == skipped
    assert sizing["seconds_per_row"] == {"gsm8k": 1.0, "triviaqa": 0.1}
    if "gsm8k" in skipped:
        assert "affords 3 rows at 1.0 s per row; set cross_check_budget: null" in \
            sizing["skipped"]["gsm8k"]
