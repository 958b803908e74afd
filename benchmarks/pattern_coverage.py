"""Which abstention patterns does any known input fire? The ids of the robust detector's
patterns (`AbstentionPatterns.pattern_ids`: "abstain:en#12", "abstain:es#3",
"commit:grammar#4") that decide a verdict on at least one input of the red-team rounds
(`benchmarks/redteam/`), the labelled abstention responses
(tests/fixtures/abstention_labelled) and the generations of any run folders given.

    .venv/bin/python benchmarks/pattern_coverage.py [RUN_DIR ...] [--list]

Prints, per kind and per source (English, grammar, each language), the patterns in the set
and how many fired; `--list` also prints the ids that never fired. A pattern no input fires
is one no test shows to be needed or right (the detector's rule families are checked by
tests/test_rulebook.py; the patterns one by one are not yet).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
FIXTURE = HERE.parent / "tests" / "fixtures" / "abstention_labelled" / "responses.jsonl"


def _inputs(runs: list[str]):
    """(text, question) pairs of every source."""
    from redteam_runner import load, normalised, round_names

    for name in round_names():
        for case in load(name).CASES:
            grader, completion, _gold, extra, *_ = normalised(case)
            if grader in ("selfaware", "detect", "abstention") and isinstance(completion, str):
                yield completion, (extra or {}).get("prompt") or (extra or {}).get("question")
    for line in FIXTURE.read_text(encoding="utf-8").splitlines():
        yield json.loads(line)["text"], None
    for run in runs:
        for path in sorted(Path(run).glob("generations_*.jsonl")):
            for line in path.read_text(encoding="utf-8").splitlines():
                row = json.loads(line)
                yield row["completion"], row.get("question")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="*")
    parser.add_argument("--list", action="store_true", help="print the ids that never fired")
    args = parser.parse_args()
    from rlvr.rewards.abstention_detection import ROBUST_PATTERNS, detect_abstention
    from rlvr.rewards.rulebook import tracing

    fired: Counter = Counter()
    n = 0
    for text, question in _inputs(args.runs):
        with tracing() as trace:
            detect_abstention(text, question=question)
        n += 1
        fired.update(e.value for e in trace if isinstance(e.value, str) and ":" in e.value)
    table = ROBUST_PATTERNS.pattern_table()
    groups: dict[str, list[str]] = {}
    for pattern_id in table:
        groups.setdefault(pattern_id.split("#")[0], []).append(pattern_id)
    print(f"{n} inputs read; {len(table)} patterns")
    print(f"{'set':18} {'patterns':>8} {'fired':>6}")
    for group, ids in groups.items():
        print(f"{group:18} {len(ids):8} {sum(i in fired for i in ids):6}")
    never = [i for i in table if i not in fired]
    print(f"{'all':18} {len(table):8} {len(table) - len(never):6}   never fired: {len(never)}")
    if args.list:
        for pattern_id in never:
            print(f"  {pattern_id}: {table[pattern_id]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
