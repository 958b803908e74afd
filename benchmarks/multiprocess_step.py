"""Seconds per GRPO step in one process and in two (accelerate launch, gloo on CPUs).

Both runs train the default model with the same global generation batch (8 completions =
2 prompts x 4 generations per optimizer step): one process with per_device_train_batch_size
8 and 2 torch threads, or two processes with 4 each and 1 thread each (torchrun's default).
Prints the median step time of each (TRL's `step_time`, the first step left out as warm-up),
their ratio, and the machine's matmul throughput:

    .venv/bin/python benchmarks/multiprocess_step.py [--steps 6]

Run it alone on the machine: both variants use every core.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from machine import matmul_gflops

ROOT = Path(__file__).resolve().parents[1]
COMMON = ["gradient_accumulation_steps=1", "num_generations=4", "max_completion_length=12",
          "train_limit=64", "skip_eval=true", "report_to=none", "save_steps=1000",
          "warmup_ratio=0", "diagnostics=false"]


def _train(processes: int, steps: int, run_dir: Path) -> list[float]:
    per_device = 8 // processes
    rlvr = ["-m", "rlvr.cli", "train", "--max-steps", str(steps), "--output-dir", str(run_dir)]
    for setting in COMMON + [f"per_device_train_batch_size={per_device}"]:
        rlvr += ["--set", setting]
    if processes == 1:
        cmd = [sys.executable] + rlvr + ["--set", "num_threads=2"]
        env = dict(os.environ)
    else:
        cmd = [sys.executable, "-m", "accelerate.commands.launch", "--multi_gpu",
               "--num_processes", str(processes), "--num_machines", "1", "--mixed_precision",
               "no", "--dynamo_backend", "no", "--main_process_port", "29541"] + rlvr
        env = {**os.environ, "OMP_NUM_THREADS": "1"}
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    if done.returncode:
        raise SystemExit(f"{processes}-process run failed:\n{done.stderr[-3000:]}")
    sys.path.insert(0, str(ROOT / "src"))
    from rlvr.metrics.run_log import read_metrics

    return [m["step_time"] for m in read_metrics(run_dir / "metrics.jsonl")
            if m.get("event") == "log" and "step_time" in m]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=6)
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} CPUs, matmul {matmul_gflops():.0f} GFLOP/s (fp32, torch)",
          flush=True)
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for processes in (1, 2):
            times = _train(processes, args.steps, Path(tmp) / f"p{processes}")
            results[processes] = statistics.median(times[1:] or times)
            print(f"{processes} process(es): median step {results[processes]:.2f} s over "
                  f"{len(times) - 1} steps (all: {', '.join(f'{t:.2f}' for t in times)})",
                  flush=True)
    print(f"two processes / one process: {results[2] / results[1]:.2f}x the step time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
