"""README "Your own task, end to end", run as written on the tiny model: the shipped
examples/own_task config (TRL prompt-only rows, a reward function from a file, a `trl:`
option, `eval_steps` with `keep_best`), then step N's rollouts read back, then a merged
model exported and loaded by transformers alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from rlvr import api

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "examples" / "own_task" / "config.yaml"

# the user rewards these runs register are removed again (the registry is process-wide)
pytestmark = pytest.mark.usefixtures("keep_rewards")


def test_the_example_config_loads_as_shipped(monkeypatch):
    monkeypatch.chdir(ROOT)  # `data` is read from the working directory, as the README runs it
    cfg = api.load_config(str(CONFIG))
    (entry,) = cfg.reward_funcs
    assert entry["function"] == f"{ROOT / 'examples' / 'own_task' / 'rewards.py'}:last_number"
    assert cfg.trl == {"epsilon_high": 0.28}
    assert (cfg.eval_steps, cfg.keep_best) == (5, "accuracy/last_number")
    rows = [json.loads(line) for line in (ROOT / "examples/own_task/rows.jsonl").open()]
    assert len(rows) == 200 and set(rows[0]) == {"prompt", "answer"}


@pytest.mark.parametrize("completion, answer, expected", [
    ("33", "33", (1.0, "correct")),
    ("22 + 11 = 33.", "33", (1.0, "correct")),
    ("The answer is 33, not 34", "33", (0.0, "wrong")),  # the last number decides
    ("thirty-three", "33", (0.0, "wrong")),  # no number
    ("1,033", "1033", (1.0, "correct")),  # thousands separators dropped
])
def test_the_example_reward(completion, answer, expected):
    ref = f"{ROOT / 'examples' / 'own_task' / 'rewards.py'}:last_number"
    (result,) = api.score(ref, [{"completion": completion, "answer": answer}])
    assert (result.score, result.outcome) == expected


@pytest.mark.slow
def test_the_walkthrough_on_the_tiny_model(tmp_path, monkeypatch):
    from tiny_models import tiny_chat_llama
    from transformers import AutoModelForCausalLM

    model, tokenizer = tiny_chat_llama()
    base = tmp_path / "tiny"
    model.save_pretrained(base)
    tokenizer.save_pretrained(base)
    monkeypatch.chdir(ROOT)
    run_dir = tmp_path / "own_task"
    result = api.train(str(CONFIG), model=str(base), output_dir=str(run_dir), max_steps=2,
                       eval_steps=1, eval_steps_limit=2, eval_limit=4, max_completion_length=4,
                       eval_max_new_tokens=4, per_device_train_batch_size=4, num_generations=2,
                       report_to="none", lora_target_modules=["q_proj", "v_proj"])
    # the TRL option reached the run
    resolved = yaml.safe_load((run_dir / "resolved_config.yaml").read_text(encoding="utf-8"))
    assert resolved["trl"] == {"epsilon_high": 0.28}
    # step 2's rollouts: 4 completions, each with its reward, outcome and advantage
    rows = [json.loads(line) for line in (run_dir / "rollouts.jsonl").open()]
    step2 = [r for r in rows if r["step"] == 2]
    assert len(step2) == 4
    for row in step2:
        assert row["rewards"]["last_number"] in (0.0, 1.0)
        assert row["outcomes"]["last_number"] in ("correct", "wrong")
        assert isinstance(row["advantage"], float) and "What is" in row["prompt"]
    # held-out accuracy at steps 1 and 2, and the best step named in the report
    events = [json.loads(line) for line in (run_dir / "metrics.jsonl").open()]
    evals = [e for e in events if e.get("event") == "step_eval"]
    assert [e["step"] for e in evals] == [1, 2]
    assert all("accuracy/last_number" in e for e in evals)
    best = result.report["meta"]["best"]
    assert best["metric"] == "accuracy/last_number" and best["step"] in (1, 2)
    # the merged model: transformers alone loads it
    out = api.export(result.run_dir, tmp_path / "merged")
    merged = AutoModelForCausalLM.from_pretrained(out)
    assert merged.config.vocab_size == model.config.vocab_size
    assert not any("lora" in name for name, _ in merged.named_parameters())
