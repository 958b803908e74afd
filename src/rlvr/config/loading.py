"""Loading a TrainConfig: a YAML/JSON file (`rlvr.config.files`) and `--set key=value`
overrides (dotted keys into mapping fields), with unknown keys refused by closest match
and `trl.GRPOConfig` options pointed to the `trl:` mapping (`rlvr.config.trl_keys`)."""

from __future__ import annotations

import dataclasses
import difflib
from pathlib import Path
from typing import Any

from rlvr.config.checks import type_message
from rlvr.config.files import read_config_file
from rlvr.config.reward_setup import absolute_reward_paths
from rlvr.config.train_config import TrainConfig
from rlvr.config.trl_fields import GRPO_CONFIG_FIELDS
from rlvr.config.trl_keys import RLVR_SETS, flow, top_level_hint, trl_suggestion
from rlvr.errors import ConfigError

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
        if "str" in FIELD_TYPES[key].split(" | "):  # e.g. cross_check_budget: auto
            return value
        raise ConfigError(type_message(TrainConfig.__dataclass_fields__, key, value)) from None
    return value


# TRL options (not set by rlvr) a misspelt top-level key may be closest to
_TRL_ONLY = tuple(sorted(GRPO_CONFIG_FIELDS - RLVR_SETS - set(FIELD_NAMES)))
# fields that take a mapping, so `--set field.key=value` can set one entry
MAPPING_FIELDS = tuple(name for name, kind in FIELD_TYPES.items() if "dict" in kind)


def _check_keys(values: dict[str, Any], source: str, dotted: bool = False) -> None:
    """Refuse keys that are not TrainConfig fields, each with the most useful hint.

    Args:
        values: the keys and values read from `source` (a file, or "override").
        source: named first in the message.
        dotted: whether `field.key` entries of a mapping field are allowed (overrides).
    Raises:
        ConfigError, one line: a `trl.GRPOConfig` option rlvr leaves to TRL -> "put it
            under trl:" (`rlvr.config.trl_keys.top_level_hint`); one rlvr sets from another
            key -> that key; a dotted key in a file -> the nested form; else the closest
            rlvr key or TRL option (`_TRL_ONLY`).
    """
    for key, value in values.items():
        if key in FIELD_NAMES:
            continue
        head, dot, sub = str(key).partition(".")
        if dot and head in MAPPING_FIELDS and sub:
            if dotted:
                continue
            raise ConfigError(f"{source}: key {key!r}: write it nested, {head}: "
                              f"{flow({sub: value})}")
        hint = top_level_hint(str(key), value)
        if hint is None:
            close = difflib.get_close_matches(str(key), FIELD_NAMES + _TRL_ONLY, n=1)
            hint = ("" if not close else trl_suggestion(close[0], value)
                    if close[0] in _TRL_ONLY else f"; did you mean {close[0]!r}?")
        raise ConfigError(f"{source}: unknown key {key!r}{hint} "
                          "(see `rlvr train --list-keys` for all keys)")


def _default(name: str) -> Any:
    """The default value of a TrainConfig field (a fresh copy for a list or dict)."""
    spec = TrainConfig.__dataclass_fields__[name]
    if spec.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
        return spec.default_factory()  # type: ignore[misc]
    return spec.default


def _apply_override(values: dict[str, Any], key: str, value: Any) -> None:
    """Set `values[key] = value`; a dotted `field.entry` key sets one entry of the mapping
    field instead (the file's mapping, else the default, copied), so `--set
    trl.epsilon_high=0.28` adds to a config's `trl:` rather than replacing it.

    Raises:
        ConfigError: the field holds something other than a mapping (e.g.
            `cross_check_limit` is a number): set the whole mapping instead.
    """
    head, dot, sub = key.partition(".")
    if not dot or key in FIELD_NAMES:
        values[key] = value
        return
    current = values.get(head, _default(head))
    if current is None:
        current = {}
    if not isinstance(current, dict):
        raise ConfigError(f"override {key}: {head} is {flow(current)}, not a mapping; set the "
                          f"whole value, e.g. --set "
                          f"'{head}={flow({'default': current, sub: value})}'")
    values[head] = {**current, sub: value}


def parse_override(text: str) -> tuple[str, Any]:
    """Parse a `key=value` override; the value is read as YAML (numbers, bools, lists,
    mappings such as `trl={epsilon_high: 0.28}`), or kept as plain text when it is not
    valid YAML. The key is kept as written: `load_config` reads a dotted key
    (`trl.epsilon_high=0.28`) as one entry of a mapping field.

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


def load_config(path: str | Path | None = None, overrides: dict[str, Any] | None = None) -> TrainConfig:
    """Build a TrainConfig from a YAML/JSON file and overrides (overrides win).

    Args:
        path: YAML or JSON file with a mapping of TrainConfig keys, or the reference
            project's layout with a `selfaware_grpo` section (`rlvr.config.reference`),
            or None for the defaults.
        overrides: extra key/values (from CLI flags and `--set`); None values from CLI
            flags that were not given must be filtered out by the caller.
    A relative file path in the file's `reward` or a `reward_funcs` entry's `function`
    (`path/to/file.py:function`) is read from the config file's folder; one in the
    overrides, from the working directory. A dotted key
            `field.entry` sets one entry of a mapping field (`trl.epsilon_high`,
            `reward_params.wrong`), keeping the file's other entries.
    Raises:
        ConfigError: missing, empty or unreadable file, invalid YAML, a key given twice,
            a non-mapping file, an unknown key (with the closest valid key, or "put it
            under trl:" for a trl.GRPOConfig option), or an invalid value (type, range, reward, tracker, task; see `TrainConfig`).
    """
    values: dict[str, Any] = {}
    if path is not None:
        path = Path(path)
        loaded = read_config_file(path)
        if not isinstance(loaded, dict):
            raise ConfigError(f"{path}: expected a mapping of keys to values (key: value "
                              f"lines), got {type(loaded).__name__}")
        if "selfaware_grpo" in loaded:  # the reference project's JSON layout
            from rlvr.config.reference import reference_layout

            loaded = reference_layout(loaded, str(path), FIELD_NAMES)
        _check_keys(loaded, str(path))
        values.update(absolute_reward_paths(loaded, path.parent))
    if overrides:
        _check_keys(overrides, "override", dotted=True)
        for key, value in overrides.items():
            _apply_override(values, key, value)
    try:
        return TrainConfig(**{k: _coerce(k, v) for k, v in values.items()})
    except TypeError as exc:
        raise ConfigError(f"invalid config: {exc}") from None
