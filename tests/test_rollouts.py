"""The rollout log (rlvr.train.rollouts): TRL's completion table as rows, and RUN/rollouts.jsonl
from a tiny GRPO run: one line per completion per step, rewards, outcomes, advantages."""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import pytest

from rlvr.train.rollouts import RolloutLog, batch_flags, rollout_rows

CONFIG = Path(__file__).resolve().parents[1] / "configs" / "selfaware_grpo_cpu.yaml"


def test_rows_from_a_completion_table():
    table = {"prompt": [[{"role": "user", "content": "Q1"}], "Q2"],
             "completion": [[{"role": "assistant", "content": "A1"}], "A2"],
             "rewards": {"selfaware": [1.0, float("nan")]},
             "advantages": [0.7, -0.7],
             "extra": {"outcome/selfaware": ["correct", "reward_error"], "other": [1, 2]}}
    rows = rollout_rows(table, step=3)
    assert rows == [
        {"step": 3, "prompt": "Q1", "completion": "A1", "rewards": {"selfaware": 1.0},
         "outcomes": {"selfaware": "correct"}, "advantage": 0.7, "truncated": None,
         "masked": None},
        {"step": 3, "prompt": "Q2", "completion": "A2", "rewards": {"selfaware": None},
         "outcomes": {"selfaware": "reward_error"}, "advantage": -0.7, "truncated": None,
         "masked": None}]
    flags = [{"truncated": True, "masked": False}, {"truncated": False, "masked": True}]
    assert [(r["truncated"], r["masked"]) for r in rollout_rows(table, 3, flags)] == [
        (True, False), (False, True)]
    # flags of another batch size are not attached to the wrong rows
    assert rollout_rows(table, 3, flags[:1])[0]["truncated"] is None
    with pytest.raises(KeyError):
        rollout_rows({"prompt": []}, 1)
    with pytest.raises(ValueError, match="rollout_log must be one of jsonl, gzip or none"):
        RolloutLog("x", "csv")


def test_batch_flags_by_hand():
    import torch

    eos = [2]
    ids = torch.tensor([[5, 6, 2, 0],   # ended with EOS (then padding)
                        [5, 6, 7, 8],   # ran to the cap: truncated
                        [5, 2, 0, 0]])  # ended, but its loss mask is all 0: masked
    mask = torch.tensor([[1, 1, 1, 0], [1, 1, 1, 1], [0, 0, 0, 0]])
    assert batch_flags(ids, mask, eos) == [{"truncated": False, "masked": False},
                                           {"truncated": True, "masked": False},
                                           {"truncated": False, "masked": True}]


class _State:
    is_world_process_zero, global_step = True, 1


def test_a_batch_is_written_once_and_gzip_appends(tmp_path):
    class Trainer:
        _logs = {"prompt": ["Q"], "completion": ["A"], "advantages": [0.0], "rewards": {}}

    for kind, reader in (("jsonl", open), ("gzip", gzip.open)):
        log = RolloutLog(tmp_path / kind, kind)
        log.trainer = Trainer()
        for _ in range(3):  # the same batch at three log events: one write
            log.on_log(None, _State(), None)
        Trainer._logs = {**Trainer._logs, "completion": ["B"]}
        log.on_log(None, _State(), None)
        with reader(log.path, "rt", encoding="utf-8") as handle:
            assert [json.loads(line)["completion"] for line in handle] == ["A", "B"]
        Trainer._logs = {**Trainer._logs, "completion": ["A"]}


@pytest.mark.slow
def test_a_tiny_grpo_run_logs_every_completion(tmp_path, monkeypatch):
    from rlvr.config import load_config
    from rlvr.train import job
    from tiny_models import tiny_chat_llama, use_tiny_model

    model, tokenizer = tiny_chat_llama()
    use_tiny_model(monkeypatch, job, tmp_path, tokenizer, lambda: model)
    run_dir = tmp_path / "run"
    cfg = load_config(CONFIG, {
        "output_dir": str(run_dir), "max_steps": 2, "max_completion_length": 4,
        "per_device_train_batch_size": 4, "num_generations": 2, "train_answerable": "all",
        "report_to": "none", "cross_check": "none", "skip_eval": True,
        "lora_target_modules": ["q_proj", "v_proj"]})
    job.run(cfg)
    rows = [json.loads(line) for line in (run_dir / "rollouts.jsonl").open()]
    # 2 steps x 4 completions (2 prompts x 2 generations), each with its reward and outcome
    assert [r["step"] for r in rows] == [1] * 4 + [2] * 4
    assert all(set(r["rewards"]) == {"selfaware"} and r["outcomes"]["selfaware"] for r in rows)
    # 4-token cap: every completion carries its flags; TRL's own clipped ratio agrees
    assert all(isinstance(r["truncated"], bool) and r["masked"] is False for r in rows)
    log = [json.loads(line) for line in (run_dir / "train_log.jsonl").open()]
    clipped = [e["completions/clipped_ratio"] for e in log if "completions/clipped_ratio" in e]
    assert [sum(r["truncated"] for r in rows if r["step"] == s) / 4 for s in (1, 2)] == clipped
    # group-relative advantages: each group of 2 sums to 0
    for i in range(0, 8, 2):
        assert math.isclose(rows[i]["advantage"] + rows[i + 1]["advantage"], 0, abs_tol=1e-5)
        assert rows[i]["prompt"] == rows[i + 1]["prompt"]
