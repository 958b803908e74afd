"""`rlvr score`: score completions offline with a registered reward (no torch import)."""

from __future__ import annotations

import argparse
from collections import Counter


def register(subparsers) -> None:
    """Add the `score` subcommand."""
    p = subparsers.add_parser(
        "score", help="score completions in a JSONL file with a reward",
        description="Read JSONL rows with `completion` plus the reward's fields, add "
                    "`reward` and `outcome`, and print counts per outcome.")
    p.add_argument("--reward", required=True, help="registered reward name, e.g. selfaware")
    p.add_argument("--preset", help="reward preset, e.g. seed")
    p.add_argument("--input", required=True, help="JSONL file with completion + fields")
    p.add_argument("--output", help="JSONL file to write the scored rows to")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Score the rows and print a summary table."""
    from rlvr.errors import DataError, RlvrError
    from rlvr.io import iter_jsonl, write_jsonl
    from rlvr.rewards import get_reward, score_rows

    spec = get_reward(args.reward)
    rows, lines = [], []
    for line, obj in iter_jsonl(args.input):
        if not isinstance(obj, dict):
            raise DataError("expected a JSON object per line", args.input, line)
        rows.append(obj)
        lines.append(line)
    try:
        results = score_rows(spec.name, rows, args.preset)
    except RlvrError as exc:  # name the file line, not the row index
        msg = str(exc)
        if msg.startswith("row "):
            index = int(msg.split()[1]) - 1
            raise DataError(msg.split(" ", 2)[2], args.input, lines[index]) from None
        raise
    scored = [{**row, "reward": r.score, "outcome": r.outcome} for row, r in zip(rows, results)]
    if args.output:
        write_jsonl(args.output, scored)
    counts = Counter(r.outcome for r in results)
    values = [r.score for r in results if r.score is not None]
    print(f"{len(results)} rows scored with {spec.name}"
          + (f" (preset {args.preset})" if args.preset else ""))
    for outcome, n in counts.most_common():
        print(f"  {outcome:26} {n}")
    if values:
        print(f"  mean reward {sum(values) / len(values):+.4f} over {len(values)} scored rows")
    if args.output:
        print(f"wrote {args.output}")
    return 0
