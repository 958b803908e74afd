"""Abstentions measured against the group's answers: `advantage_baseline: answers`.

TRL's GRPO advantage of completion i in a group of G is A_i = (r_i - mean_G r) / (std_G r
+ 1e-4) (Shao et al. 2024, eq. 3 with group scaling). With a fixed abstention reward that
baseline mixes two kinds of rollout: with k abstentions among G, an abstention's advantage
is (r_abstain - mean answer reward)(G - k)/G before scaling, so it shrinks as abstaining
spreads through the group, and every answer's advantage moves with the number of
abstentions beside it. UCPO (Zeng et al. 2026) reports that this coupling can flip the sign
of abstaining's advantage and normalises answer and abstain rollouts apart.

With `advantage_baseline: answers` rlvr replaces TRL's advantages by
`rlvr.objectives.decoupled_advantages`: the baseline of a group is the mean reward of its
answered completions (hedges count as answers), so an abstention gets r_abstain - (what
answering this question earns on average) and answers are compared with answers. A group
without abstentions, or with abstentions only, gets exactly TRL's advantages; tied groups
get 0. The scale is TRL's `scale_rewards` (group or batch std, or none) with TRL's 1e-4.

Which completions abstained is read from the outcome labels the calibration reward writes
to TRL's completion table (`outcome/<reward name>`, `rlvr.rewards.registry`): a completion
abstained when any calibration reward labelled it `abstained`, `abstained_unanswerable`
(`selfaware`) or `abstain` (`abstention`). The total reward is TRL's weighted sum of the
reward functions (NaN where every function returned None: unscored, advantage 0). The
rewritten advantages replace TRL's in the batch and in its completion table (the rollout
log), and the share of completions whose advantage changed sign is logged as
`advantage_sign_flips` every training batch.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from rlvr.objectives import decoupled_advantages
from rlvr.train.batch_hook import batch_hook_trainer

ADVANTAGE_BASELINES = ("group", "answers")
# outcome labels that mean "abstained", per calibration reward (rlvr.rewards.selfaware,
# rlvr.rewards.abstention)
ABSTAIN_LABELS = frozenset({"abstained", "abstained_unanswerable", "abstain"})


def abstained_flags(outcome_columns: dict[str, Sequence[Any]], size: int) -> list[bool]:
    """Which completions abstained, from the completion table's outcome columns.

    Args:
        outcome_columns: column name -> the last `size` labels of that column (`outcome/<name>`
            columns only; others are ignored). A label may be None (a reward not applied).
        size: completions in the batch (all processes).
    Returns:
        list of `size` bools: True where any column's label is in `ABSTAIN_LABELS`.
    Raises:
        ValueError: a column with fewer than `size` labels.
    Source: rlvr (the outcome labels of `rlvr.rewards.selfaware` and `rlvr.rewards.abstention`).
    """
    flags = [False] * size
    for name, labels in outcome_columns.items():
        if not name.startswith("outcome/"):
            continue
        labels = list(labels)
        if len(labels) < size:
            raise ValueError(f"column {name!r} has {len(labels)} labels for {size} completions")
        for i, label in enumerate(labels[-size:]):
            flags[i] = flags[i] or label in ABSTAIN_LABELS
    return flags


def weighted_rewards(per_func: Sequence[Sequence[float]], weights: Sequence[float]
                     ) -> list[float | None]:
    """TRL's total reward per completion (`sum_then_normalize`): sum_k w_k r_ik over the
    functions that scored it (NaN scores left out), None when none did.

    Shapes: per_func (B, K) as lists of floats (NaN = not scored), weights (K,) -> (B,).
    Raises: ValueError when a row's length differs from len(weights).
    Source: TRL 1.16 GRPOTrainer._generate_and_score_completions (nansum of weighted rewards,
        unscorable rows NaN).
    """
    totals: list[float | None] = []
    for row in per_func:
        if len(row) != len(weights):
            raise ValueError(f"{len(row)} rewards for {len(weights)} weights")
        scored = [w * r for r, w in zip(row, weights) if not math.isnan(r)]
        totals.append(math.fsum(scored) if scored else None)
    return totals


def decoupled_trainer(advantage_baseline: str, base_class: type) -> type:
    """The trainer class: `base_class` unchanged for `advantage_baseline: group` (TRL's),
    else a subclass whose training batches carry `decoupled_advantages` (module docstring).

    Args:
        advantage_baseline: "group" or "answers" (the config key of that name).
        base_class: `trl.GRPOTrainer` or a subclass of it (e.g. the curriculum trainer).
    Returns:
        a class built like `base_class`.
    Raises:
        ValueError: an unknown `advantage_baseline`.
    """
    if advantage_baseline not in ADVANTAGE_BASELINES:
        raise ValueError(f"advantage_baseline must be one of {ADVANTAGE_BASELINES}, got "
                         f"{advantage_baseline!r}")
    if advantage_baseline == "group":
        return base_class
    return batch_hook_trainer(base_class, rewrite_batch, "AnswerBaseline")


def rewrite_batch(trainer: Any, output: dict[str, Any]) -> dict[str, Any]:
    """Replace one generated batch's advantages by `decoupled_advantages` (in place).

    Args:
        trainer: the GRPOTrainer (reads `accelerator`, `num_generations`, `scale_rewards`,
            `reward_func_names`, `reward_weights`, `_logs`, `_metrics`).
        output: what `_generate_and_score_completions` returned; `advantages` (B,) for this
            process.
    Returns:
        `output` with `advantages` rewritten; the last B x processes entries of the
        trainer's logged advantages rewritten too.
    Raises:
        RuntimeError: the completion table holds no outcome column of a calibration reward
            (the option needs one; the config checks refuse such runs before they start).
    """
    import torch

    local = output["advantages"]
    size = local.shape[0] * trainer.accelerator.num_processes
    logs = trainer._logs
    names = list(trainer.reward_func_names)
    columns = {f"outcome/{n}": logs["extra"][f"outcome/{n}"] for n in names
               if f"outcome/{n}" in logs["extra"]}
    if not columns:
        raise RuntimeError("advantage_baseline: answers needs a calibration reward's outcome "
                           f"labels; the reward functions are {names}")
    per_func = [[float(logs["rewards"][n][i]) for n in names]
                for i in range(len(logs["rewards"][names[0]]) - size,
                               len(logs["rewards"][names[0]]))]
    rewards = weighted_rewards(per_func, [float(w) for w in trainer.reward_weights.tolist()])
    flags = abstained_flags(columns, size)
    new = decoupled_advantages(rewards, flags, num_generations=trainer.num_generations,
                               scale=trainer.scale_rewards)
    logged = logs["advantages"]
    old = list(logged)[-size:]
    for offset, value in enumerate(new):
        logged[len(logged) - size + offset] = value
    start = trainer.accelerator.process_index * local.shape[0]
    output["advantages"] = torch.tensor(new[start:start + local.shape[0]], dtype=local.dtype,
                                        device=local.device)
    flips = sum(1 for a, b in zip(old, new) if a * b < 0) / max(size, 1)
    trainer._metrics["train"]["advantage_sign_flips"].append(flips)
    return output
