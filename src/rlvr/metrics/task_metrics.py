"""Per-task metrics over scored sample records, with counts and 95% intervals.

A record is one generated sample: `id`, `sample` (0..K-1), `reward` (the task reward's
score or None), `outcome`, and `extra` ({reward name: {"score", "outcome"}}) for the
task's extra rewards. Every metric comes with the counts behind it; proportions get a
Wilson interval, means a normal interval.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Sequence

from rlvr.metrics.calibration import calibration_metrics
from rlvr.metrics.stats import mean_interval, wilson_interval
from rlvr.objectives import pass_at_k


def _proportion(hits: int, n: int) -> dict[str, Any]:
    ci = wilson_interval(hits, n)
    return {"value": hits / n if n else None, "count": hits, "n": n,
            "ci95": list(ci) if ci else None}


def _scored(records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in records if r.get("reward") is not None]


def _extra_outcome(record: dict[str, Any], name: str) -> str | None:
    return (record.get("extra") or {}).get(name, {}).get("outcome")


def selfaware_metrics(records: Sequence[dict[str, Any]], num_samples: int = 1) -> dict[str, Any]:
    """The main-job calibration metrics plus 95% intervals; primary: mean_reward."""
    m = calibration_metrics(records)
    scored = _scored(records)
    counts = m["counts"]
    ci = mean_interval([r["reward"] for r in scored])
    m["ci95"] = {
        "mean_reward": list(ci) if ci else None,
        "answerable_accuracy": wilson_interval(counts["correct"], counts["answerable"]),
        "unanswerable_abstention_recall": wilson_interval(
            counts["abstained_unanswerable"], counts["unanswerable"]),
    }
    m["primary"] = "mean_reward"
    return m


def gsm8k_metrics(records: Sequence[dict[str, Any]], num_samples: int = 1) -> dict[str, Any]:
    """accuracy (correctness reward 1), format_rate ('#### N' line present), no_answer
    share; primary: accuracy."""
    scored = _scored(records)
    n = len(scored)
    return {
        "n": n, "n_unscored": len(records) - n,
        "accuracy": _proportion(sum(r["reward"] >= 1.0 for r in scored), n),
        "format_rate": _proportion(
            sum((r.get("extra") or {}).get("gsm8k_format", {}).get("score", 0) > 0
                for r in scored), n),
        "no_answer_rate": _proportion(sum(r["outcome"] == "no_answer" for r in scored), n),
        "primary": "accuracy",
    }


def qa_metrics(records: Sequence[dict[str, Any]], num_samples: int = 1) -> dict[str, Any]:
    """accuracy (normalised exact match) and abstention rate when the abstention reward
    was recorded; primary: accuracy."""
    scored = _scored(records)
    n = len(scored)
    out = {"n": n, "n_unscored": len(records) - n,
           "accuracy": _proportion(sum(r["reward"] >= 1.0 for r in scored), n),
           "primary": "accuracy"}
    if any(_extra_outcome(r, "abstention") for r in scored):
        out["abstention_rate"] = _proportion(
            sum(_extra_outcome(r, "abstention") == "abstain" for r in scored), n)
    return out


def code_metrics(records: Sequence[dict[str, Any]], num_samples: int = 1) -> dict[str, Any]:
    """pass@1 and, with K samples per problem, unbiased pass@k for k in {1, ..., K}
    (powers of 2 and K); outcome counts. Primary: pass@1."""
    by_problem: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for r in _scored(records):
        by_problem[r["id"]].append(r)
    problems = list(by_problem.values())
    k_values = sorted({k for k in (1, 2, 4, 8, 16, 32, 64, 100, num_samples)
                       if k <= num_samples})
    out: dict[str, Any] = {"n_problems": len(problems), "num_samples": num_samples,
                           "primary": "pass@1"}
    for k in k_values:
        per_problem = [pass_at_k(num_samples=len(p), num_correct=sum(r["reward"] >= 1.0 for r in p),
                                 k=k) for p in problems if len(p) >= k]
        n = len(per_problem)
        value = sum(per_problem) / n if n else None
        if num_samples == 1:
            ci = wilson_interval(round(sum(per_problem)), n)
        else:
            ci = mean_interval(per_problem)
        out[f"pass@{k}"] = {"value": value, "n": n, "ci95": list(ci) if ci else None}
    outcomes: dict[str, int] = defaultdict(int)
    for r in records:
        outcomes[r["outcome"]] += 1
    out["outcomes"] = dict(outcomes)
    return out


def primary_value(metrics: dict[str, Any]) -> float | None:
    """Return the value of a task's primary metric (a float or a {"value": ...} dict)."""
    value = metrics.get(metrics.get("primary", ""))
    return value.get("value") if isinstance(value, dict) else value
