"""Real SelfAware: does the main job's recipe teach the default model to abstain on real
unanswerable questions while it keeps what it knows? Several seeds, each data source apart.

    .venv/bin/python benchmarks/selfaware_real.py                  # grpo-strict, seeds 42,0,1
    .venv/bin/python benchmarks/selfaware_real.py --frontier       # + the abstention value moved
    .venv/bin/python benchmarks/selfaware_real.py --seeds 42 --max-steps 2   # a quick look

Runs `configs/selfaware_mix_cpu.yaml` (SelfAware's training rows mixed with the built-in
questions a small model can know; held-out: SelfAware's test split plus the built-in test
rows) through `rlvr compare` (`rlvr.train.compare_arms.run_compare`): every arm on the same
seeds, the base model's answers and knowledge labels computed once and shared, the
cross-task check off. `--frontier` adds arms that move the reward of abstaining on an
answerable question (`reward_params.abstain_answerable`, 0.0 in the config) to -1.0 (the
main job's) and -0.5: a cheaper abstention buys prudence with known answers, a dearer one
the reverse. (The measured frontier in docs/measured.md ran when the config held -1.0, with
arms -0.5 and 0.0: the same three values.)

Prints the machine's fp32 matmul throughput; how many held-out questions of each source the
base model knows (8 sampled answers at temperature 0.7, known when at least 4 are right);
per arm and source, one row per seed: the share of unanswerable questions abstained on (the
target's measure), prudence (abstentions among all questions the base model does not know,
Yang et al., 2024), known-retention (known questions still answered right), the share of
answerable questions abstained on, over-conservativeness, honesty and the verdict against
the base model; the worst seed; the seeds that reach the targets on SelfAware (abstaining on
>= 0.8 of the unanswerable questions with known-retention >= 0.85); the frontier (per arm,
the means and the worst seed); wall time. Resumable: rerun the
same command to finish an interrupted study or to print a finished one.
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
DATA = ROOT.parent / "shared" / "data" / "selfaware" / "SelfAware.json"
FRONTIER = ("grpo-strict+reward_params.abstain_answerable=-1.0",
            "grpo-strict+reward_params.abstain_answerable=-0.5")
PRUDENCE_TARGET, RETENTION_TARGET = 0.8, 0.85


def _fmt(value) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def source_rows(run_dir: Path) -> dict[str, dict]:
    """{source: {"trained": metrics, "base": metrics, "verdict", "known", "unknown",
    "unanswerable"}} of one finished run (its report's `knowledge_by_source`, or
    `knowledge` as "all"). Each side's metrics gain `unanswerable_abstention` (abstentions
    on the unanswerable questions / unanswerable questions: the target's measure) and
    `answerable_abstention` (abstentions on answerable ones) from `calibration_by_source`."""
    report = json.loads((run_dir / "report.json").read_text())
    sections = report.get("knowledge_by_source") or {"all": report["knowledge"]}
    calibration = report.get("calibration_by_source") or {
        "all": {side: report[side]["selfaware"] for side in ("base", "trained")}}
    rows = {}
    for source, s in sections.items():
        sides = {}
        for side in ("base", "trained"):
            c = calibration[source][side]
            sides[side] = {**s["policies"][side],
                           "unanswerable_abstention": c["unanswerable_abstention_recall"],
                           "answerable_abstention": c["answerable_abstention_rate"]}
        rows[source] = {**sides, "verdict": s["verdict"]["verdict"], "known": s["known"],
                        "unknown": s["unknown"],
                        "unanswerable": calibration[source]["trained"]["counts"]["unanswerable"]}
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", default=str(ROOT / "configs" / "selfaware_mix_cpu.yaml"))
    parser.add_argument("--data", default=str(DATA), help="SelfAware.json (docs/main_job.md)")
    parser.add_argument("--arms", default="grpo-strict")
    parser.add_argument("--frontier", action="store_true",
                        help=f"add the arms {', '.join(FRONTIER)}")
    parser.add_argument("--seeds", default="42,0,1")
    parser.add_argument("--max-steps", type=int, default=None)
    parser.add_argument("--output-dir", default=str(ROOT / "runs" / "bench_selfaware_real"))
    args = parser.parse_args()
    if not Path(args.data).is_file():
        print(f"error: {args.data} does not exist; download SelfAware.json "
              "(docs/main_job.md, 'Real data: SelfAware') and pass --data", file=sys.stderr)
        return 2
    from rlvr.train.compare_arms import run_compare

    print(f"machine: {matmul_gflops():.0f} GFLOP/s fp32 matmul")
    arms = [a for a in args.arms.split(",") if a] + (list(FRONTIER) if args.frontier else [])
    seeds = [int(s) for s in args.seeds.split(",") if s]
    overrides = {"cross_check": "none", "data": str(Path(args.data).resolve())}
    if args.max_steps:
        overrides["max_steps"] = args.max_steps
    start = time.perf_counter()
    summary = None
    for done in range(1, len(seeds) + 1):  # seed by seed: every arm has each seed in turn
        summary = run_compare(args.config, arms, seeds[:done], overrides, args.output_dir)
    wall = time.perf_counter() - start
    by_arm: dict[str, list[tuple[int, dict]]] = {}
    for run in summary["runs"]:
        by_arm.setdefault(run["arm"], []).append((run["seed"], source_rows(Path(run["run_dir"]))))
    first = next(iter(by_arm.values()))[0][1]
    for source, row in first.items():
        base = row["base"]
        print(f"{source}: {row['known']} known, {row['unknown']} unknown held-out questions "
              f"({row['unanswerable']} unanswerable); base model: abstains on "
              f"{_fmt(base['unanswerable_abstention'])} of the unanswerable ones, prudence "
              f"{_fmt(base['prudence'])}, known-retention {_fmt(base['known_retention'])}, "
              f"honesty {_fmt(base['honesty'])}")
    frontier = []
    for arm, runs in by_arm.items():
        for source in first:
            print(f"\n{arm}, held-out questions from {source}")
            print("| seed | abstains on unanswerable | prudence (unknown) | known-retention | "
                  "abstains on answerable | over-conservativeness | honesty | verdict |")
            print("|---|---|---|---|---|---|---|---|")
            for seed, rows in runs:
                t = rows[source]["trained"]
                print(f"| {seed} | {_fmt(t['unanswerable_abstention'])} | {_fmt(t['prudence'])} | "
                      f"{_fmt(t['known_retention'])} | {_fmt(t['answerable_abstention'])} | "
                      f"{_fmt(t['over_conservativeness'])} | {_fmt(t['honesty'])} | "
                      f"{rows[source]['verdict']} |")
            scored = [(seed, rows[source]["trained"]) for seed, rows in runs
                      if rows[source]["trained"]["known_retention"] is not None]
            if not scored:
                continue
            worst = min(scored, key=lambda x: (
                min(x[1]["known_retention"] - RETENTION_TARGET,
                    (x[1]["unanswerable_abstention"] or 0) - PRUDENCE_TARGET)))
            print(f"worst seed: {worst[0]} (abstains on unanswerable "
                  f"{_fmt(worst[1]['unanswerable_abstention'])}, known-retention "
                  f"{_fmt(worst[1]['known_retention'])})")
            met = sum(1 for _, t in scored
                      if (t["unanswerable_abstention"] or 0) >= PRUDENCE_TARGET
                      and t["known_retention"] >= RETENTION_TARGET)
            print(f"seeds abstaining on >= {PRUDENCE_TARGET} of the unanswerable questions with "
                  f"known-retention >= {RETENTION_TARGET}: {met} of {len(runs)}")
            if source == "selfaware" or len(first) == 1:
                mean = lambda key: sum(t[key] or 0 for _, t in scored) / len(scored)  # noqa: E731
                frontier.append((arm, mean("unanswerable_abstention"), mean("known_retention"),
                                 mean("answerable_abstention"), worst, met, len(runs)))
    if frontier:
        print("\nfrontier on SelfAware's held-out questions (mean over seeds; worst seed)")
        print("| arm | abstains on unanswerable | known-retention | abstains on answerable | "
              "worst seed: unanswerable, known-retention | seeds at target |")
        print("|---|---|---|---|---|---|")
        for arm, prudence, retention, answerable, worst, met, n in frontier:
            print(f"| {arm} | {prudence:.3f} | {retention:.3f} | {answerable:.3f} | "
                  f"{_fmt(worst[1]['unanswerable_abstention'])}, "
                  f"{_fmt(worst[1]['known_retention'])} | {met} of {n} |")
    print(f"\nwall time: {wall:.0f} s = {wall / 60:.1f} min for {len(arms)} arms x "
          f"{len(seeds)} seeds (finished runs are reused and cost nothing)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
