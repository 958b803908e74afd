"""GRPO training with TRL and PEFT, framed by a before/after evaluation.

`run(cfg)` does the main job end to end:
1. resolve the data and the model, write `resolved_config.yaml` into the run directory;
2. answer the held-out questions with the base model (greedy) and score them;
3. train a LoRA adapter with `trl.GRPOTrainer` on the calibration reward;
4. answer the same questions with the adapter, score, and write `report.json`,
   `report.md` and both models' generations.
"""

from __future__ import annotations

import logging
import os
import random
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from rlvr import __version__
from rlvr.config import TrainConfig
from rlvr.errors import ConfigError
from rlvr.data.resolve import resolve_data, with_system_prompt
from rlvr.eval.report import build_report, score_generations, write_report
from rlvr.io import read_jsonl, umask_mode, write_jsonl, write_text
from rlvr.models import load_tokenizer, resolve_model
from rlvr.rewards import make_trl_rewards

logger = logging.getLogger(__name__)


def reward_functions(cfg: TrainConfig) -> tuple[list, list[float]]:
    """Build the TRL reward functions and their weights from the config.

    Returns:
        (reward_funcs, reward_weights): one TRL callable per entry of `cfg.reward_funcs`
        (or just `cfg.reward` with weight 1.0); see `rlvr.rewards.make_trl_rewards`.
        TRL logs each as `rewards/<log_name>/mean` and sums them with the weights.
    Raises:
        RlvrError: an unknown reward or preset name.
    """
    return make_trl_rewards(cfg.reward_funcs or [
        {"name": cfg.reward, "preset": cfg.reward_preset, "params": cfg.reward_params}])


# Settings a resumed run must share with the run it continues (checkpoint shapes, data).
RESUME_FIXED = ("model", "data", "system_prompt", "lora_r", "lora_alpha", "lora_target_modules",
                "per_device_train_batch_size", "gradient_accumulation_steps", "num_generations",
                "max_completion_length", "reward", "reward_preset", "selfaware_variant")

# TrainConfig fields that mean exactly the same in trl.GRPOConfig.
GRPO_PASSTHROUGH = (
    "per_device_train_batch_size", "gradient_accumulation_steps", "num_train_epochs",
    "max_steps", "learning_rate", "lr_scheduler_type", "num_generations",
    "max_completion_length", "beta", "epsilon", "temperature", "top_p", "loss_type",
    "scale_rewards", "gradient_checkpointing", "logging_steps", "save_steps", "seed",
)


def grpo_args(cfg: TrainConfig, output_dir: Path, reward_weights: list[float] | None = None):
    """Map a TrainConfig onto `trl.GRPOConfig` (same names where they mean the same)."""
    import torch
    from trl import GRPOConfig

    bf16 = cfg.bf16
    if bf16 is None:
        bf16 = bool(torch.cuda.is_available() and torch.cuda.is_bf16_supported())
    return GRPOConfig(
        output_dir=str(output_dir),
        **{name: getattr(cfg, name) for name in GRPO_PASSTHROUGH},
        warmup_steps=cfg.warmup_ratio,  # transformers 5: a float < 1 is a ratio of steps
        bf16=bf16,
        save_strategy="steps",
        save_total_limit=2,
        data_seed=cfg.seed,
        reward_weights=reward_weights,
        report_to="none",
    )


def lora_config(cfg: TrainConfig):
    """Return the PEFT LoraConfig for a TrainConfig (causal LM task)."""
    from peft import LoraConfig

    return LoraConfig(r=cfg.lora_r, lora_alpha=cfg.lora_alpha, lora_dropout=cfg.lora_dropout,
                      target_modules=cfg.lora_target_modules, task_type="CAUSAL_LM")


def _save_adapter(model, tokenizer, target: Path) -> Path:
    """Save the LoRA adapter atomically (temp folder, then rename)."""
    tmp = Path(tempfile.mkdtemp(prefix=".adapter.", dir=target.parent))
    try:
        model.save_pretrained(tmp)
        tokenizer.save_pretrained(tmp)
        os.chmod(tmp, umask_mode(directory=True))
        if target.exists():
            shutil.rmtree(target)
        os.replace(tmp, target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return target


def _evaluate(model, tokenizer, examples, cfg: TrainConfig, label: str) -> list[dict[str, Any]]:
    from rlvr.eval.generate import generate_completions

    generations = generate_completions(
        model, tokenizer, [ex["prompt"] for ex in examples],
        max_new_tokens=cfg.eval_max_new_tokens or cfg.max_completion_length,
        batch_size=cfg.eval_batch_size, desc=f"eval {label}")
    return score_generations(examples, generations, cfg.reward, cfg.reward_preset,
                             cfg.reward_params)


def _last_checkpoint(checkpoints: Path) -> str | None:
    found = sorted(checkpoints.glob("checkpoint-*"), key=lambda p: int(p.name.split("-")[-1]))
    return str(found[-1]) if found else None


def run(cfg: TrainConfig, resume: bool = False) -> dict[str, Any]:
    """Run the main job (see module docstring) and return the report dict.

    Args:
        cfg: the resolved training configuration.
        resume: continue from the newest checkpoint in the run directory and reuse the
            saved base-model generations when they cover the same questions.
    Raises:
        RlvrError subclasses for bad data, config or a missing model.
    """
    import torch
    from datasets import Dataset
    from transformers import AutoModelForCausalLM, set_seed
    from trl import GRPOTrainer

    import yaml

    run_dir = Path(cfg.output_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    previous = run_dir / "resolved_config.yaml"
    if resume and previous.is_file():
        saved = yaml.safe_load(previous.read_text(encoding="utf-8")) or {}
        changed = [k for k in RESUME_FIXED if k in saved and saved[k] != getattr(cfg, k)]
        if changed:
            raise ConfigError(f"--resume: {', '.join(changed)} differ from {previous}; pass the "
                              "run's original config (e.g. --config " f"{previous})")
    write_text(run_dir / "resolved_config.yaml", yaml.safe_dump(cfg.to_dict(), sort_keys=False))
    if cfg.num_threads:
        torch.set_num_threads(cfg.num_threads)
    set_seed(cfg.seed)

    data = resolve_data(cfg.data, cfg.eval_split, cfg.selfaware_variant, cfg.seed,
                        cfg.skip_bad_rows)
    train, heldout = list(data.train), list(data.heldout)
    if cfg.system_prompt is not None:
        train = with_system_prompt(train, cfg.system_prompt)
        heldout = with_system_prompt(heldout, cfg.system_prompt)
    if cfg.train_limit is not None and cfg.train_limit < len(train):
        random.Random(cfg.seed).shuffle(train)
        train = train[:cfg.train_limit]
    heldout = heldout[:cfg.eval_limit] if cfg.eval_limit is not None else heldout
    logger.info("data: %s; %d training rows, %d held-out questions%s", data.source, len(train),
                len(heldout), f", {len(data.skipped)} bad rows skipped" if data.skipped else "")

    model_path = resolve_model(cfg.model)
    tokenizer = load_tokenizer(model_path)
    model = AutoModelForCausalLM.from_pretrained(model_path, dtype=torch.float32)

    timings: dict[str, float] = {}
    base_records = None
    base_file = run_dir / "generations_base.jsonl"
    if not cfg.skip_eval:
        if resume and base_file.is_file():
            cached = read_jsonl(base_file)
            if [r["id"] for r in cached] == [ex.get("id", i) for i, ex in enumerate(heldout)]:
                base_records = cached
                logger.info("reusing base generations from %s", base_file)
        if base_records is None:
            start = time.perf_counter()
            model.eval()
            base_records = _evaluate(model, tokenizer, heldout, cfg, "base")
            timings["eval_base_s"] = time.perf_counter() - start
            write_jsonl(base_file, base_records)

    columns = {
        "prompt": [ex["prompt"] for ex in train],
        "expected_answer": [ex["expected_answer"] for ex in train],
        "is_unanswerable": [ex["is_unanswerable"] for ex in train],
    }
    checkpoints = run_dir / "checkpoints"
    reward_funcs, reward_weights = reward_functions(cfg)
    trainer = GRPOTrainer(
        model=model,
        reward_funcs=reward_funcs,
        args=grpo_args(cfg, checkpoints, reward_weights),
        train_dataset=Dataset.from_dict(columns),
        processing_class=tokenizer,
        peft_config=lora_config(cfg),
    )
    start = time.perf_counter()
    result = trainer.train(resume_from_checkpoint=_last_checkpoint(checkpoints) if resume else None)
    timings["train_s"] = time.perf_counter() - start
    steps = trainer.state.global_step
    timings["seconds_per_step"] = timings["train_s"] / steps if steps else float("nan")
    write_jsonl(run_dir / "train_log.jsonl", trainer.state.log_history)
    adapter_dir = _save_adapter(trainer.model, tokenizer, run_dir / "adapter")
    logger.info("adapter saved to %s", adapter_dir)

    meta = {
        "rlvr_version": __version__, "model": cfg.model or "default (SmolLM2-135M-Instruct)",
        "model_path": model_path, "adapter": str(adapter_dir), "data": data.source,
        "train_rows": len(train), "heldout_questions": len(heldout),
        "skipped_bad_rows": len(data.skipped),
        "optimizer_steps": steps, "train_loss": result.training_loss,
        "reward": cfg.reward, "reward_preset": cfg.reward_preset or "default",
        "decoding": "greedy", "eval_max_new_tokens": cfg.eval_max_new_tokens
        or cfg.max_completion_length, "seed": cfg.seed,
    }
    if cfg.skip_eval:
        return {"meta": {**meta, "timings": timings}}
    start = time.perf_counter()
    trainer.model.eval()
    trained_records = _evaluate(trainer.model, tokenizer, heldout, cfg, "trained")
    timings["eval_trained_s"] = time.perf_counter() - start
    meta["timings"] = {k: round(v, 3) for k, v in timings.items()}
    report = build_report(base_records, trained_records, meta, cfg.bootstrap_samples, cfg.seed)
    if cfg.eval_tasks:
        from rlvr.eval.runner import run_eval

        start = time.perf_counter()
        report["cross_eval"] = run_eval(
            cfg.model, list(cfg.eval_tasks), adapter=str(adapter_dir),
            output_dir=run_dir / "cross_eval", limit=cfg.eval_tasks_limit,
            batch_size=cfg.eval_batch_size, data_dir=cfg.eval_data_dir, seed=cfg.seed,
            run_name="trained")
        meta["timings"]["cross_eval_s"] = round(time.perf_counter() - start, 3)
    write_report(run_dir, report, base_records, trained_records)
    return report
