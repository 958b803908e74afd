"""A config's rewards: the entries it trains on (`reward_entries`), their names, whether the
run is a task run, and their checks when the config loads (`check_rewards`).

`reward` and a `reward_funcs` entry's `function` may name a user's own function,
`module:function` or `path/to/file.py:function` (`rlvr.rewards.user`). `load_config` makes a
relative file path absolute against the config file's folder (`absolute_reward_paths`);
a path given anywhere else (`--set`, a TrainConfig built in Python) is read from the
working directory. The checks load the function, so a missing file, a syntax error or a
wrong signature fails here, before any data or model loads.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from rlvr.errors import ConfigError

CALIBRATION_REWARDS = ("selfaware", "abstention")  # runs judged by the held-out honesty report


def _ref_name(value: Any) -> Any:
    """The registered name of `reward`: a user function's name, else the value itself."""
    from rlvr.rewards.user import is_function_ref, ref_name

    return ref_name(value) if is_function_ref(value) else value


def reward_label(cfg) -> str:
    """The run's rewards as a short name for run names, tags and reports: `cfg.reward`
    (`rewards.py:exact` -> exact), or the `reward_funcs` names joined by "+" (a user's
    `days_format` and `days_exact` -> days_format+days_exact) when those are set."""
    if cfg.reward_funcs is not None:
        return "+".join(str(n) for n in reward_names(cfg)) or str(_ref_name(cfg.reward))
    return str(_ref_name(cfg.reward))


def task_label(cfg) -> str:
    """What the run trains, as its reports, progress bars and records name it: `selfaware`
    for a calibration run (the self-awareness task), else the data's name (the file or
    folder stem of `data`, or the `data` shorthand such as gsm8k), else the rewards'
    `reward_label`."""
    from pathlib import Path

    if not is_task_run(cfg):
        return "selfaware"
    if cfg.data:
        path = Path(str(cfg.data))
        return path.stem if path.suffix else path.name or str(cfg.data)
    return reward_label(cfg)


def reward_names(cfg) -> list[str]:
    """The names of the rewards a config trains on (`reward_funcs`, else `reward`); a user
    function's name is its entry's `name`, else the function's own name."""
    if cfg.reward_funcs is None:
        return [_ref_name(cfg.reward)]
    return [e.get("name") or ("reward_model" if "reward_model" in e
                              else _ref_name(e.get("function")))
            for e in cfg.reward_funcs if isinstance(e, dict)]


def reward_entries(cfg) -> list[dict[str, Any]]:
    """The config's rewards as `make_trl_rewards` entries (`reward_funcs`, else `reward`
    with its preset and params). User functions among them are (re)registered
    (`rlvr.rewards.register_user_rewards`; cheap: a loaded file is reused until it changes),
    so every `get_reward(entry["name"])` after this call finds the entry's own function."""
    from rlvr.rewards import register_user_rewards
    from rlvr.rewards.user import is_function_ref, ref_name

    if cfg.reward_funcs is not None:
        return register_user_rewards(list(cfg.reward_funcs))
    entry = {"name": cfg.reward, "preset": cfg.reward_preset, "params": cfg.reward_params}
    if is_function_ref(cfg.reward):
        entry = register_user_rewards([{**entry, "name": ref_name(cfg.reward),
                                        "function": cfg.reward}])[0]
    return [entry]


def is_task_run(cfg) -> bool:
    """True when no training reward is a calibration reward (`CALIBRATION_REWARDS`): the
    run trains a task (GSM8K, MATH, QA, code, a user's function), so the self-awareness
    steps (knowledge labels, honesty report, `train_answerable`) do not apply."""
    return not any(name in CALIBRATION_REWARDS for name in reward_names(cfg))


def absolute_reward_paths(values: dict[str, Any], base_dir: str | Path) -> dict[str, Any]:
    """`values` (a config file's mapping) with the relative file paths of `reward` and of
    each `reward_funcs` entry's `function` (and `reward_model` folder) made absolute against `base_dir` (the config
    file's folder), so they resolve the same from any working directory and in the run's
    `resolved_config.yaml`."""
    from rlvr.rewards.user import absolute_ref

    values = dict(values)
    if "reward" in values:
        values["reward"] = absolute_ref(values["reward"], base_dir)
    funcs = values.get("reward_funcs")
    if isinstance(funcs, (list, dict)):
        entries = [funcs] if isinstance(funcs, dict) else funcs
        entries = [{**e, "function": absolute_ref(e["function"], base_dir)}
                   if isinstance(e, dict) and "function" in e else e for e in entries]
        entries = [{**e, "reward_model": _model_folder(e["reward_model"], base_dir)}
                   if isinstance(e, dict) and "reward_model" in e else e for e in entries]
        values["reward_funcs"] = entries[0] if isinstance(funcs, dict) else entries
    return values


def _model_folder(value: Any, base_dir: str | Path) -> Any:
    """A `reward_model` folder relative to the config file made absolute; a hub id, an
    absolute path or a folder that does not exist there is returned unchanged."""
    if not isinstance(value, str) or value.startswith(("/", "~")):
        return value
    candidate = Path(base_dir) / value
    return str(candidate.resolve()) if candidate.exists() else value


def check_rewards(cfg) -> None:
    """Build the reward functions once, so a bad name, preset, parameter or user function
    fails here, before any data or model loads (`rlvr.rewards.contract.RewardSpec.check_params`,
    `rlvr.rewards.register_user_rewards`). A user function's file path is stored absolute
    (read from the working directory when still relative), its entry's `name` filled in.

    Raises:
        ConfigError: "reward_funcs: ..." / "reward: ..." with the problem and the fix; a
            user function given as `reward` with a built-in preset; `curriculum` with a
            user reward that declares no score range and no threshold to replace it.
    """
    from rlvr.errors import RlvrError
    from rlvr.rewards import get_reward, make_trl_rewards
    from rlvr.rewards.user import absolute_ref, is_function_ref

    if isinstance(cfg.reward_funcs, dict):  # one entry given as a mapping
        cfg.reward_funcs = [cfg.reward_funcs]
    if cfg.reward_funcs is not None and not isinstance(cfg.reward_funcs, list):
        raise ConfigError(f"reward_funcs must be a list of entries such as "
                          f"[{{name: selfaware, weight: 1.0}}], got {cfg.reward_funcs!r}")
    if not isinstance(cfg.reward_params, dict):
        raise ConfigError(f"reward_params must be a mapping such as {{wrong: -1.0}}, got "
                          f"{cfg.reward_params!r}")
    cfg.reward = absolute_ref(cfg.reward, None)
    if cfg.reward_funcs is not None:
        cfg.reward_funcs = [{**e, "function": absolute_ref(e["function"], None)}
                            if isinstance(e, dict) and "function" in e else e
                            for e in cfg.reward_funcs]
    elif is_function_ref(cfg.reward) and cfg.reward_preset not in (None, "default"):
        raise ConfigError(f"reward_preset {cfg.reward_preset!r} is a preset of the built-in "
                          f"rewards; your function {cfg.reward} has none: set "
                          "reward_preset: null")
    where = "reward_funcs" if cfg.reward_funcs is not None else "reward"
    try:
        if cfg.reward_funcs is not None and is_function_ref(cfg.reward):
            get_reward(cfg.reward)  # named for the run name only, but it must load too
        entries = reward_entries(cfg)
        make_trl_rewards(entries)
    except RlvrError as exc:
        raise ConfigError(f"{where}: {exc}") from None
    if cfg.reward_funcs is not None:
        cfg.reward_funcs = entries  # names filled in
    _check_curriculum_range(cfg, entries)


def _check_curriculum_range(cfg, entries: list[dict[str, Any]]) -> None:
    """The curriculum's default thresholds are the ends of the rewards' declared ranges; a
    user reward without `score_range` has none (-inf, inf), so nothing would ever retire."""
    if not getattr(cfg, "curriculum", False):
        return
    from rlvr.rewards import get_reward

    for entry in entries:
        low, high = get_reward(entry["name"]).score_range
        needed = [key for key, end, on in (
            ("curriculum_solved_reward", high, True),
            ("curriculum_failed_reward", low, cfg.curriculum_retire_failed))
            if on and not math.isfinite(end) and getattr(cfg, key) is None]
        if needed:
            raise ConfigError(f"curriculum: reward {entry['name']!r} declares no score range, "
                              "so no total reward counts as solved or failed; add score_range: "
                              f"[low, high] to its reward_funcs entry or set {needed[0]}")


# outcomes that mean "the answer is right": a reward with one of them declared gets accuracy
CORRECT = ("correct", "correct_fallback", "passed")


def entry_name(entry: dict[str, Any]) -> str:
    """The name a reward entry is logged and reported under (`log_name`, else `name`)."""
    return entry.get("log_name") or entry["name"]


def has_accuracy(entry: dict[str, Any]) -> bool:
    """Whether the entry's reward declares a correct outcome (`CORRECT`); guards that only
    reshape a correctness reward (`cosine_scaled`) are left out."""
    from rlvr.rewards import get_reward

    spec = get_reward(entry["name"])
    return entry["name"] != "cosine_scaled" and bool(set(spec.declared_outcomes()) & set(CORRECT))
