"""GRPO + LoRA training on MLX through mlx-lm-lora (`backend: mlx`).

`run_mlx(cfg, columns, run_dir)` trains a LoRA adapter with mlx-lm-lora's `train_grpo` on
rlvr's training columns and rewards, and leaves two adapter folders in the run directory:
`adapter_mlx/` (mlx-lm's format: `mlx_lm.load(model, adapter_path=...)`) and `adapter/`
(the same weights as a PEFT adapter, `rlvr.train.mlx.adapter.to_peft`), which `rlvr eval
--adapter` and the before/after report load with transformers + PEFT. `rlvr.train.job.run`
calls it in place of TRL when `cfg.backend == "mlx"`; data, preflight and evaluation stay
rlvr's.

Settings: `rlvr.train.mlx.settings` (every mlx-lm-lora default that would change the
algorithm is set explicitly; `OVERRIDDEN_DEFAULTS` lists them). Rows and rewards:
`rlvr.train.mlx.rows`. Model loading (and the RoPE fix): `rlvr.train.mlx.model`.
Not available on this backend: --resume, curriculum, alarms, trackers (metrics go to
`metrics.jsonl` and `train_log.jsonl`).
"""

from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rlvr.config import TrainConfig
from rlvr.errors import ConfigError
from rlvr.config.backends import check_mlx_backend
from rlvr.train.mlx.settings import (TRL_MAX_GRAD_NORM, grpo_kwargs,
                                     lora_keys, lora_parameters, lr_factor, total_steps,
                                     warmup_steps)

logger = logging.getLogger(__name__)

MLX_ADAPTER_DIR = "adapter_mlx"


@dataclass
class MlxResult:
    """What `run_mlx` leaves for the report.

    Attributes:
        adapter_dir: the PEFT adapter folder (RUN_DIR/adapter).
        mlx_adapter_dir: the mlx-lm adapter folder (RUN_DIR/adapter_mlx).
        global_step: optimizer steps done.
        training_loss: mean loss over the logged steps (NaN when nothing was logged).
        log_history: one dict per logged step, TRL's metric names where they exist.
        train_s: seconds in `train_grpo` (generation + scoring + update).
    """

    adapter_dir: Path
    mlx_adapter_dir: Path
    global_step: int
    training_loss: float
    log_history: list[dict[str, Any]] = field(default_factory=list)
    train_s: float = 0.0


class MetricSink:
    """Collects `(name, value)` from the rewards' `log_metric` between two reports."""

    def __init__(self) -> None:
        self.values: dict[str, list[float]] = {}

    def __call__(self, name: str, value: float) -> None:
        if value is not None:
            self.values.setdefault(name, []).append(float(value))

    def drain(self) -> dict[str, float]:
        """Means since the last drain; empties the sink."""
        out = {k: sum(v) / len(v) for k, v in self.values.items() if v}
        self.values = {}
        return out


def log_record(info: dict[str, Any], reward_names: list[str]) -> dict[str, Any]:
    """Rename mlx-lm-lora's `train_info` to TRL's metric names where one exists.

    E.g. `train_total_rewards_mean` -> `reward`, `train_selfaware_mean` ->
    `rewards/selfaware/mean`, `train_average_generated_tokens` -> `completions/mean_length`,
    `train_hit_max_tokens_ratio` -> `completions/clipped_ratio`; others keep their name
    under `mlx/`. `seconds_per_step` = 1 / iterations_per_second.
    """
    fixed = {"train_loss": "loss", "train_total_rewards_mean": "reward",
             "train_total_rewards_std": "reward_std", "train_kl": "kl",
             "train_average_generated_tokens": "completions/mean_length",
             "train_max_generated_tokens": "completions/max_length",
             "train_min_generated_tokens": "completions/min_length",
             "train_hit_max_tokens_ratio": "completions/clipped_ratio",
             "train_clip_ratio_low": "clip_ratio/low_mean",
             "train_clip_ratio_high": "clip_ratio/high_mean",
             "train_clip_ratio_total": "clip_ratio/region_mean",
             "learning_rate": "learning_rate", "iteration": "step"}
    for name in reward_names:
        for stat in ("mean", "std"):
            fixed[f"train_{name}_{stat}"] = f"rewards/{name}/{stat}"
    out = {}
    for key, value in info.items():
        out[fixed.get(key, "mlx/" + key.removeprefix("train_"))] = value
    if info.get("iterations_per_second"):
        out["seconds_per_step"] = 1.0 / info["iterations_per_second"]
    return out


def _callback(sink: MetricSink, reward_names: list[str], metrics_path: Path | None,
              history: list[dict[str, Any]]):
    from mlx_lm.tuner.callbacks import TrainingCallback

    from rlvr.metrics.run_log import append_metrics

    class LogCallback(TrainingCallback):
        """Each report -> log_history (and metrics.jsonl), with the calibration metrics."""

        def on_train_loss_report(self, train_info: dict):
            record = {**log_record(train_info, reward_names), **sink.drain()}
            history.append(record)
            if metrics_path is not None:
                append_metrics(metrics_path, {"event": "log", **record})

    return LogCallback()


def _optimizer(cfg: TrainConfig, steps: int):
    """MLX Adam with bias correction and TRL's global-norm gradient clip (1.0) on the
    schedule of `lr_factor` (= torch AdamW, weight decay 0, as TRL trains)."""
    import mlx.core as mx
    import mlx.optimizers as optim

    warmup = warmup_steps(cfg, steps)

    def schedule(step):  # the optimizer passes its step counter (0 at the first update)
        return mx.array(cfg.learning_rate * lr_factor(int(step), cfg.lr_scheduler_type,
                                                      warmup, steps), dtype=mx.float32)

    class ClippedAdam(optim.Adam):
        def apply_gradients(self, gradients, parameters):
            gradients, _ = optim.clip_grad_norm(gradients, TRL_MAX_GRAD_NORM)
            return super().apply_gradients(gradients, parameters)

    return ClippedAdam(learning_rate=schedule, betas=[0.9, 0.999], eps=1e-8,
                       bias_correction=True)


def _observer(cfg: TrainConfig, tokenizer):
    if not cfg.diagnostics:
        return None
    from rlvr.train.diagnostics import CalibrationObserver

    ends = [t for t in (tokenizer.eos_token_id, tokenizer.pad_token_id) if t is not None]
    return CalibrationObserver(cfg.num_generations, cfg.max_completion_length, ends)


def run_mlx(cfg: TrainConfig, columns: dict[str, list], run_dir: str | Path,
            model_path: str | None = None, metrics_path: str | Path | None = None,
            resume: bool = False) -> MlxResult:
    """Train a LoRA adapter with mlx-lm-lora's GRPO on rlvr's columns and rewards.

    Args:
        cfg: the run's config (`backend: mlx`; GRPO, LoRA and reward settings are used).
        columns: `rlvr.train.data_prep.training_columns(...)` of the training rows.
        run_dir: the run directory; `adapter_mlx/` and `adapter/` are written there.
        model_path: local model folder (default `rlvr.models.resolve_model(cfg.model)`).
        metrics_path: `metrics.jsonl` to append each logged step to (None: not written).
        resume: must be False (mlx-lm-lora keeps no optimizer state to resume from).
    Returns:
        `MlxResult` (adapter folders, steps, loss, logged metrics, seconds).
    Raises:
        ConfigError: resume, a missing MLX package or an unsupported setting
            (`rlvr.config.backends.check_mlx_backend`), a bad lora_target_modules name.
        RlvrError: bad training rows; the model folder is not found.
    """
    if resume:
        raise ConfigError("--resume is not supported with backend: mlx (mlx-lm-lora saves no "
                          "optimizer state); start a new run, or set backend: trl")
    check_mlx_backend(cfg)
    from rlvr.train.mlx.model import use_system_blas

    use_system_blas()  # before mlx loads: OpenBLAS instead of the bundled reference BLAS
    import mlx.core as mx
    import numpy as np
    from mlx_lm_lora.trainer.grpo_trainer import GRPOTrainingArgs, train_grpo

    from rlvr.eval.generate import render_prompts
    from rlvr.models import resolve_model
    from rlvr.rewards import make_trl_rewards
    from rlvr.config.checks import reward_entries
    from rlvr.train.mlx.adapter import MLX_WEIGHTS, to_peft, write_mlx_config
    from rlvr.train.mlx.model import add_lora, block_linear_names, load_mlx
    from rlvr.train.mlx.rows import mlx_reward, mlx_rows

    run_dir = Path(run_dir)
    model_path = model_path or resolve_model(cfg.model)
    random.seed(cfg.seed)
    np.random.seed(cfg.seed)  # mlx-lm-lora shuffles its batches with numpy
    mx.random.seed(cfg.seed)  # LoRA initialisation and sampling
    model, tokenizer = load_mlx(model_path)
    lora = {**lora_parameters(cfg), "keys": lora_keys(cfg, block_linear_names(model))}
    adapter_entry = add_lora(model, lora)
    hf_tokenizer = tokenizer._tokenizer  # the transformers tokenizer inside mlx-lm's wrapper

    def encode(text: str) -> list[int]:
        return hf_tokenizer.encode(text, add_special_tokens=False)

    rows = mlx_rows(columns, lambda prompt: render_prompts(hf_tokenizer, [prompt])[0], encode)
    sink = MetricSink()
    trl_funcs, weights = make_trl_rewards(reward_entries(cfg), _observer(cfg, hf_tokenizer))
    rewards = [mlx_reward(f, cfg.num_generations, encode, sink) for f in trl_funcs]
    mlx_dir = run_dir / MLX_ADAPTER_DIR
    mlx_dir.mkdir(parents=True, exist_ok=True)
    write_mlx_config(mlx_dir, adapter_entry["lora_parameters"], adapter_entry["num_layers"])
    kwargs = grpo_kwargs(cfg, len(rows), max(len(r[0]) for r in rows), weights,
                         str(mlx_dir / MLX_WEIGHTS))
    steps = total_steps(cfg, len(rows))
    if len(rows) < kwargs["batch_size"]:
        raise ConfigError(f"backend: mlx needs at least {kwargs['batch_size']} training rows "
                          f"(prompts per step), got {len(rows)}; lower "
                          "per_device_train_batch_size x gradient_accumulation_steps")
    ref_model = None
    if cfg.beta > 0:  # KL to the base model needs a frozen copy (beta 0: none, no KL term)
        ref_model = load_mlx(model_path)[0]
        ref_model.freeze()
    history: list[dict[str, Any]] = []
    logger.info("mlx: %d rows, %d steps of %d prompts x %d completions, LoRA r=%d scale=%g "
                "on %s", len(rows), steps, kwargs["batch_size"], cfg.num_generations,
                lora["rank"], lora["scale"], ", ".join(lora["keys"]))
    start = time.perf_counter()
    train_grpo(model=model, ref_model=ref_model, tokenizer=tokenizer,
               optimizer=_optimizer(cfg, steps), train_dataset=rows, val_dataset=None,
               reward_funcs=rewards, args=GRPOTrainingArgs(**kwargs),
               training_callback=_callback(sink, [f.__name__ for f in rewards],
                                           Path(metrics_path) if metrics_path else None,
                                           history),
               end_answer_token="")
    train_s = time.perf_counter() - start
    adapter_dir = to_peft(mlx_dir, run_dir / "adapter", base_model=str(model_path))
    losses = [h["loss"] for h in history if h.get("loss") is not None]
    return MlxResult(adapter_dir, mlx_dir, steps,
                     sum(losses) / len(losses) if losses else float("nan"), history, train_s)


@dataclass
class _State:
    global_step: int = 0
    log_history: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class _TrainOutput:
    training_loss: float


class MlxTrainer:
    """The part of a TRL trainer's interface that `rlvr.train.job.run` reads, over MLX.

    `train()` runs `run_mlx`, then sets `model` to the transformers base model wrapped with
    the converted PEFT adapter (for the trained-model evaluation and `_save_adapter`) and
    `state` to the steps and logs. Built where run() builds `GRPOTrainer`:

        trainer = MlxTrainer(cfg, model, columns, run_dir, model_path, metrics_path)

    Args:
        cfg, columns, run_dir, model_path, metrics_path: see `run_mlx`.
        model: the transformers base model run() loaded (its weights are not changed).
    """

    def __init__(self, cfg: TrainConfig, model, columns: dict[str, list], run_dir: str | Path,
                 model_path: str, metrics_path: str | Path | None = None) -> None:
        self.cfg, self.model, self.columns = cfg, model, columns
        self.run_dir, self.model_path, self.metrics_path = Path(run_dir), model_path, metrics_path
        self.state = _State()
        self.result: MlxResult | None = None

    def train(self, resume_from_checkpoint: str | None = None) -> _TrainOutput:
        """Train (see `run_mlx`); a checkpoint to resume from is refused (ConfigError)."""
        from rlvr.models import apply_adapter

        self.result = run_mlx(self.cfg, self.columns, self.run_dir, self.model_path,
                              self.metrics_path, resume=resume_from_checkpoint is not None)
        self.state = _State(self.result.global_step, self.result.log_history)
        self.model = apply_adapter(self.model, str(self.result.adapter_dir))
        for name, param in self.model.named_parameters():  # the trained weights, as under
            param.requires_grad_("lora_" in name)           # TRL (run()'s adapter digest)
        return _TrainOutput(self.result.training_loss)
