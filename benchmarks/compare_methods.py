"""Which method teaches judgment: GRPO (strict and ternary rewards), SFT and DPO on the main
job's data, three seeds each, on one held-out set (`rlvr compare`).

    .venv/bin/python benchmarks/compare_methods.py                 # 4 arms x 3 seeds
    .venv/bin/python benchmarks/compare_methods.py --seeds 0 --max-steps 5   # a quick look

Runs `rlvr.train.compare_arms.run_compare` with configs/selfaware_grpo_cpu.yaml (every arm gets
its data, prompt, LoRA settings and optimizer steps; GRPO's 16 completions per step are
SFT's 16 target sequences and DPO's 8 pairs per step). Prints the machine's fp32 matmul
throughput, each run's training seconds, the comparison tables (`compare.md`), the wall
time, and one line per arm: honesty at its known-retention, against grpo-strict with the
paired 95% interval, and the answer: the most honest arm at known-retention >= 0.85.
With the out-of-template set in the runs (the main job's default), every figure is given
for each held-out set. Resumable: rerun the same command to finish an interrupted
comparison; runs of `benchmarks/seed_robustness.py` in the same --output-dir are reused.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import matmul_gflops  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", default=str(ROOT / "configs" / "selfaware_grpo_cpu.yaml"))
    parser.add_argument("--arms", default="grpo-strict,grpo-ternary,sft,dpo")
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--max-steps", type=int, default=None,
                        help="optimizer steps per run (default: the config's)")
    parser.add_argument("--output-dir", default=str(ROOT / "runs" / "bench_compare"))
    parser.add_argument("--cross-check", action="store_true",
                        help="keep each run's likelihood cross-check (off by default: the "
                             "comparison is about held-out honesty; about 26 s per run)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a config override for every arm (values read as YAML), e.g. "
                             "decision_samples=0")
    args = parser.parse_args()
    import yaml

    from rlvr.train.compare_arms import run_compare

    print(f"machine: {matmul_gflops():.0f} GFLOP/s fp32 matmul")
    overrides = {"max_steps": args.max_steps} if args.max_steps else {}
    for setting in args.set:
        key, _, text = setting.partition("=")
        overrides[key.strip()] = yaml.safe_load(text)
    if not args.cross_check:
        overrides["cross_check"] = "none"
    arms = [a for a in args.arms.split(",") if a]
    seeds = [int(s) for s in args.seeds.split(",") if s]
    start = time.perf_counter()
    summary = run_compare(args.config, arms, seeds, overrides, args.output_dir)
    wall = time.perf_counter() - start
    out = Path(args.output_dir)
    for run in summary["runs"]:
        report = json.loads((Path(run["run_dir"]) / "report.json").read_text())
        timings = report["meta"].get("timings", {})
        print(f"{run['arm']:>14} seed {run['seed']}: {report['meta']['optimizer_steps']} steps, "
              f"train {timings.get('train_s', float('nan')):.0f} s"
              f"{' (reused)' if run['reused'] else ''}")
    print((out / "compare.md").read_text())
    print(f"wall time: {wall:.0f} s = {wall / 60:.1f} min for {len(arms)} arms x {len(seeds)} "
          "seeds (reused runs cost nothing)")
    from rlvr.eval.method_stats import answer_sentence

    sets = [("in-distribution", summary)]
    if summary.get("out_of_template"):
        sets.append(("out-of-template", summary["out_of_template"]))
    for name, part in sets:
        print(f"\n{name} held-out set ({part['n']} questions, {part['known']} known):")
        for arm, metrics in part["metrics"].items():
            line = (f"{arm}: honesty {metrics['honesty']['mean']:.3f} at known-retention "
                    f"{metrics['known_retention']['mean']:.3f}")
            diff = part["vs_reference"].get(arm, {}).get("honesty")
            if diff and diff["difference"] is not None:
                line += (f"; vs {part['reference']} {diff['difference']:+.3f} "
                         f"[{diff['ci_low']:+.3f}, {diff['ci_high']:+.3f}]")
            print(line)
        print(f"answer: {answer_sentence(part['answer'], part)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
