"""Running one trainer as the training stage of the main job, whatever the method.

`fit(state, build, ...)` is what GRPO, SFT and DPO share: `metrics.jsonl` (start, every log,
`train_end`), checkpoints every `save_steps` and every `save_minutes` under
RUN_DIR/checkpoints, the trackers of `report_to`, a clean stop on SIGINT/SIGTERM, resuming
from the newest complete checkpoint, `train_log.jsonl`, and the adapter saved atomically
into RUN_DIR/adapter. The method only says how to build its trainer (`build`), and which
TrainingArguments fields it shares with the others (`shared_args`).
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any, Callable

from rlvr.config import TrainConfig
from rlvr.config.backends import check_report_to
from rlvr.config.checks import reward_label
from rlvr.hardware import is_main_process
from rlvr.io import write_folder, write_jsonl
from rlvr.metrics.run_log import append_metrics, start_metrics
from rlvr.train.profiling import StepClock
from rlvr.train.checkpoints import (StopRequest, last_checkpoint, make_checkpoint_callback,
                                    remove_incomplete)
from rlvr.train.state import RunState, Trained
from rlvr.eval.heldout_answers import evaluate_heldout, step_metrics
from rlvr.train.step_eval import StepEval, restore_best
from rlvr.train.trackers import Trackers, default_run_name, make_metrics_callback

logger = logging.getLogger(__name__)

# TrainConfig fields that mean the same in every TRL config (transformers.TrainingArguments)
SHARED_ARGS = ("per_device_train_batch_size", "gradient_accumulation_steps", "num_train_epochs",
               "max_steps", "learning_rate", "lr_scheduler_type", "gradient_checkpointing",
               "logging_steps", "save_steps", "seed")


def shared_args(cfg: TrainConfig, output_dir: Path, report_to: list[str] | None,
                run_name: str | None) -> dict[str, Any]:
    """Keyword arguments every TRL config (GRPOConfig, SFTConfig, DPOConfig) takes alike:
    `SHARED_ARGS` from the config, the device, warm-up, precision, checkpointing cadence and
    trackers. `warmup_ratio` is passed as `warmup_steps` (transformers 5: a float < 1 is a
    ratio of the steps)."""
    from rlvr.hardware import device, use_bf16

    return dict(
        output_dir=str(output_dir),
        use_cpu=device() == "cpu",  # also makes `accelerate launch` use gloo on CPUs
        **{name: getattr(cfg, name) for name in SHARED_ARGS},
        warmup_steps=cfg.warmup_ratio,
        bf16=use_bf16(cfg.bf16),
        save_strategy="steps",
        save_total_limit=cfg.save_total_limit,
        data_seed=cfg.seed,
        report_to=report_to or "none",
        run_name=run_name,
        project="rlvr",
    )


def lora_config(cfg: TrainConfig):
    """Return the PEFT LoraConfig for a TrainConfig (causal LM task)."""
    from peft import LoraConfig

    return LoraConfig(r=cfg.lora_r, lora_alpha=cfg.lora_alpha, lora_dropout=cfg.lora_dropout,
                      target_modules=cfg.lora_target_modules, task_type="CAUSAL_LM")


def fit(state: RunState, build: Callable[..., Any], method: str,
        extra_callbacks: tuple = ()) -> tuple[Any, Trained]:
    """Build a trainer with `build(callbacks=..., output_dir=..., report_to=..., run_name=...)`,
    train it, and save what every method saves (see the module docstring).

    Args:
        state: the run state; `state.timings` gains `train_s` (the whole `train()` call)
            and `seconds_per_step` (mean of the optimizer steps alone, `StepClock`; NaN
            when none ran).
        build: returns the trainer (a `transformers.Trainer` or anything with `train()`,
            `state.global_step`, `state.log_history` and `model`).
        method: the method's name, for the default run name (`<reward>-<method>-...`).
        extra_callbacks: the method's own TrainerCallbacks (diagnostics, ...).
    Returns:
        (trainer, Trained); on a process that is not rank 0 nothing is written and
        `adapter_dir` is None.
    """
    cfg, run_dir = state.cfg, state.run_dir
    checkpoints = run_dir / "checkpoints"
    metrics_path = state.metrics_path
    main = is_main_process()  # under `accelerate launch`, rank 0 writes; every rank trains
    if main:
        start_metrics(metrics_path, state.resume)
    run_name = cfg.run_name or default_run_name(reward_label(cfg), cfg.model, method=method)
    trackers = Trackers(check_report_to(cfg.report_to) if main else [], run_dir, run_name,
                        reward_label(cfg), cfg.to_dict(), state.resume)
    stop = StopRequest()
    clock = StepClock()  # optimizer steps only (seconds_per_step)
    callbacks = [clock.callback(), make_metrics_callback(metrics_path), make_checkpoint_callback(
        cfg.save_minutes, stop)] + trackers.callbacks + list(extra_callbacks)
    step_eval = step_evaluation(state, trackers) if cfg.eval_steps and main else None
    if step_eval is not None:
        callbacks.append(step_eval)
    trainer = build(callbacks=callbacks, output_dir=checkpoints, report_to=trackers.report_to,
                    run_name=run_name)
    timings = state.timings
    start = time.perf_counter()
    if state.resume:
        remove_incomplete(checkpoints)
    resume_from = last_checkpoint(checkpoints) if state.resume else None
    if resume_from and 0 < cfg.max_steps <= _checkpoint_step(resume_from):
        result = _load_finished(trainer, resume_from)  # train() would take one more step
    else:
        with stop:
            result = trainer.train(resume_from_checkpoint=resume_from)
    timings["train_s"] = time.perf_counter() - start
    steps = trainer.state.global_step
    # the optimizer steps this process took, timed alone (evaluation, saving and resume
    # set-up left out: `rlvr.train.profiling.StepClock`)
    timings["seconds_per_step"] = clock.seconds_per_step
    best = restore_best(trainer.model, step_eval, steps)  # keep_best: the best step's weights
    digests = rank_digests(trainer)
    trained = Trained(model=trainer.model, adapter_dir=None, steps=steps,
                      training_loss=result.training_loss, main=main, digests=digests,
                      interrupted=stop.requested, alarms=[], curriculum=None,
                      run_name=run_name, trackers=trackers, method=method, best=best)
    if not main:
        return trainer, trained
    append_metrics(metrics_path, {"event": "train_end", "optimizer_steps": steps,
                                  "processes": len(digests), "adapter_sha256_by_rank": digests,
                                  "interrupted": stop.requested, **timings})
    write_jsonl(run_dir / "train_log.jsonl", trainer.state.log_history)
    trained.adapter_dir = save_adapter(trainer.model, state.tokenizer, run_dir / "adapter")
    logger.info("adapter saved to %s", trained.adapter_dir)
    return trainer, trained


def _checkpoint_step(path) -> int:
    """The optimizer step of a `checkpoint-N` folder."""
    return int(Path(path).name.rsplit("-", 1)[-1])


def _load_finished(trainer, checkpoint):
    """A run resumed after its last step (e.g. it stopped in the evaluation): the
    checkpoint's weights and state, no training. `Trainer.train` would still take one more
    step past `max_steps` (measured: checkpoint-40 of a 40-step run resumed to 41)."""
    from transformers import TrainerState
    from transformers.trainer_utils import TrainOutput

    trainer._load_from_checkpoint(str(checkpoint))
    trainer.state = TrainerState.load_from_json(str(Path(checkpoint) / "trainer_state.json"))
    logger.info("resumed at step %d = max_steps: nothing left to train", trainer.state.global_step)
    return TrainOutput(trainer.state.global_step, None, {})


def step_evaluation(state: RunState, trackers) -> StepEval:
    """The `eval_steps` callback of a run (`rlvr.train.step_eval`): the first
    `eval_steps_limit` held-out rows answered with the final report's runner, scored as
    the report scores them, logged to metrics.jsonl and the trackers (`eval/<metric>`)."""
    cfg, ev = state.cfg, state.evaluation
    rows = state.rows[:ev.step_eval_limit]
    entries = ev.entries if state.task_run else None
    labels = None if state.task_run else state.labels

    def evaluate(model, step):
        return evaluate_heldout(model, state.tokenizer, state.task, rows, ev.heldout,
                                f"step {step}", entries)

    def log(record):
        append_metrics(state.metrics_path, record)
        trackers.log_results({f"eval/{k}": v for k, v in record.items()
                              if isinstance(v, float)}, record["step"])

    return StepEval(evaluate, lambda records: step_metrics(records, labels, entries), log,
                    cfg.eval_steps, cfg.keep_best, state.run_dir,
                    lambda model, folder: save_adapter(model, state.tokenizer, folder))


def save_adapter(model, tokenizer, target: Path) -> Path:
    """Save the LoRA adapter and the tokenizer atomically (temp folder, then rename)."""
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
