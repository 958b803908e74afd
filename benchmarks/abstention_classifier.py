"""The free-text abstention detector measured as a classifier (figures: docs/measured.md).

    .venv/bin/python benchmarks/abstention_classifier.py
    .venv/bin/python benchmarks/abstention_classifier.py --errors   # list misclassified rows

Reads the labelled responses in tests/fixtures/abstention_labelled/responses.jsonl (built
independently of the patterns; its README says how and when), labels each with the robust
detector (`rlvr.rewards.abstention.detect_abstention`) and prints, for the `dev` and the
`holdout` split (and the `holdout2` split written after the pattern changes, never tuned
against, `real2`, real model output labelled afterwards, `real4`, a trained adapter's and
the base model's greedy answers on real SelfAware labelled before the detector saw them,
and `real3`, sampled real output
labelled by reading before the detector saw it) separately and per language, the precision and recall of the `abstain`
class and of the `hedge` class with 95% Wilson score intervals (Wilson, 1927; E. B.
Wilson, "Probable inference, the law of succession, and statistical inference", JASA
22:209-212). Precision of a class = rows labelled that class by the detector and by the
reader / rows labelled that class by the detector; recall = the same numerator / rows the
reader labelled that class. "n/a" when the denominator is 0.

It also prints, for the rows that name a gold answer (`denial` rows), how many the
`selfaware` strict reward scores as giving the gold when the reader says it does not
(a denial read as the answer) and the reverse.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict
from pathlib import Path

from rlvr.rewards.abstention_detection import detect_abstention
from rlvr.rewards.selfaware import selfaware_reward

DATA = (Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "abstention_labelled"
        / "responses.jsonl")


def wilson(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval (low, high) of a proportion successes/n; (0, 1) for n = 0.

    Formula: (p + z^2/2n -+ z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n), p = successes/n.
    Example: 8/10 -> (0.490, 0.943).
    """
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + z * z / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - spread) / denominator, (centre + spread) / denominator


def load(path: Path = DATA) -> list[dict]:
    """The labelled rows (one dict per line of the JSONL file)."""
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _ratio(hits: int, n: int) -> str:
    if n == 0:
        return "n/a"
    low, high = wilson(hits, n)
    return f"{hits}/{n} = {hits / n:.2f} [{low:.2f}, {high:.2f}]"


def table(rows: list[dict], predicted: list[str], cls: str) -> list[str]:
    """Markdown table lines: per language (and all), precision and recall of `cls`."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # tp, predicted, actual
    for row, pred in zip(rows, predicted):
        for lang in (row["lang"], "all"):
            c = counts[lang]
            c[0] += pred == cls and row["label"] == cls
            c[1] += pred == cls
            c[2] += row["label"] == cls
    lines = [f"| lang | {cls} precision [95% CI] | {cls} recall [95% CI] |", "|---|---|---|"]
    for lang in sorted(counts, key=lambda k: (k == "all", k)):
        tp, npred, nact = counts[lang]
        lines.append(f"| {lang} | {_ratio(tp, npred)} | {_ratio(tp, nact)} |")
    return lines


def main() -> None:
    """Print the tables (markdown) for dev and holdout."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--errors", action="store_true", help="list misclassified rows")
    args = parser.parse_args()
    rows = load()
    for split in ("dev", "holdout", "holdout2", "real2", "real3", "real4", "real5"):
        part = [r for r in rows if r["split"] == split]
        predicted = [detect_abstention(r["text"], question=r.get("question")).label for r in part]
        right = sum(p == r["label"] for p, r in zip(predicted, part))
        print(f"\n### {split}: {len(part)} rows, {right} labelled as the reader did "
              f"({right / len(part):.2f})\n")
        for cls in ("abstain", "hedge"):
            print("\n".join(table(part, predicted, cls)) + "\n")
        gold_rows = [r for r in part if "gold" in r]
        denied_paid = sum(1 for r in gold_rows if not r["gives_gold"] and _gives(r))
        given_missed = sum(1 for r in gold_rows if r["gives_gold"] and not _gives(r))
        print(f"gold rows: {len(gold_rows)}; a denial scored as giving the gold: "
              f"{denied_paid}/{sum(not r['gives_gold'] for r in gold_rows)}; the gold given "
              f"but not found: {given_missed}/{sum(r['gives_gold'] for r in gold_rows)}")
        if args.errors:
            for p, r in zip(predicted, part):
                if p != r["label"]:
                    print(f"  [{r['id']}] {r['lang']} {r['form']}: {r['label']} read as {p}: "
                          f"{r['text'][:90]!r}")
            for r in gold_rows:
                if _gives(r) != r["gives_gold"]:
                    print(f"  [{r['id']}] gold {r['gold']!r}: {r['text']!r}")


def _gives(row: dict) -> bool:
    """True when the `selfaware` strict reward scores the row as giving its gold."""
    result = selfaware_reward(row["text"], expected_answer=[row["gold"]], is_unanswerable=False,
                              mode="robust", match="word")
    return result.outcome in ("correct", "hedged_correct", "listed_candidates")


if __name__ == "__main__":
    main()
