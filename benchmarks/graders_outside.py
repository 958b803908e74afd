"""The graders against labels written outside the project, beside the plain baseline.

EVOUNA (Wang et al. 2023, "Evaluating Open-QA Evaluation", repository wangcunxiang/QA-Eval,
Apache-2.0): human judgements of whether the long answers of GPT-3.5, ChatGPT, GPT-4 and
New Bing to Natural Questions and TriviaQA questions are right. Not shipped with rlvr (no
network at run time): put `NQ.json` and `TQ.json` from the repository's `EVOUNA/` folder in a
folder and pass it.

    .venv/bin/python benchmarks/graders_outside.py --evouna DIR

For `qa` in `contains` mode and the field's plain baselines (SQuAD-normalised containment,
as substring and on word boundaries: the repository's own `lexical_match.py`), prints per
grader: the share of human verdicts it agrees with (95% Wilson interval), the share of
answers the humans judged wrong that it pays, and the share judged right that it refuses;
rows whose human verdict is missing are left out. A grader change is judged here beside the
baseline, not on the project's own red-team rounds.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

MODELS = ("gpt35", "chatgpt", "gpt4", "newbing")


def _rows(folder: Path):
    """(answer, gold aliases, human verdict) for every judged answer of the four chat models
    (EVOUNA writes the aliases in one string, split with "/")."""
    for name in ("NQ.json", "TQ.json"):
        path = folder / name
        if not path.is_file():
            sys.exit(f"{path}: not found; pass --evouna with the folder holding EVOUNA's "
                     "NQ.json and TQ.json (github.com/wangcunxiang/QA-Eval, EVOUNA/)")
        for item in json.loads(path.read_text(encoding="utf-8")):
            for model in MODELS:
                judged = item.get(f"judge_{model}")
                answer = item.get(f"answer_{model}")
                if isinstance(judged, bool) and isinstance(answer, str):
                    golds = [g.strip() for g in item["golden_answer"].split("/") if g.strip()]
                    yield answer, golds, judged


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--evouna", required=True, help="folder with NQ.json and TQ.json")
    args = parser.parse_args()
    from rlvr.metrics.stats import wilson_interval
    from rlvr.rewards.qa import normalize_answer, qa_reward

    def plain_substring(answer: str, golds: list[str]) -> bool:
        said = normalize_answer(answer)
        return any(normalize_answer(g) in said for g in golds)

    def plain_words(answer: str, golds: list[str]) -> bool:
        said = normalize_answer(answer)
        return any(normalize_answer(g) and re.search(
            rf"(?<!\S){re.escape(normalize_answer(g))}(?!\S)", said) for g in golds)

    graders = {
        "qa contains (rlvr)": lambda a, g: qa_reward(a, aliases=g, mode="contains").score == 1.0,
        "plain containment (substring)": plain_substring,
        "plain containment (word boundaries)": plain_words,
    }
    rows = list(_rows(Path(args.evouna)))
    right = sum(h for _, _, h in rows)
    print(f"EVOUNA: {len(rows)} judged answers ({right} right, {len(rows) - right} wrong)")
    print(f"{'grader':38} {'agrees':>7} {'95% CI':>15} {'pays wrong':>11} {'refuses right':>14} {'s':>5}")
    for name, paid in graders.items():
        start = time.perf_counter()
        verdicts = [(paid(a, g), h) for a, g, h in rows]
        took = time.perf_counter() - start
        agree = sum(p == h for p, h in verdicts)
        lo, hi = wilson_interval(agree, len(rows))
        wrong_paid = sum(p and not h for p, h in verdicts) / (len(rows) - right)
        right_refused = sum(h and not p for p, h in verdicts) / right
        print(f"{name:38} {agree / len(rows):7.3f} [{lo:.3f}, {hi:.3f}] {wrong_paid:11.3f} "
              f"{right_refused:14.3f} {took:5.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
