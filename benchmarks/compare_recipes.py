"""Two recipes' seeds on the same held-out questions under one knowledge labelling, paired per
question and seed: is one recipe's trained model more honest than the other's, in absolute
terms?

A run's verdict compares its trained model with its own base model under its own prompt. A
recipe that changes the prompt (an exemplar) also changes the base model it is judged
against: a prompt that makes the base model less prudent makes "improved" easier to reach
with no more honest a trained model. This script judges two recipes' trained answers with
one labelling of which questions the base model knows (each recipe's base labels in turn,
read from the first seed's `knowledge_labels.json`), on the questions both answered (by
default the out-of-template set, the one both recipes share), with the paired bootstrap of
`rlvr compare` (`rlvr.eval.method_stats.compare_arms`: questions resampled within known
and unknown, every seed on each draw).

    .venv/bin/python benchmarks/compare_recipes.py --reference runs/bench_oot/grpo-strict \\
        --candidate runs/bench_oot4x/grpo-strict+train_answerable=label+...

Each folder holds `seed<N>/` run folders (as `benchmarks/seed_robustness.py` writes them);
the seeds both hold are used. Prints, per labelling, each recipe's honesty, prudence,
over-conservativeness and known-retention (mean over seeds, 95% interval) and the candidate
minus the reference, paired.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def _seeds(folder: Path) -> dict[int, Path]:
    return {int(p.name[4:]): p for p in folder.glob("seed*")
            if p.name[4:].isdigit() and (p / "generations_trained.jsonl").is_file()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", required=True, help="folder of seed<N>/ run folders")
    parser.add_argument("--candidate", required=True, help="folder of seed<N>/ run folders")
    parser.add_argument("--source", default="out_of_template",
                        help="the held-out questions compared (a record's `source`; "
                             "default out_of_template)")
    parser.add_argument("--samples", type=int, default=2000)
    args = parser.parse_args()

    from rlvr.eval.knowledge import behaviour
    from rlvr.eval.knowledge import read_labels_file
    from rlvr.eval.method_stats import compare_arms
    from rlvr.io import read_jsonl

    arms = {"reference": Path(args.reference), "candidate": Path(args.candidate)}
    seeds = {name: _seeds(folder) for name, folder in arms.items()}
    shared = sorted(set(seeds["reference"]) & set(seeds["candidate"]))
    if not shared:
        sys.exit(f"no seed holds answers in both {args.reference} and {args.candidate}")
    answers = {name: {s: {r["id"]: r for r in
                          read_jsonl(seeds[name][s] / "generations_trained.jsonl")}
                      for s in shared} for name in arms}
    ids = None
    for name in arms:
        for s in shared:
            mine = {i for i, r in answers[name][s].items() if r.get("source") == args.source
                    and behaviour(r.get("outcome")) is not None}
            ids = mine if ids is None else ids & mine
    ids = sorted(ids or (), key=str)
    if not ids:
        sys.exit(f"no question of source {args.source!r} was answered in every run")
    print(f"seeds {','.join(map(str, shared))}; {len(ids)} questions of source {args.source}")
    for labelled_by in arms:
        _, labels = read_labels_file(seeds[labelled_by][shared[0]] / "knowledge_labels.json")
        missing = [i for i in ids if i not in labels]
        if missing:
            sys.exit(f"{labelled_by}'s labels lack {len(missing)} of the questions")
        known = [bool(labels[i]["known"]) for i in ids]
        kinds = {name: [[behaviour(answers[name][s][i]["outcome"]) for i in ids] for s in shared]
                 for name in arms}
        summary = compare_arms(known, kinds, reference="reference", samples=args.samples)
        print(f"\nknown = the {labelled_by} recipe's base model ({summary['known']} known of "
              f"{summary['n']})")
        print(f"{'metric':24} {'reference':>22} {'candidate':>22} {'candidate - reference':>28}")
        for metric in ("honesty", "prudence", "over_conservativeness", "known_retention"):
            cells = []
            for name in arms:
                m = summary["metrics"][name][metric]
                cells.append("n/a" if m["mean"] is None else
                             f"{m['mean']:.3f} [{m['ci_low']:.3f}, {m['ci_high']:.3f}]")
            d = summary["vs_reference"]["candidate"][metric]
            diff = "n/a" if d["difference"] is None else (
                f"{d['difference']:+.3f} [{d['ci_low']:+.3f}, {d['ci_high']:+.3f}]")
            print(f"{metric:24} {cells[0]:>22} {cells[1]:>22} {diff:>28}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
