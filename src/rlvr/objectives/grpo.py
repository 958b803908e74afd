"""GRPO pieces: group-relative advantages (and the answers-only baseline of
`decoupled_advantages`), their broadcast to tokens, loss aggregation.

Conventions (the project's design sketch): sample std (divide by G - 1) by default,
population std as an option; a zero-variance group gets exactly 0 for every advantage (never 0/0); a group
with one scored sample gets 0; a `None` reward (unscorable sample) is left out of the mean
and std and gets advantage 0.
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass
from typing import Sequence

from rlvr.objectives import _checks

STD_CONVENTIONS = {
    "sample": "sample std, sqrt(sum (r_i - mean)^2 / (G - 1)), as TRL and verl",
    "population": "population std, sqrt(sum (r_i - mean)^2 / G)",
}


@dataclass(frozen=True)
class GroupAdvantages:
    """Advantages of one group of responses to the same prompt, with the statistics used."""

    advantages: list[float]  # one per response, 0.0 for unscored responses
    mean: float | None  # mean of the scored rewards; None if no reward was scored
    std: float | None  # std of the scored rewards; None if fewer than 2 were scored
    std_convention: str  # "sample" or "population"
    epsilon: float  # added to std in the denominator (0 here; TRL uses 1e-4)
    scale_by_std: bool
    num_scored: int
    num_unscored: int  # rewards that were None
    zero_variance: bool  # >= 2 scored rewards, all equal: every advantage is exactly 0


def group_advantages(
    rewards: Sequence[float | None],
    *,
    std_convention: str = "sample",
    scale_by_std: bool = True,
    epsilon: float = 0.0,
) -> GroupAdvantages:
    """Group-relative advantages of G responses sampled for one prompt.

    Formula: over the scored rewards S (those not None),
        mean = (1/|S|) sum_{i in S} r_i,
        std = sqrt(sum_{i in S} (r_i - mean)^2 / (|S| - 1))   (sample; / |S| for population),
        A_i = (r_i - mean) / (std + epsilon)   if scale_by_std, else A_i = r_i - mean;
        A_i = 0 for every i when |S| <= 1 or all scored rewards are equal, and for r_i None.
    Shapes: rewards (G,) -> advantages (G,). Units: advantages are in reward units when
        scale_by_std is False and dimensionless (standard deviations) when it is True.
    Args:
        std_convention: "sample" (default, Bessel-corrected) or "population".
        scale_by_std: False gives Dr. GRPO's unscaled advantages (TRL scale_rewards="none").
        epsilon: added to the std in the denominator; TRL adds 1e-4, which shrinks every
            advantage by the factor std / (std + 1e-4). 0 gives the exact formula.
    Raises: ValueError if a reward is not None and not a finite number (use None, not NaN,
        for an unscorable sample), an unknown std_convention, or epsilon < 0.
    Source: Shao et al. 2024 (DeepSeekMath), section 4.1.2 "outcome supervision";
        Liu et al. 2025 (Dr. GRPO) for scale_by_std=False.
    """
    if std_convention not in STD_CONVENTIONS:
        raise ValueError(f"std_convention must be one of {sorted(STD_CONVENTIONS)}, "
                         f"got {std_convention!r}")
    epsilon = _checks.non_negative(epsilon, "epsilon")
    scored = {i: _reward(r, i) for i, r in enumerate(rewards) if r is not None}
    advantages = [0.0] * len(rewards)
    values = list(scored.values())
    mean = math.fsum(values) / len(values) if values else None
    std = None
    if len(values) >= 2 or (values and std_convention == "population"):
        divisor = len(values) - 1 if std_convention == "sample" else len(values)
        std = math.sqrt(math.fsum((r - mean) ** 2 for r in values) / divisor)
    zero_variance = len(values) >= 2 and all(r == values[0] for r in values)
    if len(values) >= 2 and not zero_variance:
        denominator = (std + epsilon) if scale_by_std else 1.0
        for i, r in scored.items():
            advantages[i] = (r - mean) / denominator
    return GroupAdvantages(advantages=advantages, mean=mean, std=std,
                           std_convention=std_convention, epsilon=epsilon,
                           scale_by_std=scale_by_std, num_scored=len(values),
                           num_unscored=len(rewards) - len(values), zero_variance=zero_variance)


def _reward(value: object, index: int) -> float:
    try:
        return _checks.real(value, f"rewards[{index}]")
    except ValueError as exc:
        raise ValueError(f"{exc}; use None (not NaN) for an unscorable sample") from None


@dataclass(frozen=True)
class BatchAdvantages:
    """Advantages of a batch laid out as consecutive groups of `num_generations`."""

    advantages: list[float]  # (num_prompts * num_generations,)
    groups: list[GroupAdvantages]
    frac_reward_zero_std: float  # fraction of groups with zero variance (TRL metric name)
    num_unscored: int


def batch_advantages(
    rewards: Sequence[float | None],
    *,
    num_generations: int,
    std_convention: str = "sample",
    scale_by_std: bool = True,
    epsilon: float = 0.0,
) -> BatchAdvantages:
    """Per-group advantages for a flat batch, in TRL's layout (each prompt's
    `num_generations` completions are consecutive).

    Formula: `group_advantages` applied to rewards[k*G:(k+1)*G] for each group k.
    Shapes: rewards (B,) with B a multiple of G = num_generations -> advantages (B,).
    Raises: ValueError if num_generations < 1 or does not divide len(rewards), and as
        `group_advantages`.
    Source: TRL GRPOTrainer `scale_rewards="group"`; Shao et al. 2024.
    """
    size = _checks.count(num_generations, "num_generations", minimum=1)
    if not rewards or len(rewards) % size:
        raise ValueError(f"len(rewards) = {len(rewards)} must be a positive multiple of "
                         f"num_generations = {size}")
    groups = [group_advantages(rewards[k:k + size], std_convention=std_convention,
                               scale_by_std=scale_by_std, epsilon=epsilon)
              for k in range(0, len(rewards), size)]
    return BatchAdvantages(
        advantages=[a for g in groups for a in g.advantages], groups=groups,
        frac_reward_zero_std=sum(g.zero_variance for g in groups) / len(groups),
        num_unscored=sum(g.num_unscored for g in groups))


def decoupled_advantages(
    rewards: Sequence[float | None],
    abstained: Sequence[bool],
    *,
    num_generations: int,
    scale: str = "group",
    epsilon: float = 1e-4,
) -> list[float]:
    """Group advantages whose baseline is the group's answers only, so an abstention is
    measured against what answering this question earns (an option in the spirit of UCPO's
    separate normalisation of answer and abstain rollouts; this formula is rlvr's).

    Formula, per group of G = num_generations consecutive completions, over the scored ones
    (reward not None), with D the scored answers (not abstained):
        b = mean_{i in D} r_i   (the mean of all scored rewards when D is empty),
        s = sample std of the group's scored rewards (scale "group"), of the batch's
            (scale "batch"), or no division (scale "none"),
        A_i = (r_i - b) / (s + epsilon),   or r_i - b for scale "none";
        A_i = 0 for an unscored completion, and for every member of a group whose scored
        rewards are all equal (or that has fewer than 2).
    An answer is compared with the other answers (right against wrong, whatever the number
    of abstentions); an abstention gets r_abstain - mean answer reward, positive exactly when
    abstaining pays more than this question's answers do on average. In plain GRPO the
    baseline is the mean over all G, so abstention's advantage is (r_abstain - b)(G - k)/G
    with k abstentions: it fades as abstaining spreads through a group, and every answer's
    advantage shifts with the share of abstentions. Hedged answers count as answers.
    Shapes: rewards (B,), abstained (B,), B a multiple of G -> advantages (B,).
    Args:
        scale: "group", "batch" or "none" (TRL's `scale_rewards`).
        epsilon: added to the std (TRL adds 1e-4).
    Raises: ValueError for lengths that differ or are not a multiple of G, an unknown
        scale, a negative epsilon, or a reward that is not None and not finite.
    Source: rlvr; Zeng et al. 2026 (UCPO, arXiv:2601.22648) for the idea of normalising
        answer and abstain rollouts apart; TRL GRPOTrainer for the std and epsilon.
    """
    size = _checks.count(num_generations, "num_generations", minimum=1)
    if scale not in ("group", "batch", "none"):
        raise ValueError(f"scale must be 'group', 'batch' or 'none', got {scale!r}")
    epsilon = _checks.non_negative(epsilon, "epsilon")
    if len(abstained) != len(rewards):
        raise ValueError(f"{len(abstained)} abstained flags for {len(rewards)} rewards")
    if not rewards or len(rewards) % size:
        raise ValueError(f"len(rewards) = {len(rewards)} must be a positive multiple of "
                         f"num_generations = {size}")
    values = [None if r is None else _reward(r, i) for i, r in enumerate(rewards)]

    def sample_std(xs: list[float]) -> float:
        mean = math.fsum(xs) / len(xs)
        return math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (len(xs) - 1))

    everything = [v for v in values if v is not None]
    batch_std = sample_std(everything) if len(everything) >= 2 else 0.0
    advantages = [0.0] * len(values)
    for start in range(0, len(values), size):
        group = range(start, start + size)
        scored = [i for i in group if values[i] is not None]
        group_values = [values[i] for i in scored]
        if len(scored) < 2 or max(group_values) == min(group_values):
            continue
        answers = [values[i] for i in scored if not abstained[i]] or group_values
        baseline = math.fsum(answers) / len(answers)
        divisor = {"group": sample_std(group_values) + epsilon,
                   "batch": batch_std + epsilon, "none": 1.0}[scale]
        for i in scored:
            advantages[i] = (values[i] - baseline) / divisor
    return advantages


def broadcast_to_tokens(advantages: Sequence[float], *, lengths: Sequence[int]) -> list[list[float]]:
    """Repeat each response's advantage on every one of its completion tokens.

    Formula: A_{i,t} = A_i for t = 1..|o_i| (outcome supervision: one advantage per
        response, the same for all its tokens, whatever the length).
    Shapes: advantages (B,), lengths (B,) in tokens -> ragged (B, |o_i|).
    Raises: ValueError if the lengths differ in count or a length is negative.
    Source: Shao et al. 2024 (DeepSeekMath), section 4.1.2.
    """
    values = [_checks.real(a, f"advantages[{i}]") for i, a in enumerate(advantages)]
    sizes = _checks.lengths_list(lengths)
    _checks.same_length(values, sizes, "advantages", "lengths")
    return [[a] * n for a, n in zip(values, sizes)]


@dataclass(frozen=True)
class Aggregation:
    """A way to reduce per-token losses to one number, and the TRL loss_type it matches."""

    name: str
    trl_loss_type: str
    formula: str
    source: str


AGGREGATIONS = {
    "sequence-mean": Aggregation(
        "sequence-mean", "grpo", "(1/B) sum_i (1/|o_i|) sum_t l_it",
        "Shao et al. 2024 (GRPO), eq. (3)"),
    "token-mean": Aggregation(
        "token-mean", "dapo", "sum_i sum_t l_it / sum_i |o_i|",
        "Yu et al. 2025 (DAPO), eq. (8); TRL 'bnpo' is the same over the local batch"),
    "dr-grpo": Aggregation(
        "dr-grpo", "dr_grpo", "sum_i sum_t l_it / (B * max_completion_length)",
        "Liu et al. 2025 (Dr. GRPO); TRL divides by its max_completion_length setting"),
}
_TRL_ALIASES = {"grpo": "sequence-mean", "dapo": "token-mean", "bnpo": "token-mean",
                "dr_grpo": "dr-grpo"}


def resolve_aggregation(name: str) -> Aggregation:
    """Return the Aggregation for a descriptive name or a TRL loss_type alias.

    Raises: ValueError listing the known names (and the closest one) if unknown.
    """
    key = _TRL_ALIASES.get(name, name)
    if key in AGGREGATIONS:
        return AGGREGATIONS[key]
    known = sorted(AGGREGATIONS) + sorted(_TRL_ALIASES)
    close = difflib.get_close_matches(str(name), known, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise ValueError(f"unknown aggregation {name!r}; known: {', '.join(known)}{hint}")


def aggregation_weights(
    lengths: Sequence[int], *, aggregation: str, max_completion_length: int | None = None
) -> list[list[float]]:
    """Weight each completion token gets when per-token losses are reduced to one loss.

    Formula (B responses, |o_i| tokens in response i, loss = sum_i sum_t w_it l_it):
        sequence-mean (TRL "grpo"):   w_it = 1 / (B |o_i|)  -> short responses weigh more
        token-mean (TRL "dapo"/"bnpo"): w_it = 1 / sum_j |o_j|
        dr-grpo (TRL "dr_grpo"):      w_it = 1 / (B * max_completion_length)
    Shapes: lengths (B,) in tokens -> ragged (B, |o_i|).
    Args:
        aggregation: a name from AGGREGATIONS or a TRL loss_type alias.
        max_completion_length: dr-grpo's constant, in tokens; None means the longest
            response in the batch. TRL uses its config's `max_completion_length`.
    Raises: ValueError for an unknown aggregation, a negative length, or a
        max_completion_length shorter than the longest response.
    Source: see AGGREGATIONS.
    """
    mode = resolve_aggregation(aggregation).name
    sizes = _checks.lengths_list(lengths)
    batch = len(sizes)
    if mode == "sequence-mean":  # an empty response has no token to weigh
        return [[1.0 / (batch * n)] * n if n else [] for n in sizes]
    if mode == "token-mean":
        total = sum(sizes)
        return [[1.0 / total] * n if n else [] for n in sizes]
    longest = max(sizes)
    limit = longest if max_completion_length is None else _checks.count(
        max_completion_length, "max_completion_length", minimum=1)
    if limit < longest:
        raise ValueError(f"max_completion_length = {limit} is shorter than the longest "
                         f"response ({longest} tokens)")
    if limit == 0:  # every response is empty: there is no token to weigh
        return [[] for _ in sizes]
    return [[1.0 / (batch * limit)] * n for n in sizes]


def aggregate_token_losses(
    per_token_losses: Sequence[Sequence[float]],
    *,
    aggregation: str,
    max_completion_length: int | None = None,
) -> float:
    """Reduce ragged per-token losses to one loss with `aggregation_weights`.

    Formula: L = sum_i sum_t w_it l_it (weights per mode in `aggregation_weights`).
    Shapes: per_token_losses ragged (B, |o_i|) -> scalar. Units: those of the losses.
    Raises: ValueError as `aggregation_weights`, or for a non-finite loss.
    Source: see AGGREGATIONS.
    """
    rows = [[_checks.real(x, f"per_token_losses[{i}][{t}]") for t, x in enumerate(row)]
            for i, row in enumerate(per_token_losses)]
    weights = aggregation_weights([len(row) for row in rows], aggregation=aggregation,
                                  max_completion_length=max_completion_length)
    return math.fsum(w * x for w_row, row in zip(weights, rows) for w, x in zip(w_row, row))
