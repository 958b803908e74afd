"""Confidence intervals for evaluation metrics (standard library only)."""

from __future__ import annotations

import math
from typing import Sequence

Z95 = 1.959963984540054  # two-sided 95% normal quantile


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """Wilson score interval for a proportion (95% by default).

    Args:
        successes: count of successes, 0 <= successes <= n.
        n: number of trials; None is returned for n == 0.
    Returns:
        (low, high) within [0, 1].
    Raises:
        ValueError: successes outside [0, n].
    Source: Wilson (1927); preferred over the normal interval for small n or p near 0/1.
    """
    if n == 0:
        return None
    if not 0 <= successes <= n:
        raise ValueError(f"successes={successes} must lie in [0, n={n}]")
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float] | None:
    """Normal-approximation 95% interval of a mean (sample std / sqrt(n)); None if n < 2."""
    n = len(values)
    if n < 2:
        return None
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return mean - half, mean + half
