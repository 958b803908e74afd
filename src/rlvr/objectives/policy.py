"""Per-token policy-gradient terms: importance ratio, PPO clipped surrogate, k3 KL.

These are the per-token pieces of the GRPO loss as TRL computes it:
    loss_t = -min(r_t A, clip(r_t, 1 - epsilon, 1 + epsilon_high) A) + beta * KL3_t
before the per-token losses are aggregated (see `rlvr.objectives.grpo`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rlvr.objectives import _checks


def importance_ratio(*, new_logprob: float, old_logprob: float) -> float:
    """Importance ratio of a token between the current and the sampling policy.

    Formula: r = pi_theta(o_t) / pi_old(o_t) = exp(ln pi_theta(o_t) - ln pi_old(o_t)).
    Shapes: scalars -> scalar > 0. Units: log-probabilities in nats; r dimensionless.
    Raises: ValueError if a log-probability is > 0 or not finite.
    Source: Schulman et al. 2017, "Proximal Policy Optimization", eq. (6).
    """
    return math.exp(_checks.log_probability(new_logprob, "new_logprob")
                    - _checks.log_probability(old_logprob, "old_logprob"))


@dataclass(frozen=True)
class PPOClipTerms:
    """The parts of the clipped surrogate for one token."""

    ratio: float
    advantage: float
    epsilon: float  # lower clip: ratios below 1 - epsilon are clipped
    epsilon_high: float  # upper clip: ratios above 1 + epsilon_high are clipped
    unclipped: float  # r * A
    clipped: float  # clip(r, 1 - epsilon, 1 + epsilon_high) * A
    objective: float  # min(unclipped, clipped), maximised
    loss: float  # -objective, minimised
    is_clipped: bool  # the clipped term won, so this token passes no gradient


def ppo_clip_terms(
    *, ratio: float, advantage: float, epsilon: float = 0.2, epsilon_high: float | None = None
) -> PPOClipTerms:
    """Clipped-surrogate terms for one token, with separate lower and upper clip.

    Formula: J = min(r A, clip(r, 1 - epsilon, 1 + epsilon_high) A), loss = -J.
        The token is clipped (no gradient) when r > 1 + epsilon_high and A > 0, or
        r < 1 - epsilon and A < 0 (TRL's `is_high_clipped` / `is_low_clipped`).
    Shapes: scalars -> PPOClipTerms. Units: r and epsilons dimensionless; A in reward
        units (after any std scaling).
    Args:
        epsilon: lower clip (TRL `epsilon`, default 0.2).
        epsilon_high: upper clip (TRL `epsilon_high`); None means equal to epsilon.
            DAPO's "clip-higher" uses e.g. epsilon=0.2, epsilon_high=0.28.
    Raises: ValueError if ratio <= 0, epsilon outside [0, 1), epsilon_high < 0 or an
        input is not finite.
    Source: Schulman et al. 2017, eq. (7); asymmetric clip from Yu et al. 2025 (DAPO).
    """
    ratio = _checks.real(ratio, "ratio")
    if ratio <= 0:
        raise ValueError(f"ratio must be > 0 (a ratio of probabilities), got {ratio!r}")
    advantage = _checks.real(advantage, "advantage")
    epsilon = _checks.non_negative(epsilon, "epsilon")
    if epsilon >= 1:
        raise ValueError(f"epsilon must be < 1 so that 1 - epsilon > 0, got {epsilon!r}")
    high = epsilon if epsilon_high is None else _checks.non_negative(epsilon_high, "epsilon_high")
    clipped_ratio = min(max(ratio, 1.0 - epsilon), 1.0 + high)
    unclipped = ratio * advantage
    clipped = clipped_ratio * advantage
    objective = min(unclipped, clipped)
    is_clipped = (ratio > 1.0 + high and advantage > 0) or (ratio < 1.0 - epsilon and advantage < 0)
    return PPOClipTerms(ratio=ratio, advantage=advantage, epsilon=epsilon, epsilon_high=high,
                        unclipped=unclipped, clipped=clipped, objective=objective,
                        loss=0.0 - objective, is_clipped=is_clipped)


def ppo_clipped_objective(
    *, ratio: float, advantage: float, epsilon: float = 0.2, epsilon_high: float | None = None
) -> float:
    """PPO clipped surrogate objective of one token (maximised); see `ppo_clip_terms`.

    Formula: J = min(r A, clip(r, 1 - epsilon, 1 + epsilon_high) A).
    Shapes: scalars -> scalar. Raises: as `ppo_clip_terms`. Source: Schulman et al. 2017, eq. (7).
    """
    return ppo_clip_terms(ratio=ratio, advantage=advantage, epsilon=epsilon,
                          epsilon_high=epsilon_high).objective


def ppo_clipped_loss(
    *, ratio: float, advantage: float, epsilon: float = 0.2, epsilon_high: float | None = None
) -> float:
    """PPO clipped surrogate loss of one token (minimised): L = -J; see `ppo_clip_terms`.

    Inside the clip range L = -r A. Shapes: scalars -> scalar.
    Raises: as `ppo_clip_terms`. Source: Schulman et al. 2017, eq. (7); TRL per_token_loss.
    """
    return ppo_clip_terms(ratio=ratio, advantage=advantage, epsilon=epsilon,
                          epsilon_high=epsilon_high).loss


def kl_k3(*, policy_logprob: float, ref_logprob: float) -> float:
    """k3 estimator of KL(pi_theta || pi_ref) from one token sampled from pi_theta.

    Formula: with d = ln pi_ref(o_t) - ln pi_theta(o_t), KL3 = exp(d) - d - 1.
        Unbiased for the KL when o_t ~ pi_theta, and never negative (e^d >= 1 + d).
    Shapes: scalars -> scalar >= 0. Units: nats.
    Raises: ValueError if a log-probability is > 0 or not finite.
    Source: Schulman 2020, "Approximating KL Divergence" (k3); Shao et al. 2024
        (DeepSeekMath, GRPO), eq. (4); TRL `per_token_kl`.
    """
    d = (_checks.log_probability(ref_logprob, "ref_logprob")
         - _checks.log_probability(policy_logprob, "policy_logprob"))
    return math.expm1(d) - d
