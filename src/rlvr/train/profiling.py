"""Where a GRPO step's wall time goes: a step profiler for `trl.GRPOTrainer`, and the
compute floor of a step.

`StepProfiler().attach(trainer)` wraps a few trainer methods and adds a callback; after
`trainer.train()`, `profiler.steps` holds one dict of seconds per optimizer step:

| key | what is timed |
|---|---|
| `step` | wall time from one `on_step_begin` to the next (or to `on_train_end`): everything, callbacks, logging and checkpoint saving included |
| `generate` | `GRPOTrainer._generate` (prompt tokenization, `generate`, decoding) |
| `reward` | `GRPOTrainer._calculate_rewards` (every reward function) |
| `ref_forward` | `_get_per_token_logps_and_entropies` without gradients (reference model / old log-probs) |
| `policy_forward` | the same with gradients (the loss forward pass) |
| `backward` | `accelerator.backward` |
| `optimizer` | `on_pre_optimizer_step` to `on_optimizer_step` (the optimizer's step) |
| `other` | `step` minus the parts above (data, advantages, clipping, logging, callbacks, saving) |

With `profile_steps: true` in a config, `rlvr train` writes each step's figures into
`metrics.jsonl` (`{"event": "profile", "step": N, "profile/generate_s": ...}`).

`step_flops` counts the floating-point operations of a step from the model shape and the
token counts (see its docstring); divided by a measured matmul throughput it gives the
compute floor, the time a step would take if every FLOP ran at matmul speed.
"""

from __future__ import annotations

import functools
import time
from typing import Any, Callable

PARTS = ("generate", "reward", "ref_forward", "policy_forward", "backward", "optimizer")


class StepProfiler:
    """Seconds per part of each optimizer step of a `trl.GRPOTrainer` (table above).

    `sink(record)`, when given, receives each finished step's record (a dict with `step`,
    the optimizer step number, and `profile/<part>_s` seconds) as soon as it is closed."""

    def __init__(self, sink: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.steps: list[dict[str, float]] = []
        self.sink = sink
        self._current: dict[str, float] | None = None
        self._step_start = 0.0
        self._optimizer_start = 0.0

    def _add(self, part: str, seconds: float) -> None:
        if self._current is not None:
            self._current[part] = self._current.get(part, 0.0) + seconds

    def _timed(self, part: str | Callable[[], str], method: Callable) -> Callable:
        @functools.wraps(method)
        def wrapper(*args, **kwargs):
            start = time.perf_counter()
            try:
                return method(*args, **kwargs)
            finally:
                self._add(part() if callable(part) else part, time.perf_counter() - start)
        return wrapper

    def _close(self, global_step: int) -> None:
        if self._current is None:
            return
        record = self._current
        record["step"] = time.perf_counter() - self._step_start
        record["other"] = record["step"] - sum(record.get(p, 0.0) for p in PARTS)
        self.steps.append(record)
        self._current = None
        if self.sink is not None:
            self.sink({"step": global_step, **{f"profile/{k}_s": v for k, v in record.items()}})

    def attach(self, trainer) -> "StepProfiler":
        """Wrap `trainer`'s generation, reward, log-prob and backward calls and add the
        step callback. Returns self. Raises AttributeError when `trainer` lacks one of
        `_generate`, `_calculate_rewards`, `_get_per_token_logps_and_entropies` (not a
        `trl.GRPOTrainer` of TRL >= 1.0)."""
        import torch
        from transformers import TrainerCallback

        trainer._generate = self._timed("generate", trainer._generate)
        trainer._calculate_rewards = self._timed("reward", trainer._calculate_rewards)
        trainer._get_per_token_logps_and_entropies = self._timed(
            lambda: "policy_forward" if torch.is_grad_enabled() else "ref_forward",
            trainer._get_per_token_logps_and_entropies)
        trainer.accelerator.backward = self._timed("backward", trainer.accelerator.backward)
        profiler = self

        class StepProfileCallback(TrainerCallback):
            """Opens and closes the per-step records of a `StepProfiler`."""

            def on_step_begin(self, args, state, control, **kwargs):
                profiler._close(state.global_step)
                profiler._current = {}
                profiler._step_start = time.perf_counter()

            def on_pre_optimizer_step(self, args, state, control, **kwargs):
                profiler._optimizer_start = time.perf_counter()

            def on_optimizer_step(self, args, state, control, **kwargs):
                profiler._add("optimizer", time.perf_counter() - profiler._optimizer_start)

            def on_train_end(self, args, state, control, **kwargs):
                profiler._close(state.global_step)

        trainer.add_callback(StepProfileCallback())
        return self


class StepClock:
    """Seconds of optimizer steps only: from each step's start (`on_step_begin`, before its
    generation, forward and backward passes) to its optimizer update (`on_optimizer_step`).
    What a step's callbacks do after that (evaluation every `eval_steps`, logging, a
    checkpoint save) and what `train()` does before the first step (loading a checkpoint to
    resume, building the data loader) are left out, so `seconds_per_step` is the cost of
    training alone. `callback()` is the `transformers.TrainerCallback` to add.

    Attributes:
        seconds: summed step seconds; steps: optimizer steps timed.
    """

    def __init__(self) -> None:
        self.seconds = 0.0
        self.steps = 0
        self._start: float | None = None

    @property
    def seconds_per_step(self) -> float:
        """Mean seconds per timed step; NaN before the first."""
        return self.seconds / self.steps if self.steps else float("nan")

    def callback(self):
        """The TrainerCallback that feeds this clock."""
        from transformers import TrainerCallback

        clock = self

        class StepClockCallback(TrainerCallback):
            def on_step_begin(self, args, state, control, **kwargs):
                clock._start = time.perf_counter()

            def on_optimizer_step(self, args, state, control, **kwargs):
                if clock._start is not None:
                    clock.seconds += time.perf_counter() - clock._start
                    clock.steps += 1
                    clock._start = None

        return StepClockCallback()


def step_flops(params: int, prompt_tokens: float, completion_tokens: float,
               sequences: int, beta: float, layers: int = 0, hidden: int = 0) -> dict[str, float]:
    """Floating-point operations of one GRPO step with LoRA, by part.

    Args:
        params: N, parameters that every token passes through (the base model's matmul
            weights, the tied embedding counted once as the LM head; LoRA's are negligible).
        prompt_tokens: mean prompt length P in tokens (per completion).
        completion_tokens: mean completion length C in tokens, as generated (the batch's
            padded length when generation runs every sequence to the longest one).
        sequences: completions per step, B.
        beta: KL coefficient; > 0 adds the reference forward pass.
        layers, hidden: L and d for the attention score terms (0 = leave them out).
    Returns:
        {"generate", "ref_forward", "policy_fwd_bwd", "total"} in FLOPs:
        - generate = B x (2 N (P + C) + attention), prefill and one token at a time;
          attention per token at context length t is 4 L d t (QK^T and AV): 2 L d P^2 for
          the prefill plus 2 L d ((P + C)^2 - P^2) over the C new tokens = 2 L d (P + C)^2;
        - ref_forward = B x 2 N (P + C) (+ 2 L d (P + C)^2) when beta > 0, else 0;
        - policy_fwd_bwd = 2 x that forward: forward 2 N T plus backward 2 N T (activation
          gradients through the frozen weights; no weight gradients for them), i.e. 4 N T.
        (The usual 6 N T of full fine-tuning counts the frozen weights' gradients too.)
    Raises:
        ValueError: negative counts.
    Source: Kaplan et al. 2020 (2 N FLOPs per token forward); Chinchilla (6 N per token
    training) minus the weight-gradient third for frozen weights.
    """
    if min(params, prompt_tokens, completion_tokens, sequences, layers, hidden) < 0:
        raise ValueError("step_flops: counts must be >= 0")
    total_tokens = prompt_tokens + completion_tokens
    attention_full = 2 * layers * hidden * total_tokens ** 2  # causal: half of 4 L d T^2
    forward = sequences * (2 * params * total_tokens + attention_full)
    generate = forward  # the same tokens and matmuls, one position at a time
    ref = forward if beta > 0 else 0.0
    policy = 2 * forward
    return {"generate": float(generate), "ref_forward": float(ref),
            "policy_fwd_bwd": float(policy), "total": float(generate + ref + policy)}


def matmul_params(model) -> int:
    """N for `step_flops`: elements of every `torch.nn.Linear` weight in `model` except
    LoRA's A and B matrices (the LM head is a Linear, so a tied embedding counts once, as
    the head; the input embedding is a lookup, no FLOPs)."""
    import torch

    return sum(module.weight.numel() for name, module in model.named_modules()
               if isinstance(module, torch.nn.Linear) and "lora_" not in name)
