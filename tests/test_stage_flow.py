"""Following a run's config through the main job: every call from `rlvr.train` into
`rlvr.eval` is recorded with the job stage it happens in (a profile hook over a whole
tiny-model run), so the test shows which evaluation entry points each stage uses and that
no call ever climbs back from evaluation code into training code.

The import contract (`lint-imports`: "evaluation never imports training") forbids the
imports; this checks the calls, including those through callbacks handed down."""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

import pytest

from rlvr.config import load_config
from tiny_models import TINY_TASK_RUN, tiny_chat_llama, tiny_task_run, use_tiny_model

CONFIGS = Path(__file__).resolve().parents[1] / "configs"
STAGES = {"prepare", "load_base", "evaluate_base", "label_knowledge", "decide_base",
          "select_training_rows", "evaluate_trained", "cross_checks", "check_decisions",
          "finish", "run_meta", "run"}


def _package(frame) -> str:
    return str(frame.f_globals.get("__name__", ""))


def _engine_calls(entries: dict[str, set[str]]) -> dict[str, set[str]]:
    """Take the calls into the run's engine (`rlvr.eval.run_engine.RunGenerator`) out of
    `entries` (in place); returns {stage: method names}."""
    out = {}
    for stage in list(entries):
        calls = {e for e in entries[stage] if e.startswith("rlvr.eval.run_engine.")}
        if calls:
            out[stage] = {e.rsplit(".", 1)[1] for e in calls}
            entries[stage] -= calls
            if not entries[stage]:
                del entries[stage]
    return out


def trace_job(job, cfg) -> tuple[dict[str, set[str]], list[str]]:
    """Run the job under a profile hook. Returns ({stage: eval entry points}, climbs:
    calls whose caller is in rlvr.eval and callee in rlvr.train)."""
    entries: dict[str, set[str]] = defaultdict(set)
    climbs: list[str] = []

    def stage_of(frame) -> str:
        while frame is not None:
            if _package(frame) == "rlvr.train.job" and frame.f_code.co_name in STAGES:
                return frame.f_code.co_name
            if _package(frame).startswith("rlvr.train.") and \
                    frame.f_code.co_name.startswith("train_"):
                return "method"  # the training method (GRPO, SFT, DPO) and its callbacks
            frame = frame.f_back
        return "?"

    def hook(frame, event, arg):
        if event != "call" or frame.f_back is None:
            return
        callee, caller = _package(frame), _package(frame.f_back)
        if callee.startswith("rlvr.eval") and caller.startswith("rlvr.train"):
            entries[stage_of(frame.f_back)].add(f"{callee}.{frame.f_code.co_name}")
        elif callee.startswith("rlvr.train") and caller.startswith("rlvr.eval"):
            climbs.append(f"{caller}.{frame.f_back.f_code.co_name} -> "
                          f"{callee}.{frame.f_code.co_name}")

    sys.setprofile(hook)
    try:
        job.run(cfg)
    finally:
        sys.setprofile(None)
    return dict(entries), climbs


@pytest.mark.slow
def test_calibration_run_enters_eval_once_per_stage_and_never_climbs_back(tmp_path,
                                                                          monkeypatch):
    from rlvr.train import job

    _, tokenizer = tiny_chat_llama()
    use_tiny_model(monkeypatch, job, tmp_path, tokenizer, lambda: tiny_chat_llama()[0])
    cfg = load_config(CONFIGS / "selfaware_grpo_cpu.yaml", {
        "max_steps": 2, "max_completion_length": 3, "per_device_train_batch_size": 4,
        "eval_limit": 4, "report_to": "none", "cross_check": ["triviaqa"],
        "cross_check_limit": 2, "train_answerable": "all", "bootstrap_samples": 20,
        "eval_steps": 1, "eval_steps_limit": 2, "lora_target_modules": ["q_proj", "v_proj"],
        "output_dir": str(tmp_path / "run")})
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    entries, climbs = trace_job(job, cfg)
    assert climbs == []
    engine = _engine_calls(entries)
    assert engine == {"load_base": {"__init__"}, "evaluate_base": {"base"},
                      "label_knowledge": {"base"}, "decide_base": {"base"},
                      "evaluate_trained": {"trained"}, "check_decisions": {"trained"},
                      "run": {"close"}}, engine
    # the evaluating stages each make one call into rlvr.eval (prepare: the settings, built
    # once, and the k-shot data check of a task run; finish: the verdict line), besides
    # asking the run's engine (`rlvr.eval.run_engine`) what to generate with
    assert entries == {
        "prepare": {"rlvr.eval.settings.from_run"},
        "evaluate_base": {"rlvr.eval.heldout_answers.base_answers"},
        "label_knowledge": {"rlvr.eval.labelling.knowledge_for_run"},
        "decide_base": {"rlvr.eval.decision_rule.base_decision"},
        "method": {"rlvr.eval.heldout_answers.evaluate_heldout",
                   "rlvr.eval.heldout_answers.step_metrics"},
        "evaluate_trained": {"rlvr.eval.heldout_answers.evaluate_heldout"},
        "run": {"rlvr.eval.honesty_report.build_report", "rlvr.eval.honesty_report.write_report",
                "rlvr.eval.unchanged.untrained"},
        "cross_checks": {"rlvr.eval.task_run.cross_check"},
        "check_decisions": {"rlvr.eval.decision_rule.decision_check"},
        "finish": {"rlvr.eval.honesty_report.verdict_line"},
    }, entries


@pytest.mark.slow
def test_task_run_enters_eval_once_per_stage_and_never_climbs_back(tmp_path, monkeypatch):
    job = tiny_task_run(monkeypatch, tmp_path)
    cfg = load_config(CONFIGS / "gsm8k_grpo_cpu.yaml", {
        **TINY_TASK_RUN, "output_dir": str(tmp_path / "run"), "kshot_eval": [0],
        "kshot_limit": 2, "eval_limit": 2, "cross_check": "none"})
    entries, climbs = trace_job(job, cfg)
    assert climbs == []
    engine = _engine_calls(entries)
    assert engine == {"load_base": {"__init__"}, "evaluate_base": {"base"},
                      "evaluate_trained": {"trained"}, "run": {"close"}}, engine
    assert entries == {
        "prepare": {"rlvr.eval.settings.from_run", "rlvr.eval.task_run.check_kshot_data"},
        "evaluate_base": {"rlvr.eval.heldout_answers.base_answers"},
        "evaluate_trained": {"rlvr.eval.heldout_answers.evaluate_heldout"},
        "run": {"rlvr.eval.task_run.task_report", "rlvr.eval.unchanged.untrained"},
        "finish": {"rlvr.eval.task_run.task_flat_results", "rlvr.eval.task_run.task_verdict_line"},
    }, entries
