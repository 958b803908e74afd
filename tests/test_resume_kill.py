"""Crash safety with a real `rlvr train` process (slow): SIGKILL mid-run then --resume;
SIGINT saves and stops cleanly."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rlvr.train.checkpoints import COMPLETE_MARKER, complete_checkpoints
from rlvr.metrics.run_log import read_metrics

pytestmark = pytest.mark.slow


def _command(run_dir: Path, max_steps: int, *extra: str) -> list[str]:
    args = [sys.executable, "-m", "rlvr.cli", "train", "--max-steps", str(max_steps),
            "--output-dir", str(run_dir)]
    for setting in ("per_device_train_batch_size=4", "gradient_accumulation_steps=1",
                    "num_generations=2", "max_completion_length=6", "train_limit=32",
                    "skip_eval=true", "save_minutes=null", "report_to=none",
                    "num_threads=1", *extra):
        args += ["--set", setting]
    return args


def _logged_steps(run_dir: Path) -> list[int]:
    path = run_dir / "metrics.jsonl"
    if not path.is_file():
        return []
    return [m["step"] for m in read_metrics(path) if m.get("event") == "log" and "loss" in m]


def _start_and_wait(args: list[str], run_dir: Path, until_step: int, timeout_s: float = 240):
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.monotonic() + timeout_s
    while max(_logged_steps(run_dir), default=0) < until_step:
        if process.poll() is not None:
            pytest.fail(f"training ended early ({process.returncode}):\n{process.stdout.read()}")
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail("training did not reach the step in time")
        time.sleep(0.2)
    return process


def test_sigkill_mid_run_then_resume_from_the_newest_complete_checkpoint(tmp_path):
    run_dir = tmp_path / "run"
    process = _start_and_wait(_command(run_dir, 8, "save_steps=2"), run_dir, until_step=5)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    checkpoints = run_dir / "checkpoints"
    complete = [int(p.name.split("-")[1]) for p in complete_checkpoints(checkpoints)]
    assert complete and max(complete) >= 4
    # a save cut off by the kill: a newer folder without the completion marker
    cut = checkpoints / "checkpoint-7"
    cut.mkdir(exist_ok=True)
    (cut / "adapter_model.safetensors").write_bytes(b"half")
    (cut / COMPLETE_MARKER).unlink(missing_ok=True)

    done = subprocess.run(_command(run_dir, 8, "save_steps=2") + ["--resume"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "checkpoint cut off while saving" in done.stderr
    state = json.loads((checkpoints / "checkpoint-8" / "trainer_state.json").read_text())
    assert state["global_step"] == 8
    records = read_metrics(run_dir / "metrics.jsonl")
    resumed_at = max(i for i, m in enumerate(records) if m["event"] == "start")
    assert records[resumed_at]["resume"] is True
    after = [m["step"] for m in records[resumed_at:] if m["event"] == "log" and "loss" in m]
    # the resumed run went on from the newest complete checkpoint, not from checkpoint-7
    assert after == list(range(max(complete) + 1, 9))
    assert (run_dir / "adapter" / "adapter_model.safetensors").is_file()


def test_sigint_saves_a_checkpoint_and_the_adapter_and_exits_130(tmp_path):
    run_dir = tmp_path / "run"
    process = _start_and_wait(_command(run_dir, 50, "save_steps=100"), run_dir, until_step=2)
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=120)
    assert process.returncode == 130, out
    assert "continue with the same command and --resume" in out
    [checkpoint] = complete_checkpoints(run_dir / "checkpoints")
    step = int(checkpoint.name.split("-")[1])
    assert 2 <= step < 50 and max(_logged_steps(run_dir)) == step
    assert (run_dir / "adapter" / "adapter_model.safetensors").is_file()
