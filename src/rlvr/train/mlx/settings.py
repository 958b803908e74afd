"""How a TrainConfig maps onto mlx-lm-lora's GRPO trainer (pure: no mlx import).

`rlvr.config.backends.check_mlx_backend(cfg)` runs when a config with `backend: mlx` loads: it refuses missing
packages (with the pip line) and settings the MLX trainer cannot honour, before any data or
model loads. `grpo_kwargs(cfg, ...)` builds the keyword arguments of
`mlx_lm_lora.trainer.grpo_trainer.GRPOTrainingArgs`, and `lr_factor` is the learning-rate
schedule (the formulas of transformers' schedulers, so both backends use the same rates).

mlx-lm-lora 5.10 has defaults that silently change the algorithm against TRL's; every one
is set explicitly here and listed in `OVERRIDDEN_DEFAULTS` (name, mlx-lm-lora default, what
rlvr sets, why), which docs/mlx.md reproduces.
"""

from __future__ import annotations

import math
from typing import Any

from rlvr.config.backends import LOSS_TYPES
from rlvr.errors import ConfigError

TRL_MAX_GRAD_NORM = 1.0  # transformers.TrainingArguments.max_grad_norm default

# (name, mlx-lm-lora default, value rlvr sets, why)
OVERRIDDEN_DEFAULTS: tuple[tuple[str, str, str, str], ...] = (
    ("epsilon", "1e-4", "cfg.epsilon (0.2)", "TRL's clip range; 1e-4 would clip any "
     "off-policy ratio (inert today: each rollout is used once, ratio = 1)"),
    ("epsilon_high", "None (= epsilon)", "cfg.epsilon", "explicit, as TRL's default"),
    ("end_answer_token (train_grpo)", "'</answer>'", "''", "stop only at EOS (<|im_end|>), "
     "as TRL; '</answer>' would end answers of tasks that use that tag"),
    ("reward_funcs (train_grpo)", "five r1_* format/accuracy rewards", "rlvr's rewards",
     "the r1 defaults score <answer> tags, not the configured task"),
    ("reference model", "train.py loads a second copy (beta 0.1)", "a frozen copy only when "
     "cfg.beta > 0, else None", "beta 0 = the reference project (self-reference, no KL "
     "term, no second model)"),
    ("top_p", "0.95", "cfg.top_p (1.0)", "TRL samples from the full distribution"),
    ("top_k", "20", "0 (off)", "TRL applies no top-k"),
    ("min_p", "0.0", "0.0", "explicit"),
    ("temperature", "0.8", "cfg.temperature", "the configured value"),
    ("group_size", "4", "cfg.num_generations", "G of the config"),
    ("max_completion_length", "512", "cfg.max_completion_length", "tokens per completion"),
    ("grpo_loss_type", "'grpo'", "loss_type mapped (dapo -> bnpo)", "the configured "
     "aggregation; rlvr's default dapo is a token mean"),
    ("batch_size", "4 prompts", "prompts per optimizer step = per_device_train_batch_size x "
     "gradient_accumulation_steps / num_generations", "same rollouts per step as TRL"),
    ("iters", "100 iterations", "max_steps (or epochs x rows / prompts per step)",
     "optimizer steps, with gradient_accumulation_steps 1"),
    ("max_seq_length", "2048 (prompts cut to their first 2048 tokens)", "the longest prompt",
     "never cut a prompt (a cut prompt loses its generation prompt)"),
    ("steps_per_save / steps_per_report", "100 / 10", "cfg.save_steps / cfg.logging_steps",
     "the configured cadence"),
    ("optimizer", "Adam(bias_correction=False), no gradient clipping",
     "Adam(bias_correction=True) + global-norm clip 1.0", "= torch AdamW with weight decay 0 "
     "and max_grad_norm 1.0 (TRL); without bias correction the first steps are ~3x larger"),
    ("learning rate", "constant 1e-5 (train.py)", "cfg.learning_rate with warm-up and "
     "lr_scheduler_type, transformers' formulas", "same schedule as TRL"),
    ("LoRA scale", "10.0 (train.py; LoRALinear 20.0)", "lora_alpha / lora_r",
     "PEFT's scaling; 10 with r 8 would be alpha 80"),
    ("LoRA rank / dropout / layers", "8 / 0.0 / all linear layers of every block",
     "lora_r / lora_dropout / lora_target_modules", "the rlvr config's LoRA"),
    ("GRPODataset system prompt", "'...<think>...<answer>...' when a row has none",
     "not used: rows are built from rlvr's chat messages", "the default would change every "
     "prompt"),
)


def prompts_per_step(cfg: Any) -> int:
    """Prompts per optimizer step: per_device_train_batch_size x gradient_accumulation_steps
    / num_generations (TRL's generation batch in completions, divided by the group size;
    the config guarantees it divides). E.g. 4 x 4 / 4 = 4 prompts, 16 completions."""
    return cfg.per_device_train_batch_size * cfg.gradient_accumulation_steps \
        // cfg.num_generations


def total_steps(cfg: Any, num_rows: int) -> int:
    """Optimizer steps: `max_steps`, or with max_steps -1 ceil(num_train_epochs x rows /
    prompts per step), at least 1. E.g. 40 rows, 4 prompts a step, 1.5 epochs: 15 steps."""
    if cfg.max_steps > 0:
        return cfg.max_steps
    return max(1, math.ceil(cfg.num_train_epochs * num_rows / prompts_per_step(cfg) - 1e-9))


def warmup_steps(cfg: Any, steps: int) -> int:
    """ceil(warmup_ratio x steps), as transformers turns a ratio into steps."""
    return math.ceil(cfg.warmup_ratio * steps - 1e-9)


def lr_factor(step: int, kind: str, warmup: int, total: int) -> float:
    """Learning-rate multiplier at optimizer step `step` (0 = the first update).

    transformers' schedulers (`get_*_schedule_with_warmup`): during warm-up step / warmup
    (so the first update of a warmed-up run has rate 0, as in TRL); then cosine
    0.5 (1 + cos(pi p)), linear 1 - p, or 1 for the constant ones, where
    p = (step - warmup) / max(1, total - warmup). `constant` has no warm-up.
    """
    if kind == "constant":
        return 1.0
    if step < warmup:
        return step / max(1, warmup)
    progress = (step - warmup) / max(1, total - warmup)
    if kind == "cosine":
        return max(0.0, 0.5 * (1.0 + math.cos(math.pi * progress)))
    if kind == "linear":
        return max(0.0, (total - step) / max(1, total - warmup))
    return 1.0  # constant_with_warmup


def grpo_kwargs(cfg: Any, num_rows: int, max_prompt_tokens: int, reward_weights: list[float],
                adapter_file: str) -> dict[str, Any]:
    """Keyword arguments for mlx-lm-lora's `GRPOTrainingArgs`, every one set explicitly.

    Args:
        cfg: the TrainConfig.
        num_rows: training rows (for the step count with max_steps -1).
        max_prompt_tokens: the longest prompt in tokens (nothing is cut).
        reward_weights: one weight per reward function.
        adapter_file: where mlx-lm-lora saves the adapter weights (.safetensors).
    Returns:
        a dict; `iters` is the number of optimizer steps (gradient_accumulation_steps is 1,
        one iteration samples `batch_size` prompts x `group_size` completions).
    """
    return {
        "batch_size": prompts_per_step(cfg),
        "iters": total_steps(cfg, num_rows),
        "gradient_accumulation_steps": 1,
        "group_size": cfg.num_generations,
        "max_completion_length": cfg.max_completion_length,
        "beta": cfg.beta,
        "epsilon": cfg.epsilon,
        "epsilon_high": cfg.epsilon,
        "temperature": cfg.temperature,
        "top_p": cfg.top_p,
        "top_k": 0,
        "min_p": 0.0,
        "grpo_loss_type": LOSS_TYPES[cfg.loss_type],
        "importance_sampling_level": "token",
        "reward_weights": list(reward_weights),
        "max_seq_length": max(1, max_prompt_tokens),
        "steps_per_report": cfg.logging_steps,
        "steps_per_save": cfg.save_steps,
        "steps_per_eval": 10 ** 9,  # no validation set is passed
        "val_batches": 0,
        "grad_checkpoint": cfg.gradient_checkpointing,
        "adapter_file": adapter_file,
    }


def lora_parameters(cfg: Any) -> dict[str, Any]:
    """mlx-lm's LoRA settings: rank r, scale = lora_alpha / lora_r (PEFT's scaling, so
    alpha 8 and r 8 give 1.0), dropout."""
    return {"rank": cfg.lora_r, "scale": cfg.lora_alpha / cfg.lora_r,
            "dropout": cfg.lora_dropout}


def lora_keys(cfg: Any, linear_names: list[str]) -> list[str]:
    """The block-relative module names to wrap with LoRA, PEFT-style.

    Args:
        cfg: reads `lora_target_modules`: "all-linear" (every linear layer of a block, as
            PEFT; the output head is outside the blocks) or a list of names, each matching
            a module whose name is it or ends with "." + it (PEFT's rule).
        linear_names: the linear layers of one block, e.g. "self_attn.q_proj".
    Raises:
        ConfigError: a listed name that matches no linear layer.
    """
    targets = cfg.lora_target_modules
    if targets == "all-linear":
        return sorted(linear_names)
    if isinstance(targets, str):
        targets = [targets]
    keys = set()
    for target in targets:
        hits = [n for n in linear_names if n == target or n.endswith("." + target)]
        if not hits:
            raise ConfigError(f"lora_target_modules: {target!r} matches no linear layer of the "
                              f"model's blocks; known: {', '.join(sorted(linear_names))}")
        keys.update(hits)
    return sorted(keys)
