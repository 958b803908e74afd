"""The GRPO training method: TRL's `GRPOTrainer` with a PEFT LoRA adapter (or mlx-lm-lora's
GRPO with `backend: mlx`), as one stage of the main job (`rlvr.train.job`).

`train_grpo(state)` builds the training columns from the selected rows, the reward
functions (`rlvr.rewards.make_trl_rewards`), the callbacks (metrics.jsonl, checkpoints,
trackers, diagnostics, curriculum) and the trainer, trains, and saves the adapter
atomically. `grpo_args` maps a TrainConfig onto `trl.GRPOConfig` (same names where they
mean the same) and `lora_config` onto `peft.LoraConfig`.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

from rlvr.config import TrainConfig
from rlvr.config.backends import check_report_to
from rlvr.hardware import is_main_process
from rlvr.io import write_folder, write_jsonl
from rlvr.metrics.run_log import append_metrics, start_metrics
from rlvr.rewards import make_trl_rewards
from rlvr.train.checkpoints import (StopRequest, last_checkpoint, make_checkpoint_callback,
                                    remove_incomplete)
from rlvr.train.checks import reward_entries
from rlvr.train.curriculum.trainer import curriculum_trainer, write_curriculum_retired
from rlvr.train.data_prep import training_columns
from rlvr.train.speedups import compact_logprobs
from rlvr.train.state import RunState, Trained
from rlvr.train.trackers import Trackers, default_run_name, make_metrics_callback

logger = logging.getLogger(__name__)


def reward_functions(cfg: TrainConfig, observer=None) -> tuple[list, list[float]]:
    """Build the TRL reward functions and their weights from the config.

    Returns:
        (reward_funcs, reward_weights): one TRL callable per entry of `cfg.reward_funcs`
        (or just `cfg.reward` with weight 1.0); see `rlvr.rewards.make_trl_rewards`.
        TRL logs each as `rewards/<log_name>/mean` and sums them with the weights.
        `observer` (the diagnostics) watches the first `selfaware` reward.
    Raises:
        RlvrError: an unknown reward or preset name.
    """
    return make_trl_rewards(reward_entries(cfg), observer)


# TrainConfig fields that mean exactly the same in trl.GRPOConfig.
GRPO_PASSTHROUGH = (
    "per_device_train_batch_size", "gradient_accumulation_steps", "num_train_epochs",
    "max_steps", "learning_rate", "lr_scheduler_type", "num_generations",
    "max_completion_length", "beta", "epsilon", "temperature", "top_p", "loss_type",
    "scale_rewards", "gradient_checkpointing", "logging_steps", "save_steps", "seed",
    "use_vllm", "vllm_mode", "vllm_server_host", "vllm_server_port",
    "vllm_gpu_memory_utilization",
)


def grpo_args(cfg: TrainConfig, output_dir: Path, reward_weights: list[float] | None = None,
              report_to: list[str] | None = None, run_name: str | None = None):
    """Map a TrainConfig onto `trl.GRPOConfig` (same names where they mean the same).

    `report_to` is what TRL sets up itself (`rlvr.train.trackers.Trackers.report_to`;
    None or [] = none), `run_name` the trackers' run name."""
    from trl import GRPOConfig

    from rlvr.hardware import device, use_bf16

    return GRPOConfig(
        output_dir=str(output_dir),
        use_cpu=device() == "cpu",  # also makes `accelerate launch` use gloo on CPUs
        **{name: getattr(cfg, name) for name in GRPO_PASSTHROUGH},
        warmup_steps=cfg.warmup_ratio,  # transformers 5: a float < 1 is a ratio of steps
        bf16=use_bf16(cfg.bf16),
        save_strategy="steps",
        save_total_limit=cfg.save_total_limit,
        data_seed=cfg.seed,
        reward_weights=reward_weights,
        report_to=report_to or "none",
        run_name=run_name,
        project="rlvr",
    )


def lora_config(cfg: TrainConfig):
    """Return the PEFT LoraConfig for a TrainConfig (causal LM task)."""
    from peft import LoraConfig

    return LoraConfig(r=cfg.lora_r, lora_alpha=cfg.lora_alpha, lora_dropout=cfg.lora_dropout,
                      target_modules=cfg.lora_target_modules, task_type="CAUSAL_LM")


def _save_adapter(model, tokenizer, target: Path) -> Path:
    """Save the LoRA adapter atomically (temp folder, then rename)."""
    def fill(tmp: Path) -> None:
        model.save_pretrained(tmp)
        tokenizer.save_pretrained(tmp)

    return write_folder(target, fill)


def rank_digests(trainer) -> list[str]:
    """SHA-256 of the trainable (LoRA) weights on every process, rank order (one entry in a
    single process). Data-parallel ranks must end with the same adapter: a warning is
    logged when they do not."""
    import hashlib

    digest = hashlib.sha256()  # same weights in the same order -> same digest
    for name, param in sorted(trainer.model.named_parameters(), key=lambda item: item[0]):
        if param.requires_grad:
            digest.update(name.encode())
            digest.update(param.detach().float().cpu().contiguous().numpy().tobytes())
    from accelerate.utils import gather_object

    digests = gather_object([digest.hexdigest()])
    if len(set(digests)) > 1:
        logger.warning("the processes ended with different adapter weights: %s", digests)
    return list(digests)


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

    Writes `metrics.jsonl` (start, every log, `train_end`), `train_log.jsonl`, checkpoints
    under RUN_DIR/checkpoints, `curriculum_retired.json` (curriculum on) and RUN_DIR/adapter;
    adds `train_s` and `seconds_per_step` to `state.timings`. With `state.resume`, training
    continues from the newest complete checkpoint.
    Raises:
        RlvrError: an unknown reward or preset; ConfigError from the trainer's settings.
    """
    from datasets import Dataset
    from trl import GRPOTrainer

    cfg, run_dir, model, tokenizer = state.cfg, state.run_dir, state.model, state.tokenizer
    columns = training_columns(state.train, with_known=cfg.train_answerable == "label",
                               entries=reward_entries(cfg))
    checkpoints = run_dir / "checkpoints"
    observer, callback = _diagnostics(cfg, tokenizer)
    reward_funcs, reward_weights = reward_functions(cfg, observer)
    metrics_path = state.metrics_path
    main = is_main_process()  # under `accelerate launch`, rank 0 writes; every rank trains
    if main:
        start_metrics(metrics_path, state.resume)
    run_name = cfg.run_name or default_run_name(cfg.reward, cfg.model)
    trackers = Trackers(check_report_to(cfg.report_to) if main else [], run_dir, run_name,
                        cfg.reward, cfg.to_dict(), state.resume)
    stop = StopRequest()
    callbacks = [make_metrics_callback(metrics_path), make_checkpoint_callback(
        cfg.save_minutes, stop)] + trackers.callbacks + ([callback] if callback is not None else [])
    trainer_class = curriculum_trainer(cfg, GRPOTrainer)  # GRPOTrainer when curriculum is off
    if cfg.backend == "mlx":  # mlx-lm-lora's GRPO on MLX; same rows, rewards and report
        from rlvr.train.mlx.backend import MlxTrainer

        trainer = MlxTrainer(cfg, model, columns, run_dir, state.model_path, metrics_path)
    else:
        compact_logprobs()  # CPU: LM head on completion positions only; same values, faster
        trainer = trainer_class(
            model=model,
            reward_funcs=reward_funcs,
            args=grpo_args(cfg, checkpoints, reward_weights, trackers.report_to, run_name),
            train_dataset=Dataset.from_dict(columns),
            processing_class=tokenizer,
            peft_config=lora_config(cfg),
            callbacks=callbacks,
        )
        if cfg.profile_steps:  # seconds per part of each step
            from rlvr.train.profiling import StepProfiler

            StepProfiler(lambda r: main and append_metrics(
                metrics_path, {"event": "profile", **r})).attach(trainer)
    timings = state.timings
    start = time.perf_counter()
    if state.resume:
        remove_incomplete(checkpoints)
    with stop:
        result = trainer.train(resume_from_checkpoint=last_checkpoint(checkpoints)
                               if state.resume else None)
    timings["train_s"] = time.perf_counter() - start
    steps = trainer.state.global_step
    timings["seconds_per_step"] = timings["train_s"] / steps if steps else float("nan")
    digests = rank_digests(trainer)
    alarms = callback.monitor.fired if callback is not None else []
    trained = Trained(model=trainer.model, adapter_dir=None, steps=steps,
                      training_loss=result.training_loss, main=main, digests=digests,
                      interrupted=stop.requested, alarms=alarms, curriculum=None,
                      run_name=run_name, trackers=trackers)
    if not main:
        return trained
    append_metrics(metrics_path, {"event": "train_end", "optimizer_steps": steps,
                                  "processes": len(digests), "adapter_sha256_by_rank": digests,
                                  "interrupted": stop.requested, **timings})
    write_jsonl(run_dir / "train_log.jsonl", trainer.state.log_history)
    trained.curriculum = write_curriculum_retired(trainer, run_dir)  # None (no file) when off
    trained.adapter_dir = _save_adapter(trainer.model, tokenizer, run_dir / "adapter")
    logger.info("adapter saved to %s", trained.adapter_dir)
    return trained
