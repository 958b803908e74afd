"""Runs that changed nothing (`rlvr.eval.unchanged`): each sign by hand, and real tiny runs
whose report and console say UNCHANGED (0 steps exits 3; an adapter that stayed at PEFT's
zero init)."""

from __future__ import annotations

import json

import pytest

from rlvr.eval.unchanged import (identical_answers, lora_is_identity, mark_untrained,
                                 untrained_reason)


def test_identical_answers_pairs_by_id_and_sample():
    base = [{"id": 1, "completion": "Paris."}, {"id": 2, "completion": "I don't know."},
            {"id": 3, "sample": 1, "completion": "4"}]
    trained = [{"id": 2, "completion": "I don't know."}, {"id": 1, "completion": "Lyon."},
               {"id": 3, "sample": 1, "completion": "4"}, {"id": 9, "completion": "x"}]
    assert identical_answers(base, trained) == {"n": 3, "identical": 2}


@pytest.mark.parametrize("steps, identity, answers, expected", [
    (0, None, None, "0 optimizer steps"),
    (0, False, {"n": 4, "identical": 1}, "0 optimizer steps"),  # the first sign wins
    (5, True, {"n": 4, "identical": 1}, "every LoRA B matrix of the adapter is 0"),
    (5, False, {"n": 4, "identical": 4}, "equal the base model's on all 4"),
    (5, False, {"n": 4, "identical": 3}, None),  # one answer moved: trained
    (5, None, {"n": 0, "identical": 0}, None),  # nothing to compare
    (5, False, None, None),
])
def test_untrained_reason(steps, identity, answers, expected):
    reason = untrained_reason(steps, identity, answers)
    assert (reason is None) if expected is None else (expected in reason)


def test_mark_untrained_replaces_the_verdict():
    report = {"knowledge": {"verdict": {"verdict": "improved", "collapsed": False,
                                        "reason": "r", "bound": 0.15}}}
    mark_untrained(report, "training took 0 optimizer steps")
    assert report["knowledge"]["verdict"] == {"verdict": "unchanged", "collapsed": False,
                                              "reason": "training took 0 optimizer steps",
                                              "bound": 0.15}
    assert mark_untrained({"heldout": {}}, "x") == {"heldout": {}}  # no verdict to replace
    report = {"knowledge": {"verdict": {"verdict": "undetermined", "reason": "0 known"}}}
    assert mark_untrained(report, "x")["knowledge"]["verdict"] == {"verdict": "undetermined",
                                                                   "reason": "x; 0 known"}


def test_lora_is_identity_reads_the_b_matrices():
    import torch
    from peft import LoraConfig, get_peft_model
    from tiny_models import tiny_chat_llama

    model, _ = tiny_chat_llama()
    assert lora_is_identity(model) is None  # no LoRA at all
    peft = get_peft_model(model, LoraConfig(r=2, target_modules=["q_proj"]))
    assert lora_is_identity(peft) is True  # PEFT initialises B to 0
    with torch.no_grad():
        name, weight = next((n, p) for n, p in peft.named_parameters() if "lora_B" in n)
        weight.view(-1)[0] = 1e-30
    assert lora_is_identity(peft) is False


def _tiny_calibration_run(tmp_path, monkeypatch, **overrides):
    from pathlib import Path

    from tiny_models import tiny_chat_llama, use_tiny_model

    from rlvr.config import load_config
    from rlvr.train import job

    _, tokenizer = tiny_chat_llama()
    use_tiny_model(monkeypatch, job, tmp_path, tokenizer, lambda: tiny_chat_llama()[0])
    config = Path(__file__).resolve().parents[1] / "configs" / "selfaware_grpo_cpu.yaml"
    return job, load_config(config, {
        "max_steps": 1, "max_completion_length": 3, "per_device_train_batch_size": 4,
        "eval_limit": 12, "report_to": "none", "cross_check": "none",
        "train_answerable": "all", "bootstrap_samples": 50, "decision_samples": 0,
        "lora_target_modules": ["q_proj", "v_proj"], "output_dir": str(tmp_path / "run"),
        **overrides})


ZERO = '''
def zero(completions, **kwargs):
    """Every completion scores 0: every advantage is 0."""
    return [0.0] * len(completions)
'''


def test_an_adapter_left_at_zero_is_reported_unchanged(tmp_path, monkeypatch, caplog):
    """Every reward 0 and no KL term (beta 0): each gradient is 0, so Adam moves nothing and
    every LoRA B stays at PEFT's 0 after a real step. The task report says UNCHANGED and
    why."""
    (tmp_path / "rewards.py").write_text(ZERO, encoding="utf-8")
    job, cfg = _tiny_calibration_run(
        tmp_path, monkeypatch, beta=0.0, preflight="off", reward_preset=None,
        reward_params={}, reward_funcs=[{"name": "zero",
                                         "function": f"{tmp_path / 'rewards.py'}:zero"}])
    with caplog.at_level("WARNING"):
        report = job.run(cfg)
    assert report["meta"]["optimizer_steps"] == 1
    assert "every LoRA B matrix of the adapter is 0" in report["meta"]["untrained"]
    saved = json.loads((tmp_path / "run" / "report.json").read_text())
    assert saved["meta"]["untrained"] == report["meta"]["untrained"]
    assert "Verdict: UNCHANGED from the base model (every LoRA B" in \
        (tmp_path / "run" / "report.md").read_text()
    assert "NOT TRAINED: every LoRA B matrix" in caplog.text


def test_zero_steps_print_not_trained_and_exit_3(tmp_path, monkeypatch, capsys):
    """A run that takes no optimizer step (the method's stage returns before one): the CLI
    says so and exits 3, and the report's verdict is unchanged."""
    from rlvr.cli import main
    from rlvr.train import methods

    job, cfg = _tiny_calibration_run(tmp_path, monkeypatch)
    real = methods.METHODS["grpo"]

    def no_steps(state):
        trained = real(state)
        trained.steps = 0  # as TRL's loop with nothing to do returns
        return trained

    monkeypatch.setitem(job.METHODS, "grpo", no_steps)
    monkeypatch.setattr("rlvr.config.load_config", lambda *a, **k: cfg)
    monkeypatch.setattr("rlvr.train.checks.check_before_model", lambda cfg: None)
    code = main(["train", "--output-dir", cfg.output_dir])
    out = capsys.readouterr().out
    assert code == 3
    assert "NOT TRAINED: training took 0 optimizer steps" in out
    verdict = json.loads((tmp_path / "run" / "report.json").read_text())["knowledge"]["verdict"]
    # 12 held-out rows of a tiny model: none known, so not measurable either; both reasons
    assert verdict["verdict"] in ("unchanged", "undetermined")
    assert verdict["reason"].startswith("training took 0 optimizer steps")
