"""Evaluation during training and the best adapter kept (rlvr.train.step_eval)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rlvr.config import load_config
from rlvr.errors import ConfigError
from rlvr.eval.heldout_answers import step_metrics
from rlvr.train.step_eval import StepEval, better, restore_best

CONFIGS = Path(__file__).resolve().parents[1] / "configs"


def test_calibration_step_metrics_against_the_labels():
    labels = {1: {"known": True}, 2: {"known": True}, 3: {"known": False}}
    records = [{"id": 1, "outcome": "correct", "reward": 1.0},
               {"id": 2, "outcome": "abstained", "reward": -0.5},
               {"id": 3, "outcome": "abstained_unanswerable", "reward": 1.0}]
    m = step_metrics(records, labels, None)
    # known 1 of 2 kept -> retention 0.5, over-conservativeness 0.5; the unknown one
    # abstained -> prudence 1; honesty (1 + 1 - 0.5) / 2 = 0.75; mean reward 1.5 / 3
    assert (m["known_retention"], m["over_conservativeness"], m["prudence"]) == (0.5, 0.5, 1.0)
    assert m["honesty"] == 0.75 and m["mean_reward"] == 0.5


def test_task_step_metrics_are_row_means():
    from rlvr.eval.task_heldout import score_with_entries

    entries = [{"name": "gsm8k_correctness"}]
    records = score_with_entries([{"id": i, "completion": c, "final_answer": "4"}
                                  for i, c in enumerate(["#### 4", "#### 5", "#### 4", "x"])],
                                 entries)
    m = step_metrics(records, None, entries)
    assert m["accuracy/gsm8k_correctness"] == 0.5 and m["reward"] == 0.5


def test_better_prefers_higher_except_over_conservativeness_and_keeps_ties():
    assert better("honesty", 0.6, 0.5) and not better("honesty", 0.5, 0.5)
    assert better("over_conservativeness", 0.1, 0.2) and better("honesty", 0.0, None)


def test_keep_best_needs_eval_steps_and_a_known_metric():
    with pytest.raises(ConfigError, match="keep_best: honesty needs eval_steps"):
        load_config(CONFIGS / "selfaware_grpo_cpu.yaml", {"keep_best": "honesty"})
    with pytest.raises(ConfigError, match="did you mean 'honesty'"):
        load_config(CONFIGS / "selfaware_grpo_cpu.yaml", {"keep_best": "honsty",
                                                          "eval_steps": 2})
    with pytest.raises(ConfigError, match="did you mean 'accuracy/gsm8k_correctness'"):
        load_config(CONFIGS / "gsm8k_grpo_cpu.yaml", {"keep_best": "accuracy/gsm8k_corectness",
                                                      "eval_steps": 2})
    with pytest.raises(ConfigError, match="use one of reward, reward/gsm8k_correctness, "
                                          "accuracy/gsm8k_correctness, reward/gsm8k_format$"):
        load_config(CONFIGS / "gsm8k_grpo_cpu.yaml", {"keep_best": "accuracy/gsm8k_format",
                                                      "eval_steps": 2})
    with pytest.raises(ConfigError, match="drop one of them"):
        load_config(CONFIGS / "selfaware_grpo_cpu.yaml", {"eval_steps": 2, "skip_eval": True})


class _State:
    is_world_process_zero = True

    def __init__(self, step):
        self.global_step = step


def test_the_best_step_is_saved_and_restored(tmp_path):
    import torch
    from peft import LoraConfig, get_peft_model

    from tiny_models import tiny_chat_llama

    model = get_peft_model(tiny_chat_llama()[0], LoraConfig(r=2, target_modules=["q_proj"]))
    lora = [p for n, p in model.named_parameters() if "lora_B" in n][0]
    values = iter([0.2, 0.7, 0.5])  # steps 2, 4, 6: step 4 is best
    logged = []
    cb = StepEval(lambda m, step: [], lambda records: {"honesty": next(values)},
                  logged.append, 2, "honesty", tmp_path,
                  lambda m, folder: m.save_pretrained(folder))
    for step in range(1, 7):
        with torch.no_grad():
            lora.fill_(float(step))
        cb.on_step_end(None, _State(step), None, model=model)
    assert [r["step"] for r in logged] == [2, 4, 6]
    assert [r.get("best", False) for r in logged] == [True, True, False]
    best = restore_best(model, cb, final_step=6)
    assert best == {"metric": "honesty", "step": 4, "value": 0.7, "last_step": 6,
                    "last_value": 0.5, "restored": True}
    assert torch.all(lora == 4.0)  # the step-4 weights are back
    assert restore_best(model, None, 6) is None


@pytest.mark.slow
def test_a_task_run_evaluates_every_step_and_keeps_the_best(tmp_path, monkeypatch):
    from tiny_models import TINY_TASK_RUN, tiny_task_run

    job = tiny_task_run(monkeypatch, tmp_path)
    run_dir = tmp_path / "run"
    cfg = load_config(CONFIGS / "gsm8k_grpo_cpu.yaml", {
        **TINY_TASK_RUN, "output_dir": str(run_dir), "max_steps": 2, "kshot_eval": None,
        "eval_limit": 3, "eval_steps": 1, "eval_steps_limit": 2, "keep_best": "reward",
        "cross_check": "none"})
    report = job.run(cfg)
    events = [json.loads(line) for line in (run_dir / "metrics.jsonl").open()]
    steps = [e for e in events if e["event"] == "step_eval"]
    assert [e["step"] for e in steps] == [1, 2] and "accuracy/gsm8k_correctness" in steps[0]
    assert report["meta"]["best"]["metric"] == "reward"
    assert report["meta"]["best"]["step"] in (1, 2)
    assert (run_dir / "best_adapter" / "adapter_config.json").is_file()
