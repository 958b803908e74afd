"""The checks of a TrainConfig: types, ranges, names, TRL's batch rule (`check_config`).

They run when a config is built (`TrainConfig.__post_init__`), before any data or model
loads; each error is one line that names the setting and says the fix.
"""

from __future__ import annotations

import dataclasses
import math
import os
from typing import Any

from rlvr.config.reward_setup import (  # re-exported (`__all__`): callers import them here
    CALIBRATION_REWARDS,
    check_rewards,
    is_task_run,
    reward_entries,
    reward_label,
    reward_names,
    task_label,
)
from rlvr.config.trl_keys import check_trl_section
from rlvr.errors import ConfigError

__all__ = ["CALIBRATION_REWARDS", "METHODS", "UPPER_LIMITS", "check_config", "check_cross_check",
           "check_ranges", "check_rewards", "check_task_run", "check_types", "is_task_run",
           "reward_entries", "reward_label", "reward_names", "task_label", "type_message"]

# training methods (`method`), each one stage of the main job (rlvr.train.job)
METHODS = ("grpo", "sft", "dpo")
UPPER_LIMITS = {
    "max_completion_length": 131_072, "eval_max_new_tokens": 131_072,  # tokens: 128k context
    "num_generations": 1024, "per_device_train_batch_size": 65_536,
    "gradient_accumulation_steps": 65_536, "eval_batch_size": 65_536,
    "knowledge_samples": 1024, "train_knowledge_samples": 1024, "learning_rate": 1.0,
    "eval_num_samples": 1024,
}
_KIND_WORDS = {"int": "an integer", "float": "a number", "bool": "true or false",
               "str": "text", "list": "a list", "dict": "a mapping", "None": "null"}
_ALSO_ACCEPTED = {"reward_funcs": dict, "eval_tasks": str, "cross_check": str,
                  "trl": type(None)}
_EXAMPLES = {"reward_params": "{wrong: -1.0}", "reward_funcs": "[{name: selfaware, weight: 1.0}]",
             "lora_target_modules": "[q_proj, v_proj]", "eval_tasks": "[gsm8k, triviaqa]",
             "report_to": "[tensorboard]", "prompt_exemplars": "[[question, answer], ...]",
             "cross_check": "[gsm8k, triviaqa, humaneval, mbpp]",
             "trl": "{epsilon_high: 0.28}"}


# TRL 1.16 GRPOConfig.loss_type values; how each aggregates its tokens: docs/training.md
LOSS_TYPES = ("dapo", "grpo", "dr_grpo", "bnpo", "cispo", "sapo", "luspo", "vespo")


def type_message(fields: dict, key: str, value: Any) -> str:
    """`key must be <kinds> such as <example>, got <value>`: what the field takes, with an
    example (the default when it is one) as the fix. `fields` is the dataclass's
    `__dataclass_fields__`."""
    kinds = [k.strip() for k in str(fields[key].type).split("|")]
    want = " or ".join(_KIND_WORDS.get(k, k) for k in kinds)
    if isinstance(value, float) and "float" in kinds:
        want = "a finite number"
    default = fields[key].default
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


def check_config(cfg) -> None:
    """Every check of a TrainConfig, in order (called by `TrainConfig.__post_init__`).

    Raises:
        ConfigError: the first bad setting, one line with the fix.
    """
    check_types(cfg)
    check_trl_section(cfg)
    if cfg.num_generations < 2:
        raise ConfigError("num_generations must be >= 2: a group of one has no "
                          "relative advantage (set num_generations: 2 or more)")
    if cfg.max_completion_length < 1:
        raise ConfigError("max_completion_length must be a positive number of tokens")
    if cfg.loss_type not in LOSS_TYPES:
        raise ConfigError(f"loss_type {cfg.loss_type!r} is not one of "
                          f"{', '.join(LOSS_TYPES)} (TRL 1.16's losses)")
    if not 0 <= cfg.warmup_ratio < 1:
        raise ConfigError(f"warmup_ratio must be in [0, 1), got {cfg.warmup_ratio}")
    check_rewards(cfg)
    check_ranges(cfg)
    check_cross_check(cfg)
    if cfg.decision_samples < 0 or cfg.decision_temperature < 0:
        raise ConfigError("decision_samples and decision_temperature must be >= 0")
    if cfg.decision_samples > 1 and cfg.decision_temperature == 0:
        raise ConfigError("decision_samples > 1 needs decision_temperature > 0 (greedy "
                          "samples are identical)")
    if cfg.dpo_samples < 1 or cfg.dpo_beta <= 0:
        raise ConfigError("dpo_samples must be >= 1 and dpo_beta > 0")
    if cfg.method not in METHODS:
        raise ConfigError(f"method must be one of {', '.join(METHODS)}, not {cfg.method!r}")
    if cfg.method != "grpo" and cfg.backend != "trl":
        raise ConfigError(f"method {cfg.method} trains with TRL only; set backend: trl")
    if cfg.method != "grpo" and cfg.reward != "selfaware":
        raise ConfigError(f"method {cfg.method} builds its targets from the selfaware rows "
                          f"(gold answers, answerable or not); with reward {cfg.reward!r} "
                          "use method: grpo")
    if cfg.backend not in ("trl", "mlx"):
        raise ConfigError(f"backend must be trl or mlx, not {cfg.backend!r}")
    if cfg.backend == "mlx":  # packages and supported settings, before any model loads
        from rlvr.config.backends import check_mlx_backend

        check_mlx_backend(cfg)
    if cfg.knowledge_samples < 1:
        raise ConfigError("knowledge_samples must be >= 1")
    if cfg.rollout_log not in ("jsonl", "gzip", "none", None):
        raise ConfigError(f"rollout_log must be jsonl, gzip or none, got {cfg.rollout_log!r}")
    if cfg.eval_steps is not None and cfg.eval_steps < 1:
        raise ConfigError(f"eval_steps must be >= 1 or null, got {cfg.eval_steps}")
    if cfg.eval_steps_limit < 1:
        raise ConfigError(f"eval_steps_limit must be >= 1 row, got {cfg.eval_steps_limit}")
    if cfg.keep_best is not None and not cfg.eval_steps:
        raise ConfigError(f"keep_best: {cfg.keep_best} needs eval_steps (how often to "
                          "evaluate), e.g. eval_steps: 5")
    check_keep_best(cfg)
    if cfg.trained_model is not None and (cfg.skip_eval or cfg.eval_steps):
        raise ConfigError("trained_model evaluates a checkpoint instead of training; "
                          "skip_eval and eval_steps belong to a training run: drop them")
    if cfg.eval_steps and cfg.skip_eval:
        raise ConfigError("eval_steps evaluates during training, skip_eval turns evaluation "
                          "off; drop one of them")
    if cfg.eval_num_samples < 1:
        raise ConfigError(f"eval_num_samples must be >= 1, got {cfg.eval_num_samples}")
    if cfg.knowledge_temperature < 0 or (cfg.knowledge_samples > 1
                                          and cfg.knowledge_temperature == 0):
        raise ConfigError("knowledge_temperature must be >= 0, and > 0 when "
                          "knowledge_samples > 1 (greedy answers would all be the same)")
    train_k = cfg.knowledge_samples if cfg.train_knowledge_samples is None \
        else cfg.train_knowledge_samples
    train_t = cfg.knowledge_temperature if cfg.train_knowledge_temperature is None \
        else cfg.train_knowledge_temperature
    if train_k < 1 or train_t < 0 or (train_k > 1 and train_t == 0):
        raise ConfigError(f"train_knowledge_samples {train_k} at train_knowledge_temperature "
                          f"{train_t:g}: K must be >= 1, the temperature >= 0, and > 0 when "
                          "K > 1 (greedy answers would all be the same)")
    if not (isinstance(cfg.max_known_retention_drop, (int, float))
            and 0 <= cfg.max_known_retention_drop <= 1):
        raise ConfigError(f"max_known_retention_drop must be a share in [0, 1] (e.g. 0.15), "
                          f"got {cfg.max_known_retention_drop!r}")
    if not 0 < cfg.knowledge_threshold <= 1:
        raise ConfigError(f"knowledge_threshold must be in (0, 1], got "
                          f"{cfg.knowledge_threshold}")
    if cfg.train_answerable not in ("all", "known", "label"):
        raise ConfigError(f"train_answerable must be all, known or label, not "
                          f"{cfg.train_answerable!r}")
    if cfg.max_unanswerable_share is not None and not 0 < cfg.max_unanswerable_share < 1:
        raise ConfigError("max_unanswerable_share must be in (0, 1) or null, got "
                          f"{cfg.max_unanswerable_share}")
    if cfg.preflight not in ("refuse", "warn", "off"):
        raise ConfigError(f"preflight must be refuse, warn or off, not {cfg.preflight!r}")
    if cfg.alarm_patience < 1:
        raise ConfigError("alarm_patience must be >= 1 logged step")
    if cfg.selfaware_variant not in ("v1", "v2", "v3"):
        raise ConfigError(f"selfaware_variant must be v1, v2 or v3, not "
                          f"{cfg.selfaware_variant!r}")
    check_task_run(cfg)


def check_task_run(cfg) -> None:
    """`data_format`, `kshot_eval` / `kshot_limit`, and settings that only a calibration
    run can use, each refused with the fix."""
    from rlvr.tasks.rows import formats

    if cfg.data_format not in formats():
        raise ConfigError(f"data_format must be one of {', '.join(formats())}, not "
                          f"{cfg.data_format!r}")
    if cfg.kshot_limit is not None and cfg.kshot_limit < 1:
        raise ConfigError(f"kshot_limit must be >= 1 or null, got {cfg.kshot_limit!r}")
    if cfg.kshot_eval is not None:
        shots = cfg.kshot_eval
        if not shots or not all(isinstance(k, int) and not isinstance(k, bool) and 0 <= k <= 64
                                for k in shots) or len(set(shots)) != len(shots):
            raise ConfigError(f"kshot_eval must be a list of distinct exemplar counts in "
                              f"[0, 64] such as [0, 2, 4, 8], or null, got {shots!r}")
        if "gsm8k_correctness" not in reward_names(cfg):
            raise ConfigError("kshot_eval evaluates on GSM8K and needs gsm8k_correctness among "
                              "the rewards; add it to reward_funcs or remove kshot_eval")
    if cfg.advantage_baseline not in ("group", "answers"):
        raise ConfigError(f"advantage_baseline must be group or answers, not "
                          f"{cfg.advantage_baseline!r}")
    if cfg.advantage_baseline == "answers":
        if is_task_run(cfg) or cfg.method != "grpo" or cfg.backend != "trl":
            raise ConfigError("advantage_baseline: answers reads which completions abstained "
                              "from a calibration reward (selfaware or abstention) in GRPO "
                              "with backend: trl; set advantage_baseline: group")
        aggregation = (cfg.trl or {}).get("multi_objective_aggregation", "sum_then_normalize")
        if aggregation != "sum_then_normalize":
            raise ConfigError("advantage_baseline: answers replaces TRL's sum_then_normalize "
                              f"advantages, not {aggregation!r}; remove "
                              "trl.multi_objective_aggregation or set advantage_baseline: group")
    if is_task_run(cfg) and cfg.trained_model is not None:
        raise ConfigError(f"trained_model: a checkpoint is judged by the calibration report "
                          f"(selfaware, abstention); a {cfg.reward} run's checkpoint is "
                          f"evaluated with rlvr eval --model {cfg.trained_model} --tasks ... "
                          "beside the same command with --model <base>")
    if is_task_run(cfg) and cfg.train_answerable != "all":
        raise ConfigError(f"train_answerable: {cfg.train_answerable} labels questions the base "
                          "model knows for the calibration reward, which this run does not "
                          "train on; set train_answerable: all")

def check_types(cfg) -> None:
    """Each value has its field's annotated type (`int`, `float`, `bool`, `str`, `list`,
    `dict`, or None where the annotation allows it), before any range check compares
    it: ints are accepted (and stored) as floats, floats must be finite, a bool is not
    a number. `reward_funcs` may also be one mapping and `eval_tasks` a string (both
    normalised later)."""
    for f in dataclasses.fields(cfg):
        kinds = [k.strip() for k in str(f.type).split("|")]
        value = getattr(cfg, f.name)
        if _has_kind(value, kinds) or isinstance(value, _ALSO_ACCEPTED.get(f.name, ())):
            if "float" in kinds and type(value) is int:
                setattr(cfg, f.name, float(value))
            continue
        raise ConfigError(type_message(cfg.__dataclass_fields__, f.name, value))
    for key in ("output_dir", "model", "data", "run_name", "eval_data_dir", "reward"):
        value = getattr(cfg, key)
        if isinstance(value, str) and not value.strip():
            spec = cfg.__dataclass_fields__[key]
            fix = ("omit it (or set null) for the default" if "None" in str(spec.type)
                   else f"set it, e.g. {key}: {spec.default}")
            raise ConfigError(f"{key} is empty text; {fix}")
    modules = cfg.lora_target_modules
    if not (modules.strip() if isinstance(modules, str) else modules and all(
            isinstance(m, str) and m.strip() for m in modules)):
        raise ConfigError(f"lora_target_modules must be a module name such as all-linear or "
                          f"a list of names such as [q_proj, v_proj], got {modules!r}")

def check_ranges(cfg) -> None:
    """Ranges of the GRPO, LoRA and evaluation settings, and TRL's batch rule, each with
    the fix in the message (all before any model or data loads)."""
    for key, limit in UPPER_LIMITS.items():
        value = getattr(cfg, key)
        if value is not None and value > limit:
            raise ConfigError(f"{key} = {value} is above {limit:,}, far more than any "
                              f"real run uses (a typo?); set a smaller value")
    for key in ("eval_limit", "train_limit", "eval_tasks_limit", "eval_max_new_tokens",
                "num_threads", "logging_steps"):
        value = getattr(cfg, key)
        if value is not None and value < 1:
            null = " or null" if "None" in str(cfg.__dataclass_fields__[key].type) else ""
            raise ConfigError(f"{key} must be >= 1{null}, got {value!r}")
    if not 0 < cfg.num_train_epochs:
        raise ConfigError(f"num_train_epochs must be > 0, got {cfg.num_train_epochs!r}")
    for key in ("alarm_over_abstention", "alarm_hedge_rate", "alarm_zero_std",
                "alarm_truncation", "preflight_margin"):
        if not 0 <= getattr(cfg, key) <= 1:
            raise ConfigError(f"{key} is a share and must be in [0, 1], got "
                              f"{getattr(cfg, key)!r}")
    if not 0 <= cfg.seed < 2 ** 32:
        raise ConfigError(f"seed must be in [0, 2**32 - 1] (numpy's range), got {cfg.seed}")
    positive = {"lora_r": cfg.lora_r, "lora_alpha": cfg.lora_alpha,
                "learning_rate": cfg.learning_rate, "temperature": cfg.temperature,
                "per_device_train_batch_size": cfg.per_device_train_batch_size,
                "gradient_accumulation_steps": cfg.gradient_accumulation_steps,
                "eval_batch_size": cfg.eval_batch_size, "save_steps": cfg.save_steps,
                "save_total_limit": cfg.save_total_limit,
                "save_minutes": 1 if cfg.save_minutes is None else cfg.save_minutes,
                "bootstrap_samples": cfg.bootstrap_samples}
    for key, value in positive.items():
        if not value > 0:
            raise ConfigError(f"{key} must be > 0, got {value!r}")
    for key, value in {"beta": cfg.beta, "epsilon": cfg.epsilon}.items():
        if value < 0:
            raise ConfigError(f"{key} must be >= 0, got {value!r}")
    if not 0 < cfg.heldout_fraction < 1:
        raise ConfigError(f"heldout_fraction must be in (0, 1), got {cfg.heldout_fraction!r}")
    if not 0 <= cfg.lora_dropout < 1:
        raise ConfigError(f"lora_dropout must be in [0, 1), got {cfg.lora_dropout!r}")
    if not 0 < cfg.top_p <= 1:
        raise ConfigError(f"top_p must be in (0, 1], got {cfg.top_p!r}")
    if cfg.curriculum_window < 1:
        raise ConfigError(f"curriculum_window must be >= 1 group, got "
                          f"{cfg.curriculum_window!r}")
    if (cfg.curriculum_solved_reward is not None and cfg.curriculum_failed_reward is not None
            and cfg.curriculum_failed_reward >= cfg.curriculum_solved_reward):
        raise ConfigError(f"curriculum_failed_reward ({cfg.curriculum_failed_reward}) must be "
                          f"below curriculum_solved_reward ({cfg.curriculum_solved_reward})")
    for key, allowed in {"quantization": ("none", "nf4"),
                         "attn_implementation": ("auto", "sdpa", "eager",
                                                 "flash_attention_2"),
                         "vllm_mode": ("colocate", "server"),
                         "eval_engine": ("auto", "transformers", "vllm"),
                         "eval_dtype": ("float32", "bfloat16"),
                         "out_of_template": ("auto", "test", "validation", "none")}.items():
        if getattr(cfg, key) not in allowed:
            raise ConfigError(f"{key} must be one of {', '.join(allowed)}, not "
                              f"{getattr(cfg, key)!r}")
    if not 0 < cfg.vllm_gpu_memory_utilization <= 1:
        raise ConfigError(f"vllm_gpu_memory_utilization must be in (0, 1], got "
                          f"{cfg.vllm_gpu_memory_utilization!r}")
    if cfg.scale_rewards not in ("group", "batch", "none"):
        raise ConfigError(f"scale_rewards must be group, batch or none, not "
                          f"{cfg.scale_rewards!r}")
    if cfg.max_steps == 0 or cfg.max_steps < -1:
        raise ConfigError(f"max_steps must be >= 1, or -1 for num_train_epochs; got "
                          f"{cfg.max_steps}")
    processes = int(os.environ.get("WORLD_SIZE", "1"))  # set by accelerate launch
    batch = cfg.per_device_train_batch_size * cfg.gradient_accumulation_steps * processes
    if batch % cfg.num_generations:
        raise ConfigError(
            f"the generation batch (per_device_train_batch_size x gradient_accumulation_"
            f"steps x processes = {cfg.per_device_train_batch_size} x "
            f"{cfg.gradient_accumulation_steps} x {processes} = {batch}) must be divisible by "
            f"num_generations ({cfg.num_generations}), as TRL requires; e.g. set "
            f"per_device_train_batch_size: {cfg.num_generations} or num_generations: "
            f"{_divisor(batch, cfg.num_generations)}")
    from rlvr.config.backends import check_report_to

    cfg.report_to = check_report_to(cfg.report_to) or ["none"]
    if isinstance(cfg.eval_tasks, str):  # "gsm8k" or "gsm8k,triviaqa", not its letters
        cfg.eval_tasks = [t.strip() for t in cfg.eval_tasks.split(",") if t.strip()]
    if cfg.eval_tasks is not None:
        from rlvr.errors import RlvrError
        from rlvr.tasks.registry import get_task

        if not isinstance(cfg.eval_tasks, list):
            raise ConfigError(f"eval_tasks must be a list of task names, got "
                              f"{cfg.eval_tasks!r}")
        for i, name in enumerate(cfg.eval_tasks):
            try:
                get_task(str(name))
            except RlvrError as exc:
                raise ConfigError(f"eval_tasks: {exc}") from None
            if name in cfg.eval_tasks[:i]:
                raise ConfigError(f"eval_tasks names {name!r} more than once; name each "
                                  "task once")

def check_cross_check(cfg) -> None:
    """`cross_check` as a list of task names with gold continuations (a string is split on
    commas; "none", "" and null turn the check off, stored as []), `cross_check_limit` >= 1
    and `cross_check_distractors` >= 0, each a number or a mapping per task."""
    from rlvr.errors import RlvrError
    from rlvr.tasks.continuations import check_cross_check_tasks

    if cfg.cross_check is None or (isinstance(cfg.cross_check, str)
                                   and cfg.cross_check.strip().lower() in ("", "none", "off")):
        cfg.cross_check = []
    if isinstance(cfg.cross_check, str):
        cfg.cross_check = [t.strip() for t in cfg.cross_check.split(",") if t.strip()]
    if not all(isinstance(t, str) for t in cfg.cross_check):
        raise ConfigError(f"cross_check must be task names such as [gsm8k, triviaqa], or none, "
                          f"got {cfg.cross_check!r}")
    if len(set(cfg.cross_check)) != len(cfg.cross_check):
        raise ConfigError(f"cross_check names a task more than once ({cfg.cross_check}); name "
                          "each task once")
    try:
        check_cross_check_tasks(cfg.cross_check)
    except RlvrError as exc:
        raise ConfigError(f"cross_check: {exc}") from None
    budget = cfg.cross_check_budget
    if not (budget is None or budget == "auto" or (isinstance(budget, (int, float))
                                                   and not isinstance(budget, bool)
                                                   and 0 < budget < float("inf"))):
        raise ConfigError(f"cross_check_budget must be a share of the training time above 0 "
                          f"(e.g. 0.25), auto or null, got {budget!r}")
    _check_per_task(cfg, "cross_check_limit", 1, "rows per task")
    _check_per_task(cfg, "cross_check_distractors", 0, "distractors per task")


def _check_per_task(cfg, key: str, least: int, what: str) -> None:
    """`cfg.<key>` as an integer >= `least`, or a mapping of task names with a gold
    continuation (or "default") to such integers; ConfigError (one line, the fix) otherwise.
    A named task that `cross_check` leaves out is allowed: the setting waits for it."""
    from rlvr.tasks.continuations import CONTINUATIONS

    value = getattr(cfg, key)
    items = value.items() if isinstance(value, dict) else [(None, value)]
    for name, n in items:
        if name is not None and name != "default" and name not in CONTINUATIONS:
            raise ConfigError(f"{key} names {name!r}, which has no gold continuation; use "
                              f"{', '.join(CONTINUATIONS)} or 'default'")
        if isinstance(n, bool) or not isinstance(n, int) or n < least:
            where = key if name is None else f"{key}.{name}"
            raise ConfigError(f"{where} must be an integer >= {least} ({what}), got {n!r}; "
                              f"e.g. {key}: {least + 4} or {key}: {{default: {least}, "
                              f"triviaqa: {least + 4}}}")


STEP_METRICS = ("honesty", "prudence", "prudence_all_unknown", "over_conservativeness",
                "known_retention", "answer_rate", "selective_accuracy", "mean_reward")


def check_keep_best(cfg) -> None:
    """`keep_best` names a metric the run's step evaluations produce
    (`rlvr.eval.heldout_answers.step_metrics`): a calibration run's `STEP_METRICS`, a task
    run's `reward`, `reward/<name>` of its reward entries and `accuracy/<name>` of those
    with a correct outcome (`rlvr.config.reward_setup.has_accuracy`).
    Raises: ConfigError with the closest name and the list."""
    if cfg.keep_best is None:
        return
    if is_task_run(cfg):
        from rlvr.config.reward_setup import entry_name, has_accuracy

        known = ["reward"]
        for entry in reward_entries(cfg):
            known += [f"reward/{entry_name(entry)}"] + (
                [f"accuracy/{entry_name(entry)}"] if has_accuracy(entry) else [])
    else:
        known = list(STEP_METRICS)
    if cfg.keep_best not in known:
        import difflib

        close = difflib.get_close_matches(str(cfg.keep_best), known, n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise ConfigError(f"keep_best: {cfg.keep_best!r} is not a metric this run evaluates; "
                          f"{hint}use one of {', '.join(known)}")
