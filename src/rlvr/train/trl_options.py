"""The `trl:` mapping of a config, checked against the installed TRL's `GRPOConfig`.

    trl: {importance_sampling_level: sequence, epsilon_high: 0.28}

Any `trl.GRPOConfig` option rlvr has no key of its own for reaches TRL through `trl:`,
merged after rlvr's own arguments by `rlvr.train.grpo.grpo_args`. The config layer cannot
import TRL (the pure-core contract), so it only refuses the options rlvr sets itself
(`rlvr.config.trl_keys`); the names are checked here, against the installed version's
dataclass fields, when the main job prepares (`rlvr.train.job.prepare`, before any model
loads; TRL imports in about 0.1 s once torch and transformers are loaded):

- `trl_options(cfg)`: every name is a field of the installed `GRPOConfig` (a typo gets
  the closest field), text where TRL annotates a number or a bool is converted as rlvr
  converts its own keys (YAML 1.1 reads `1e-4` as text);
- `rlvr.train.grpo.check_grpo_args(cfg, run_dir)` then builds the `GRPOConfig` the
  trainer will get, so the checks in TRL's `__post_init__` also fail before the model
  loads.

`snapshot_text()` writes `rlvr/config/trl_fields.py`, the field names the config layer
uses for its hints (a test keeps the two equal).
"""

from __future__ import annotations

import dataclasses
import difflib
import typing
from typing import Any

from rlvr.config import TrainConfig
from rlvr.config.trl_keys import owned_reason
from rlvr.errors import ConfigError


def grpo_config_fields() -> dict[str, Any]:
    """The init fields of the installed `trl.GRPOConfig`, name -> annotated type.

    Returns:
        {field name: the dataclass field's type} for every field the constructor takes
        (TrainingArguments' fields included), in TRL's order.
    Imports TRL (and so torch and transformers). Source: `dataclasses.fields`.
    """
    from trl import GRPOConfig

    return {f.name: f.type for f in dataclasses.fields(GRPOConfig) if f.init}


def trl_version() -> str:
    """The installed TRL's version string (`trl.__version__`)."""
    import trl

    return trl.__version__


def _scalar_type(annotation: Any) -> type | None:
    """`int`, `float` or `bool` when the annotation is one of them (optionally `| None`),
    else None (text, mappings, literals, unions of several kinds are left alone)."""
    kinds = [a for a in (typing.get_args(annotation) or (annotation,)) if a is not type(None)]
    return kinds[0] if len(kinds) == 1 and kinds[0] in (int, float, bool) else None


def _coerce(key: str, value: Any, annotation: Any) -> Any:
    """Text where TRL annotates a number or a bool, converted ("1e-4" -> 0.0001, "true" ->
    True); every other value as it is.

    Raises:
        ConfigError: text that is not a number / bool where TRL wants one.
    """
    kind = _scalar_type(annotation)
    if kind is None or not isinstance(value, str):
        return value
    try:
        if kind is bool:
            return {"true": True, "false": False}[value.strip().lower()]
        return kind(value)
    except (ValueError, KeyError):
        want = {bool: "true or false", int: "an integer", float: "a number"}[kind]
        raise ConfigError(f"trl.{key} must be {want} (trl.GRPOConfig.{key}: "
                          f"{getattr(annotation, '__name__', annotation)}), got {value!r}") from None


def trl_options(cfg: TrainConfig, fields: dict[str, Any] | None = None) -> dict[str, Any]:
    """`cfg.trl` checked against the installed `trl.GRPOConfig`, ready to pass to it.

    Args:
        cfg: a TrainConfig (its `trl` mapping is read, not changed).
        fields: GRPOConfig's fields, name -> type (default `grpo_config_fields()`; tests
            pass a stand-in).
    Returns:
        a new dict with the same keys in the same order; text converted where TRL wants a
        number or a bool (`_coerce`), every other value as given.
    Raises:
        ConfigError, one line: an option rlvr sets itself (with the rlvr key to set
            instead; also refused when the config loads), a name that is no field of the
            installed GRPOConfig (with the closest field and TRL's version), or text where
            TRL wants a number or a bool.
    """
    if not cfg.trl:
        return {}
    installed = fields is None
    fields = grpo_config_fields() if installed else fields
    out = {}
    for key, value in cfg.trl.items():
        reason = owned_reason(key, value)
        if reason:
            raise ConfigError(f"trl: {key}: {reason}")
        if key not in fields:
            close = difflib.get_close_matches(key, list(fields), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            if close and owned_reason(close[0], value):  # an rlvr key: say where it goes
                hint += f" ({owned_reason(close[0], value)})"
            version = f" in TRL {trl_version()}" if installed else ""
            raise ConfigError(f"trl: {key!r} is not an option of trl.GRPOConfig{version}"
                              f"{hint}")
        out[key] = _coerce(key, value, fields[key])
    return out


def snapshot_text() -> str:
    """The text of `src/rlvr/config/trl_fields.py`: the installed GRPOConfig's field names
    and TRL's version, for the config layer's hints (which cannot import TRL).

    Regenerate after changing TRL:
    `python -c "from rlvr.train.trl_options import snapshot_text as s;
    open('src/rlvr/config/trl_fields.py', 'w').write(s())"`.
    """
    import textwrap

    names = textwrap.fill(" ".join(f'"{name}",' for name in sorted(grpo_config_fields())),
                          width=92, initial_indent="    ", subsequent_indent="    ",
                          break_long_words=False, break_on_hyphens=False)
    return (f'"""The option names of `trl.GRPOConfig` in TRL {trl_version()} (generated by\n'
            "`rlvr.train.trl_options.snapshot_text`; tests/test_trl_options.py keeps it equal "
            "to the\ninstalled TRL).\n\n"
            "The config layer may not import TRL; it reads these names only to give a "
            "top-level key\nthat is a GRPOConfig option the hint `put it under trl:`. "
            "Whether a `trl:` entry exists\nis checked against the installed TRL itself "
            '(`rlvr.train.trl_options.trl_options`).\n"""\n\n'
            f'TRL_VERSION = "{trl_version()}"\n\n'
            f"GRPO_CONFIG_FIELDS = frozenset({{\n{names}\n}})\n")
