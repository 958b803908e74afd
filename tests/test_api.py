"""The Python API (rlvr.api): one call per job, the commands' checks and errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rlvr import api
from rlvr.errors import ConfigError, RlvrError

CONFIG = Path(__file__).resolve().parents[1] / "configs" / "gsm8k_grpo_cpu.yaml"


def test_config_objects_and_overrides_are_checked_like_the_cli():
    cfg = api.TrainConfig(max_steps=3)
    assert api._config(cfg, {}) is cfg
    assert api._config(cfg, {"max_steps": 5}).max_steps == 5
    assert api._config(str(CONFIG), {"max_steps": 2}).reward == "gsm8k_correctness"
    with pytest.raises(ConfigError, match="max_stepz.*max_steps"):
        api._config(cfg, {"max_stepz": 5})
    with pytest.raises(ConfigError, match="learning_rate"):
        api._config(None, {"learning_rate": -1.0})


def test_score_and_evaluate_refusals():
    results = api.score("gsm8k_correctness", [{"completion": "#### 4", "final_answer": "4"}])
    assert [(r.score, r.outcome) for r in results] == [(1.0, "correct")]
    with pytest.raises(RlvrError, match="needs --adapter RUN/adapter"):
        api.evaluate(tasks=["heldout"])
    with pytest.raises(RlvrError, match="Did you mean 'gsm8k'"):
        api.evaluate(tasks=["gsmk8"])


@pytest.mark.slow
def test_train_returns_the_run_and_its_report(tmp_path, monkeypatch):
    from tiny_models import TINY_TASK_RUN, tiny_task_run

    tiny_task_run(monkeypatch, tmp_path)
    result = api.train(CONFIG, **TINY_TASK_RUN, output_dir=str(tmp_path / "run"),
                       kshot_eval=None, eval_limit=2, cross_check="none")
    assert result.run_dir == tmp_path / "run"
    assert (result.adapter_dir / "adapter_config.json").is_file()
    assert result.report["heldout"]["n_rows"] == 2
    assert json.loads((result.run_dir / "report.json").read_text())["heldout"] == \
        result.report["heldout"]
