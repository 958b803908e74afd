"""Run operations: trackers, complete-only checkpoints, clean stop, disk checks."""

from __future__ import annotations

import os
import signal
import sys
import types
from datetime import datetime, timezone
from pathlib import Path

import pytest

from rlvr.config import load_config
from rlvr.errors import ConfigError
from rlvr.io import check_output_dir
from rlvr.train import checkpoints as ck
from rlvr.config import backends
from rlvr.train import trackers as tr


# --- report_to -------------------------------------------------------------------------------

@pytest.mark.parametrize("value, expected", [
    ("tensorboard", ["tensorboard"]),
    ("none", []),
    (None, []),
    ([], []),
    ("tensorboard,none", ["tensorboard"]),
    (["tensorboard", "tensorboard"], ["tensorboard"]),
])
def test_report_to_is_normalised(value, expected):
    assert backends.check_report_to(value) == expected


@pytest.mark.parametrize("value, message", [
    ("tensorbord", "did you mean 'tensorboard'"),
    ("all", "name them"),
    (5, "tracker name or a list"),
    ([1], "tracker name or a list"),
])
def test_report_to_refuses_bad_values(value, message):
    with pytest.raises(ConfigError, match=message):
        backends.check_report_to(value)


def test_report_to_names_the_missing_package(monkeypatch):
    monkeypatch.setattr(backends.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ConfigError, match=r"pip install wandb.*report_to: none"):
        backends.check_report_to("wandb")
    with pytest.raises(ConfigError, match="report_to: wandb needs"):
        load_config(None, {"report_to": "wandb"})


def test_config_default_tracker_is_tensorboard_and_none_turns_it_off():
    assert load_config(None).report_to == ["tensorboard"]
    assert load_config(None, {"report_to": "none"}).report_to == ["none"]


def test_run_name_and_wandb_tags():
    when = datetime(2026, 11, 30, 5, 24, 0, tzinfo=timezone.utc)
    assert tr.default_run_name("selfaware", None, when) == \
        "selfaware-grpo-smollm2-135m-20261130-052400"
    assert tr.default_run_name("gsm8k_correctness", "/m/Qwen2.5 0.5B", when) == \
        "gsm8k_correctness-grpo-Qwen2.5-0.5B-20261130-052400"
    assert tr.wandb_tags("selfaware") == ["grpo", "trl", "selfaware", "selfaware-grpo"]


def test_wandb_runs_offline_with_the_reference_tags_and_resumes_its_id(tmp_path, monkeypatch):
    calls = []

    class FakeRun:
        id = "abc123"
        summary: dict = {}

        def finish(self):
            calls.append("finish")

    import importlib.machinery

    import transformers.integrations as integrations

    fake = types.ModuleType("wandb")
    fake.__spec__ = importlib.machinery.ModuleSpec("wandb", None)
    fake.init = lambda **kw: calls.append(kw) or FakeRun()
    monkeypatch.setitem(sys.modules, "wandb", fake)

    monkeypatch.setattr(integrations, "WandbCallback", lambda: "wandb-callback")
    monkeypatch.delenv("WANDB_MODE", raising=False)
    monkeypatch.delenv("WANDB_PROJECT", raising=False)
    t = tr.Trackers(["wandb"], tmp_path, "run-1", "selfaware", {"beta": 0.1})
    init = calls[0]
    assert init["mode"] == "offline" and init["project"] == "rlvr" and init["name"] == "run-1"
    assert init["tags"] == ["grpo", "trl", "selfaware", "selfaware-grpo"]
    assert init["dir"] == str(tmp_path) and init["id"] is None and init["config"] == {"beta": 0.1}
    assert t.report_to == [] and t.callbacks == ["wandb-callback"]
    assert (tmp_path / "wandb_run_id").read_text() == "abc123"
    t.log_results({"results/trained/x": 1.0}, 3)
    assert FakeRun.summary == {"results/trained/x": 1.0}
    t.close()
    assert calls[-1] == "finish"
    monkeypatch.setenv("WANDB_MODE", "online")  # the user's choice wins
    tr.Trackers(["wandb"], tmp_path, "run-1", "selfaware", resume=True)
    assert calls[-1]["id"] == "abc123" and calls[-1]["resume"] == "allow"
    assert calls[-1]["mode"] == "online"


def test_tensorboard_writes_into_the_run_directory(tmp_path):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    from transformers.integrations import TensorBoardCallback

    t = tr.Trackers(["tensorboard", "mlflow"], tmp_path, "run-1", "selfaware")
    assert t.report_to == ["mlflow"]  # TRL sets up the others itself
    assert isinstance(t.callbacks[0], TensorBoardCallback)
    t.log_results({"honesty/trained/honesty": 0.75}, 20)
    t.close()
    acc = EventAccumulator(str(tmp_path / "tensorboard"))
    acc.Reload()
    [event] = acc.Scalars("honesty/trained/honesty")
    assert event.step == 20 and event.value == pytest.approx(0.75)


def test_flat_results_keeps_metrics_and_drops_counts():
    report = {
        "base": {"selfaware": {"n": 4, "mean_reward": -0.5, "counts": {"correct": 1}}},
        "trained": {"selfaware": {"n": 4, "mean_reward": 0.25, "selective_accuracy": None}},
        "difference": {"mean_reward": {"mean_difference": 0.75, "ci_low": 0.1, "ci_high": 1.2,
                                       "confidence": 0.95, "samples": 50, "n": 4}},
        "knowledge": {"policies": {"trained": {"honesty": 0.7, "counts": {"n": 4}}},
                      "differences": {"trained_vs_base": {"honesty": {
                          "difference": 0.1, "ci_low": 0.0, "ci_high": 0.2, "n": 4}}},
                      "verdict": {"verdict": "judgment"}},
    }
    assert tr.flat_results(report) == {
        "results/base/selfaware/mean_reward": -0.5,
        "results/trained/selfaware/mean_reward": 0.25,
        "results/difference/mean_reward/mean_difference": 0.75,
        "results/difference/mean_reward/ci_low": 0.1,
        "results/difference/mean_reward/ci_high": 1.2,
        "honesty/trained/honesty": 0.7,
        "honesty/trained_vs_base/honesty/difference": 0.1,
        "honesty/trained_vs_base/honesty/ci_low": 0.0,
        "honesty/trained_vs_base/honesty/ci_high": 0.2,
    }


# --- checkpoints -----------------------------------------------------------------------------

def _checkpoint(root: Path, step: int, complete: bool) -> Path:
    path = root / f"checkpoint-{step}"
    path.mkdir(parents=True)
    (path / "adapter_model.safetensors").write_bytes(b"x")
    if complete:
        (path / ck.COMPLETE_MARKER).write_text("{}")
    return path


def test_only_complete_checkpoints_are_resumed_from(tmp_path):
    _checkpoint(tmp_path, 9, True)
    _checkpoint(tmp_path, 10, True)   # numeric order: 10 is newer than 9
    _checkpoint(tmp_path, 15, False)  # cut off while saving
    (tmp_path / "checkpoint-notes").mkdir()
    assert ck.last_checkpoint(tmp_path) == str(tmp_path / "checkpoint-10")
    assert ck.remove_incomplete(tmp_path) == [tmp_path / "checkpoint-15"]
    assert not (tmp_path / "checkpoint-15").exists() and (tmp_path / "checkpoint-notes").is_dir()
    assert ck.last_checkpoint(tmp_path / "missing") is None


def test_checkpoint_callback_marks_saves_and_stops_on_request(tmp_path):
    from transformers import TrainerControl

    stop = ck.StopRequest()
    callback = ck.make_checkpoint_callback(save_minutes=None, stop=stop)
    args = types.SimpleNamespace(output_dir=str(tmp_path))
    state = types.SimpleNamespace(global_step=3, is_world_process_zero=True)
    control = callback.on_step_end(args, state, TrainerControl())
    assert not control.should_save and not control.should_training_stop
    stop.requested = True
    control = callback.on_step_end(args, state, TrainerControl())
    assert control.should_save and control.should_training_stop
    (tmp_path / "checkpoint-3").mkdir()
    callback.on_save(args, state, control)
    assert ck.last_checkpoint(tmp_path) == str(tmp_path / "checkpoint-3")
    timed = ck.make_checkpoint_callback(save_minutes=1e-9)  # time-based save is due at once
    assert timed.on_step_end(args, state, TrainerControl()).should_save


def test_stop_request_turns_the_first_sigint_into_a_request_and_the_second_aborts():
    before = signal.getsignal(signal.SIGINT)
    with ck.StopRequest() as stop:
        os.kill(os.getpid(), signal.SIGINT)
        assert stop.requested
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
    assert signal.getsignal(signal.SIGINT) is before


def test_output_dir_must_be_writable(tmp_path):
    check_output_dir(tmp_path / "new" / "run")
    assert (tmp_path / "new" / "run").is_dir()
    blocker = tmp_path / "file.txt"
    blocker.write_text("x")
    with pytest.raises(ConfigError, match="file.txt/run' is not writable.*--output-dir"):
        check_output_dir(blocker / "run")


def test_disk_space_check(tmp_path, monkeypatch):
    usage = types.SimpleNamespace(total=10**9, used=0, free=50_000_000)
    monkeypatch.setattr(ck.shutil, "disk_usage", lambda path: usage)
    ck.check_disk_space(tmp_path, 49_000_000)
    with pytest.raises(ConfigError, match=r"50 MB free.*need about 60 MB"):
        ck.check_disk_space(tmp_path, 60_000_000)


def test_checkpoint_size_estimate():
    import torch

    class Tiny(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.q_proj = torch.nn.Linear(4, 6)
            self.up_proj = torch.nn.Linear(4, 8)
            self.lm_head = torch.nn.Linear(4, 10)

        def get_output_embeddings(self):
            return self.lm_head

    # r = 2: q_proj 2 x (4 + 6) = 20; up_proj 2 x (4 + 8) = 24; lm_head never
    assert ck.lora_parameter_count(Tiny(), ["q_proj"], 2) == 20
    assert ck.lora_parameter_count(Tiny(), "all-linear", 2) == 44
    # 12 bytes per parameter (weight + 2 Adam moments) + tokenizer + 1 MB:
    # 12 x 1,843,200 + 3,500,000 + 1,000,000 = 26,618,400
    assert ck.checkpoint_bytes(1_843_200, 3_500_000) == 26_618_400
