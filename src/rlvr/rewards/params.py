"""Checks of a reward's parameters (`RewardSpec.check_params`).

Types are read from the core's keyword defaults (a bool parameter takes a bool, a float one
a number, ...; a union annotation such as `bool | str` is not checked). The score-value
parameters (`VALUE_PARAMS`: `correct`, `wrong`, `hedge_*`, ...) must lie within the
reward's declared `score_range`, which the preflight margins and group statistics assume.
A core may list the allowed values of a text parameter in a `param_choices` attribute
({"answer_format": ("free", "boxed", "answer_line")}); other values are refused here, at
configuration time, not on the first scored sample. A core may also check its parameters
together in a `param_check(params)` attribute (the judge settings of `decision: judge`,
`rlvr.rewards.judge_decision`), which raises `RlvrError`.
"""

from __future__ import annotations

import difflib
import functools
import inspect
from typing import Any

from rlvr.errors import RlvrError

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
    reward scores through another, as `cosine_scaled` does)."""
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
        if key not in signature or key not in known:
            if open_ended:
                continue
            close = difflib.get_close_matches(key, known, n=1)
            hint = f" Did you mean {close[0]!r}?" if close else ""
            raise RlvrError(f"reward {spec.name!r} has no parameter {key!r}; known: "
                            f"{', '.join(sorted(known))}.{hint}")
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
