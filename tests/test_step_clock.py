"""`seconds_per_step` times optimizer steps only (`rlvr.train.profiling.StepClock`): by hand
with a fake clock, and in a real tiny run whose step-end callbacks are made slow."""

from __future__ import annotations

import math

import pytest

from rlvr.train import profiling
from rlvr.train.profiling import StepClock


def test_the_clock_counts_step_begin_to_optimizer_step(monkeypatch):
    now = iter([10.0, 10.5, 20.0, 21.5])  # two steps: 0.5 s and 1.5 s
    monkeypatch.setattr(profiling.time, "perf_counter", lambda: next(now))
    clock = StepClock()
    assert math.isnan(clock.seconds_per_step)
    callback = clock.callback()
    for _ in range(2):
        callback.on_step_begin(None, None, None)
        callback.on_optimizer_step(None, None, None)
        callback.on_optimizer_step(None, None, None)  # no open step: not counted twice
    assert clock.steps == 2 and clock.seconds_per_step == pytest.approx(1.0)  # (0.5+1.5)/2


def test_seconds_per_step_leaves_out_slow_step_end_callbacks(tmp_path, monkeypatch):
    import time

    from tiny_models import tiny_chat_llama, use_tiny_model

    from rlvr.config import load_config
    from rlvr.train import fit, job

    model, tokenizer = tiny_chat_llama()
    use_tiny_model(monkeypatch, job, tmp_path, tokenizer, lambda: model)
    real = fit.make_metrics_callback

    def slow_metrics(path):  # its step-end hook stands in for an evaluation or a save
        callback = real(path)
        hook = callback.on_step_end
        callback.on_step_end = lambda *a, **k: (time.sleep(0.6), hook(*a, **k))[1]
        return callback

    monkeypatch.setattr(fit, "make_metrics_callback", slow_metrics)
    cfg = load_config(None, {
        "output_dir": str(tmp_path / "run"), "max_steps": 2, "max_completion_length": 4,
        "per_device_train_batch_size": 2, "gradient_accumulation_steps": 1, "train_limit": 4,
        "skip_eval": True, "report_to": "none", "cross_check": "none", "diagnostics": False,
        "lora_target_modules": ["q_proj", "v_proj"]})
    report = job.run(cfg)
    timings = report["meta"]["timings"]
    assert report["meta"]["optimizer_steps"] == 2
    assert timings["train_s"] / 2 > 0.6  # the whole train() call includes the slow callback
    assert timings["seconds_per_step"] < timings["train_s"] / 2 - 0.5
