"""Pure math of the training objectives, standard library only.

The same functions back `rlvr calc`, `rlvr observe` and the trainer's diagnostics, so a
number printed by the calculator is the number the trainer logs. Losses are minimised and
in nats; inputs are plain floats and lists (no torch).

    likelihood  token cross-entropy (SFT), Bradley-Terry, DPO
    policy      importance ratio, PPO clipped surrogate, k3 KL estimator
    grpo        group-relative advantages, broadcast to tokens, loss aggregation
    selection   unbiased pass@k, risk-weighted score

Every function raises ValueError for invalid input, naming the argument.
"""

from rlvr.objectives.grpo import (
    AGGREGATIONS,
    STD_CONVENTIONS,
    Aggregation,
    BatchAdvantages,
    GroupAdvantages,
    aggregate_token_losses,
    aggregation_weights,
    batch_advantages,
    broadcast_to_tokens,
    decoupled_advantages,
    group_advantages,
    resolve_aggregation,
)
from rlvr.objectives.likelihood import (
    DPOTerms,
    bradley_terry_loss,
    bradley_terry_prob,
    dpo_loss,
    dpo_terms,
    dpo_terms_from_probs,
    log_sigmoid,
    mean_token_cross_entropy,
    sigmoid,
    token_cross_entropy,
    token_cross_entropy_from_logits,
)
from rlvr.objectives.policy import (
    PPOClipTerms,
    importance_ratio,
    kl_k3,
    ppo_clip_terms,
    ppo_clipped_loss,
    ppo_clipped_objective,
)
from rlvr.objectives.selection import pass_at_k, ranking_flip_weight, risk_weighted_score

__all__ = [
    "AGGREGATIONS", "STD_CONVENTIONS", "Aggregation", "BatchAdvantages", "DPOTerms",
    "GroupAdvantages", "PPOClipTerms", "aggregate_token_losses", "aggregation_weights",
    "batch_advantages", "bradley_terry_loss", "bradley_terry_prob", "broadcast_to_tokens",
    "decoupled_advantages", "dpo_loss", "dpo_terms", "dpo_terms_from_probs",
    "group_advantages", "importance_ratio",
    "kl_k3", "log_sigmoid", "mean_token_cross_entropy", "pass_at_k", "ppo_clip_terms",
    "ppo_clipped_loss", "ppo_clipped_objective", "ranking_flip_weight",
    "resolve_aggregation", "risk_weighted_score", "sigmoid", "token_cross_entropy",
    "token_cross_entropy_from_logits",
]
