"""Measure the main job: wall time, seconds per GRPO step and the before/after numbers.

Runs `rlvr train` as a user would (a subprocess), then reads the run's report.json.

    .venv/bin/python benchmarks/main_job.py                       # built-in data
    .venv/bin/python benchmarks/main_job.py --data ../shared/data/selfaware/SelfAware.json
    .venv/bin/python benchmarks/main_job.py --extra --max-steps 5  # any extra train flags

Prints the wall time of the whole command, the trainer's seconds per optimizer step, the
evaluation seconds, and the base/trained metrics with the paired difference.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default=str(ROOT / "configs" / "selfaware_grpo_cpu.yaml"))
    parser.add_argument("--data", help="data path passed to rlvr train --data")
    parser.add_argument("--output-dir", default=str(ROOT / "runs" / "benchmark_main_job"))
    parser.add_argument("--extra", nargs=argparse.REMAINDER, default=[],
                        help="further rlvr train arguments")
    args = parser.parse_args()
    cmd = [sys.executable, "-m", "rlvr.cli", "train", "--config", args.config,
           "--output-dir", args.output_dir, *(["--data", args.data] if args.data else []),
           *args.extra]
    print("running:", " ".join(cmd), flush=True)
    start = time.perf_counter()
    subprocess.run(cmd, check=True)
    wall = time.perf_counter() - start
    report = json.loads((Path(args.output_dir) / "report.json").read_text())
    meta, timings = report["meta"], report["meta"]["timings"]
    print(f"\nwall time (whole command): {wall:.1f} s ({wall / 60:.1f} min)")
    print(f"optimizer steps: {meta['optimizer_steps']}, train {timings['train_s']:.1f} s, "
          f"{timings['seconds_per_step']:.2f} s/step")
    print(f"eval base {timings.get('eval_base_s', float('nan')):.1f} s, "
          f"eval trained {timings['eval_trained_s']:.1f} s, "
          f"{meta['heldout_questions']} held-out questions")
    keys = ("mean_reward", "answerable_accuracy", "answerable_abstention_rate",
            "unanswerable_abstention_recall", "abstention_precision", "abstention_f1")
    for key in keys:
        b, t = report["base"]["selfaware"][key], report["trained"]["selfaware"][key]
        fmt = lambda v: "-" if v is None else f"{v:.3f}"  # noqa: E731
        print(f"{key:32} base {fmt(b):>7}  trained {fmt(t):>7}")
    diff = report["difference"]["mean_reward"]
    print(f"mean reward difference {diff['mean_difference']:+.3f} "
          f"(95% CI {diff['ci_low']:+.3f} .. {diff['ci_high']:+.3f}, n={diff['n']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
