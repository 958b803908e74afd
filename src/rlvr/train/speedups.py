"""CPU speed-ups for TRL's GRPO step that leave the computed values unchanged.

`compact_logprobs()`: TRL (>= 1.16) scores completions through a fused, chunked LM head
(`trl.trainer.utils.add_fused_lm_head`). On CUDA/XPU it projects only the positions that
have a label (the completion tokens); on every other device it projects *every* position,
prompt included, and zeroes the unlabelled ones afterwards, so that the tile shapes stay
fixed for compilers (TRL's comment names Neuron). On a CPU nothing is compiled, and the
prompt positions cost LM-head matmuls (vocabulary x hidden per token, ~21% of the default
model's matmul weights) in the reference forward, the policy forward and twice in its
backward, for log-probs that are thrown away. This turns the compact path on for CPUs.
The labelled positions go through the same kernel (`ChunkedLogProbFunction`); measured
with benchmarks/train_overhead.py (see the module docstring there).
"""

from __future__ import annotations

import logging

logger = logging.getLogger(__name__)


def compact_logprobs() -> bool:
    """Make TRL's fused LM head project only labelled positions on CPUs too.

    Patches `trl.trainer.utils._use_triton` (read only by the fused LM head's choice of
    the compact path; the kernel's own Triton switch lives in `trl.kernels.chunked_logprob`
    and is untouched). Idempotent. Returns True when the patch is in place, False (with a
    log line) when this TRL has no such hook (nothing is changed then).
    """
    try:
        import trl.trainer.utils as trl_utils
    except ImportError:  # pragma: no cover - TRL is a training dependency
        return False
    original = getattr(trl_utils, "_use_triton", None)
    if original is None:
        logger.info("compact_logprobs: this TRL has no fused-LM-head switch; left as is")
        return False
    if getattr(original, "rlvr_compact", False):
        return True

    def use_compact(device) -> bool:
        return device.type == "cpu" or original(device)

    use_compact.rlvr_compact = True
    trl_utils._use_triton = use_compact
    return True
