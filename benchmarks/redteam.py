"""Grade the red-team rounds of the graders (benchmarks/redteam/NAME.jsonl).

Each round was written before any grader ran on it, with the verdict a careful human grader
would give; this grades every case with the shipped graders and prints each case, the
counts per grader (misjudged, wrongly paid, wrongly penalised), the share judged right with
a 95% Wilson interval, and the misjudged rows. The case format and the judging are in
benchmarks/redteam_runner.py.

    .venv/bin/python benchmarks/redteam.py --round blind13
    .venv/bin/python benchmarks/redteam.py --round abstention --explain
    nice .venv/bin/python benchmarks/redteam.py            # every round

Rounds: `blind01` ... `blind13` (the blind rounds), `abstention` (free-text abstention:
`detect`, `selfaware`, `abstention`), `qa_math` (the `qa` grader and the `math` grader's
units), `code` (the `code` grader and its sandbox, with an escape watch). Code cases run in
rlvr's sandbox. `--explain` prints, under each misjudged row, the named rules that decided
its verdict. Exit status 0 (misjudged cases are findings), 2 on an unknown round.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def main(argv: list[str] | None = None) -> int:
    """Grade the chosen rounds and print them (module docstring).

    Args:
        argv: the command line without the program name (default sys.argv[1:]):
            ``--round NAME`` (a round, or ``all``, the default), ``--explain``,
            ``--watch`` (run the code cases of any round under the escape watch).
    Returns:
        0; 2 for an unknown round (argparse's usage error status).
    Raises:
        RoundError: a malformed round or task file.
    """
    from redteam_runner import RoundError, grade_round, load, round_names

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--round", default="all", metavar="NAME",
                        help=f"one of {', '.join(round_names())}, or all (default)")
    parser.add_argument("--explain", action="store_true",
                        help="print the named rules of each misjudged verdict")
    parser.add_argument("--watch", action="store_true", default=None,
                        help="grade every round's code cases under the escape watch "
                             "(default: only rounds whose code uses its placeholders)")
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore")
    names = round_names() if args.round == "all" else [args.round]
    try:
        rounds = [load(name) for name in names]
    except RoundError as exc:
        parser.error(str(exc))
    results = []
    for r in rounds:
        print(f"=== round {r.NAME} (written {', '.join(r.WRITTEN)}; {len(r.CASES)} cases; "
              f"benchmarks/redteam/{r.NAME}.jsonl)")
        results.append(grade_round(r, explain=args.explain, watch=args.watch))
        print()
    if len(results) > 1:
        print(f"{'round':12s} {'total':>5s} {'misjudged':>9s} {'wr.paid':>8s} {'wr.penal':>8s}")
        for res in results:
            t = res.total
            print(f"{res.name:12s} {t[0]:5d} {t[1]:9d} {t[2]:8d} {t[3]:8d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
