"""A task run's cross-check sized to a share of its training time (rlvr.eval.task_run):
the budget rule, the rows a probe's cost affords, and tasks skipped with the reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from rlvr.config import load_config
from rlvr.eval import cross_check as cc
from rlvr.eval import task_run
from rlvr.eval.settings import RunEvaluation

CONFIGS = Path(__file__).resolve().parents[1] / "configs"


def test_budget_is_a_share_of_training_time_for_task_runs_only():
    task = load_config(CONFIGS / "gsm8k_grpo_cpu.yaml")
    calibration = load_config(CONFIGS / "selfaware_grpo_cpu.yaml")
    # 20 steps at 10 s = 200 s of training
    meta = {"timings": {"train_s": 200.0, "seconds_per_step": 10.0}, "optimizer_steps": 20}
    def budget(cfg, meta):
        return task_run.check_budget(RunEvaluation.from_run(cfg).cross_check, meta)

    assert budget(task, meta) == 50.0  # 0.25 x 200 s
    # a resumed run that trained 5 of its 20 steps here (50 s): still 0.25 x 20 x 10 s
    resumed = {"timings": {"train_s": 50.0, "seconds_per_step": 10.0}, "optimizer_steps": 20}
    assert budget(task, resumed) == 50.0
    # a resume that only evaluates measured no step: no limit
    assert budget(task, {"timings": {"seconds_per_step": float("nan")},
                         "optimizer_steps": 20}) is None
    assert budget(calibration, meta) is None  # auto: no limit
    calibration.cross_check_budget = 0.5
    assert budget(calibration, meta) == 100.0
    task.cross_check_budget = None
    assert budget(task, meta) is None
    assert budget(calibration, {}) is None  # no training time measured


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
    got, sizing = task_run.size_cross_check(RunEvaluation.from_run(cfg).cross_check, None,
                                            None, budget)
    assert got == rows and set(sizing["skipped"]) == skipped
    assert sizing["seconds_per_row"] == {"gsm8k": 1.0, "triviaqa": 0.1}
    if "gsm8k" in skipped:
        assert "(0.25 of the training time) affords 3 rows at 1.0 s per row; set " \
               "cross_check_budget: null" in sizing["skipped"]["gsm8k"]


def test_a_small_limit_that_fits_is_not_skipped(monkeypatch):
    # cross_check_limit 3 (< 5 rows): 3 affordable rows are all it asked for
    cfg = load_config(CONFIGS / "gsm8k_grpo_cpu.yaml", {"cross_check_limit": 3})
    monkeypatch.setattr(cc, "likelihood_check",
                        lambda *a, **k: probe_result({"gsm8k": 1.0, "triviaqa": 0.1}))
    got, sizing = task_run.size_cross_check(RunEvaluation.from_run(cfg).cross_check, None,
                                            None, 100.0)
    assert got == {"gsm8k": 3, "triviaqa": 3} and set(sizing["skipped"]) == {"mbpp"}
