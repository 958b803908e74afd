"""Reward contract and registry.

A reward is a pure per-sample core `(completion: str, **fields) -> RewardResult` plus a
declared score range and the dataset fields it reads. `make_trl_reward` wraps a core as a
TRL reward function `(completions, **dataset_columns) -> list[float | None]`, named so TRL
logs it as `rewards/<name>/mean`.
"""

from __future__ import annotations

import difflib
import functools
from dataclasses import dataclass, field
from typing import Any, Callable

from rlvr.errors import RlvrError


@dataclass(frozen=True)
class RewardResult:
    """The verdict on one completion.

    Attributes:
        score: the reward (float), or None when the sample cannot be scored (for example
            an empty gold answer); None is left out of group statistics.
        outcome: a short label, e.g. "correct", "abstained_unanswerable".
        details: extra facts for reports (matched phrase, extracted answer, error).
    """

    score: float | None
    outcome: str
    details: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RewardSpec:
    """A registered reward: its core function and what it needs.

    Attributes:
        name: registry name (also the TRL logging name).
        core: per-sample function `(completion, **fields, **params) -> RewardResult`.
        fields: dataset columns the core reads (besides the completion).
        score_range: (low, high) bounds every score stays within.
        presets: named parameter sets, e.g. {"seed": {...}}; "default" is used when no
            preset is named.
    """

    name: str
    core: Callable[..., RewardResult]
    fields: tuple[str, ...]
    score_range: tuple[float, float]
    presets: dict[str, dict[str, Any]]

    def params(self, preset: str | None = None, **overrides: Any) -> dict[str, Any]:
        """Return the preset's parameters with `overrides` applied.

        Raises:
            RlvrError: unknown preset name (the message lists the known ones).
        """
        name = preset or "default"
        if name not in self.presets:
            raise RlvrError(
                f"reward {self.name!r} has no preset {name!r}; known: {sorted(self.presets)}"
            )
        return {**self.presets[name], **overrides}


REWARDS: dict[str, RewardSpec] = {}


def register_reward(name: str, *, fields: tuple[str, ...], score_range: tuple[float, float],
                    presets: dict[str, dict[str, Any]] | None = None):
    """Decorator that registers a per-sample reward core under `name`."""

    def decorate(core: Callable[..., RewardResult]) -> Callable[..., RewardResult]:
        REWARDS[name] = RewardSpec(name, core, tuple(fields), score_range,
                                   dict(presets or {"default": {}}))
        return core

    return decorate


def get_reward(name: str) -> RewardSpec:
    """Look up a registered reward.

    Raises:
        RlvrError: unknown name; the message lists the known names and the closest one.
    """
    from rlvr import rewards as _loaded  # noqa: F401  (registers the built-in rewards)

    if name in REWARDS:
        return REWARDS[name]
    close = difflib.get_close_matches(name, REWARDS, n=1)
    hint = f" Did you mean {close[0]!r}?" if close else ""
    raise RlvrError(f"unknown reward {name!r}; known rewards: {', '.join(sorted(REWARDS))}.{hint}")


def completion_text(completion: Any) -> str:
    """Return the text of a completion, plain or conversational.

    Args:
        completion: a str, or a list of chat messages `[{"role": ..., "content": ...}]`
            (TRL's conversational format), whose assistant contents are joined.
    Raises:
        TypeError: any other type.
    """
    if isinstance(completion, str):
        return completion
    if isinstance(completion, dict):
        completion = [completion]
    if isinstance(completion, list):
        parts = []
        for message in completion:
            content = message.get("content", "") if isinstance(message, dict) else message
            if isinstance(content, list):  # multimodal content blocks
                content = "".join(b.get("text", "") for b in content if isinstance(b, dict))
            if message.get("role", "assistant") == "assistant":
                parts.append(str(content))
        return "\n".join(parts)
    raise TypeError(f"completion must be str or a list of messages, got {type(completion).__name__}")


def make_trl_reward(name: str, preset: str | None = None, **overrides: Any) -> Callable[..., list]:
    """Wrap a registered reward as a TRL reward function.

    The returned callable has the signature `(completions, **kwargs) -> list[float | None]`
    that `trl.GRPOTrainer(reward_funcs=...)` expects: `kwargs` holds the dataset columns,
    one list entry per completion. Its `__name__` is the reward name, so TRL logs
    `rewards/<name>/mean`.

    Raises:
        RlvrError: unknown reward or preset; KeyError-like RlvrError when a needed dataset
            column is missing from the batch.
    """
    spec = get_reward(name)
    params = spec.params(preset, **overrides)

    def reward_func(completions: list, **kwargs: Any) -> list[float | None]:
        missing = [f for f in spec.fields if f not in kwargs]
        if missing:
            raise RlvrError(
                f"reward {name!r} needs dataset column(s) {missing}; the batch has "
                f"{sorted(k for k in kwargs if not k.startswith('_'))}"
            )
        scores = []
        for i, completion in enumerate(completions):
            fields = {f: kwargs[f][i] for f in spec.fields}
            scores.append(spec.core(completion_text(completion), **fields, **params).score)
        return scores

    functools.update_wrapper(reward_func, spec.core)
    reward_func.__name__ = name
    reward_func.__qualname__ = name
    return reward_func


def score_rows(name: str, rows: list[dict[str, Any]], preset: str | None = None,
               **overrides: Any) -> list[RewardResult]:
    """Score rows that hold a `completion` plus the reward's fields (for `rlvr score`).

    Raises:
        RlvrError: a row lacks `completion` or a needed field (names the row index).
    """
    spec = get_reward(name)
    params = spec.params(preset, **overrides)
    results = []
    for i, row in enumerate(rows):
        missing = [f for f in ("completion", *spec.fields) if f not in row]
        if missing:
            raise RlvrError(f"row {i + 1} lacks field(s) {missing} needed by reward {name!r}")
        fields = {f: row[f] for f in spec.fields}
        results.append(spec.core(completion_text(row["completion"]), **fields, **params))
    return results
