"""One real GRPO step per reward family: the rows rlvr builds for TRL carry every
field the rewards read, and each reward returns scores, not an exception.

The policy is a tiny random Llama over a byte-level chat tokenizer (`tiny_chat_llama`), so
its completions are noise; each reward's kwargs are recorded and, to prove they are the
right rows' values, the same reward is called again with gold completions built from
those kwargs, which must reach the reward's maximum.
"""

from __future__ import annotations

import json
import math

import pytest

from test_task_data import GSM8K, HUMANEVAL, MATH, MBPP, QA
from tiny_models import tiny_chat_llama

pytest.importorskip("trl")

CODE = {r["test_list"][0]: r["code"] for r in MBPP}
BODY = {r["entry_point"]: r["canonical_solution"] for r in HUMANEVAL}


def _gold(name: str, kw: dict, i: int) -> str:
    """A correct completion for row i of a reward call, from the reward's own kwargs."""
    if name in ("gsm8k_correctness", "gsm8k_format"):
        return f"Adding up.\n#### {kw['final_answer'][i]}"
    if name == "math":
        return f"\\boxed{{{kw['solution'][i]}}}"
    if name == "qa":
        return kw["answer"][i]
    if name == "code" and "test_list" in kw:
        return CODE[kw["test_list"][i][0]]
    if name == "code":  # HumanEval: TRL's `prompts` are the stubs; the body continues them
        assert kw["prompts"][i].startswith(f"def {kw['entry_point'][i]}(")
        return BODY[kw["entry_point"][i]]
    if name == "selfaware":
        return "I don't know." if kw["is_unanswerable"][i] else kw["expected_answer"][i][0]
    raise AssertionError(name)


def _spy(func, calls):
    def reward(completions, **kwargs):
        scores = func(completions, **kwargs)
        calls.append((kwargs, scores))
        return scores

    reward.__name__ = func.__name__
    return reward


def one_step(tmp_path, rows, rewards, **settings):
    from datasets import Dataset
    from trl import GRPOTrainer

    from rlvr.config import load_config
    from rlvr.config.checks import reward_entries
    from rlvr.train.checks import reward_preflight
    from rlvr.train.data_prep import prepare_data, training_columns
    from rlvr.train.grpo import grpo_args, reward_functions

    data = None
    if rows is not None:
        data = tmp_path / "rows.jsonl"
        data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    cfg = load_config(None, {
        "data": None if data is None else str(data), "reward": rewards[0]["name"],
        "reward_funcs": rewards, "per_device_train_batch_size": 4, "num_generations": 2,
        "gradient_accumulation_steps": 1, "max_steps": 1, "max_completion_length": 8,
        "beta": 0.0, "report_to": "none", "save_steps": 100, "logging_steps": 1,
        "output_dir": str(tmp_path / "run"), **settings})
    _, train, _ = prepare_data(cfg)
    reward_preflight(cfg, train)  # the field check and the preflight, before the model
    funcs, weights = reward_functions(cfg)
    calls = {f.__name__: [] for f in funcs}
    model, tokenizer = tiny_chat_llama()
    trainer = GRPOTrainer(
        model=model, reward_funcs=[_spy(f, calls[f.__name__]) for f in funcs],
        args=grpo_args(cfg, tmp_path / "ckpt", weights),
        train_dataset=Dataset.from_dict(training_columns(train, entries=reward_entries(cfg))),
        processing_class=tokenizer)
    trainer.train()
    assert trainer.state.global_step == 1
    logged = trainer.state.log_history[0]
    for func in funcs:
        name = func.__name__
        assert calls[name], f"{name} was never called"
        for kwargs, scores in calls[name]:
            assert len(scores) == 4 and all(isinstance(s, float) for s in scores), (name, scores)
            gold = [_gold(name, kwargs, i) for i in range(len(scores))]
            top = max(func(gold, **kwargs))
            assert min(func(gold, **kwargs)) == top == {"gsm8k_format": 0.5}.get(name, 1.0)
        assert not math.isnan(logged[f"rewards/{name}/mean"])
    return calls


def test_gsm8k_correctness_and_format(tmp_path):
    calls = one_step(tmp_path, GSM8K, [{"name": "gsm8k_correctness", "weight": 1.0},
                                       {"name": "gsm8k_format", "weight": 0.5}])
    kwargs, _ = calls["gsm8k_correctness"][0]
    assert set(kwargs["final_answer"]) <= {str(2 * n) for n in range(1, 11)}


def test_math(tmp_path):
    calls = one_step(tmp_path, MATH, [{"name": "math"}])
    assert set(calls["math"][0][0]["solution"]) <= {str(3 * n) for n in range(1, 11)}


def test_qa(tmp_path):
    calls = one_step(tmp_path, QA, [{"name": "qa"}])
    kwargs, _ = calls["qa"][0]
    assert all(a[0] == b for a, b in zip(kwargs["aliases"], kwargs["answer"]))


def test_code_mbpp(tmp_path):
    calls = one_step(tmp_path, MBPP, [{"name": "code", "params": {"timeout_s": 5.0}}])
    assert all(t[0].startswith("assert add") for t in calls["code"][0][0]["test_list"])


def test_code_humaneval_plain_text_prompts(tmp_path):
    calls = one_step(tmp_path, HUMANEVAL, [{"name": "code"}])
    assert all(isinstance(p, str) for p in calls["code"][0][0]["prompts"])


def test_selfaware(tmp_path):
    calls = one_step(tmp_path, None, [{"name": "selfaware", "preset": "strict"}],
                     reward_preset="strict")
    assert "is_unanswerable" in calls["selfaware"][0][0]
