"""GRPO training with TRL and PEFT, framed by a before/after evaluation.

`run(cfg)` does the main job end to end:
1. resolve the data and the model, write `resolved_config.yaml` into the run directory;
2. answer the held-out questions with the base model (greedy) and score them;
3. train a LoRA adapter with `trl.GRPOTrainer` on the calibration reward;
4. answer the same questions with the adapter, score, and write `report.json`,
   `report.md` and both models' generations. Every log and the results are also
   appended to `metrics.jsonl` as they happen (`rlvr.metrics.run_log`).
"""

from __future__ import annotations

import logging
import os
import time
from collections import Counter
from pathlib import Path
from typing import Any

from rlvr import __version__
from rlvr.config import TrainConfig
from rlvr.config.checks import is_task_run
from rlvr.errors import ConfigError
from rlvr.tasks.heldout import heldout_rows, run_task, write_run_data
from rlvr.eval.report import build_report, verdict_line, write_report
from rlvr.io import write_folder, write_jsonl, write_text
from rlvr.hardware import check_options, is_main_process
from rlvr.models import load_for_training, load_tokenizer, resolve_model
from rlvr.rewards import make_trl_rewards
from rlvr.train.checkpoints import (StopRequest, check_disk_space, check_output_dir,
                                    checkpoint_bytes, last_checkpoint, lora_parameter_count,
                                    make_checkpoint_callback, remove_incomplete)
from rlvr.train.checks import reward_entries, reward_preflight
from rlvr.train.task_eval import (check_kshot_data, cross_check, cross_eval, task_flat_results,
                                  task_report, task_verdict_line)
from rlvr.train.curriculum.trainer import curriculum_trainer, write_curriculum_retired
from rlvr.train.data_prep import cap_unanswerable, prepare_data, training_columns
from rlvr.train.evaluate import (cached_base_records, evaluate_heldout, knowledge_for_run,
                                 known_training_rows)
from rlvr.metrics.run_log import append_metrics, start_metrics
from rlvr.train.speedups import compact_logprobs
from rlvr.config.backends import check_report_to
from rlvr.train.trackers import Trackers, default_run_name, flat_results, make_metrics_callback

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


# Settings a resumed run must share with the run it continues (checkpoint shapes, data).
RESUME_FIXED = ("model", "data", "system_prompt", "lora_r", "lora_alpha", "lora_target_modules",
                "per_device_train_batch_size", "gradient_accumulation_steps", "num_generations",
                "max_completion_length", "reward", "reward_preset", "selfaware_variant",
                "prompt_exemplars", "train_answerable", "max_unanswerable_share", "curriculum",
                "backend", "data_format")

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


def _check_space(cfg: TrainConfig, model, model_path: str, run_dir: Path) -> None:
    """Refuse to start when the disk cannot hold save_total_limit + 1 checkpoints and the
    adapter (`rlvr.train.checkpoints.checkpoint_bytes`, doubled for margin)."""
    tokenizer_bytes = sum(p.stat().st_size for p in Path(model_path).glob("*token*")
                          if p.is_file())
    one = checkpoint_bytes(lora_parameter_count(model, cfg.lora_target_modules, cfg.lora_r),
                           tokenizer_bytes)
    check_disk_space(run_dir, 2 * one * (cfg.save_total_limit + 2))


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


def _draw_plots(run_dir: Path) -> None:
    """Draw the training plots (`rlvr plot`) into RUN_DIR/plots; a failure only warns."""
    from rlvr.errors import RlvrError
    from rlvr.plots.training import write_training_plots

    try:
        written = write_training_plots(run_dir)
        logger.info("plots: %d PNG files in %s", len(written), run_dir / "plots")
    except (RlvrError, OSError) as exc:
        logger.warning("plots not drawn: %s", exc)


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


def run(cfg: TrainConfig, resume: bool = False) -> dict[str, Any]:
    """Run the main job (see module docstring) and return the report dict.

    Args:
        cfg: the resolved training configuration.
        resume: continue from the newest checkpoint in the run directory and reuse the
            saved base-model generations and knowledge labels when they cover the same
            questions.
    Raises:
        ConfigError: `--resume` with settings that differ from the run's; the reward
            preflight refused the training rows.
        DataError: bad data, or held-out questions that are also training questions.
        RlvrError subclasses for a missing model.
    """
    import torch
    from datasets import Dataset
    from transformers import set_seed
    from trl import GRPOTrainer

    import yaml

    run_dir = Path(cfg.output_dir)
    previous = run_dir / "resolved_config.yaml"
    # only a run that reached a checkpoint has settings to keep: a run that failed before
    # training (bad data, a refused preflight, a crash while loading) left only its config
    check_output_dir(run_dir)  # before any data or model: an unwritable folder fails now
    check_options(cfg)  # CUDA-only options on a machine without CUDA fail now
    if resume and previous.is_file() and last_checkpoint(run_dir / "checkpoints"):
        saved = yaml.safe_load(previous.read_text(encoding="utf-8")) or {}
        changed = [k for k in RESUME_FIXED if k in saved and saved[k] != getattr(cfg, k)]
        if changed:
            raise ConfigError(f"--resume: {', '.join(changed)} differ from {previous}; pass the "
                              "run's original config (e.g. --config " f"{previous})")
    data, train, heldout = prepare_data(cfg)
    preflight_results = reward_preflight(cfg, train)  # before any model loads
    task_run = is_task_run(cfg)  # GSM8K/MATH/QA/code rewards: no knowledge labels or honesty
    if task_run:
        check_kshot_data(cfg, train)
    run_dir.mkdir(parents=True, exist_ok=True)
    write_text(previous, yaml.safe_dump(cfg.to_dict(), sort_keys=False))
    write_run_data(run_dir, train, heldout)
    if cfg.num_threads:
        torch.set_num_threads(cfg.num_threads)
    set_seed(cfg.seed)

    model_path = resolve_model(cfg.model)
    tokenizer = load_tokenizer(model_path)
    model = load_for_training(model_path, cfg)
    _check_space(cfg, model, model_path, run_dir)
    task = run_task(cfg.reward, cfg.reward_preset, cfg.reward_params,
                    cfg.eval_max_new_tokens or cfg.max_completion_length)
    rows = heldout_rows(heldout)

    timings: dict[str, float] = {}
    base_records = labels = None
    base_file = run_dir / "generations_base.jsonl"
    if not cfg.skip_eval and not task_run:
        base_records = cached_base_records(base_file, rows) if resume else None
        model.eval()
        if base_records is None:
            start = time.perf_counter()
            base_records = evaluate_heldout(model, tokenizer, task, rows, cfg, "base")
            timings["eval_base_s"] = time.perf_counter() - start
            write_jsonl(base_file, base_records)
        start = time.perf_counter()
        labels = knowledge_for_run(model, tokenizer, task, rows, base_records, cfg, run_dir,
                                   reuse=resume)
        timings["knowledge_s"] = time.perf_counter() - start

    train_counts = None
    if cfg.train_answerable in ("known", "label"):
        model.eval()
        start = time.perf_counter()
        train, train_counts = known_training_rows(model, tokenizer, task, train, cfg, run_dir,
                                                  reuse=resume)
        timings["train_knowledge_s"] = time.perf_counter() - start
    if cfg.max_unanswerable_share is not None:
        train = cap_unanswerable(train, cfg.max_unanswerable_share, cfg.seed)
    columns = training_columns(train, with_known=cfg.train_answerable == "label",
                               entries=reward_entries(cfg))
    checkpoints = run_dir / "checkpoints"
    observer, callback = _diagnostics(cfg, tokenizer)
    reward_funcs, reward_weights = reward_functions(cfg, observer)
    metrics_path = run_dir / "metrics.jsonl"
    main = is_main_process()  # under `accelerate launch`, rank 0 writes; every rank trains
    if main:
        start_metrics(metrics_path, resume)
    run_name = cfg.run_name or default_run_name(cfg.reward, cfg.model)
    trackers = Trackers(check_report_to(cfg.report_to) if main else [], run_dir, run_name,
                        cfg.reward, cfg.to_dict(), resume)
    stop = StopRequest()
    callbacks = [make_metrics_callback(metrics_path), make_checkpoint_callback(
        cfg.save_minutes, stop)] + trackers.callbacks + ([callback] if callback is not None else [])
    trainer_class = curriculum_trainer(cfg, GRPOTrainer)  # GRPOTrainer when curriculum is off
    if cfg.backend == "mlx":  # mlx-lm-lora's GRPO on MLX; same rows, rewards and report
        from rlvr.train.mlx.backend import MlxTrainer

        trainer = MlxTrainer(cfg, model, columns, run_dir, model_path, metrics_path)
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
    start = time.perf_counter()
    if resume:
        remove_incomplete(checkpoints)
    with stop:
        result = trainer.train(resume_from_checkpoint=last_checkpoint(checkpoints) if resume
                               else None)
    timings["train_s"] = time.perf_counter() - start
    steps = trainer.state.global_step
    timings["seconds_per_step"] = timings["train_s"] / steps if steps else float("nan")
    digests = rank_digests(trainer)
    if not main:
        return {"meta": {"rank": int(os.environ.get("RANK", "0")), "optimizer_steps": steps,
                         "adapter_sha256_by_rank": digests}}
    append_metrics(metrics_path, {"event": "train_end", "optimizer_steps": steps,
                                  "processes": len(digests), "adapter_sha256_by_rank": digests,
                                  "interrupted": stop.requested, **timings})
    write_jsonl(run_dir / "train_log.jsonl", trainer.state.log_history)
    curriculum = write_curriculum_retired(trainer, run_dir)  # None (no file) when off
    adapter_dir = _save_adapter(trainer.model, tokenizer, run_dir / "adapter")
    logger.info("adapter saved to %s", adapter_dir)

    alarms = callback.monitor.fired if callback is not None else []
    meta = {
        "rlvr_version": __version__, "backend": cfg.backend,
        "model": cfg.model or "default (SmolLM2-135M-Instruct)",
        "model_path": model_path, "adapter": str(adapter_dir), "data": data.source,
        "train_rows": len(train), "train_sources": dict(Counter(ex["source"] for ex in train)),
        "train_answerable": cfg.train_answerable,
        "train_knowledge": train_counts, "heldout_questions": len(heldout),
        "skipped_bad_rows": len(data.skipped),
        "optimizer_steps": steps, "max_steps": cfg.max_steps,
        "train_loss": result.training_loss,
        "reward": cfg.reward, "reward_preset": cfg.reward_preset or "default",
        "system_prompt": cfg.system_prompt,
        "bootstrap_samples": cfg.bootstrap_samples,
        "decoding": "greedy", "eval_max_new_tokens": cfg.eval_max_new_tokens
        or cfg.max_completion_length, "seed": cfg.seed,
        "knowledge": {"samples": cfg.knowledge_samples,
                      "temperature": cfg.knowledge_temperature,
                      "threshold": cfg.knowledge_threshold},
        "alarms": alarms, "stopped_on_alarm": bool(alarms and cfg.stop_on_alarm),
        "curriculum": curriculum and {k: v for k, v in curriculum.items() if k != "retired"},
        "interrupted": stop.requested, "run_name": run_name, "report_to": trackers.names,
        "processes": len(digests), "adapter_sha256_by_rank": digests,
        "preflight": [{k: v for k, v in p.items() if k != "table"} for p in preflight_results],
    }
    for alarm in alarms:
        logger.warning("alarm: %s", alarm["message"])
    if cfg.skip_eval or stop.requested:
        if stop.requested:
            logger.warning("stopped by a signal at step %d: checkpoint and adapter saved; "
                           "continue with --resume", steps)
        trackers.close()
        _draw_plots(run_dir)
        return {"meta": {**meta, "timings": timings}}
    if task_run:
        meta["timings"] = {k: round(v, 3) for k, v in timings.items()}
        report = task_report(cfg, trainer.model, tokenizer, run_dir, meta, train, adapter_dir)
        append_metrics(metrics_path, {"event": "kshot", **{k: report[k] for k in (
            "kshot", "cross_check") if k in report}})
        trackers.log_results(task_flat_results(report), steps)
        trackers.close()
        _draw_plots(run_dir)
        logger.info("%s", task_verdict_line(report))
        return report
    start = time.perf_counter()
    trainer.model.eval()
    trained_records = evaluate_heldout(trainer.model, tokenizer, task, rows, cfg, "trained")
    timings["eval_trained_s"] = time.perf_counter() - start
    meta["timings"] = {k: round(v, 3) for k, v in timings.items()}
    report = build_report(base_records, trained_records, meta, cfg.bootstrap_samples, cfg.seed,
                          labels, by=[r.get("source") for r in rows])
    if cfg.cross_check:  # likelihood of gold continuations on other tasks, base vs trained
        report["cross_check"] = cross_check(cfg, trainer.model, tokenizer, run_dir, meta)
    if cfg.eval_tasks:
        report["cross_eval"] = cross_eval(cfg, adapter_dir, run_dir, meta)
    write_report(run_dir, report, base_records, trained_records)
    append_metrics(metrics_path, {"event": "eval", **{k: report[k] for k in (
        "base", "trained", "difference", "knowledge", "cross_eval", "cross_check")
        if k in report}})
    trackers.log_results(flat_results(report), steps)
    trackers.close()
    _draw_plots(run_dir)
    logger.info("%s", verdict_line(report))
    return report
