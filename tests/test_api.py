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
    with pytest.raises(RlvrError, match="needs adapter=RUN/adapter"):
        api.evaluate(tasks=["heldout"])
    with pytest.raises(RlvrError, match="Did you mean 'gsm8k'"):
        api.evaluate(tasks=["gsmk8"])


@pytest.mark.slow
def test_train_returns_the_run_and_its_report(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.delenv("RLVR_DATA_DIR", raising=False)
    from rlvr.train import job
    from tiny_models import tiny_chat_llama, use_tiny_model

    model, tokenizer = tiny_chat_llama()
    use_tiny_model(monkeypatch, job, tmp_path, tokenizer, lambda: model)
    result = api.train(CONFIG, output_dir=str(tmp_path / "run"), max_steps=1,
                       max_completion_length=4, per_device_train_batch_size=4,
                       num_generations=2, kshot_eval=None, eval_limit=2,
                       eval_max_new_tokens=3, report_to="none", cross_check="none",
                       lora_target_modules=["q_proj", "v_proj"], bootstrap_samples=20)
    assert result.run_dir == tmp_path / "run"
    assert (result.adapter_dir / "adapter_config.json").is_file()
    assert result.report["heldout"]["n_rows"] == 2
    assert json.loads((result.run_dir / "report.json").read_text())["heldout"] == \
        result.report["heldout"]
