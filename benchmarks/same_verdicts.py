"""Do two versions of the graders give the same verdicts? A fingerprint of every verdict.

Grades every case of every red-team round (benchmarks/redteam/NAME.jsonl, loaded by
`redteam_runner.load_cases`; code cases left out: the sandbox decides them, no rule does),
the labelled abstention responses (tests/fixtures/abstention_labelled) and the generations
of any run folders given, with the shipped graders, and writes one JSON line per verdict:
its source (round:index, labelled:id, run/file:line), then score, outcome and the details
other than `why` (for `detect`: label, phrase, commitment, ignored). Run it on two checkouts
and diff the files:

    .venv/bin/python benchmarks/same_verdicts.py --out /tmp/after.jsonl [RUN_DIR ...]
    (cd OLD && python benchmarks/same_verdicts.py --out /tmp/before.jsonl [RUN_DIR ...])
    diff /tmp/before.jsonl /tmp/after.jsonl && echo same

The rounds are graded in `ROUND_ORDER` (the order they had when each was a Python module,
sorted by module name), then any round not listed, by name, so that the verdict column stays
line for line comparable with fingerprints written before the rounds became JSONL files.

Prints the number of verdicts per source and the rate (verdicts per second).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

FIXTURE = HERE.parent / "tests" / "fixtures" / "abstention_labelled" / "responses.jsonl"
ROUND_ORDER = ("abstention", "blind01", "blind10", "blind11", "blind12", "blind13", "blind02",
               "blind03", "blind04", "blind05", "blind06", "blind07", "blind08", "blind09",
               "qa_math")


def rounds_in_order() -> list[str]:
    """The stored rounds' names, those of `ROUND_ORDER` first in its order, then the rest
    sorted. Raises RoundError (redteam_runner) when the rounds' folder is missing."""
    from redteam_runner import round_names

    names = round_names()
    return [n for n in ROUND_ORDER if n in names] + sorted(set(names) - set(ROUND_ORDER))


def _plain(value):
    return json.loads(json.dumps(value, default=str, sort_keys=True))


def _verdict(grader: str, completion, gold, extra: dict):
    """The whole verdict of one case, as `redteam_runner.grade` calls the grader."""
    from rlvr.rewards.abstention_detection import detect_abstention
    from rlvr.rewards.gsm8k import gsm8k_correctness
    from rlvr.rewards.math import math_reward
    from rlvr.rewards.qa import qa_reward
    from rlvr.rewards.selfaware import STRICT_PRESET, selfaware_reward

    if grader == "abstention":
        from rlvr.rewards.abstention import abstention_reward

        r = abstention_reward(completion, mode="robust")
        return [r.score, r.outcome, {k: v for k, v in r.details.items() if k != "why"}]
    if grader == "detect":
        d = detect_abstention(completion, question=extra.get("question"))
        return [d.label, d.phrase, d.commitment, [list(i) for i in d.ignored]]
    if grader == "selfaware":
        r = selfaware_reward(completion, expected_answer=gold,
                             is_unanswerable=extra["is_unanswerable"],
                             prompt=extra.get("prompt"), **STRICT_PRESET)
    elif grader == "qa":
        r = qa_reward(completion, aliases=gold, mode=extra.get("mode", "exact"))
    elif grader == "math":
        r = math_reward(completion, solution=gold)
    elif grader == "gsm8k":
        r = gsm8k_correctness(completion, final_answer=gold)
    else:
        return None
    return [r.score, r.outcome, {k: v for k, v in r.details.items() if k != "why"}]


def main() -> int:
    """Write the fingerprint (module docstring) and print the counts.

    Reads the command line: ``--out PATH`` (required) and any run folders. Returns 0.
    Raises RoundError (redteam_runner) on a missing or malformed round file, OSError on an
    unreadable run folder or fixture, KeyError on a generation row without its fields.
    """
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("runs", nargs="*", help="run folders whose generations to grade too")
    args = parser.parse_args()
    from redteam_runner import load_cases

    rows, counts = [], {}
    start = time.perf_counter()
    for name in rounds_in_order():
        for i, case in enumerate(load_cases(name)):
            grader, completion, gold, extra, *_ = case
            if grader == "code":
                continue
            try:
                verdict = _verdict(grader, completion, gold, extra)
            except Exception as exc:  # a grader that raises is part of its verdict
                verdict = ["raised", type(exc).__name__]
            rows.append({"source": f"{name}:{i}", "verdict": _plain(verdict)})
            counts[name] = counts.get(name, 0) + 1
    for line in FIXTURE.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        rows.append({"source": f"labelled:{row['id']}",
                     "verdict": _plain(_verdict("detect", row["text"], None, {}))})
        counts["labelled"] = counts.get("labelled", 0) + 1
    for run in args.runs:
        for path in sorted(Path(run).glob("generations_*.jsonl")):
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
                g = json.loads(line)
                if g.get("task", "selfaware") != "selfaware":
                    continue
                verdict = _verdict("selfaware", g["completion"], g["expected_answer"],
                                   {"is_unanswerable": g["is_unanswerable"],
                                    "prompt": g.get("question")})
                rows.append({"source": f"{Path(run).name}/{path.name}:{n}", "verdict": _plain(verdict)})
                counts["runs"] = counts.get("runs", 0) + 1
    seconds = time.perf_counter() - start
    with open(args.out, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, sort_keys=True) + "\n")
    for name, n in counts.items():
        print(f"{name:28} {n:6} verdicts")
    print(f"{len(rows)} verdicts in {seconds:.1f} s ({len(rows) / seconds:.0f}/s); wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
