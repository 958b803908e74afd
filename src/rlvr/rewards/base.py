"""Reward contract and registry.

A reward is a pure per-sample core `(completion: str, **fields) -> RewardResult` plus a
declared score range and the dataset fields it reads. `make_trl_reward` wraps a core as a
TRL reward function `(completions, **dataset_columns) -> list[float | None]`, named so TRL
logs it as `rewards/<name>/mean`; `make_trl_rewards` builds several, with weights, for
`GRPOTrainer(reward_funcs=..., args=GRPOConfig(reward_weights=...))`.

Fields come in three kinds: required `fields` (every row must have them), `optional_fields`
(passed when the row or batch has them; `prompt` is also filled from TRL's `prompts`
argument) and `required_any` (at least one of them must be present, e.g. `aliases` or
`answer`). A reward whose work is expensive per sample (the sandboxed `code` reward) also
registers a `batch_core` that scores a whole batch at once, in parallel.

Outcome labels are part of the contract: each reward declares the labels its verdicts
carry (`RewardSpec.outcomes`), so a judge model used as a reward (issue 17) must answer
with one of them; `rlvr.rewards.outcomes.validate_outcome` checks such a label and names
the known ones.
"""

from __future__ import annotations

import difflib
import functools
import logging
from dataclasses import dataclass, field
from typing import Any, Callable

from rlvr.errors import RlvrError

logger = logging.getLogger(__name__)


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
        optional_fields: columns passed to the core only when present.
        required_any: columns of which at least one must be present.
        batch_core: optional `(completions: list[str], rows: list[dict], **params) ->
            list[RewardResult]` used instead of calling `core` once per sample.
        outcomes: every outcome label the core can return (`declared_outcomes` adds the
            registry's own `reward_error` and `bad_row`); empty = not declared here (the
            built-in rewards then take theirs from `rlvr.rewards.outcomes`).
    """

    name: str
    core: Callable[..., RewardResult]
    fields: tuple[str, ...]
    score_range: tuple[float, float]
    presets: dict[str, dict[str, Any]]
    optional_fields: tuple[str, ...] = ()
    required_any: tuple[str, ...] = ()
    batch_core: Callable[..., list[RewardResult]] | None = None
    outcomes: tuple[str, ...] = ()

    def declared_outcomes(self, *, with_registry: bool = True) -> tuple[str, ...]:
        """The outcome labels this reward may return, in declaration order.

        Args:
            with_registry: also list `REGISTRY_OUTCOMES` (`reward_error`, `bad_row`), which
                the registry, not the core, assigns.
        Returns:
            the labels; () when the reward declares none (a user reward may not).
        """
        own = self.outcomes
        if not own:
            return ()
        return tuple(dict.fromkeys(own + (REGISTRY_OUTCOMES if with_registry else ())))

    def params(self, preset: str | None = None, **overrides: Any) -> dict[str, Any]:
        """Return the preset's parameters with `overrides` applied.

        Raises:
            RlvrError: unknown preset name (the message lists the known ones).
        """
        name = preset or "default"
        if name not in self.presets:
            close = difflib.get_close_matches(str(name), self.presets, n=1)
            hint = f" Did you mean {close[0]!r}?" if close else ""
            raise RlvrError(
                f"reward {self.name!r} has no preset {name!r}; known: {sorted(self.presets)}.{hint}"
            )
        self.check_params(overrides)
        return {**self.presets[name], **overrides}

    def check_params(self, params: dict[str, Any]) -> None:
        """Refuse unknown or ill-typed parameters and reward values outside the score
        range (`rlvr.rewards.params.check_params`).

        Raises:
            RlvrError: the first bad parameter, with the known names and the closest one.
        """
        from rlvr.rewards.params import check_params

        check_params(self, params)

    def row_fields(self, row: dict[str, Any]) -> dict[str, Any]:
        """Pick this reward's fields from one row (required ones must be present)."""
        fields = {f: row[f] for f in self.fields}
        for name in self.optional_fields + self.required_any:
            if name in row and name not in fields:
                fields[name] = row[name]
        return fields

    def missing_fields(self, available) -> list[str]:
        """Names of required columns absent from `available` (a set-like of column names).

        When none of `required_any` is present, the alternatives are reported joined by
        "|" (e.g. "aliases|answer").
        """
        missing = [f for f in self.fields if f not in available]
        if self.required_any and not any(f in available for f in self.required_any):
            missing.append("|".join(self.required_any))
        return missing

    def score_batch(self, completions: list[str], rows: list[dict[str, Any]],
                    params: dict[str, Any]) -> list[RewardResult]:
        """Score texts against their rows' fields, through `batch_core` when there is one."""
        if self.batch_core is not None:
            return self.batch_core(completions, [self.row_fields(r) for r in rows], **params)
        return [self.core(c, **self.row_fields(r), **params) for c, r in zip(completions, rows)]


REWARDS: dict[str, RewardSpec] = {}
# Outcomes the registry assigns to any reward: the core raised, or `rlvr score` met a bad row.
REGISTRY_OUTCOMES = ("reward_error", "bad_row")


def register_reward(name: str, *, fields: tuple[str, ...], score_range: tuple[float, float],
                    presets: dict[str, dict[str, Any]] | None = None,
                    optional_fields: tuple[str, ...] = (), required_any: tuple[str, ...] = (),
                    batch_core: Callable[..., list[RewardResult]] | None = None,
                    outcomes: tuple[str, ...] = ()):
    """Decorator that registers a per-sample reward core under `name`.

    See `RewardSpec` for the arguments. Registering a name twice replaces the entry.
    """

    def decorate(core: Callable[..., RewardResult]) -> Callable[..., RewardResult]:
        REWARDS[name] = RewardSpec(name, core, tuple(fields), score_range,
                                   dict(presets or {"default": {}}), tuple(optional_fields),
                                   tuple(required_any), batch_core, tuple(outcomes))
        return core

    return decorate


def get_reward(name: str) -> RewardSpec:
    """Look up a registered reward.

    Raises:
        RlvrError: unknown name; the message lists the known names and the closest one.
    """
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


def make_trl_reward(name: str, preset: str | None = None, observer: Callable | None = None,
                    **overrides: Any) -> Callable[..., list]:
    """Wrap a registered reward as a TRL reward function.

    The returned callable has the signature `(completions, **kwargs) -> list[float | None]`
    that `trl.GRPOTrainer(reward_funcs=...)` expects: `kwargs` holds the dataset columns,
    one list entry per completion (TRL also passes `prompts`, `completion_ids` and
    `trainer_state`; unknown keys are ignored, `prompts` feeds an optional `prompt` field).
    Its `__name__` is the reward name, so TRL logs `rewards/<name>/mean`. A None score
    becomes NaN in TRL: that reward is left out for that sample (see `make_trl_rewards`).
    `observer`, when given, is called after each batch as `observer(results, kwargs)` with
    the `RewardResult`s and TRL's keyword arguments (e.g. `completion_ids`, `log_metric`),
    so diagnostics read the outcomes without scoring twice
    (`rlvr.train.diagnostics.CalibrationObserver`). When TRL passes `log_extra`, the
    outcome labels go to its completion table as column `outcome/<name>` (the rollout log,
    `rlvr.train.rollouts`). A sample the reward raises on (an
    ill-formed row) scores None with outcome `reward_error` and a logged warning.

    Raises:
        RlvrError: unknown reward or preset; a needed dataset column is missing from the
            batch (the message names it and the columns the batch has).
    """
    spec = get_reward(name)
    params = spec.params(preset, **overrides)

    def reward_func(completions: list, **kwargs: Any) -> list[float | None]:
        if "prompt" in spec.optional_fields and "prompt" not in kwargs and "prompts" in kwargs:
            kwargs["prompt"] = kwargs["prompts"]
        missing = spec.missing_fields(kwargs)
        if missing:
            raise RlvrError(
                f"reward {name!r} needs dataset column(s) {missing}; the batch has "
                f"{sorted(k for k in kwargs if not k.startswith('_'))}"
            )
        wanted = [f for f in spec.fields + spec.optional_fields + spec.required_any if f in kwargs]
        rows = [{f: kwargs[f][i] for f in wanted} for i in range(len(completions))]
        texts = [completion_text(c) for c in completions]
        results = _score_isolated(spec, texts, rows, params)
        if observer is not None:
            observer(results, kwargs)
        if callable(kwargs.get("log_extra")):  # TRL >= 1.x: a column of its completion table
            kwargs["log_extra"](f"outcome/{reward_func.__name__}", [r.outcome for r in results])
        return [r.score for r in results]

    functools.update_wrapper(reward_func, spec.core)
    reward_func.__name__ = name
    reward_func.__qualname__ = name
    return reward_func


def _score_isolated(spec: RewardSpec, texts: list[str], rows: list[dict[str, Any]],
                    params: dict[str, Any],
                    on_failure: Callable[[int, Exception], RewardResult] | None = None,
                    ) -> list[RewardResult]:
    """Score a batch; when it raises, score one sample at a time and give each failing
    sample `on_failure(index, exc)` (default: score None, outcome `reward_error`, logged),
    so one odd row or completion cannot end a run that has already paid for generation."""
    try:
        return spec.score_batch(texts, rows, params)
    except Exception:  # noqa: BLE001  (isolate the failing samples)
        results = []
        for i, (text, row) in enumerate(zip(texts, rows)):
            try:
                results.append(spec.score_batch([text], [row], params)[0])
            except Exception as exc:  # noqa: BLE001
                results.append(on_failure(i, exc) if on_failure else _reward_error(spec, exc))
        return results


def _reward_error(spec: RewardSpec, exc: Exception) -> RewardResult:
    logger.warning("reward %s could not score a sample (scored None): %s: %s",
                   spec.name, type(exc).__name__, exc)
    return RewardResult(None, "reward_error", {"error": str(exc)[:200]})


def make_trl_rewards(
    entries: list[dict[str, Any]], observer: Callable | None = None,
) -> tuple[list[Callable[..., list]], list[float]]:
    """Build several TRL reward functions and their weights from config entries.

    Args:
        entries: one dict per reward: `name` (required), optional `preset`, `params`
            (overrides dict), `weight` (float, default 1.0) and `log_name` (the name TRL
            logs as `rewards/<log_name>/mean`; needed when one reward appears twice, e.g.
            with two presets).
    Returns:
        (reward_funcs, reward_weights): pass them as `GRPOTrainer(reward_funcs=...)` and
        `GRPOConfig(reward_weights=...)`. TRL sums the weighted rewards per sample
        (`sum_then_normalize`); a None from one reward counts as 0 in that sum, and a
        sample where every reward is None gets advantage 0. `observer` (see
        `make_trl_reward`) is attached to the first `selfaware` entry, if any.
    Raises:
        RlvrError: an entry without `name`, an unknown key, reward or preset, or two
            entries with the same logged name.
    """
    known = {"name", "preset", "params", "weight", "log_name"}
    funcs, weights, seen = [], [], set()
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict) or "name" not in entry:
            raise RlvrError(f"reward entry {i + 1} needs a 'name' key, got {entry!r}")
        unknown = sorted(set(entry) - known)
        if unknown:
            raise RlvrError(f"reward entry {i + 1} has unknown key(s) {unknown}; "
                            f"known: {sorted(known)}")
        watch = observer if entry["name"] == "selfaware" and observer is not None else None
        if watch is not None:
            observer = None  # only the first selfaware entry is observed
        func = make_trl_reward(entry["name"], entry.get("preset"), watch,
                               **(entry.get("params") or {}))
        log_name = entry.get("log_name") or entry["name"]
        if log_name in seen:
            raise RlvrError(f"two rewards would both log as rewards/{log_name}/mean; give one "
                            "of them a distinct 'log_name'")
        seen.add(log_name)
        func.__name__ = func.__qualname__ = log_name
        funcs.append(func)
        weights.append(float(entry.get("weight", 1.0)))
    return funcs, weights


def score_rows(name: str, rows: list[dict[str, Any]], preset: str | None = None,
               on_error: str = "raise", **overrides: Any) -> list[RewardResult]:
    """Score rows that hold a `completion` plus the reward's fields (for `rlvr score`).

    Args:
        on_error: "raise" (default): the first bad row raises; "skip": a bad row gets
            score None and outcome `bad_row` with the reason in `details["error"]`, and
            the other rows are scored. A row is bad when it lacks `completion` or a needed
            field, its completion is not text or chat messages, or the reward raises on it
            (e.g. `is_unanswerable: "maybe"`).
    Raises:
        RlvrError: with on_error "raise", a bad row (the message starts "row N", N from 1);
            an unknown reward, preset or parameter; an unknown on_error value.
    """
    if on_error not in ("raise", "skip"):
        raise RlvrError(f"on_error must be 'raise' or 'skip', not {on_error!r}")
    spec = get_reward(name)
    params = spec.params(preset, **overrides)
    results: list[RewardResult | None] = [None] * len(rows)
    good, texts = [], []
    for i, row in enumerate(rows):
        try:
            missing = ((["completion"] if "completion" not in row else [])
                       + spec.missing_fields(row))
            if missing:
                raise RlvrError(f"lacks field(s) {missing} needed by reward {name!r}")
            texts.append(_row_text(row["completion"]))
            good.append(i)
        except (RlvrError, TypeError) as exc:
            results[i] = _bad_row(i, exc, on_error)
    scored = _score_isolated(spec, texts, [rows[i] for i in good], params,
                             lambda k, exc: _bad_row(good[k], exc, on_error))
    for i, result in zip(good, scored):
        results[i] = result
    return results  # type: ignore[return-value]


def _row_text(completion: Any) -> str:
    if completion is None or isinstance(completion, (int, float, bool)):
        raise RlvrError(f"'completion' must be text or chat messages, got {completion!r}")
    return completion_text(completion)


def _bad_row(index: int, exc: Exception, on_error: str) -> RewardResult:
    message = str(exc) if isinstance(exc, RlvrError) else f"{type(exc).__name__}: {exc}"
    if on_error == "raise":
        raise RlvrError(f"row {index + 1} {message}") from None
    return RewardResult(None, "bad_row", {"error": message})
