"""The reward contract's data types: `RewardResult` (one verdict), `RewardSpec` (a
registered reward) and `RewardContractError` (a user's reward function broke the contract).

The registry itself (`REWARDS`, `register_reward`, `get_reward`) and the TRL adapters live
in `rlvr.rewards.base`, which re-exports these names; this module imports nothing of rlvr
but `rlvr.errors`, so `rlvr.rewards.user` can build specs without an import circle.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any, Callable

from rlvr.errors import RlvrError

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
            registry's own `reward_error` and `bad_row`); empty = not declared here (the
            built-in rewards then take theirs from `rlvr.rewards.outcomes`).
        all_fields: the core takes `**fields`: every column of a row (or TRL batch) is
            passed, not only the declared ones (user rewards, `rlvr.rewards.user`).
        source: where a user reward came from (`module:function` or `/abs/file.py:function`);
            "" for a built-in reward.
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
        range (`rlvr.rewards.params.check_params`).

        Raises:
            RlvrError: the first bad parameter, with the known names and the closest one.
        """
        from rlvr.rewards.params import check_params

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
        """Score texts against their rows' fields, through `batch_core` when there is one."""
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
