"""The GRPO training method: TRL's `GRPOTrainer` with a PEFT LoRA adapter (or mlx-lm-lora's
GRPO with `backend: mlx`), as one stage of the main job (`rlvr.train.job`).

`train_grpo(state)` builds the training columns from the selected rows, the reward
functions (`rlvr.rewards.make_trl_rewards`), the diagnostics callback and the trainer (with
the curriculum when on), and trains through `rlvr.train.fit.fit` (metrics, checkpoints,
trackers, adapter). `grpo_args` maps a TrainConfig onto `trl.GRPOConfig` (same names where they
mean the same, then the config's `trl:` mapping as given; `rlvr.train.trl_options`) and
`lora_config` onto `peft.LoraConfig`.
"""

from __future__ import annotations

import logging
from pathlib import Path

from rlvr.config import TrainConfig
from rlvr.config.trl_keys import flow
from rlvr.errors import ConfigError
from rlvr.hardware import is_main_process, probe
from rlvr.metrics.run_log import append_metrics
from rlvr.rewards import make_trl_rewards
from rlvr.config.checks import reward_entries
from rlvr.train.curriculum.trainer import (CurriculumSettings, curriculum_trainer,
                                           write_curriculum_retired)
from rlvr.train.data_prep import training_columns
from rlvr.train.fit import fit, lora_config, shared_args
from rlvr.train.prefix_sharing import prefix_sharing_trainer
from rlvr.train.prefix_sharing import summary as prefix_sharing_summary
from rlvr.train.speedups import compact_logprobs
from rlvr.train.rollouts import RolloutLog, rollout_flags_trainer
from rlvr.train.state import RunState, Trained
from rlvr.train.trl_options import trl_options
from rlvr.train.zero_std_mask import masked_trainer
from rlvr.train.abstain_advantages import decoupled_trainer

logger = logging.getLogger(__name__)


def reward_functions(cfg: TrainConfig, observer=None) -> tuple[list, list[float]]:
    """Build the TRL reward functions and their weights from the config.

    Returns:
        (reward_funcs, reward_weights): one TRL callable per entry of `cfg.reward_funcs`
        (or just `cfg.reward` with weight 1.0); see `rlvr.rewards.make_trl_rewards`.
        TRL logs each as `rewards/<log_name>/mean` and sums them with the weights.
        `observer` (the diagnostics) watches the first `selfaware` reward. With the
        rollout log on, each verdict's rule ids go to it (`why`).
    Raises:
        RlvrError: an unknown reward or preset name.
    """
    return make_trl_rewards(reward_entries(cfg), observer,
                            explain=(cfg.rollout_log or "none") != "none")


# TrainConfig fields that mean exactly the same in trl.GRPOConfig, besides the fields every
# TRL config shares (`rlvr.train.fit.SHARED_ARGS`). Every option `grpo_kwargs` passes is
# listed in `rlvr.config.trl_keys.RLVR_SETS`, so `trl:` cannot set it (a test keeps them equal).
GRPO_PASSTHROUGH = (
    "num_generations", "max_completion_length", "beta", "epsilon", "temperature", "top_p",
    "loss_type", "scale_rewards", "use_vllm", "vllm_mode", "vllm_server_host",
    "vllm_server_port", "vllm_gpu_memory_utilization",
)


def grpo_kwargs(cfg: TrainConfig, output_dir: Path, reward_weights: list[float] | None = None,
                report_to: list[str] | None = None, run_name: str | None = None) -> dict:
    """rlvr's own keyword arguments of `trl.GRPOConfig`: `shared_args`, `GRPO_PASSTHROUGH`
    and `reward_weights` (the options `rlvr.config.trl_keys.RLVR_SETS` lists, which a
    `trl:` entry may not set). Arguments as in `grpo_args`."""
    return {**shared_args(cfg, output_dir, report_to, run_name),
            **{name: getattr(cfg, name) for name in GRPO_PASSTHROUGH},
            "reward_weights": reward_weights}


def grpo_args(cfg: TrainConfig, output_dir: Path, reward_weights: list[float] | None = None,
              report_to: list[str] | None = None, run_name: str | None = None):
    """Map a TrainConfig onto `trl.GRPOConfig`: rlvr's own settings (`grpo_kwargs`, same
    names where they mean the same), then the `trl:` mapping as given (checked against
    the installed TRL by `rlvr.train.trl_options.trl_options`). With colocated vLLM on a
    machine without CUDA, `rlvr.train.vllm_cpu.cpu_grpo_defaults` fills what `trl:` leaves
    unset (importance-sampling correction off: the float32 engine samples as the trainer).

    Args:
        output_dir: TRL's output folder (the run's `checkpoints/`).
        reward_weights: one weight per reward function (None = all 1.0).
        report_to: the trackers TRL sets up itself (`rlvr.train.trackers.Trackers.report_to`;
            None or [] = none).
        run_name: the trackers' run name.
    Returns:
        a `trl.GRPOConfig`.
    Raises:
        ConfigError: a `trl:` option rlvr sets or the installed TRL does not have, or one
            TRL's `__post_init__` refuses (ValueError / TypeError, prefixed with `trl:`).
    """
    from trl import GRPOConfig

    options = trl_options(cfg)
    kwargs = {**grpo_kwargs(cfg, output_dir, reward_weights, report_to, run_name), **options}
    if _cpu_colocate(cfg):  # fp32 engine: TRL's importance correction is a no-op pass
        from rlvr.train.vllm_cpu import cpu_grpo_defaults

        kwargs.update(cpu_grpo_defaults(options, bf16=bool(cfg.bf16)))
    if not options:
        return GRPOConfig(**kwargs)
    try:
        return GRPOConfig(**kwargs)
    except (ValueError, TypeError) as exc:
        message = " ".join(str(exc).split())
        raise ConfigError(f"trl: trl.GRPOConfig refused the settings with trl: "
                          f"{flow(options)}: {message}") from None


def _cpu_colocate(cfg: TrainConfig) -> bool:
    """Rollouts from a colocated vLLM on a machine without CUDA (`rlvr.train.vllm_cpu`)."""
    return bool(cfg.use_vllm) and cfg.vllm_mode == "colocate" and not probe().cuda


def check_grpo_args(cfg: TrainConfig, run_dir: str | Path) -> None:
    """Build the `trl.GRPOConfig` the trainer will get (`grpo_args`, with output under
    `run_dir/checkpoints`, no trackers, weights 1.0), so every check of `cfg.trl` -- the
    names (`rlvr.train.trl_options.trl_options`) and TRL's own `__post_init__` -- runs
    before a model loads. Nothing is written. Called by `rlvr.train.job.prepare` when
    `trl:` is set and the run trains with GRPO on TRL.

    Raises:
        ConfigError: see `grpo_args`.
    """
    grpo_args(cfg, Path(run_dir) / "checkpoints")


def _diagnostics(cfg: TrainConfig, tokenizer):
    """The reward observer and alarm callback of `rlvr.train.diagnostics` (None, None when
    `diagnostics` is off)."""
    if not cfg.diagnostics:
        return None, None
    from rlvr.train.diagnostics import (AlarmMonitor, AlarmSettings, CalibrationObserver,
                                        make_alarm_callback)

    ends = [t for t in (tokenizer.eos_token_id, tokenizer.pad_token_id) if t is not None]
    observer = CalibrationObserver(cfg.num_generations, cfg.max_completion_length, ends)
    monitor = AlarmMonitor(AlarmSettings(
        over_abstention=cfg.alarm_over_abstention, hedge_rate=cfg.alarm_hedge_rate,
        zero_std=cfg.alarm_zero_std, truncation=cfg.alarm_truncation,
        patience=cfg.alarm_patience, stop_on_alarm=cfg.stop_on_alarm))
    return observer, make_alarm_callback(monitor)


def train_grpo(state: RunState) -> Trained:
    """Train a LoRA adapter with GRPO on `state.train` from `state.model` (the method stage).

    The rows become the reward functions' columns (`training_columns`); TRL samples
    `num_generations` completions per prompt, scores them with the configured rewards and
    takes a clipped policy-gradient step on the group-relative advantages. Adds the
    diagnostics alarms and the curriculum summary to what `rlvr.train.fit.fit` writes.
    Raises:
        RlvrError: an unknown reward or preset; ConfigError from the trainer's settings.
    """
    from datasets import Dataset
    from trl import GRPOTrainer

    cfg, tokenizer = state.cfg, state.tokenizer
    columns = training_columns(state.train, with_known=cfg.train_answerable == "label",
                               entries=reward_entries(cfg))
    observer, callback = _diagnostics(cfg, tokenizer)
    rollouts = None if cfg.rollout_log in (None, "none") or cfg.backend == "mlx" else \
        RolloutLog(state.run_dir, cfg.rollout_log)
    reward_funcs, reward_weights = reward_functions(cfg, observer)
    metrics_path = state.metrics_path

    def build(callbacks, output_dir, report_to, run_name):
        if cfg.backend == "mlx":  # mlx-lm-lora's GRPO on MLX; same rows, rewards and report
            from rlvr.train.mlx.backend import MlxTrainer

            return MlxTrainer(cfg, state.model, columns, state.run_dir, state.model_path,
                              metrics_path)
        compact_logprobs()  # CPU: LM head on completion positions only; same values, faster
        if _cpu_colocate(cfg):
            from rlvr.train.vllm_cpu import patch_trl_vllm_for_cpu

            patch_trl_vllm_for_cpu("float32")  # CPU vLLM: float32, weights via reload
        trainer_class = masked_trainer(cfg.mask_zero_std_groups, decoupled_trainer(
            cfg.advantage_baseline, curriculum_trainer(
                CurriculumSettings.from_config(cfg), prefix_sharing_trainer(
                    cfg.share_prompt_prefix, GRPOTrainer))))  # options off: GRPOTrainer
        if rollouts is not None:  # outermost: the flags read the final loss masks
            trainer_class = rollout_flags_trainer(trainer_class)
        trainer = trainer_class(
            model=state.model, reward_funcs=reward_funcs,
            args=grpo_args(cfg, output_dir, reward_weights, report_to, run_name),
            train_dataset=Dataset.from_dict(columns), processing_class=tokenizer,
            peft_config=lora_config(cfg), callbacks=callbacks)
        if rollouts is not None:
            rollouts.trainer = trainer  # it reads the trainer's completion table
        if cfg.profile_steps:  # seconds per part of each step
            from rlvr.train.profiling import StepProfiler

            main = is_main_process()
            StepProfiler(lambda r: main and append_metrics(
                metrics_path, {"event": "profile", **r})).attach(trainer)
        return trainer

    extra = tuple(c for c in (callback, rollouts) if c is not None)
    trainer, trained = fit(state, build, "grpo", extra)
    trained.alarms = callback.monitor.fired if callback is not None else []
    trained.prefix_sharing = prefix_sharing_summary(trainer)
    if trained.main:
        trained.curriculum = write_curriculum_retired(trainer, state.run_dir)  # None when off
    return trained
