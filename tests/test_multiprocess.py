"""Multi-process training: the shipped accelerate configs load, and two CPU
processes (gloo) train 2 GRPO steps with `accelerate launch` and end with the same adapter."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = sorted((ROOT / "configs" / "accelerate").glob("*.yaml"))


def test_the_accelerate_configs_load():
    from accelerate.commands.config.config_args import ClusterConfig

    assert [p.stem for p in CONFIGS] == ["ddp", "deepspeed_zero2", "deepspeed_zero3", "fsdp"]
    kinds = {p.stem: ClusterConfig.from_yaml_file(p).distributed_type.value for p in CONFIGS}
    assert kinds == {"ddp": "MULTI_GPU", "deepspeed_zero2": "DEEPSPEED",
                     "deepspeed_zero3": "DEEPSPEED", "fsdp": "FSDP"}
    zero = {p.stem: ClusterConfig.from_yaml_file(p).deepspeed_config["zero_stage"]
            for p in CONFIGS if "zero" in p.stem}
    assert zero == {"deepspeed_zero2": 2, "deepspeed_zero3": 3}


def test_the_batch_rule_counts_the_processes(monkeypatch):
    from rlvr.config import load_config
    from rlvr.errors import ConfigError

    monkeypatch.setenv("WORLD_SIZE", "3")
    # 2 x 1 x 3 = 6 completions per generation batch: not divisible by 4
    with pytest.raises(ConfigError, match=r"2 x 1 x 3 = 6\) must be divisible by "
                                          r"num_generations \(4\)"):
        load_config(None, {"per_device_train_batch_size": 2, "gradient_accumulation_steps": 1,
                           "num_generations": 4})
    load_config(None, {"per_device_train_batch_size": 2, "gradient_accumulation_steps": 1,
                       "num_generations": 3})


@pytest.mark.slow
def test_two_cpu_processes_train_and_end_with_the_same_adapter(tmp_path):
    from rlvr.metrics.run_log import read_metrics

    run_dir = tmp_path / "run"
    args = [sys.executable, "-m", "accelerate.commands.launch", "--multi_gpu",
            "--num_processes", "2", "--num_machines", "1", "--mixed_precision", "no",
            "--dynamo_backend", "no", "--main_process_port", "29533",
            "-m", "rlvr.cli", "train", "--max-steps", "3", "--output-dir", str(run_dir)]
    # 2 ranks x 8 completions = 4 groups of 4 per step, 12 groups in 3 steps; lr without
    # warm-up and temperature 1.0, so some group has reward spread and the adapter really
    # moves (checked below). With 2 groups per step and 2 steps, the grown built-in data
    # once gave 4 groups that all tied.
    for setting in ("per_device_train_batch_size=8", "gradient_accumulation_steps=1",
                    "num_generations=4", "max_completion_length=8", "train_limit=16",
                    "skip_eval=true", "report_to=none", "save_steps=100", "warmup_ratio=0",
                    "learning_rate=1e-3", "temperature=1.0", "seed=3"):
        args += ["--set", setting]
    done = subprocess.run(args, capture_output=True, text=True, timeout=900,
                          env={**os.environ, "OMP_NUM_THREADS": "1"})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    records = read_metrics(run_dir / "metrics.jsonl")
    assert any(m.get("grad_norm") for m in records if m["event"] == "log"), \
        "no step had a gradient: the equal adapters would prove nothing"
    [end] = [m for m in records if m["event"] == "train_end"]
    assert end["optimizer_steps"] == 3 and end["processes"] == 2
    first, second = end["adapter_sha256_by_rank"]
    assert first == second
    assert (run_dir / "adapter" / "adapter_model.safetensors").is_file()
