"""Calibration metrics for the self-awareness task (standard library only).

Inputs are per-question records with the `selfaware` reward's `outcome` and `score`.
Abstention is treated as a detector of unanswerable questions, as in the SelfAware paper
(Yin et al., 2023, Sec. 3): precision = abstentions on unanswerable / all abstentions,
recall = abstentions on unanswerable / unanswerable questions, F1 their harmonic mean.
A hedge (the `strict` preset's "not sure, but X") is not an abstention: it commits to an
answer. Hedges are counted on their own (`hedged`); a hedged correct answer does not count
towards `answerable_accuracy`.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Sequence

from rlvr.rewards.selfaware import (ANSWERABLE_OUTCOMES, HEDGED_OUTCOMES,
                                    UNANSWERABLE_OUTCOMES)


# (metric key, label) of the calibration metrics, in report and plot order
METRIC_ROWS = (
    ("mean_reward", "mean reward"),
    ("answerable_accuracy", "answerable accuracy"),
    ("answerable_abstention_rate", "answerable abstention rate"),
    ("unanswerable_abstention_recall", "unanswerable abstention recall"),
    ("abstention_precision", "abstention precision"),
    ("abstention_f1", "abstention F1"),
)


def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


def calibration_metrics(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Summarise scored self-awareness records.

    Args:
        records: dicts with `outcome` (a selfaware outcome label) and `reward` (float or
            None); records whose reward is None count in `n_unscored` only.
    Returns:
        dict with `n`, `mean_reward`, `answerable_accuracy` (correct / answerable),
        `answerable_abstention_rate` (abstained / answerable),
        `unanswerable_abstention_recall`, `abstention_precision`, `abstention_f1`
        (None where a denominator is 0), and `counts` per outcome.
    """
    scored = [r for r in records if r.get("reward") is not None]
    counts = Counter(r["outcome"] for r in scored)
    n_answerable = sum(counts[o] for o in ANSWERABLE_OUTCOMES)
    n_unanswerable = sum(counts[o] for o in UNANSWERABLE_OUTCOMES)
    true_abstain = counts["abstained_unanswerable"]
    all_abstain = true_abstain + counts["abstained"]
    precision = _ratio(true_abstain, all_abstain)
    recall = _ratio(true_abstain, n_unanswerable)
    f1 = None
    if precision is not None and recall is not None:
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "n": len(scored),
        "n_unscored": len(records) - len(scored),
        "mean_reward": _ratio(sum(r["reward"] for r in scored), len(scored)),
        "answerable_accuracy": _ratio(counts["correct"], n_answerable),
        "answerable_abstention_rate": _ratio(counts["abstained"], n_answerable),
        "unanswerable_abstention_recall": recall,
        "abstention_precision": precision,
        "abstention_f1": f1,
        "counts": {
            "answerable": n_answerable,
            "unanswerable": n_unanswerable,
            **{o: counts[o] for o in ANSWERABLE_OUTCOMES + UNANSWERABLE_OUTCOMES},
            "hedged": sum(counts[o] for o in HEDGED_OUTCOMES),
        },
    }


def paired_bootstrap(base: Sequence[float], trained: Sequence[float], samples: int = 2000,
                     seed: int = 0, confidence: float = 0.95) -> dict[str, Any]:
    """Mean paired difference trained - base with a percentile bootstrap interval.

    Args:
        base, trained: per-question scores in the same question order (equal length).
        samples: bootstrap resamples of the questions (with replacement).
        seed: resampling seed (same inputs and seed give the same interval).
        confidence: interval coverage, 0.95 for a 95% interval.
    Returns:
        {"mean_difference", "ci_low", "ci_high", "confidence", "samples", "n"}.
    Raises:
        ValueError: lengths differ or there are no questions.
    Source: Efron & Tibshirani (1993), percentile interval; resampling questions keeps
        each question's pair together.
    """
    if len(base) != len(trained):
        raise ValueError(f"paired scores differ in length: {len(base)} vs {len(trained)}")
    if not base:
        raise ValueError("no questions to compare")
    diffs = [t - b for b, t in zip(base, trained)]
    n = len(diffs)
    rng = random.Random(seed)
    means = sorted(sum(diffs[rng.randrange(n)] for _ in range(n)) / n for _ in range(samples))
    tail = (1 - confidence) / 2
    low = means[int(tail * (samples - 1))]
    high = means[int(round((1 - tail) * (samples - 1)))]
    return {"mean_difference": sum(diffs) / n, "ci_low": low, "ci_high": high,
            "confidence": confidence, "samples": samples, "n": n}
