"""A GRPO trainer whose generated training batches pass through a hook before the loss.

TRL 1.16's `GRPOTrainer._generate_and_score_completions` returns one batch: completions,
masks, `advantages` (B,) for this process and `num_items_in_batch`. rlvr's batch options
(`mask_zero_std_groups`, `advantage_baseline: answers`) rewrite that dict; this module holds
the one subclass they share, so each option is only its rewrite.
"""

from __future__ import annotations

from typing import Any, Callable


def batch_hook_trainer(base_class: type, hook: Callable[[Any, dict[str, Any]], dict[str, Any]],
                       prefix: str) -> type:
    """A subclass of `base_class` that calls `hook(trainer, output)` on each training batch.

    Args:
        base_class: `trl.GRPOTrainer` or a subclass of it.
        hook: takes the trainer and the batch dict, returns the batch dict (it may edit it in
            place). It is not called on evaluation batches, nor on batches whose
            `advantages` are not one value per completion ((B, T) advantages of subclasses).
        prefix: the new class's name is prefix + base_class.__name__.
    Returns:
        the subclass.
    Source: TRL 1.16 GRPOTrainer (the batch dict of `_generate_and_score_completions`).
    """

    class BatchHookTrainer(base_class):
        """`base_class` with its training batches passed through a hook."""

        def _generate_and_score_completions(self, inputs):
            output = super()._generate_and_score_completions(inputs)
            if not self.model.training or output["advantages"].dim() != 1:
                return output
            return hook(self, output)

    BatchHookTrainer.__name__ = f"{prefix}{base_class.__name__}"
    BatchHookTrainer.__qualname__ = BatchHookTrainer.__name__
    return BatchHookTrainer
