"""Training methods of the main job: SFT targets (R-Tuning), DPO pairs (TruthRL
style) and each method run end to end through `rlvr.train.job.run` on a tiny model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rlvr.config import load_config
from rlvr.errors import ConfigError
from rlvr.train.dpo import dpo_pairs
from rlvr.train.sft import formatted, sft_rows, sft_target

CONFIG = Path(__file__).resolve().parents[1] / "configs" / "selfaware_grpo_cpu.yaml"
PROMPT = [{"role": "user", "content": "Capital of France?"}]


def row(gold="Paris", unanswerable=False, known=None, prompt=PROMPT):
    out = {"prompt": prompt, "question": "q", "is_unanswerable": unanswerable,
           "expected_answer": None if unanswerable else gold}
    if known is not None:
        out["known"] = known
    return out


@pytest.mark.parametrize("answer, answer_format, expected", [
    ("Paris", "free", "Paris."),            # a closing full stop, as the exemplar "Lisbon."
    ("Paris.", "free", "Paris."),           # never two
    ("Is it?", "free", "Is it?"),
    (None, "free", "I don't know."),
    ("Paris", "boxed", "\\boxed{Paris}"),
    (None, "boxed", "\\boxed{I don't know}"),
    ("Paris", "answer_line", "Answer: Paris"),
    (None, "answer_line", "Answer: I don't know"),
])
def test_formatted_writes_what_the_reward_reads(answer, answer_format, expected):
    assert formatted(answer, answer_format) == expected


def test_formatted_refuses_an_unknown_format():
    with pytest.raises(ValueError, match="answer_format"):
        formatted("Paris", "xml")


@pytest.mark.parametrize("example, expected", [
    (row(), "Paris."),                                  # answerable, no label: known
    (row(known=True), "Paris."),
    (row(known=False), "I don't know."),                # R-Tuning: unknown -> abstain
    (row(unanswerable=True), "I don't know."),
    ({**row(), "answers": ["Paris", "City of Light"]}, "Paris."),  # first alias
])
def test_sft_target_follows_r_tuning(example, expected):
    assert sft_target(example) == expected


def test_sft_rows_are_prompt_completion_pairs():
    cols = sft_rows([row(), row(prompt="Q: 2+2?\nA:", gold="4")])
    assert cols["prompt"][0] == PROMPT
    assert cols["completion"][0] == [{"role": "assistant", "content": "Paris."}]
    assert cols["completion"][1] == "4."  # a text prompt gets a text completion


def s(completion, outcome):
    return {"completion": completion, "outcome": outcome}


def test_dpo_pairs_prefer_what_the_model_knows_and_abstain_on_the_rest():
    train = [row(known=True), row(known=False), row(unanswerable=True)]
    samples = [
        [s("Paris.", "correct"), s("Lyon.", "wrong"), s("I don't know.", "abstained")],
        [s("Lyon.", "wrong"), s("I don't know.", "abstained")],
        [s("Tomorrow.", "answered_unanswerable"), s("No idea.", "abstained_unanswerable")],
    ]
    pairs, counts = dpo_pairs(train, samples)
    turns = [(p["chosen"][0]["content"], p["rejected"][0]["content"]) for p in pairs]
    # known: correct over wrong (the wrong answer is preferred as rejected to the abstention)
    # unknown answerable: abstention over the answer; unanswerable: abstention over answer
    assert turns == [("Paris.", "Lyon."), ("I don't know.", "Lyon."),
                     ("No idea.", "Tomorrow.")]
    assert counts == {"pairs": 3, "skipped": 0, "chosen_written": 0, "rejected_written": 0}


def test_dpo_pairs_write_missing_sides_and_skip_what_cannot_pair():
    train = [row(known=True), row(known=True), row(unanswerable=True)]
    samples = [
        [s("Lyon.", "wrong")],                         # no correct sample: gold written
        [s("Paris.", "correct")],                      # no wrong/abstain: abstention written
        [s("I don't know.", "abstained_unanswerable")],  # no answer to reject: skipped
    ]
    pairs, counts = dpo_pairs(train, samples)
    turns = [(p["chosen"][0]["content"], p["rejected"][0]["content"]) for p in pairs]
    assert turns == [("Paris.", "Lyon."), ("Paris.", "I don't know.")]
    assert counts == {"pairs": 2, "skipped": 1, "chosen_written": 1, "rejected_written": 1}


def test_dpo_pairs_refuse_mismatched_lengths():
    with pytest.raises(ValueError, match="sample lists"):
        dpo_pairs([row()], [])


@pytest.mark.parametrize("overrides, message", [
    ({"method": "ppo"}, "method must be one of grpo, sft, dpo"),
    ({"method": "sft", "reward": "gsm8k_correctness", "reward_preset": None,
      "reward_params": {}}, "use method: grpo"),
])
def test_config_refuses_a_method_it_cannot_run(overrides, message):
    with pytest.raises(ConfigError, match=message):
        load_config(CONFIG, overrides)


@pytest.mark.slow
@pytest.mark.parametrize("method", ["sft", "dpo"])
def test_each_method_runs_the_main_job_end_to_end(tmp_path, monkeypatch, method):
    from rlvr.train import job
    from tiny_models import tiny_chat_llama, use_tiny_model

    model, tokenizer = tiny_chat_llama()
    use_tiny_model(monkeypatch, job, tmp_path, tokenizer, lambda: model)
    run_dir = tmp_path / "run"
    cfg = load_config(CONFIG, {
        "output_dir": str(run_dir), "method": method, "max_steps": 2,
        "max_completion_length": 4, "eval_limit": 6, "train_answerable": "all",
        "per_device_train_batch_size": 4, "dpo_samples": 2, "report_to": "none",
        "cross_check": "none", "lora_target_modules": ["q_proj", "v_proj"],
        "bootstrap_samples": 20})
    report = job.run(cfg)
    assert report["meta"]["method"] == method and report["meta"]["optimizer_steps"] == 2
    assert (run_dir / "adapter" / "adapter_config.json").is_file()
    assert {"base", "trained", "knowledge"} <= set(report)
    events = [json.loads(line)["event"] for line in (run_dir / "metrics.jsonl").open()]
    assert "train_end" in events and "eval" in events
    assert ("dpo_pairs" in events) == (method == "dpo")
