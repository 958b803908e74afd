"""`math` reward: mathematical equivalence through math-verify.

The gold solution and the response are parsed with `math_verify.parse` and compared with
`math_verify.verify(gold, prediction)`, in that documented order (the comparison is not
symmetric: the gold decides, for example, whether an interval or a set is expected). A
gold answer that does not parse gives a score of None, never 1.0: an unparseable gold
would otherwise be scored against nothing.

Bare LaTeX without math delimiters (`\\text{13}`, `\\frac12`: a short text with a
backslash command and no `$`) is parsed a second time wrapped in `$...$`, since
math-verify only reads LaTeX inside delimiters or `\\boxed{}`. Prose is never wrapped
(it would parse as a product of single-letter symbols).

Timeouts: math-verify bounds parsing and comparison with `signal.alarm`, which only
works in the main thread. In the main thread (where TRL calls reward functions) the
`timeout_s` limit applies; a response whose parsing or comparison times out scores 0.0
(outcome `timeout`: a response that cannot be verified earns nothing), a gold answer that
times out gives None. In other threads the timeout is switched off (math-verify would
raise otherwise) and the outcome details say so.
"""

from __future__ import annotations

import functools
import threading
from typing import Any

from rlvr.rewards.base import RewardResult, register_reward


def _timeout(timeout_s: int | None) -> int | None:
    if threading.current_thread() is not threading.main_thread():
        return None
    return timeout_s if timeout_s and timeout_s > 0 else None


def _parse(text: str, timeout_s: int | None) -> list:
    """Parse with math-verify; on no result, retry the text wrapped in $...$.

    Only expressions that math-verify turns into SymPy count (`no_fallback`: a raw
    string that failed to parse is not an answer). math-verify catches the failures of
    single candidate expressions itself; with
    `raise_on_error=True` what reaches us is a timeout or an unexpected error, which
    counts as "nothing parsed".

    Raises:
        math_verify.errors.TimeoutException: parsing took longer than `timeout_s`.
    """
    from math_verify import parse

    def attempt(candidate: str) -> list:
        try:
            return parse(candidate, fallback_mode="no_fallback", parsing_timeout=timeout_s,
                         raise_on_error=True)
        except Exception:  # noqa: BLE001  (TimeoutException is a BaseException: it passes)
            return []

    parsed = attempt(text)
    stripped = text.strip()
    if not parsed and "\\" in stripped and "$" not in stripped and len(stripped.split()) <= 3:
        parsed = attempt(f"${stripped}$")  # bare LaTeX such as \text{13}, not prose
    return parsed


@functools.lru_cache(maxsize=4096)
def _parse_gold(solution: str, timeout_s: int | None) -> tuple[list | None, str | None]:
    """Parsed gold (cached: GRPO scores every gold once per generation), or an error."""
    from math_verify.errors import TimeoutException

    try:
        parsed = _parse(solution, timeout_s)
    except TimeoutException:
        return None, "gold parsing timed out"
    return (parsed, None) if parsed else (None, "gold does not parse")


@register_reward("math", fields=("solution",), score_range=(0.0, 1.0))
def math_reward(completion: str, *, solution: Any, timeout_s: int = 5,
                correct: float = 1.0, wrong: float = 0.0) -> RewardResult:
    """1.0 when the response's answer is mathematically equivalent to the gold solution.

    Args:
        completion: the response (its `\\boxed{}` answer, or the last LaTeX/number
            math-verify finds).
        solution: the gold answer or full gold solution (str; its `\\boxed{}` counts).
        timeout_s: seconds allowed for each parse and comparison (main thread only).
        correct, wrong: the two scores (kept within [0, 1]).
    Returns:
        RewardResult with outcome `correct`, `wrong`, `no_answer` (nothing parsed in the
        response), `timeout` (score `wrong`), `bad_gold` (score None). Details:
        `gold`, `predicted` (math-verify's string forms), `error`.
    Source: math-verify (Hugging Face), `parse` + `verify(gold, target)`.
    """
    from math_verify import verify
    from math_verify.errors import TimeoutException

    limit = _timeout(timeout_s)
    details: dict[str, Any] = {}
    if timeout_s and not limit:
        details["note"] = "timeout off outside the main thread"
    if not isinstance(solution, str) or not solution.strip():
        return RewardResult(None, "bad_gold", {**details, "error": "empty or non-string gold"})
    gold, error = _parse_gold(solution, limit)
    if gold is None:
        return RewardResult(None, "bad_gold", {**details, "error": error})
    details["gold"] = str(gold[-1])
    try:
        predicted = _parse(completion or "", limit)
    except TimeoutException:
        return RewardResult(wrong, "timeout", {**details, "error": "response parsing timed out"})
    if not predicted:
        return RewardResult(wrong, "no_answer", details)
    details["predicted"] = str(predicted[-1])
    try:
        ok = verify(gold, predicted, timeout_seconds=limit, raise_on_error=True)
    except TimeoutException:
        return RewardResult(wrong, "timeout", {**details, "error": "comparison timed out"})
    except Exception as exc:  # noqa: BLE001  (a comparison that fails proves nothing)
        error = f"comparison failed: {exc!r}"[:200]
        return RewardResult(wrong, "wrong", {**details, "error": error})
    return RewardResult(correct if ok else wrong, "correct" if ok else "wrong", details)
