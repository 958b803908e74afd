"""Choosing among answers: unbiased pass@k and a risk-weighted score."""

from __future__ import annotations

from math import comb

from rlvr.objectives import _checks


def pass_at_k(*, num_samples: int, num_correct: int, k: int) -> float:
    """Unbiased estimate of pass@k from n samples of which c are correct.

    Formula: pass@k = 1 - C(n - c, k) / C(n, k), the probability that at least one of k
        samples drawn without replacement from the n is correct. Computed with exact
        integers (no float overflow for large n), then rounded once.
    Shapes: integers -> scalar in [0, 1].
    Raises: ValueError unless n >= 1, 0 <= c <= n and 1 <= k <= n.
    Source: Chen et al. 2021, "Evaluating Large Language Models Trained on Code", eq. (1).
    """
    n = _checks.count(num_samples, "num_samples", minimum=1)
    c = _checks.count(num_correct, "num_correct")
    k = _checks.count(k, "k", minimum=1)
    if c > n:
        raise ValueError(f"num_correct = {c} cannot exceed num_samples = {n}")
    if k > n:
        raise ValueError(f"k = {k} cannot exceed num_samples = {n}; draw more samples")
    if n - c < k:  # every draw of k holds a correct sample
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def risk_weighted_score(*, utility: float, risk: float, risk_weight: float) -> float:
    """Score of a candidate answer that trades usefulness against risk of harm.

    Formula: score = utility - w * risk, with w = risk_weight >= 0.
    Shapes: scalars -> scalar. Units: utility and risk on one common (illustrative) scale.
    Raises: ValueError if an input is not finite or risk_weight < 0.
    Source: linear scalarisation of two objectives (a weighted-sum penalty), as in
        constrained / safe RL with a fixed Lagrange multiplier (e.g. Altman 1999).
    """
    return (_checks.real(utility, "utility")
            - _checks.non_negative(risk_weight, "risk_weight") * _checks.real(risk, "risk"))


def ranking_flip_weight(
    *, utility_a: float, risk_a: float, utility_b: float, risk_b: float
) -> float | None:
    """Risk weight at which candidates a and b score the same (where their order flips).

    Formula: u_a - w r_a = u_b - w r_b  =>  w* = (u_a - u_b) / (r_a - r_b).
    Shapes: scalars -> scalar, or None when the order never flips for w >= 0 (equal risks,
        or w* < 0).
    Raises: ValueError if an input is not finite.
    Source: algebra on `risk_weighted_score`.
    """
    du = _checks.real(utility_a, "utility_a") - _checks.real(utility_b, "utility_b")
    dr = _checks.real(risk_a, "risk_a") - _checks.real(risk_b, "risk_b")
    if dr == 0:
        return None
    weight = du / dr
    return weight if weight >= 0 else None
