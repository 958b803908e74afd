"""The reference project's JSON config layout, read as an rlvr config.

The reference self-awareness project keeps its settings in JSON with a `selfaware_grpo`
section and its own key names. `rlvr train --config file.json` accepts that layout
unchanged: `reference_layout` maps each key to TrainConfig's (table below), keeps keys that
already are TrainConfig names, and refuses anything else with the closest match, as a
YAML config does. Other top-level sections (other experiments of the same file) are ignored.

| reference key | TrainConfig key |
|---|---|
| `batch_size` | `per_device_train_batch_size` |
| `grad_accumulation_steps` | `gradient_accumulation_steps` |
| `lr_schedule` | `lr_scheduler_type` (`cosine_decay` -> `cosine`, `linear_schedule` -> `linear`) |
| `lora_rank` | `lora_r` |
| `lora_scale` | `lora_alpha` = `lora_rank` x `lora_scale` |
| `target_modules` | `lora_target_modules` |
| `data_variant` (the `--data-variant` flag) | `selfaware_variant` |
| `num_generations`, `max_completion_length`, `beta`, `temperature`, `learning_rate`, `warmup_ratio`, `num_train_epochs` | the same names |
"""

from __future__ import annotations

import difflib
import logging
from typing import Any

from rlvr.errors import ConfigError

logger = logging.getLogger(__name__)

SECTION = "selfaware_grpo"
RENAMED = {
    "batch_size": "per_device_train_batch_size",
    "grad_accumulation_steps": "gradient_accumulation_steps",
    "lr_schedule": "lr_scheduler_type",
    "lora_rank": "lora_r",
    "target_modules": "lora_target_modules",
    "data_variant": "selfaware_variant",
}
SCHEDULES = {"cosine_decay": "cosine", "linear_schedule": "linear"}
DEFAULT_LORA_RANK = 8  # TrainConfig.lora_r's default, used when lora_scale comes alone


def reference_layout(loaded: dict[str, Any], source: str,
                     field_names: tuple[str, ...]) -> dict[str, Any]:
    """Turn a reference-layout mapping into TrainConfig keys.

    Args:
        loaded: the parsed file; its `selfaware_grpo` section holds the settings, other
            top-level mappings are ignored, other top-level values join the section.
        source: the file name, for messages.
        field_names: TrainConfig's field names (keys that pass through unchanged).
    Returns:
        A mapping of TrainConfig keys.
    Raises:
        ConfigError: the section is not a mapping; an unknown key (closest match among
            the reference keys and TrainConfig's); `lora_scale` that is not a positive
            number.
    """
    section = loaded.get(SECTION)
    if not isinstance(section, dict):
        raise ConfigError(f"{source}: {SECTION!r} must be a mapping of settings")
    others = sorted(k for k, v in loaded.items() if k != SECTION and isinstance(v, dict))
    if others:
        logger.info("%s: reading the %r section; ignoring %s", source, SECTION, others)
    settings = {**{k: v for k, v in loaded.items() if k != SECTION and not isinstance(v, dict)},
                **section}
    known = tuple(RENAMED) + ("lora_scale",) + field_names
    values: dict[str, Any] = {}
    for key, value in settings.items():
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise ConfigError(f"{source}: unknown key {key!r} in {SECTION!r}{hint}")
        if key == "lr_schedule":
            value = SCHEDULES.get(value, value)
        if key != "lora_scale":
            values[RENAMED.get(key, key)] = value
    if "lora_scale" in settings:
        scale = settings["lora_scale"]
        if isinstance(scale, bool) or not isinstance(scale, (int, float)) or scale <= 0:
            raise ConfigError(f"{source}: lora_scale must be a positive number, got {scale!r}")
        rank = values.get("lora_r", DEFAULT_LORA_RANK)
        alpha = rank * scale if isinstance(rank, int) else rank
        values["lora_alpha"] = int(alpha) if float(alpha).is_integer() else alpha
    return values
