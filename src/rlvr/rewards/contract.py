"""The reward contract: what a reward is and what it may be given.

`RewardResult` is one verdict (a score, or None for a sample that cannot be scored, and an
outcome label), `RewardSpec` a registered reward (its per-sample core, the dataset fields it
reads, its declared score range, presets and outcome labels) and `RewardContractError` the
error of a user's function that returns something else. `RewardSpec.params` resolves a
preset plus overrides and refuses bad parameters here (`check_params`), at configuration
time, never on the first scored sample.

Parameter checks. Types are read from the core's keyword defaults (a bool parameter takes
a bool, a float one a number, ...; a union annotation such as `bool | str` is not checked);
a core that takes its parameters as `**params` and builds a value object from them names
that frozen dataclass in a `params_type` attribute, whose fields are then the parameters
(`rlvr.rewards.selfaware.SelfAwarePreset`). The score-value parameters (`VALUE_PARAMS`:
`correct`, `wrong`, `hedge_*`, ...) must lie within the reward's declared `score_range`,
which the preflight margins and group statistics assume. A core may list the allowed values
of a text parameter in a `param_choices` attribute ({"answer_format": ("free", "boxed",
"answer_line")}) and check its parameters together in a `param_check(params)` attribute
(the judge settings of `decision: judge`, `rlvr.rewards.judge`), which raises `RlvrError`.

The registry (`REWARDS`, `register_reward`, `get_reward`) and the adapters that call
rewards (TRL's reward functions, `score_rows`) are `rlvr.rewards.registry`. They are two
modules because the registry loads user functions (`rlvr.rewards.user`), which build
`RewardSpec`s: this module imports nothing of rlvr but `rlvr.errors` and the reasoning rule
(`rlvr.rewards.answers.reasoning`, standard library only), so the user loader sits between
the two without an import circle.

Reasoning blocks. Every reward reads the final answer after a reasoning block
(`<think>...</think> answer`), cut by one rule in one place: `RewardSpec.score_batch`
applies `rlvr.rewards.answers.final_answers` before any core sees a text, and the function
`register_reward` returns (what `from rlvr.rewards.qa import qa_reward` gives) applies it
to a direct call. The tags are the
parameter `reasoning_tags` that every reward takes (default `("<think>", "</think>")`; null
reads whole completions); a reward registered with `whole_completion=True` (one that judges
the block itself or the completion's length) sees the whole text.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import inspect
from dataclasses import dataclass, field
from typing import Any, Callable

from rlvr.errors import RlvrError
from rlvr.rewards.answers import (DEFAULT_REASONING_TAGS, REASONING_PARAM,
                                            final_answers, reasoning_tags)

# Outcomes the registry assigns to any reward: the core raised, or `rlvr score` met a bad row.
REGISTRY_OUTCOMES = ("reward_error", "bad_row")


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
            registry's own `reward_error` and `bad_row`); empty = not declared.
        all_fields: the core takes `**fields`: every column of a row (or TRL batch) is
            passed, not only the declared ones (user rewards, `rlvr.rewards.user`; and
            `cosine_scaled`, which hands them to its base reward).
        source: where a user reward came from (`module:function` or `/abs/file.py:function`);
            "" for a built-in reward.
        whole_completion: the core reads the whole completion, reasoning block included
            (`think_format`, the length rewards); otherwise it reads the final answer after
            the block (module docstring, "Reasoning blocks").
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
    all_fields: bool = False
    source: str = ""
    whole_completion: bool = False

    def declared_outcomes(self, *, with_registry: bool = True) -> tuple[str, ...]:
        """The outcome labels this reward may return, in declaration order.

        Args:
            with_registry: also list `REGISTRY_OUTCOMES` (`reward_error`, `bad_row`), which
                the registry, not the core, assigns.
        Returns:
            the labels; () when the reward declares none.
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
        range (`check_params`).

        Raises:
            RlvrError: the first bad parameter, with the known names and the closest one.
        """
        check_params(self, params)

    def row_fields(self, row: dict[str, Any]) -> dict[str, Any]:
        """Pick this reward's fields from one row (required ones must be present); with
        `all_fields`, every key of the row but `completion`."""
        if self.all_fields:
            return {k: v for k, v in row.items() if k != "completion"}
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
        """Score texts against their rows' fields, through `batch_core` when there is one.

        The cores read each completion's final answer (`final_answers` with the
        `reasoning_tags` parameter, default `DEFAULT_REASONING_TAGS`; an unclosed block is an
        empty answer), or the whole text when `whole_completion`; `reasoning_tags` itself
        never reaches a core.
        """
        params = dict(params)
        tags = params.pop(REASONING_PARAM, DEFAULT_REASONING_TAGS)
        if not self.whole_completion:
            completions = final_answers(completions, tags)
        if self.batch_core is not None:
            return self.batch_core(completions, [self.row_fields(r) for r in rows], **params)
        return [self.core(c, **self.row_fields(r), **params) for c, r in zip(completions, rows)]


class RewardContractError(RlvrError):
    """A user's reward function returned something the contract does not allow (a string,
    a list from a per-sample function, too few scores, a score outside its declared range).

    It is a bug in the function, not in one row, so the registry never turns it into a
    `reward_error` / `bad_row` sample: it stops `rlvr score`, the preflight and training.

    Attributes:
        function: the function's reference (`module:function` or `file.py:function`).
        problem: what it did, e.g. "returned 'yes' (a str)".
        fix: what a reward function must do instead.
        index: 0-based sample in the batch it failed on, or None (the whole batch).
        row: that sample's fields (shown shortened), or None.
    """

    def __init__(self, function: str, problem: str, fix: str, index: int | None = None,
                 row: dict[str, Any] | None = None):
        self.function, self.problem, self.fix, self.index, self.row = (
            function, problem, fix, index, row)
        where = "" if index is None else f" for sample {index + 1} of the batch"
        shown = "" if not row else " (" + ", ".join(
            f"{k}={str(v)[:40]!r}" for k, v in list(row.items())[:4]) + ")"
        super().__init__(f"reward function {function} {problem}{where}{shown}; {fix}")

    def at(self, index: int) -> "RewardContractError":
        """The same error for sample `index` of a larger batch (scored one at a time)."""
        return RewardContractError(self.function, self.problem, self.fix, index, self.row)


# Parameters that set a reward value: they must stay within the reward's score range.
VALUE_PARAMS = frozenset((
    "correct", "wrong", "abstain_answerable", "abstain_unanswerable", "answer_unanswerable",
    "hedge_correct", "hedge_wrong", "hedge_unanswerable", "list_candidates", "abstain_known",
    "abstain", "hedge", "answer", "value", "passed", "failed"))


def _expected_type(parameter: Any) -> type | None:
    """The type a keyword parameter takes, judged from its default; None (not checked) for
    a union annotation ("bool | str") or a default of another type."""
    annotation = parameter.annotation
    if isinstance(annotation, str) and "|" in annotation:
        return None
    for kind in (bool, int, float, str):
        if type(parameter.default) is kind:
            return kind
    return None


def _fits(value: Any, kind: type) -> bool:
    if kind is bool:
        return isinstance(value, bool)
    if kind is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


@functools.lru_cache(maxsize=None)
def _keywords(core: Any, columns: tuple[str, ...]) -> tuple[Any, bool, list[str]]:
    """A core's parameters, whether it takes **kwargs, and its keyword parameters that are
    not dataset columns (read once per core: `params()` also runs once per batch when a
    reward scores through another, as `cosine_scaled` does). A core with a `params_type`
    (a dataclass its `**params` build) takes that dataclass's fields and nothing else."""
    value_object = getattr(core, "params_type", None)
    if value_object is not None:
        fields = {f.name: inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY,
                                            default=f.default, annotation=f.type)
                  for f in dataclasses.fields(value_object)}
        return fields, False, [n for n in fields if n not in columns]
    signature = inspect.signature(core).parameters
    open_ended = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in signature.values())
    known = [n for n, p in signature.items()
             if p.kind is inspect.Parameter.KEYWORD_ONLY and n not in columns]
    return signature, open_ended, known


def check_params(spec: Any, params: dict[str, Any]) -> None:
    """Refuse parameters `spec` does not take, of the wrong type, or reward values outside
    its score range.

    Raises:
        RlvrError: the first bad parameter, with the known names and the closest one.
    """
    signature, open_ended, known = _keywords(
        spec.core, spec.fields + spec.optional_fields + spec.required_any)
    low, high = spec.score_range
    for key, value in params.items():
        if key == REASONING_PARAM:  # every reward takes it (module docstring)
            try:
                reasoning_tags(value)
            except ValueError as exc:
                raise RlvrError(f"reward {spec.name!r} parameter {exc}") from None
            continue
        if key not in signature or key not in known:
            if open_ended:
                continue
            close = difflib.get_close_matches(key, known + [REASONING_PARAM], n=1)
            hint = f" Did you mean {close[0]!r}?" if close else ""
            raise RlvrError(f"reward {spec.name!r} has no parameter {key!r}; known: "
                            f"{', '.join(sorted(known + [REASONING_PARAM]))}.{hint}")
        kind = _expected_type(signature[key])
        if kind is not None and not _fits(value, kind):
            raise RlvrError(f"reward {spec.name!r} parameter {key!r} must be "
                            f"{kind.__name__}, got {value!r}")
        allowed = getattr(spec.core, "param_choices", {}).get(key)
        if allowed is not None and value not in allowed:
            close = difflib.get_close_matches(str(value), [str(a) for a in allowed], n=1)
            hint = f" Did you mean {close[0]!r}?" if close else ""
            raise RlvrError(f"reward {spec.name!r} parameter {key!r} must be one of "
                            f"{', '.join(map(str, allowed))}; got {value!r}.{hint}")
        if key in VALUE_PARAMS and value is not None and not _fits(value, float):
            raise RlvrError(f"reward {spec.name!r} parameter {key!r} must be a number, got "
                            f"{value!r}")
        if key in VALUE_PARAMS and value is not None and not low <= float(value) <= high:
            raise RlvrError(f"reward {spec.name!r} parameter {key!r} = {value!r} is outside "
                            f"the reward's score range [{low:g}, {high:g}]")
    together = getattr(spec.core, "param_check", None)  # a rule across parameters
    if together is not None:
        together(params)
