"""Names from the run: a user's own task, data and reward are what the report, the records,
the progress bars, `run_name`, the metrics events and the console name, never `selfaware`,
`default` or null."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rlvr import api
from rlvr.config import load_config
from rlvr.config.checks import reward_label, task_label

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "examples" / "own_task" / "config.yaml"
pytestmark = pytest.mark.usefixtures("keep_rewards")


@pytest.mark.parametrize("overrides, task, reward", [
    ({}, "selfaware", "selfaware"),  # the main job's defaults
    ({"data": "runs/days_of_week.jsonl", "reward": "gsm8k_correctness",
      "reward_preset": None, "train_answerable": "all"}, "days_of_week", "gsm8k_correctness"),
    ({"data": "gsm8k", "reward": "gsm8k_correctness", "reward_preset": None,
      "train_answerable": "all"}, "gsm8k", "gsm8k_correctness"),
    ({"reward_funcs": [{"name": "gsm8k_correctness"}, {"name": "gsm8k_format"}],
      "reward_preset": None, "train_answerable": "all"}, "gsm8k_correctness+gsm8k_format",
     "gsm8k_correctness+gsm8k_format"),
])
def test_task_and_reward_labels(overrides, task, reward):
    cfg = load_config(None, overrides)
    assert (task_label(cfg), reward_label(cfg)) == (task, reward)


def test_a_users_task_is_named_as_theirs_everywhere(tmp_path, monkeypatch, caplog, capsys):
    from tiny_models import tiny_chat_llama

    model, tokenizer = tiny_chat_llama()
    base = tmp_path / "tiny"
    model.save_pretrained(base)
    tokenizer.save_pretrained(base)
    data = tmp_path / "days_of_week.jsonl"
    shutil.copy(ROOT / "examples" / "own_task" / "rows.jsonl", data)
    monkeypatch.chdir(ROOT)
    run_dir = tmp_path / "run"
    with caplog.at_level("INFO"):
        result = api.train(str(CONFIG), model=str(base), output_dir=str(run_dir), max_steps=1,
                           data=str(data), eval_steps=None, keep_best=None, eval_limit=4,
                           max_completion_length=4, eval_max_new_tokens=4,
                           per_device_train_batch_size=4, num_generations=2,
                           report_to="none", lora_target_modules=["q_proj", "v_proj"])
    meta = result.report["meta"]
    assert (meta["task"], meta["reward"], meta["rewards"]) == (
        "days_of_week", "last_number", ["last_number"])
    assert meta["reward_preset"] is None  # a user function has no preset
    assert meta["run_name"].startswith("last_number-")
    records = [json.loads(x) for x in (run_dir / "generations_base.jsonl").open()]
    assert {r["task"] for r in records} == {"days_of_week"}
    assert "base days_of_week" in capsys.readouterr().err  # the progress bar
    events = [json.loads(x) for x in (run_dir / "metrics.jsonl").open()]
    (results,) = [e for e in events if e["event"] == "eval"]
    assert (results["kind"], results["task"]) == ("task", "days_of_week")
    assert not [e for e in events if e["event"] == "kshot"]
    title = (run_dir / "report.md").read_text().splitlines()[0]
    assert title == "# days_of_week (GRPO, rewards: last_number): base vs trained"
    assert f"model: {base} from the local folder {base}" in caplog.text
    for text in (title, json.dumps(meta)):
        assert "selfaware" not in text
