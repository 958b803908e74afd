"""Statistical power of a paired comparison on a held-out set: can it show a change at all?

A verdict that reads "no difference" on a set too small to show one claims what it cannot
see. `detectable` answers, for one stratum of questions (known, or unknown), whether a change
of a given share of them would give a paired bootstrap interval that excludes 0;
`min_detectable` is the smallest such stratum; `power_check` applies both strata of a
held-out set. Standard library only; used by the verdict (`rlvr.eval.knowledge`) and by
`rlvr train`'s warning before any model loads.
"""

from __future__ import annotations

from typing import Any

# a bound below this is checked for power at this share: no finite set shows a change of a
# single question (the chance that a resample misses it tends to 1/e, not below 0.025)
MIN_POWER_SHARE = 0.05


def detectable(n: int, share: float, confidence: float = 0.95) -> bool:
    """Can a stratum of `n` questions show a change of just over `share` of them?

    If k = floor(share x n) + 1 of the n questions change, all the same way (known answers
    lost, say), and nothing else does, the paired difference is k/n and a stratified
    bootstrap resample (`rlvr.eval.knowledge.paired_metric_bootstrap`) sees no change exactly when it draws
    none of the k, with probability (1 - k/n)^n. The percentile interval excludes 0 when
    that probability is below the lower tail (1 - confidence) / 2. E.g. share 0.15,
    confidence 0.95: n = 20 gives k = 4 and 0.8^20 = 0.0115 < 0.025 (detectable); n = 19
    gives k = 3 and (16/19)^19 = 0.038 (not); n = 6 gives k = 1 and (5/6)^6 = 0.33 (not).
    A `share` below `MIN_POWER_SHARE` is checked at `MIN_POWER_SHARE`.
    Args:
        n: questions in the stratum (known, or unknown), >= 0.
        share: the change to detect, a share of n in [0, 1].
    Returns:
        True when such a change would give an interval that excludes 0.
    """
    if n <= 0:
        return False
    k = min(n, int(max(share, MIN_POWER_SHARE) * n + 1e-9) + 1)
    return (1 - k / n) ** n < (1 - confidence) / 2


def min_detectable(share: float, confidence: float = 0.95, limit: int = 100_000) -> int:
    """The smallest stratum size from which on a change of just over `share` of its
    questions is always `detectable` (e.g. 20 at share 0.15, 0.95; 60 at 0.05).
    Raises:
        ValueError: none up to `limit` (cannot happen for share >= `MIN_POWER_SHARE`).
    """
    last_bad = 0
    for n in range(1, limit):
        if not detectable(n, share, confidence):
            last_bad = n
        elif n - last_bad > 200:  # 200 sizes in a row detectable: the sizes above are too
            return last_bad + 1
    raise ValueError(f"no stratum up to {limit} questions can show a change of {share:g}")


def power_check(known: int, unknown: int, share: float) -> dict[str, Any]:
    """Whether a held-out set can show a change of the verdict's bound in both strata: each
    holds at least `min_detectable(share)` questions (a stratum of 1 to 3 is `detectable`
    only trivially: every resample holds its one question).
    Returns:
        {"enough": bool, "known", "unknown", "needed": that minimum, "share"}."""
    needed = min_detectable(share)
    return {"enough": known >= needed and unknown >= needed,
            "known": known, "unknown": unknown, "needed": needed, "share": share}
