"""Training configuration: a dataclass loaded from YAML, with CLI overrides.

Unknown keys are errors that name the closest valid key. `TrainConfig` fields mirror
TRL's `GRPOConfig` names where they mean the same thing (`num_generations`, `beta`,
`max_completion_length`, `loss_type`, ...), so a TRL user can read a config at a glance.
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rlvr.errors import ConfigError


def _f(default: Any, help: str) -> Any:  # noqa: A002 - mirrors TRL's `metadata={"help"}`
    if isinstance(default, (list, dict)):
        return field(default_factory=lambda: type(default)(default), metadata={"help": help})
    return field(default=default, metadata={"help": help})


@dataclass
class TrainConfig:
    """Everything `rlvr train` needs. Units are in the names or the help text."""

    # --- what to train on ---
    model: str | None = _f(None, "model spec: None/'default' (SmolLM2-135M-Instruct), a local "
                                 "HF folder, or a hub id")
    data: str | None = _f(None, "messages JSONL, a folder of splits (train/valid/test.jsonl), "
                                "SelfAware.json (split on the fly), or None for the built-in set")
    mix_builtin: bool = _f(False, "add the built-in dataset's train and test rows to the "
                                  "data's train and held-out rows: questions a small model "
                                  "can know next to the data's (tagged source: builtin)")
    selfaware_variant: str = _f("v3", "variant used when `data` is SelfAware.json (v1|v2|v3)")
    system_prompt: str | None = _f(None, "replace the data's system message in training and "
                                         "evaluation prompts; None = keep the data's")
    prompt_exemplars: list | None = _f(None, "in-context examples shown before every "
                                             "question (training and evaluation): "
                                             "[[question, answer], ...]")
    skip_bad_rows: bool = _f(False, "skip malformed data rows (counted) instead of failing")
    train_limit: int | None = _f(None, "use at most this many training rows of `data` (first "
                                       "N after a seeded shuffle, before mix_builtin adds "
                                       "the built-in rows); None = all")
    output_dir: str = _f("runs/selfaware", "run directory (adapter, reports, resolved config)")
    seed: int = _f(42, "seed for data order, sampling and initialisation")
    # --- reward ---
    reward: str = _f("selfaware", "registered reward name (see `rlvr score --help`)")
    reward_preset: str | None = _f("strict", "reward preset: 'strict' (hedges and listed "
                                             "candidates never pay) or 'seed' (the reference "
                                             "table, which always-hedge games); None = seed")
    reward_params: dict = _f({}, "per-reward parameter overrides, e.g. {wrong: -1.0}")
    reward_funcs: list | None = _f(None, "train on several weighted rewards: a list of "
                                         "{name, preset, weight, params, log_name}; None = "
                                         "[reward]. "
                                         "The report still scores with `reward`")
    # --- GRPO (names as in trl.GRPOConfig) ---
    backend: str = _f("trl", "training engine: trl (TRL GRPOTrainer + PEFT) | mlx (mlx-lm-lora "
                             "GRPO on MLX, `pip install -e '.[mlx]'`; see docs/mlx.md)")
    per_device_train_batch_size: int = _f(1, "prompts x generations per device per micro-step")
    gradient_accumulation_steps: int = _f(16, "micro-steps per optimizer step")
    num_train_epochs: float = _f(1.0, "passes over the training rows")
    max_steps: int = _f(-1, "optimizer steps; -1 = derived from num_train_epochs")
    learning_rate: float = _f(5e-5, "peak learning rate")
    lr_scheduler_type: str = _f("cosine", "transformers scheduler name")
    warmup_ratio: float = _f(0.05, "share of steps with linear warm-up")
    num_generations: int = _f(2, "completions per prompt (G, the group size)")
    max_completion_length: int = _f(128, "tokens generated per completion during training")
    beta: float = _f(0.1, "KL coefficient against the reference model (0 = no reference)")
    epsilon: float = _f(0.2, "PPO clip range (lower); see trl.GRPOConfig.epsilon")
    temperature: float = _f(0.7, "sampling temperature for training generations")
    top_p: float = _f(1.0, "nucleus sampling for training generations")
    loss_type: str = _f("dapo", "TRL loss aggregation: grpo (sequence-mean), dapo "
                                "(token-mean), dr_grpo, bnpo")
    scale_rewards: str = _f("group", "advantage scaling: group | batch | none")
    gradient_checkpointing: bool = _f(False, "recompute activations to save memory (slower)")
    bf16: bool | None = _f(None, "bf16 mixed precision; None = on when a bf16 GPU is present")
    # --- hardware (rlvr.hardware: CUDA-only options are refused on other machines) ---
    quantization: str = _f("none", "none | nf4: load the base model in 4-bit NF4 with double "
                                   "quantization (QLoRA; CUDA + bitsandbytes)")
    attn_implementation: str = _f("auto", "auto | sdpa | eager | flash_attention_2; auto = "
                                          "flash attention 2 when installed on CUDA with 16-bit "
                                          "weights, else sdpa")
    use_vllm: bool = _f(False, "generate with vLLM through TRL (needs vllm; see vllm_mode)")
    vllm_mode: str = _f("colocate", "colocate (vLLM in the training process, one GPU) | "
                                    "server (a separate `trl vllm-serve`)")
    vllm_server_host: str = _f("0.0.0.0", "vllm_mode server: host of `trl vllm-serve`")
    vllm_server_port: int = _f(8000, "vllm_mode server: port of `trl vllm-serve`")
    vllm_gpu_memory_utilization: float = _f(0.3, "vllm_mode colocate: share of GPU memory "
                                                 "vLLM may take, in (0, 1]")
    logging_steps: int = _f(1, "log every N optimizer steps")
    save_steps: int = _f(25, "checkpoint every N optimizer steps (for --resume); see also "
                             "save_minutes")
    save_minutes: float | None = _f(10.0, "also checkpoint when this many minutes of training "
                                          "passed since the last save; None = steps only")
    save_total_limit: int = _f(2, "complete checkpoints kept (older ones are deleted)")
    report_to: list | str = _f(["tensorboard"], "trackers for TRL's metrics: tensorboard "
                                               "(offline, RUN/tensorboard), wandb (offline "
                                               "unless WANDB_MODE), trackio, mlflow, ... or "
                                               "none; metrics.jsonl is always written")
    run_name: str | None = _f(None, "run name in the trackers; None = "
                                    "<reward>-grpo-<model>-<UTC time>")
    # --- LoRA (PEFT) ---
    lora_r: int = _f(8, "LoRA rank")
    lora_alpha: int = _f(8, "LoRA alpha (scale = alpha / r)")
    lora_dropout: float = _f(0.05, "LoRA dropout")
    lora_target_modules: str | list = _f("all-linear", "PEFT target_modules")
    # --- before/after evaluation ---
    eval_split: str = _f("test", "held-out split to evaluate on")
    eval_limit: int | None = _f(None, "evaluate at most N held-out questions; None = all")
    eval_batch_size: int = _f(16, "prompts per generation batch during evaluation")
    eval_max_new_tokens: int | None = _f(None, "tokens per eval answer; None = "
                                               "max_completion_length")
    bootstrap_samples: int = _f(2000, "resamples for the paired 95% bootstrap interval")
    eval_tasks: list | None = _f(None, "cross-task evaluation after training (base and "
                                       "adapter), e.g. [gsm8k, triviaqa]; see `rlvr eval --list`")
    eval_tasks_limit: int | None = _f(20, "questions per cross-eval task; None = all")
    eval_data_dir: str | None = _f(None, "folder with eval task files in the layout "
                                         "gsm8k/test.jsonl, ... (see README); default: "
                                         "$RLVR_DATA_DIR, else the Hugging Face Hub, else the "
                                         "subsets packaged with rlvr")
    skip_eval: bool = _f(False, "train only; no before/after report")
    # --- knowledge-aware evaluation (rlvr.eval.knowledge) ---
    knowledge_samples: int = _f(1, "K: base-model answers per held-out answerable question "
                                   "used to decide whether the base model knows it; 1 with "
                                   "knowledge_temperature 0 = its greedy answer")
    knowledge_temperature: float = _f(0.0, "sampling temperature of those K answers (0 = "
                                           "greedy, only with K = 1)")
    knowledge_threshold: float = _f(0.5, "known when correct answers / K >= this, in (0, 1]")
    train_answerable: str = _f("all", "all | known | label: train on every answerable "
                                      "question; only on those the base model answers "
                                      "correctly (labelled like the held-out ones, before "
                                      "training); or on all with a `known` column for the "
                                      "reward's abstain_known")
    max_unanswerable_share: float | None = _f(None, "cap the share of unanswerable training "
                                                    "rows (seeded subsample, after "
                                                    "train_answerable); None = keep all")
    # --- preflight (rlvr.rewards.preflight) on the training rows, before the model loads ---
    preflight: str = _f("refuse", "refuse | warn | off: what to do when a degenerate policy "
                                  "(always abstain, always hedge, list candidates, repeat the "
                                  "question, ...) scores within preflight_margin of gold")
    preflight_margin: float = _f(0.1, "closeness to gold, as a fraction of the score range")
    # --- live diagnostics and alarms (rlvr.train.diagnostics) ---
    diagnostics: bool = _f(True, "log calibration/* metrics per step and check the alarms")
    alarm_over_abstention: float = _f(0.9, "collapse alarm: abstained / answerable completions "
                                           "above this")
    alarm_hedge_rate: float = _f(0.5, "hedging alarm: hedged / scored completions above this")
    alarm_zero_std: float = _f(0.95, "saturation alarm: share of groups with zero reward "
                                     "spread at or above this")
    alarm_truncation: float = _f(0.9, "length alarm: share of completions cut at "
                                      "max_completion_length above this")
    alarm_patience: int = _f(3, "consecutive logged steps a condition must hold to fire")
    stop_on_alarm: bool = _f(False, "stop training cleanly at the first alarm (adapter saved, "
                                    "report written)")
    # --- curriculum (rlvr.train.curriculum) ---
    curriculum: bool = _f(False, "retire prompts whose last curriculum_window groups were all "
                                 "solved (zero spread, no learning signal) and draw the others; "
                                 "retired prompts go to RUN/curriculum_retired.json")
    curriculum_window: int = _f(2, "groups per prompt that must all be solved (or failed) before "
                                   "it retires")
    curriculum_solved_reward: float | None = _f(None, "a completion is solved at this total "
                                                      "(weighted) reward or above; None = the top "
                                                      "of the rewards' declared score ranges")
    curriculum_retire_failed: bool = _f(False, "also retire prompts whose last "
                                               "curriculum_window groups all failed")
    curriculum_failed_reward: float | None = _f(None, "a completion failed at this total reward "
                                                      "or below; None = the bottom of the "
                                                      "rewards' declared score ranges")
    num_threads: int | None = _f(None, "torch CPU threads; None = torch's default")

    def __post_init__(self) -> None:
        self._check_types()
        if self.num_generations < 2:
            raise ConfigError("num_generations must be >= 2: a group of one has no "
                              "relative advantage (set num_generations: 2 or more)")
        if self.max_completion_length < 1:
            raise ConfigError("max_completion_length must be a positive number of tokens")
        if self.loss_type not in ("grpo", "dapo", "dr_grpo", "bnpo"):
            raise ConfigError(f"loss_type {self.loss_type!r} is not one of grpo, dapo, "
                              "dr_grpo, bnpo")
        if not 0 <= self.warmup_ratio < 1:
            raise ConfigError(f"warmup_ratio must be in [0, 1), got {self.warmup_ratio}")
        self._check_rewards()
        self._check_ranges()
        if self.backend not in ("trl", "mlx"):
            raise ConfigError(f"backend must be trl or mlx, not {self.backend!r}")
        if self.backend == "mlx":  # packages and supported settings, before any model loads
            from rlvr.train.mlx_settings import check_mlx_backend

            check_mlx_backend(self)
        if self.knowledge_samples < 1:
            raise ConfigError("knowledge_samples must be >= 1")
        if self.knowledge_temperature < 0 or (self.knowledge_samples > 1
                                              and self.knowledge_temperature == 0):
            raise ConfigError("knowledge_temperature must be >= 0, and > 0 when "
                              "knowledge_samples > 1 (greedy answers would all be the same)")
        if not 0 < self.knowledge_threshold <= 1:
            raise ConfigError(f"knowledge_threshold must be in (0, 1], got "
                              f"{self.knowledge_threshold}")
        if self.train_answerable not in ("all", "known", "label"):
            raise ConfigError(f"train_answerable must be all, known or label, not "
                              f"{self.train_answerable!r}")
        if self.max_unanswerable_share is not None and not 0 < self.max_unanswerable_share < 1:
            raise ConfigError("max_unanswerable_share must be in (0, 1) or null, got "
                              f"{self.max_unanswerable_share}")
        if self.preflight not in ("refuse", "warn", "off"):
            raise ConfigError(f"preflight must be refuse, warn or off, not {self.preflight!r}")
        if self.alarm_patience < 1:
            raise ConfigError("alarm_patience must be >= 1 logged step")
        if self.selfaware_variant not in ("v1", "v2", "v3"):
            raise ConfigError(f"selfaware_variant must be v1, v2 or v3, not "
                              f"{self.selfaware_variant!r}")

    def _check_types(self) -> None:
        """Each value has its field's annotated type (`int`, `float`, `bool`, `str`, `list`,
        `dict`, or None where the annotation allows it), before any range check compares
        it: ints are accepted (and stored) as floats, floats must be finite, a bool is not
        a number. `reward_funcs` may also be one mapping and `eval_tasks` a string (both
        normalised later)."""
        for f in dataclasses.fields(self):
            kinds = [k.strip() for k in str(f.type).split("|")]
            value = getattr(self, f.name)
            if _has_kind(value, kinds) or isinstance(value, _ALSO_ACCEPTED.get(f.name, ())):
                if "float" in kinds and type(value) is int:
                    setattr(self, f.name, float(value))
                continue
            raise ConfigError(_type_message(f.name, value))
        for key in ("output_dir", "model", "data", "run_name", "eval_data_dir", "reward"):
            value = getattr(self, key)
            if isinstance(value, str) and not value.strip():
                spec = self.__dataclass_fields__[key]
                fix = ("omit it (or set null) for the default" if "None" in str(spec.type)
                       else f"set it, e.g. {key}: {spec.default}")
                raise ConfigError(f"{key} is empty text; {fix}")
        modules = self.lora_target_modules
        if not (modules.strip() if isinstance(modules, str) else modules and all(
                isinstance(m, str) and m.strip() for m in modules)):
            raise ConfigError(f"lora_target_modules must be a module name such as all-linear or "
                              f"a list of names such as [q_proj, v_proj], got {modules!r}")

    def _check_ranges(self) -> None:
        """Ranges of the GRPO, LoRA and evaluation settings, and TRL's batch rule, each with
        the fix in the message (all before any model or data loads)."""
        for key, limit in UPPER_LIMITS.items():
            value = getattr(self, key)
            if value is not None and value > limit:
                raise ConfigError(f"{key} = {value} is above {limit:,}, far more than any "
                                  f"real run uses (a typo?); set a smaller value")
        for key in ("eval_limit", "train_limit", "eval_tasks_limit", "eval_max_new_tokens",
                    "num_threads", "logging_steps"):
            value = getattr(self, key)
            if value is not None and value < 1:
                null = " or null" if "None" in FIELD_TYPES[key] else ""
                raise ConfigError(f"{key} must be >= 1{null}, got {value!r}")
        if not 0 < self.num_train_epochs:
            raise ConfigError(f"num_train_epochs must be > 0, got {self.num_train_epochs!r}")
        for key in ("alarm_over_abstention", "alarm_hedge_rate", "alarm_zero_std",
                    "alarm_truncation", "preflight_margin"):
            if not 0 <= getattr(self, key) <= 1:
                raise ConfigError(f"{key} is a share and must be in [0, 1], got "
                                  f"{getattr(self, key)!r}")
        if not 0 <= self.seed < 2 ** 32:
            raise ConfigError(f"seed must be in [0, 2**32 - 1] (numpy's range), got {self.seed}")
        positive = {"lora_r": self.lora_r, "lora_alpha": self.lora_alpha,
                    "learning_rate": self.learning_rate, "temperature": self.temperature,
                    "per_device_train_batch_size": self.per_device_train_batch_size,
                    "gradient_accumulation_steps": self.gradient_accumulation_steps,
                    "eval_batch_size": self.eval_batch_size, "save_steps": self.save_steps,
                    "save_total_limit": self.save_total_limit,
                    "save_minutes": 1 if self.save_minutes is None else self.save_minutes,
                    "bootstrap_samples": self.bootstrap_samples}
        for key, value in positive.items():
            if not value > 0:
                raise ConfigError(f"{key} must be > 0, got {value!r}")
        for key, value in {"beta": self.beta, "epsilon": self.epsilon}.items():
            if value < 0:
                raise ConfigError(f"{key} must be >= 0, got {value!r}")
        if not 0 <= self.lora_dropout < 1:
            raise ConfigError(f"lora_dropout must be in [0, 1), got {self.lora_dropout!r}")
        if not 0 < self.top_p <= 1:
            raise ConfigError(f"top_p must be in (0, 1], got {self.top_p!r}")
        if self.curriculum_window < 1:
            raise ConfigError(f"curriculum_window must be >= 1 group, got "
                              f"{self.curriculum_window!r}")
        if (self.curriculum_solved_reward is not None and self.curriculum_failed_reward is not None
                and self.curriculum_failed_reward >= self.curriculum_solved_reward):
            raise ConfigError(f"curriculum_failed_reward ({self.curriculum_failed_reward}) must be "
                              f"below curriculum_solved_reward ({self.curriculum_solved_reward})")
        for key, allowed in {"quantization": ("none", "nf4"),
                             "attn_implementation": ("auto", "sdpa", "eager",
                                                     "flash_attention_2"),
                             "vllm_mode": ("colocate", "server")}.items():
            if getattr(self, key) not in allowed:
                raise ConfigError(f"{key} must be one of {', '.join(allowed)}, not "
                                  f"{getattr(self, key)!r}")
        if not 0 < self.vllm_gpu_memory_utilization <= 1:
            raise ConfigError(f"vllm_gpu_memory_utilization must be in (0, 1], got "
                              f"{self.vllm_gpu_memory_utilization!r}")
        if self.scale_rewards not in ("group", "batch", "none"):
            raise ConfigError(f"scale_rewards must be group, batch or none, not "
                              f"{self.scale_rewards!r}")
        if self.max_steps == 0 or self.max_steps < -1:
            raise ConfigError(f"max_steps must be >= 1, or -1 for num_train_epochs; got "
                              f"{self.max_steps}")
        processes = int(os.environ.get("WORLD_SIZE", "1"))  # set by accelerate launch
        batch = self.per_device_train_batch_size * self.gradient_accumulation_steps * processes
        if batch % self.num_generations:
            raise ConfigError(
                f"the generation batch (per_device_train_batch_size x gradient_accumulation_"
                f"steps x processes = {self.per_device_train_batch_size} x "
                f"{self.gradient_accumulation_steps} x {processes} = {batch}) must be divisible by "
                f"num_generations ({self.num_generations}), as TRL requires; e.g. set "
                f"per_device_train_batch_size: {self.num_generations} or num_generations: "
                f"{_divisor(batch, self.num_generations)}")
        from rlvr.train.trackers import check_report_to

        self.report_to = check_report_to(self.report_to) or ["none"]
        if isinstance(self.eval_tasks, str):  # "gsm8k" or "gsm8k,triviaqa", not its letters
            self.eval_tasks = [t.strip() for t in self.eval_tasks.split(",") if t.strip()]
        if self.eval_tasks is not None:
            from rlvr.errors import RlvrError
            from rlvr.eval.tasks import get_task

            if not isinstance(self.eval_tasks, list):
                raise ConfigError(f"eval_tasks must be a list of task names, got "
                                  f"{self.eval_tasks!r}")
            for i, name in enumerate(self.eval_tasks):
                try:
                    get_task(str(name))
                except RlvrError as exc:
                    raise ConfigError(f"eval_tasks: {exc}") from None
                if name in self.eval_tasks[:i]:
                    raise ConfigError(f"eval_tasks names {name!r} more than once; name each "
                                      "task once")

    def _check_rewards(self) -> None:
        """Build the reward functions once, so a bad name, preset or parameter fails here,
        before any data or model loads (`rlvr.rewards.base.RewardSpec.check_params`)."""
        from rlvr.errors import RlvrError
        from rlvr.rewards import make_trl_rewards

        if isinstance(self.reward_funcs, dict):  # one entry given as a mapping
            self.reward_funcs = [self.reward_funcs]
        if self.reward_funcs is not None and not isinstance(self.reward_funcs, list):
            raise ConfigError(f"reward_funcs must be a list of entries such as "
                              f"[{{name: selfaware, weight: 1.0}}], got {self.reward_funcs!r}")
        if not isinstance(self.reward_params, dict):
            raise ConfigError(f"reward_params must be a mapping such as {{wrong: -1.0}}, got "
                              f"{self.reward_params!r}")
        where = "reward_funcs" if self.reward_funcs is not None else "reward"
        entries = self.reward_funcs if self.reward_funcs is not None else [
            {"name": self.reward, "preset": self.reward_preset, "params": self.reward_params}]
        try:
            make_trl_rewards(entries)
        except RlvrError as exc:
            raise ConfigError(f"{where}: {exc}") from None

    def to_dict(self) -> dict[str, Any]:
        """Return the config as a plain dict (what `resolved_config.yaml` holds)."""
        return dataclasses.asdict(self)


# Upper limits that catch typos (extra zeros) before a model loads; far above real settings.
UPPER_LIMITS = {
    "max_completion_length": 131_072, "eval_max_new_tokens": 131_072,  # tokens: 128k context
    "num_generations": 1024, "per_device_train_batch_size": 65_536,
    "gradient_accumulation_steps": 65_536, "eval_batch_size": 65_536,
    "knowledge_samples": 1024, "learning_rate": 1.0,
}
_KIND_WORDS = {"int": "an integer", "float": "a number", "bool": "true or false",
               "str": "text", "list": "a list", "dict": "a mapping", "None": "null"}
_ALSO_ACCEPTED = {"reward_funcs": dict, "eval_tasks": str}
_EXAMPLES = {"reward_params": "{wrong: -1.0}", "reward_funcs": "[{name: selfaware, weight: 1.0}]",
             "lora_target_modules": "[q_proj, v_proj]", "eval_tasks": "[gsm8k, triviaqa]",
             "report_to": "[tensorboard]", "prompt_exemplars": "[[question, answer], ...]"}


def _type_message(key: str, value: Any) -> str:
    """`key must be <kinds> such as <example>, got <value>`: what the field takes, with an
    example (the default when it is one) as the fix."""
    kinds = [k.strip() for k in FIELD_TYPES[key].split("|")]
    want = " or ".join(_KIND_WORDS.get(k, k) for k in kinds)
    if isinstance(value, float) and "float" in kinds:
        want = "a finite number"
    default = TrainConfig.__dataclass_fields__[key].default
    example = _EXAMPLES.get(key) or (None if default in (None, dataclasses.MISSING)
                                     or isinstance(default, bool) else default)
    hint = f" such as {example}" if example is not None else ""
    if "str" in kinds and value is not None and not isinstance(value, (list, dict)):
        hint += " (quote a value to keep it as text)"
    return f"{key} must be {want}{hint}, got {value!r}"


def _has_kind(value: Any, kinds: list[str]) -> bool:
    """Whether `value` is one of the annotation's kinds ("int", "float", "None", ...)."""
    if isinstance(value, bool):  # bool is an int subclass: only a bool field takes it
        return "bool" in kinds
    if isinstance(value, int) and ("int" in kinds or "float" in kinds):
        try:
            return "int" in kinds or math.isfinite(float(value))
        except OverflowError:  # an int too large for a float
            return False
    if isinstance(value, float):
        return "float" in kinds and math.isfinite(value)
    return any({"None": value is None, "str": isinstance(value, str),
                "list": isinstance(value, list), "dict": isinstance(value, dict)}.get(k, False)
               for k in kinds)


def _divisor(batch: int, wanted: int) -> int:
    """The group size >= 2 nearest to `wanted` that divides `batch` (for the fix hint)."""
    options = [g for g in range(2, batch + 1) if batch % g == 0] or [batch]
    return min(options, key=lambda g: abs(g - wanted))


FIELD_NAMES = tuple(f.name for f in dataclasses.fields(TrainConfig))
FIELD_TYPES = {f.name: str(f.type) for f in dataclasses.fields(TrainConfig)}


def _coerce(key: str, value: Any) -> Any:
    """Convert YAML strings like "5e-5" (which YAML 1.1 reads as text) to the field type."""
    kind = FIELD_TYPES[key].split("|")[0].strip()
    if value is None or not isinstance(value, str):
        number = isinstance(value, int) and not isinstance(value, bool)
        return float(value) if kind == "float" and number else value
    try:
        if kind == "float":
            return float(value)
        if kind == "int":
            return int(value)
        if kind == "bool":
            return {"true": True, "false": False}[value.strip().lower()]
    except (ValueError, KeyError):
        raise ConfigError(_type_message(key, value)) from None
    return value


def _check_keys(keys, source: str) -> None:
    for key in keys:
        if key not in FIELD_NAMES:
            close = difflib.get_close_matches(key, FIELD_NAMES, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise ConfigError(f"{source}: unknown key {key!r}{hint} "
                              "(see `rlvr train --list-keys` for all keys)")


def parse_override(text: str) -> tuple[str, Any]:
    """Parse a `key=value` override; the value is read as YAML (numbers, bools, lists),
    or kept as plain text when it is not valid YAML.

    Raises:
        ConfigError: no `=` in the text.
    """
    import yaml

    if "=" not in text:
        raise ConfigError(f"--set expects key=value, got {text!r}")
    key, raw = text.split("=", 1)
    try:
        value = yaml.safe_load(raw) if raw.strip() else None
    except yaml.YAMLError:  # not YAML (e.g. unbalanced quotes): take the text as it is
        value = raw
    return key.strip(), value


def _read_config_file(path: Path) -> Any:
    """Parse a YAML/JSON config file; every problem is one line naming `path[:line]`.

    Raises:
        ConfigError: missing file, a folder, not UTF-8, empty (or only comments), invalid
            YAML, or a key given twice in one mapping (YAML would keep the last silently).
    """
    import yaml

    if path.is_dir():
        raise ConfigError(f"--config {path} is a folder; pass a YAML file such as "
                          "configs/selfaware_grpo_cpu.yaml")
    if not path.is_file():
        raise ConfigError(f"config file {path} not found")
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise ConfigError(f"{path}:{line}: not UTF-8 text; save the file as UTF-8") from None

    class UniqueKeyLoader(yaml.SafeLoader):
        def construct_mapping(self, node, deep=False):
            seen: dict[str, int] = {}
            for key_node, _ in node.value:
                if isinstance(key_node, yaml.ScalarNode) and key_node.value != "<<":
                    line = key_node.start_mark.line + 1
                    if key_node.value in seen:
                        raise ConfigError(f"{path}:{line}: key {key_node.value!r} is given "
                                          f"twice (also on line {seen[key_node.value]}); "
                                          "keep one")
                    seen[key_node.value] = line
            return super().construct_mapping(node, deep)

    try:
        loaded = yaml.load(text, Loader=UniqueKeyLoader)  # noqa: S506 - a SafeLoader
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark is not None else str(path)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ConfigError(f"{where}: invalid YAML ({problem}); fix that line") from None
    if loaded is None:
        raise ConfigError(f"{path}: the config file is empty; write settings into it (see "
                          "configs/selfaware_grpo_cpu.yaml) or omit --config for the defaults")
    return loaded


def load_config(path: str | Path | None = None, overrides: dict[str, Any] | None = None) -> TrainConfig:
    """Build a TrainConfig from a YAML/JSON file and overrides (overrides win).

    Args:
        path: YAML or JSON file with a mapping of TrainConfig keys, or the reference
            project's layout with a `selfaware_grpo` section (`rlvr.config_reference`),
            or None for the defaults.
        overrides: extra key/values (from CLI flags and `--set`); None values from CLI
            flags that were not given must be filtered out by the caller.
    Raises:
        ConfigError: missing, empty or unreadable file, invalid YAML, a key given twice,
            a non-mapping file, an unknown key (with the closest valid key), or an
            invalid value (type, range, reward, tracker, task; see `TrainConfig`).
    """
    values: dict[str, Any] = {}
    if path is not None:
        path = Path(path)
        loaded = _read_config_file(path)
        if not isinstance(loaded, dict):
            raise ConfigError(f"{path}: expected a mapping of keys to values (key: value "
                              f"lines), got {type(loaded).__name__}")
        if "selfaware_grpo" in loaded:  # the reference project's JSON layout
            from rlvr.config_reference import reference_layout

            loaded = reference_layout(loaded, str(path), FIELD_NAMES)
        _check_keys(loaded, str(path))
        values.update(loaded)
    if overrides:
        _check_keys(overrides, "override")
        values.update(overrides)
    try:
        return TrainConfig(**{k: _coerce(k, v) for k, v in values.items()})
    except TypeError as exc:
        raise ConfigError(f"invalid config: {exc}") from None
