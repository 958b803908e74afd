"""What `mask_zero_std_groups` does to the main job: step time and held-out honesty, with
and without it, over seeds (`rlvr compare` with the arms `grpo-strict` and
`grpo-strict+mask_zero_std_groups`).

    .venv/bin/python benchmarks/zero_std_masking.py                # seeds 0,1,2, 20 steps
    .venv/bin/python benchmarks/zero_std_masking.py --seeds 0 --max-steps 5   # a quick look
    .venv/bin/python benchmarks/zero_std_masking.py --reuse runs/bench_compare
    .venv/bin/python benchmarks/zero_std_masking.py --step-time 6     # step time only

`--step-time N` trains each arm N steps with no evaluation, alternating the arms twice
(A B A B, so a change in the machine's load falls on both), and prints the seconds per
step of each and their ratio; nothing else runs (`train_answerable: all`, so no base-model
labelling pass comes first; the rows are then the config's and both arms share them).

`--reuse DIR` copies finished `grpo-strict` runs of the same config and seeds from an
earlier comparison (benchmarks/compare_methods.py) instead of training them again; their
step times then come from another time on the machine, which this script prints next to the
matmul throughput. Prints, per run: optimizer steps, training seconds per step, the share of
zero-spread groups (TRL's `frac_reward_zero_std`, mean over steps) and the share of
completions masked; then the comparison table and the paired differences (masked minus
unmasked) in honesty, prudence, over-conservativeness and known-retention. The last line
reads `masking: honesty <d> [<lo>, <hi>], step time x<r>`.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path
from statistics import mean

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import matmul_gflops  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
REFERENCE, MASKED = "grpo-strict", "grpo-strict+mask_zero_std_groups"


def _run_stats(run_dir: Path) -> dict:
    """Seconds per step and the zero-spread shares of one finished run."""
    report = json.loads((run_dir / "report.json").read_text(encoding="utf-8"))
    steps = report["meta"]["optimizer_steps"]
    train_s = report["meta"].get("timings", {}).get("train_s", float("nan"))
    logs = [json.loads(line) for line in (run_dir / "metrics.jsonl").read_text().splitlines()]
    logs = [r for r in logs if r.get("event") == "log" and "frac_reward_zero_std" in r]
    masked = [r["zero_std_masked_share"] for r in logs if "zero_std_masked_share" in r]
    return {"steps": steps, "s_per_step": train_s / max(steps, 1),
            "zero_std": mean(r["frac_reward_zero_std"] for r in logs) if logs else float("nan"),
            "masked": mean(masked) if masked else 0.0}


def _reuse(source: Path, out: Path, seeds: list[int]) -> None:
    """Copy finished reference runs (report.json present) that `out` lacks."""
    for seed in seeds:
        src, dst = source / REFERENCE / f"seed{seed}", out / REFERENCE / f"seed{seed}"
        if (src / "report.json").is_file() and not dst.exists():
            shutil.copytree(src, dst, ignore=shutil.ignore_patterns("checkpoints"))
            print(f"reused {src}")


def step_time(config: str, steps: int, out: Path) -> int:
    """Seconds per optimizer step with and without the mask, arms alternated twice."""
    from rlvr.config import load_config
    from rlvr.train.job import run

    per_arm: dict[bool, list[float]] = {False: [], True: []}
    print(f"machine: {matmul_gflops():.0f} GFLOP/s fp32 matmul")
    for round_ in range(2):
        for masked in (False, True):
            run_dir = out / f"step_time_{'masked' if masked else 'plain'}_{round_}"
            shutil.rmtree(run_dir, ignore_errors=True)
            cfg = load_config(config, {"max_steps": steps, "skip_eval": True,
                                       "train_answerable": "all",  # no labelling pass first
                                       "cross_check": "none", "report_to": "none",
                                       "mask_zero_std_groups": masked, "seed": round_,
                                       "output_dir": str(run_dir)})
            report = run(cfg)
            seconds = report["meta"]["timings"]["train_s"] / max(report["meta"]["optimizer_steps"], 1)
            per_arm[masked].append(seconds)
            print(f"{'masked' if masked else 'plain':>6} round {round_}: {seconds:.1f} s/step")
    plain, masked = mean(per_arm[False]), mean(per_arm[True])
    print(f"step time: plain {plain:.1f} s, masked {masked:.1f} s, masked/plain x{masked / plain:.2f}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", default=str(ROOT / "configs" / "selfaware_grpo_cpu.yaml"))
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--max-steps", type=int, default=None)
    parser.add_argument("--output-dir", default=str(ROOT / "runs" / "bench_masking"))
    parser.add_argument("--reuse", default=None,
                        help="an earlier comparison folder with finished grpo-strict runs")
    parser.add_argument("--step-time", type=int, default=0, metavar="N",
                        help="only time N training steps per arm (no evaluation)")
    args = parser.parse_args()
    if args.step_time:
        return step_time(args.config, args.step_time, Path(args.output_dir))
    from rlvr.train.compare_arms import run_compare

    seeds = [int(s) for s in args.seeds.split(",") if s]
    out = Path(args.output_dir)
    if args.reuse:
        _reuse(Path(args.reuse), out, seeds)
    print(f"machine: {matmul_gflops():.0f} GFLOP/s fp32 matmul")
    overrides = {"cross_check": "none", **({"max_steps": args.max_steps} if args.max_steps
                                           else {})}
    start = time.perf_counter()
    summary = run_compare(args.config, [REFERENCE, MASKED], seeds, overrides, out)
    wall = time.perf_counter() - start
    per_arm: dict[str, list[float]] = {REFERENCE: [], MASKED: []}
    for run in summary["runs"]:
        stats = _run_stats(Path(run["run_dir"]))
        per_arm[run["arm"]].append(stats["s_per_step"])
        print(f"{run['arm']:>34} seed {run['seed']}: {stats['steps']} steps, "
              f"{stats['s_per_step']:.1f} s/step, zero-spread groups {stats['zero_std']:.2f}, "
              f"masked {stats['masked']:.2f}{' (reused)' if run['reused'] else ''}")
    print((out / "compare.md").read_text(encoding="utf-8"))
    print(f"wall time: {wall:.0f} s = {wall / 60:.1f} min (reused runs cost nothing)")
    diffs = summary["vs_reference"].get(MASKED, {})
    for key in ("honesty", "prudence", "over_conservativeness", "known_retention"):
        d = diffs.get(key)
        if d and d["difference"] is not None:
            print(f"masked - unmasked {key}: {d['difference']:+.3f} "
                  f"[{d['ci_low']:+.3f}, {d['ci_high']:+.3f}]")
    ratio = mean(per_arm[MASKED]) / mean(per_arm[REFERENCE])
    h = diffs["honesty"]
    print(f"masking: honesty {h['difference']:+.3f} [{h['ci_low']:+.3f}, {h['ci_high']:+.3f}], "
          f"step time x{ratio:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
