"""Does the GRPO curriculum spend the same budget on more learning signal? Measure it.

Trains the same config twice on the same budget (same max_steps, seed and data), once with
`curriculum: false` and once with `curriculum: true`, through the library
(`rlvr.config.load_config` + `rlvr.train.job.run`), into runs/bench_curriculum/{off,on}:

    .venv/bin/python benchmarks/curriculum.py                       # the CPU main job config
    .venv/bin/python benchmarks/curriculum.py --max-steps 2 --eval-limit 8   # smoke run
    .venv/bin/python benchmarks/curriculum.py --config FILE --set curriculum_window=3

Prints, for both runs: the share of zero-spread groups (mean of TRL's
`frac_reward_zero_std` over the logged steps; such a group has advantage 0 and teaches
nothing), the groups with non-zero spread per minute of training, the held-out mean reward
of the trained model (report.json), the number of retired prompts
(curriculum_retired.json), the training and whole-run wall times; and the machine's fp32
matmul throughput (machines of one kind differ by up to 2x).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from machine import matmul_gflops

ROOT = Path(__file__).resolve().parents[1]


def signal_stats(log: list[dict], groups_per_step: float, train_s: float) -> dict:
    """Zero-spread share and non-zero-spread groups per minute from TRL's log entries.

    Each entry with `frac_reward_zero_std` averages the generation batches since the
    previous logged step, so it stands for (step - previous step) x groups_per_step groups.
    """
    entries = [e for e in log if e.get("frac_reward_zero_std") is not None]
    previous, spread_groups, total = 0, 0.0, 0.0
    for entry in entries:
        groups = (entry["step"] - previous) * groups_per_step
        spread_groups += (1 - entry["frac_reward_zero_std"]) * groups
        total += groups
        previous = entry["step"]
    share = (sum(e["frac_reward_zero_std"] for e in entries) / len(entries)) if entries else None
    return {"zero_std_share": share, "groups": total, "spread_groups": spread_groups,
            "spread_groups_per_min": spread_groups / (train_s / 60) if train_s else None}


def run_once(config: str, overrides: dict, run_dir: Path) -> dict:
    """Train and evaluate one configuration; return the figures to print."""
    from rlvr.config import load_config
    from rlvr.train.job import run

    cfg = load_config(config, {**overrides, "output_dir": str(run_dir)})
    print(f"training {run_dir.name}: curriculum={cfg.curriculum}, max_steps={cfg.max_steps}",
          flush=True)
    start = time.perf_counter()
    report = run(cfg)
    wall = time.perf_counter() - start
    meta = report["meta"]
    log = [json.loads(line) for line in
           (run_dir / "train_log.jsonl").read_text(encoding="utf-8").splitlines() if line]
    groups_per_step = (cfg.per_device_train_batch_size * cfg.gradient_accumulation_steps
                       / cfg.num_generations)
    stats = signal_stats(log, groups_per_step, meta["timings"]["train_s"])
    retired_file = run_dir / "curriculum_retired.json"
    retired = (json.loads(retired_file.read_text(encoding="utf-8"))["retired_prompts"]
               if retired_file.is_file() else None)
    if cfg.curriculum and retired is None:
        print(f"warning: {retired_file} missing: rlvr.train.job.run did not run the curriculum "
              "(is curriculum_trainer wired into it?)", file=sys.stderr)
    trained = report.get("trained", {})
    scores = trained.get(cfg.reward) or next(iter(trained.values()), {})
    return {**stats, "wall_s": wall, "train_s": meta["timings"]["train_s"],
            "steps": meta["optimizer_steps"], "retired": retired,
            "heldout_mean_reward": scores.get("mean_reward"),
            "train_rows": meta.get("train_rows")}


def _fmt(value, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default=str(ROOT / "configs" / "selfaware_grpo_cpu.yaml"))
    parser.add_argument("--max-steps", type=int, help="optimizer steps of both runs "
                                                      "(default: the config's)")
    parser.add_argument("--eval-limit", type=int, help="held-out questions evaluated")
    parser.add_argument("--output-dir", default=str(ROOT / "runs" / "bench_curriculum"))
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="further config overrides for both runs")
    args = parser.parse_args()
    from rlvr.config import parse_override

    overrides = dict(parse_override(text) for text in args.set)
    if args.max_steps is not None:
        overrides["max_steps"] = args.max_steps
    if args.eval_limit is not None:
        overrides["eval_limit"] = args.eval_limit
    print(f"machine: matmul {matmul_gflops():.0f} GFLOP/s (fp32, 1024x1024 @ 1024x4096)", flush=True)
    out = Path(args.output_dir)
    results = {name: run_once(args.config, {**overrides, "curriculum": flag}, out / name)
               for name, flag in (("off", False), ("on", True))}
    print(f"\nconfig {args.config}; {results['off']['train_rows']} training prompts; "
          f"{results['off']['steps']} optimizer steps each")
    print(f"{'curriculum':<11}{'zero-spread share':>18}{'spread groups/min':>19}"
          f"{'held-out reward':>17}{'retired':>9}{'train s':>9}{'wall s':>9}")
    for name, r in results.items():
        print(f"{name:<11}{_fmt(r['zero_std_share'], '.3f'):>18}"
              f"{_fmt(r['spread_groups_per_min'], '.1f'):>19}"
              f"{_fmt(r['heldout_mean_reward'], '+.3f'):>17}{_fmt(r['retired'], 'd'):>9}"
              f"{r['train_s']:>9.1f}{r['wall_s']:>9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
