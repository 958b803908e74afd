"""Does the main job's recipe hold on the seed a user happens to run, on questions from other
templates than its training rows? The shipped recipe over 8 seeds, judged on both held-out
sets (the in-distribution split and the out-of-template test set), via `rlvr compare`.

    .venv/bin/python benchmarks/seed_robustness.py --set decision_samples=0   # 8 seeds
    .venv/bin/python benchmarks/seed_robustness.py --seeds 0,1 --max-steps 5   # a quick look
    .venv/bin/python benchmarks/seed_robustness.py --arms grpo-strict,grpo-strict+beta=0.5
                                                   # another arm beside the shipped one

Arms are `rlvr compare` arms: `grpo-strict` is configs/selfaware_grpo_cpu.yaml as it is
(a wrong answer -0.5, an abstention on a known question -1.0, beta 0.6, 8 prompts x 4
generations per step; `grpo-strict+beta=0.3` is the recipe before it);
`--set out_of_template=validation` judges on the out-of-template validation split instead
of the test split: choose between arms there, then run the chosen one on the test split;
`PREVIOUS` below is an older recipe (a wrong answer and an abstention on a known question
both -1.0, beta 0.1, 4 prompts x 4 generations). Any arm with `+key=value` overrides works
(`grpo-strict+advantage_baseline=answers` for the answer baseline). Seeds run one after
another, every arm per seed, so an interrupted study has the same seeds in every arm; two
processes may share one --output-dir with different seeds (each run has its own folder).
The base model's held-out answers and knowledge labels are computed once per process and
reused by every later arm and seed.
Prints the machine's fp32 matmul throughput, each run's training seconds, per arm and
held-out set (the in-distribution split, and the out-of-template test set of
rlvr.data.out_of_template when the runs have it) the per-seed table (honesty, prudence,
over-conservativeness, known-retention, the verdict against the base model and the worst
slice of question features), the worst seed (lowest known-retention), the lowest slice
retention, the verdict of the seeds pooled, then every seed's verdict (the worse of the two
sets) and `seeds_meeting_bounds` (seeds `improved` with known-retention >= 0.85, on both
sets), the wall time and the cost of one more seed. The cross-task check is off (it does
not enter the verdict); `--set decision_samples=0` also skips the decision-rule check.
Resumable: rerun the same command to finish an interrupted study, or to print a finished one (nothing reruns).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import matmul_gflops  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PREVIOUS = "grpo-strict+reward_params.wrong=-1.0+beta=0.1+per_device_train_batch_size=16"
ARMS = "grpo-strict"
SEEDS = "0,1,2,3,4,5,6,7"


def _fmt(value) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", default=str(ROOT / "configs" / "selfaware_grpo_cpu.yaml"))
    parser.add_argument("--arms", default=ARMS)
    parser.add_argument("--seeds", default=SEEDS)
    parser.add_argument("--max-steps", type=int, default=None,
                        help="optimizer steps per run (default: the config's)")
    parser.add_argument("--output-dir", default=str(ROOT / "runs" / "bench_seeds"))
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a config override for every arm (values read as YAML), e.g. "
                             "num_threads=1 to run two studies side by side on 2 cores")
    args = parser.parse_args()
    from rlvr.eval.method_stats import worst_seed
    from rlvr.train.compare_arms import run_compare

    print(f"machine: {matmul_gflops():.0f} GFLOP/s fp32 matmul")
    overrides = {"cross_check": "none"}
    for setting in args.set:
        key, _, text = setting.partition("=")
        overrides[key.strip()] = yaml.safe_load(text)
    if args.max_steps:
        overrides["max_steps"] = args.max_steps
    arms = [a for a in args.arms.split(",") if a]
    seeds = [int(s) for s in args.seeds.split(",") if s]
    start = time.perf_counter()
    made: set[tuple[str, int]] = set()  # runs this invocation trained (not reused)
    for done in range(1, len(seeds) + 1):  # seed by seed: every arm has each seed in turn
        summary = run_compare(args.config, arms, seeds[:done], overrides, args.output_dir)
        made |= {(r["arm"], r["seed"]) for r in summary["runs"] if not r["reused"]}
    wall = time.perf_counter() - start
    trained_s = []
    for run in summary["runs"]:
        report = json.loads((Path(run["run_dir"]) / "report.json").read_text())
        timings = report["meta"].get("timings", {})
        total = sum(v for k, v in timings.items() if isinstance(v, (int, float)))
        new = (run["arm"], run["seed"]) in made
        if new:
            trained_s.append(total)
        print(f"{run['arm']} seed {run['seed']}: {report['meta']['optimizer_steps']} steps, "
              f"train {timings.get('train_s', float('nan')):.0f} s, stages {total:.0f} s"
              f"{'' if new else ' (reused)'}")
    floor = summary["retention_floor"]
    sets = [("in-distribution", summary)]
    if summary.get("out_of_template"):
        sets.append(("out-of-template", summary["out_of_template"]))
    for arm in arms:
        for name, part in sets:
            rows = part["per_seed"][arm]
            print(f"\n{arm}, {name} held-out set ({part['n']} questions, {part['known']} "
                  "known to the base model)")
            print("| seed | honesty | prudence | over-conservativeness | known-retention | "
                  "verdict | worst slice |")
            print("|---|---|---|---|---|---|---|")
            for r in rows:
                print(f"| {r['seed']} | {_fmt(r['honesty'])} | {_fmt(r['prudence'])} | "
                      f"{_fmt(r['over_conservativeness'])} | {_fmt(r['known_retention'])} | "
                      f"{r['verdict']} | {r.get('worst_slice') or '-'} |")
            worst = worst_seed(rows)
            if worst is not None:
                print(f"worst seed: {worst['seed']} (known-retention "
                      f"{_fmt(worst['known_retention'])}, honesty {_fmt(worst['honesty'])}, "
                      f"{worst['verdict']})")
            slices = [r["worst_slice_retention"] for r in rows
                      if r.get("worst_slice_retention") is not None]
            if slices:
                print(f"lowest slice retention over seeds: {min(slices):.3f} (goal: no slice "
                      "below 0.70)")
            pooled = part.get("pooled", {}).get(arm)
            if pooled:
                print(f"seeds pooled: {pooled['verdict']}"
                      + (" (DISAGREES with the seeds' verdicts)" if pooled["disagree"] else ""))
        if summary.get("verdicts"):
            both = summary["verdicts"][arm]
            print(f"\n{arm}, verdict per seed (the worse of the sets): "
                  + ", ".join(f"{v['seed']}: {v['verdict']}" for v in both))
        print(f"seeds_meeting_bounds: {summary['seeds_meeting_bounds'][arm]} of "
              f"{len(summary['per_seed'][arm])} (improved, known-retention >= {floor}"
              f"{' on both sets' if summary.get('verdicts') else ''})")
    print(f"\nwall time: {wall:.0f} s = {wall / 60:.1f} min for {len(arms)} arms x "
          f"{len(seeds)} seeds (reused runs cost nothing)")
    if trained_s:
        print(f"one more seed costs about {sum(trained_s) / len(trained_s):.0f} s per arm "
              f"(the mean of the {len(trained_s)} runs made now, base stages shared)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
