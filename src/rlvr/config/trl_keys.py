"""Which `trl.GRPOConfig` options rlvr sets itself, and the hints that point a TRL option to
the `trl:` mapping (`TrainConfig.trl`). Standard library and PyYAML only: TRL is never
imported here (the pure-core contract).

A `trl:` entry for an option rlvr sets (`RLVR_SETS`) is refused when the config loads,
with the rlvr key to set instead (`owned_reason`); whether any other entry is an option of
the installed TRL is checked by `rlvr.train.trl_options.trl_options` before the model
loads. A top-level key that is a GRPOConfig option (`rlvr.config.trl_fields`) gets the
hint "put it under trl:" instead of the closest rlvr key (`top_level_hint`).
"""

from __future__ import annotations

from typing import Any

from rlvr.config.trl_fields import GRPO_CONFIG_FIELDS
from rlvr.errors import ConfigError

# GRPOConfig options rlvr passes from its own key of the same name (`rlvr.train.grpo.grpo_args`:
# `rlvr.train.fit.SHARED_ARGS`, `rlvr.train.grpo.GRPO_PASSTHROUGH` and the ones below)
SAME_NAME = (
    "output_dir", "per_device_train_batch_size", "gradient_accumulation_steps",
    "num_train_epochs", "max_steps", "learning_rate", "lr_scheduler_type",
    "gradient_checkpointing", "logging_steps", "save_steps", "seed", "bf16",
    "save_total_limit", "report_to", "run_name",
    "num_generations", "max_completion_length", "beta", "epsilon", "temperature", "top_p",
    "loss_type", "scale_rewards", "use_vllm", "vllm_mode", "vllm_server_host",
    "vllm_server_port", "vllm_gpu_memory_utilization",
)
# GRPOConfig options rlvr passes from a key of another name: the fix
RENAMED = {
    "warmup_steps": "rlvr sets it from warmup_ratio (a share of the steps); set warmup_ratio "
                    "instead",
    "data_seed": "rlvr sets it from seed; set seed instead",
    "reward_weights": "rlvr sets it from the weight of each reward_funcs entry; set those "
                      "instead",
}
# GRPOConfig options rlvr decides alone: what it sets them to
DECIDED = {
    "use_cpu": "from the device it trains on (rlvr.hardware.device)",
    "save_strategy": "to 'steps': a checkpoint every save_steps steps and every "
                     "save_minutes minutes",
    "project": "to 'rlvr', the trackers' project name",
}
RLVR_SETS = frozenset(SAME_NAME) | frozenset(RENAMED) | frozenset(DECIDED)


def flow(value: Any) -> str:
    """`value` as one line of YAML flow style (`0.28`, `sequence`, `{epsilon_high: 0.28}`),
    for the examples in error messages; `repr` when YAML cannot write it."""
    import yaml

    try:
        text = yaml.safe_dump(value, default_flow_style=True, width=10 ** 9).strip()
    except yaml.YAMLError:
        return repr(value)
    return text[:-3].rstrip() if text.endswith("\n...") else text


def _whole(least: int):
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= least


# GRPOConfig values TRL 1.16 accepts when the config is built but that cannot train: each
# option's test and what it means. `num_iterations: 0` ran 0 optimizer steps and exited 0.
UNWORKABLE = {
    "num_iterations": (_whole(1), "an integer >= 1 (policy updates per generated batch; 0 "
                                  "trains nothing)"),
    "steps_per_generation": (lambda v: v is None or _whole(1)(v),
                             "null or an integer >= 1 (optimizer steps per generated batch)"),
    "generation_batch_size": (lambda v: v is None or _whole(1)(v),
                              "null or an integer >= 1 (completions generated at once)"),
    "epsilon_high": (lambda v: v is None or (isinstance(v, (int, float))
                                             and not isinstance(v, bool) and v >= 0),
                     "null or a number >= 0 (the upper clip range)"),
    "repetition_penalty": (lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)
                           and v > 0, "a number > 0 (1.0 = none)"),
    "min_p": (lambda v: v is None or (isinstance(v, (int, float)) and not isinstance(v, bool)
                                      and 0 <= v <= 1), "null or a number in [0, 1]"),
}


def unworkable_reason(key: str, value: Any) -> str | None:
    """Why `trl: {key: value}` cannot train (`UNWORKABLE`), with what it must be; None when
    the value is usable or the option is not in the table."""
    test = UNWORKABLE.get(key)
    if test is None or test[0](_as_number(value)):
        return None
    return f"{value!r} cannot train; it must be {test[1]}"


def _as_number(value: Any) -> Any:
    """Text as TRL's field types will read it (`rlvr.train.trl_options` converts it when the
    GRPOConfig is built): "2" -> 2, "1e-1" -> 0.1, "null"/"none" -> None; else unchanged."""
    if not isinstance(value, str):
        return value
    text = value.strip().lower()
    if text in ("null", "none", "~"):
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return value


def owned_reason(key: str, value: Any = None) -> str | None:
    """Why a GRPOConfig option cannot go under `trl:`, with the fix; None when rlvr does not
    set it.

    Args:
        key: a GRPOConfig option name.
        value: the value the user gave (for the example of a same-name rlvr key).
    Returns:
        e.g. "it is an rlvr key, passed to trl.GRPOConfig as it is; set it at the top
        level, e.g. learning_rate: 0.0001", or None. Source: `RLVR_SETS`.
    """
    if key in SAME_NAME:
        return (f"it is an rlvr key, passed to trl.GRPOConfig as it is; set it at the top "
                f"level, e.g. {key}: {flow(value)}")
    if key in RENAMED:
        return RENAMED[key]
    if key in DECIDED:
        return f"rlvr sets it {DECIDED[key]}; remove it"
    return None


def top_level_hint(key: str, value: Any) -> str | None:
    """The hint for an unknown top-level key that names a GRPOConfig option, else None.

    Returns:
        "; it is a trl.GRPOConfig option: put it under trl: (e.g. trl: {epsilon_high:
        0.28}, or --set trl.epsilon_high=0.28)" for an option rlvr leaves to TRL, or the
        `owned_reason` for one rlvr sets from another key (`warmup_steps`, ...). The names
        come from the snapshot `rlvr.config.trl_fields.GRPO_CONFIG_FIELDS`.
    """
    reason = owned_reason(key, value)
    if reason:
        return f"; trl.GRPOConfig's {key}: {reason}"
    if key in GRPO_CONFIG_FIELDS:
        return (f"; it is a trl.GRPOConfig option: put it under trl: (e.g. trl: "
                f"{flow({key: value})}, or --set trl.{key}={flow(value)})")
    return None


def trl_suggestion(name: str, value: Any) -> str:
    """The hint for a key whose closest match is the GRPOConfig option `name`."""
    return (f"; did you mean {name!r}? (a trl.GRPOConfig option: put it under trl:, e.g. "
            f"trl: {flow({name: value})})")


def check_trl_section(cfg: Any) -> None:
    """`cfg.trl` as a mapping of option names to values (null is stored as {}), none of
    them an option rlvr sets itself (called by `rlvr.config.checks.check_config`).

    Args:
        cfg: a TrainConfig; `cfg.trl` may be replaced by {}.
    Raises:
        ConfigError: a key that is not text, an option in `RLVR_SETS` (the message has
            the rlvr key to set instead; `owned_reason`), or a value that cannot train
            (`UNWORKABLE`).
    """
    if cfg.trl is None:
        cfg.trl = {}
    for key, value in cfg.trl.items():
        if not isinstance(key, str) or not key.strip():
            raise ConfigError(f"trl: keys are trl.GRPOConfig option names such as "
                              f"epsilon_high, got {key!r}")
        reason = owned_reason(key, value) or unworkable_reason(key, value)
        if reason:
            raise ConfigError(f"trl: {key}: {reason}")
