"""Likelihood-based objectives: token cross-entropy (SFT), Bradley-Terry, DPO.

All logarithms are natural, so losses are in nats. Inputs are plain Python numbers and
lists; nothing here imports torch.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from rlvr.objectives import _checks


def sigmoid(x: float) -> float:
    """Logistic function, computed without overflow.

    Formula: sigma(x) = 1 / (1 + exp(-x)).
    Shapes: scalar in, scalar out (a probability in [0, 1]).
    Raises: ValueError if x is not a finite real number.
    """
    x = _checks.real(x, "x")
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def log_sigmoid(x: float) -> float:
    """Natural log of the logistic function, stable for large |x|.

    Formula: log sigma(x) = -softplus(-x) = -(max(-x, 0) + log(1 + exp(-|x|))).
    Shapes: scalar in, scalar out (nats, <= 0).
    Raises: ValueError if x is not a finite real number.
    """
    x = _checks.real(x, "x")
    return -(max(-x, 0.0) + math.log1p(math.exp(-abs(x))))


def token_cross_entropy(target_probs: Sequence[float]) -> list[float]:
    """Per-token cross-entropy of a target sequence from the target tokens' probabilities.

    Formula: CE_t = -ln p(y_t | y_<t, x), the SFT loss of token t.
    Shapes: target_probs (T,) -> (T,). Units: nats per token.
    Raises: ValueError if a probability is outside (0, 1].
    Source: standard maximum-likelihood (next-token) training; e.g. Radford et al. 2018.
    """
    return [-math.log(_checks.probability(p, f"target_probs[{i}]"))
            for i, p in enumerate(target_probs)]


def mean_token_cross_entropy(target_probs: Sequence[float]) -> float:
    """Mean per-token cross-entropy of one target sequence (the SFT loss of one example).

    Formula: CE = (1/T) sum_t -ln p(y_t | y_<t, x).
    Shapes: target_probs (T,) with T >= 1 -> scalar. Units: nats per token.
    Raises: ValueError if target_probs is empty or holds a value outside (0, 1].
    Source: as `token_cross_entropy`.
    """
    losses = token_cross_entropy(target_probs)
    if not losses:
        raise ValueError("target_probs must hold at least one token probability")
    return math.fsum(losses) / len(losses)


def token_cross_entropy_from_logits(
    *, logits: Sequence[Sequence[float]], target_ids: Sequence[int]
) -> list[float]:
    """Per-token cross-entropy from unnormalised logits and the gold token ids.

    Formula: CE_t = logsumexp_v(z_t,v) - z_t,y_t, which equals -ln softmax(z_t)[y_t].
    Shapes: logits (T, V), target_ids (T,) -> (T,). Units: nats per token.
    Raises: ValueError if the lengths differ, a row is empty, a logit is not finite or
        a target id is not an index into its row.
    Source: softmax cross-entropy; same quantity as torch.nn.functional.cross_entropy
        with reduction="none".
    """
    _checks.same_length(logits, target_ids, "logits", "target_ids")
    losses = []
    for t, (row, target) in enumerate(zip(logits, target_ids)):
        values = [_checks.real(z, f"logits[{t}][{v}]") for v, z in enumerate(row)]
        if not values:
            raise ValueError(f"logits[{t}] is empty; give one logit per vocabulary entry")
        target = _checks.count(target, f"target_ids[{t}]")
        if target >= len(values):
            raise ValueError(f"target_ids[{t}] = {target} but logits[{t}] has only "
                             f"{len(values)} entries")
        top = max(values)
        log_normaliser = top + math.log(math.fsum(math.exp(z - top) for z in values))
        losses.append(log_normaliser - values[target])
    return losses


def bradley_terry_prob(*, score_chosen: float, score_rejected: float) -> float:
    """Probability, under the Bradley-Terry model, that `chosen` is preferred to `rejected`.

    Formula: P(chosen > rejected) = sigma(s_chosen - s_rejected). Only the difference of
    scores matters: adding the same constant to both leaves P unchanged.
    Shapes: scalars -> scalar probability. Units: scores are logits (nats of odds).
    Raises: ValueError if a score is not a finite real number.
    Source: Bradley & Terry 1952; reward-model loss in Ouyang et al. 2022, eq. (1).
    """
    return sigmoid(_checks.real(score_chosen, "score_chosen")
                   - _checks.real(score_rejected, "score_rejected"))


def bradley_terry_loss(*, score_chosen: float, score_rejected: float) -> float:
    """Reward-model loss for one labelled pair (the `chosen` answer is preferred).

    Formula: L = -ln sigma(s_chosen - s_rejected); minimised, >= 0, ln 2 at a tie.
    Shapes: scalars -> scalar. Units: nats.
    Raises: ValueError if a score is not a finite real number.
    Source: Ouyang et al. 2022 (InstructGPT), eq. (1); TRL RewardTrainer.
    """
    return -log_sigmoid(_checks.real(score_chosen, "score_chosen")
                        - _checks.real(score_rejected, "score_rejected"))


@dataclass(frozen=True)
class DPOTerms:
    """Every intermediate of the DPO loss for one preference pair (log-ratios in nats)."""

    chosen_log_ratio: float  # ln pi(y_w|x) - ln pi_ref(y_w|x)
    rejected_log_ratio: float  # ln pi(y_l|x) - ln pi_ref(y_l|x)
    log_ratio_difference: float  # chosen_log_ratio - rejected_log_ratio
    beta: float
    margin: float  # beta * log_ratio_difference, the implicit reward margin
    preference_prob: float  # sigma(margin)
    loss: float  # -ln sigma(margin)


def dpo_terms(
    *,
    policy_chosen_logprob: float,
    policy_rejected_logprob: float,
    ref_chosen_logprob: float,
    ref_rejected_logprob: float,
    beta: float = 0.1,
) -> DPOTerms:
    """DPO log-ratios, margin, implied preference probability and loss from log-probs.

    Formula: m = beta * [(ln pi(y_w) - ln pi_ref(y_w)) - (ln pi(y_l) - ln pi_ref(y_l))],
        P = sigma(m), L = -ln sigma(m). y_w is the chosen answer, y_l the rejected one.
    Shapes: scalars (sequence log-probabilities, summed over tokens) -> DPOTerms.
    Units: log-probabilities and margin in nats; beta dimensionless (TRL default 0.1).
    Raises: ValueError if a log-probability is > 0 or not finite, or beta <= 0.
    Source: Rafailov et al. 2023, "Direct Preference Optimization", eq. (7).
    """
    beta = _checks.real(beta, "beta")
    if beta <= 0:
        raise ValueError(f"beta must be > 0, got {beta!r}")
    chosen = (_checks.log_probability(policy_chosen_logprob, "policy_chosen_logprob")
              - _checks.log_probability(ref_chosen_logprob, "ref_chosen_logprob"))
    rejected = (_checks.log_probability(policy_rejected_logprob, "policy_rejected_logprob")
                - _checks.log_probability(ref_rejected_logprob, "ref_rejected_logprob"))
    difference = chosen - rejected
    margin = beta * difference
    return DPOTerms(chosen_log_ratio=chosen, rejected_log_ratio=rejected,
                    log_ratio_difference=difference, beta=beta, margin=margin,
                    preference_prob=sigmoid(margin), loss=-log_sigmoid(margin))


def dpo_terms_from_probs(
    *,
    policy_chosen_prob: float,
    policy_rejected_prob: float,
    ref_chosen_prob: float,
    ref_rejected_prob: float,
    beta: float = 0.1,
) -> DPOTerms:
    """`dpo_terms` from sequence probabilities instead of log-probabilities.

    Formula: as `dpo_terms` with ln applied to each probability first.
    Shapes: scalars in (0, 1] -> DPOTerms.
    Raises: ValueError if a probability is outside (0, 1] or beta <= 0.
    Source: Rafailov et al. 2023, eq. (7).
    """
    return dpo_terms(
        policy_chosen_logprob=math.log(_checks.probability(policy_chosen_prob, "policy_chosen_prob")),
        policy_rejected_logprob=math.log(_checks.probability(policy_rejected_prob,
                                                             "policy_rejected_prob")),
        ref_chosen_logprob=math.log(_checks.probability(ref_chosen_prob, "ref_chosen_prob")),
        ref_rejected_logprob=math.log(_checks.probability(ref_rejected_prob, "ref_rejected_prob")),
        beta=beta,
    )


def dpo_loss(
    *,
    policy_chosen_logprob: float,
    policy_rejected_logprob: float,
    ref_chosen_logprob: float,
    ref_rejected_logprob: float,
    beta: float = 0.1,
) -> float:
    """DPO loss for one pair: L = -ln sigma(margin), see `dpo_terms` (nats, minimised).

    Shapes: scalars -> scalar. Raises: as `dpo_terms`. Source: Rafailov et al. 2023, eq. (7).
    """
    return dpo_terms(policy_chosen_logprob=policy_chosen_logprob,
                     policy_rejected_logprob=policy_rejected_logprob,
                     ref_chosen_logprob=ref_chosen_logprob,
                     ref_rejected_logprob=ref_rejected_logprob, beta=beta).loss
