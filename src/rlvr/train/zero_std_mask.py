"""Zero-spread groups out of the loss: `mask_zero_std_groups`.

A GRPO group whose G rewards all tie has advantage 0 for every completion (A_i = r_i -
mean(r) = 0, Shao et al. 2024, eq. 3 with group scaling), so its completions add nothing to
the clipped policy-gradient term. They still add to the loss in two ways in TRL 1.16's
`GRPOTrainer._compute_loss`:

| term | what a zero-spread group does to it | with the mask |
|---|---|---|
| KL penalty (`beta` > 0) | its tokens pull the policy toward the reference with full weight | gone, every `loss_type` |
| the token normaliser of `loss_type` dapo (`num_items_in_batch`) and bnpo (the micro-batch's tokens) | its tokens count in the denominator, so every informative token's weight shrinks with the share of tied groups | they no longer count |
| dr_grpo's normaliser (rows x `max_completion_length`, a constant) | nothing | nothing |
| grpo's mean over rows | its rows count in the mean (as zeros) | they still count: only their KL goes |

With `mask_zero_std_groups: true` those completions get a zero loss mask: they leave the
policy loss, the KL term and the token count `num_items_in_batch` (DAPO's normaliser, Yu et
al. 2025, eq. 12), as TRL's own `mask_truncated_completions` does for truncated ones. They
also leave the masked means TRL logs (`entropy`, `kl`, `clip_ratio/*`), so those curves
describe the informative groups only and are not comparable with an unmasked run's. TRL
1.16 has no option for it (an open TRL issue asks for one), so rlvr subclasses the trainer.

A group counts as zero-spread when all its advantages are equal. Tied rewards give equal
advantages exactly (each is the same float expression of the same numbers), under every
`scale_rewards` (group, batch, none) and aggregation; a group with any spread has unequal
ones. Testing for A == 0 instead would miss most tied groups: TRL computes in float32, so
a group of 0.3s gets mean - r of about 1e-8, divided by (std + 1e-4) about 1e-4, not 0. The rows
still run through the forward pass (their log-probabilities are computed and discarded), so
masking saves no compute; `benchmarks/zero_std_masking.py` measures its step time and its
effect on the main job's honesty.

The mask rides on TRL's `tool_mask` input (multiplied into the loss mask in `_compute_loss`,
never into attention), combined with any tool mask TRL already built.
"""

from __future__ import annotations

from typing import Any, Sequence

from rlvr.train.batch_hook import batch_hook_trainer

def zero_std_keep(advantages: Sequence[float], num_generations: int) -> list[bool]:
    """Which completions stay in the loss: False for every member of a group whose
    advantages are all equal (module docstring: tied rewards, in float32 or not).

    Args:
        advantages: one advantage per completion, groups of `num_generations` consecutive
            completions (TRL's `RepeatSampler` order); length a multiple of it.
        num_generations: G, completions per prompt (>= 1).
    Returns:
        list of bool, same length as `advantages`.
    Raises:
        ValueError: G < 1 or a length that is not a multiple of G.
    Source: rlvr (module docstring); group layout as in TRL's `_generate_and_score_completions`.
    """
    size = int(num_generations)
    values = [float(a) for a in advantages]
    if size < 1 or len(values) % size:
        raise ValueError(f"{len(values)} advantages do not split into groups of {size}")
    keep: list[bool] = []
    for start in range(0, len(values), size):
        group = values[start:start + size]
        informative = max(group) != min(group)
        keep.extend([informative] * size)
    return keep


def masked_trainer(mask_zero_std_groups: bool, base_class: type) -> type:
    """The trainer class: `base_class` unchanged unless `mask_zero_std_groups` (the config
    key of that name), else a subclass whose training batches give zero-spread groups a
    zero loss mask (module docstring).

    Args:
        mask_zero_std_groups: the option.
        base_class: `trl.GRPOTrainer` or a subclass of it (e.g. the curriculum trainer).
    Returns:
        a class built like `base_class`; its instances log `zero_std_masked_share` (share of
        the batch's completions masked) to TRL's metrics every training batch.
    """
    if not mask_zero_std_groups:
        return base_class
    return batch_hook_trainer(base_class, mask_batch, "ZeroStdMasked")


def mask_batch(trainer: Any, output: dict[str, Any]) -> dict[str, Any]:
    """Zero the loss mask of zero-spread groups in one generated batch (in place).

    Args:
        trainer: the GRPOTrainer (reads `accelerator`, `num_generations`, `_metrics`).
        output: what `_generate_and_score_completions` returned: `advantages` (B,) for this
            process, `completion_mask` (B, T), optional `tool_mask` (B, T),
            `num_items_in_batch` (scalar tensor, loss tokens over all processes).
    Returns:
        `output` with `tool_mask` = old loss mask x keep (B, T) and `num_items_in_batch`
        recounted. Groups are found on the advantages of all processes (a group can span
        two processes), then this process's slice is kept.
    """
    import torch

    accelerator = trainer.accelerator
    local = output["advantages"]
    gathered = accelerator.gather(local.detach())
    keep_all = zero_std_keep(gathered.float().cpu().tolist(), trainer.num_generations)
    start = accelerator.process_index * local.shape[0]
    keep = torch.tensor(keep_all[start:start + local.shape[0]], device=local.device)
    completion_mask = output["completion_mask"]
    tool_mask = output.get("tool_mask")
    base = torch.ones_like(completion_mask) if tool_mask is None else tool_mask
    output["tool_mask"] = base * keep.unsqueeze(1).to(base.dtype)
    loss_tokens = (completion_mask * output["tool_mask"]).sum()
    output["num_items_in_batch"] = accelerator.gather(loss_tokens).sum()
    masked = 1.0 - sum(keep_all) / max(len(keep_all), 1)
    trainer._metrics["train"]["zero_std_masked_share"].append(masked)
    return output
