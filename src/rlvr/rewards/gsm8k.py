"""GSM8K rewards: final-answer correctness and the `#### <number>` format.

GSM8K solutions end with a line `#### N`. `gsm8k_correctness` reads the number after the
LAST `####` of a response (so a worked example's `#### 12` earlier in the text does not
count) and compares it with the gold number; `gsm8k_format` pays for ending the reasoning
with such a line. Together they score at most 1.0 + 0.5 = 1.5.

Numbers are normalised only in ways that keep different numbers different: thousands
commas are removed only in valid groups (`70,000`; `7,0` is not a number), `$`, `%`, a
leading `+` and trailing units are dropped, and `18.00` equals `18` because values are
compared numerically (integers exactly, decimals within an absolute tolerance of 1e-3).
"""

from __future__ import annotations

import re
from typing import Any

from rlvr.rewards.base import RewardResult, register_reward

# A number not glued to a word or another number: optional sign, optional "$", digits in
# valid thousands groups or plain, optional decimals; never followed by more digits or by
# "," / "." and a digit (so "7,0" and "1.2.3" are not read as numbers).
NUMBER_RE = re.compile(
    r"(?<![\w.,])(?P<sign>[-+\u2212])?\s?\$?\s?(?P<sign2>-)?"
    r"(?P<int>\d{1,3}(?:,\d{3})+|\d+)(?P<frac>\.\d+)?(?!\d|[.,]\d)"
)
_BOXED_RE = re.compile(r"\\boxed\s*\{((?:[^{}]|\{[^{}]*\})*)\}")
_ANSWER_IS_RE = re.compile(r"answer\s*(?:is|:|=)\s*", re.IGNORECASE)
_FORMAT_LINE_RE = re.compile(r"####[ \t]*[-+]?\$?[ \t]*(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
                             r"[ \t]*%?\.?[ \t]*")

Number = int | float


def parse_number(text: str, last: bool = False) -> Number | None:
    """Read the first (or last) number in `text`.

    Returns an int when the value is integral (`18.00` -> 18), else a float; None when
    there is no number. Signs: a leading "-", "+" or the Unicode minus, before or after
    "$". Thousands commas only in valid groups of three.
    """
    match = None
    if last:
        for match in NUMBER_RE.finditer(text):
            pass
    else:
        match = NUMBER_RE.search(text)
    if match is None:
        return None
    negative = match.group("sign") in ("-", "\u2212") or match.group("sign2") == "-"
    whole = int(match.group("int").replace(",", ""))
    frac = match.group("frac")
    value: Number = whole
    if frac and frac.strip(".0"):
        value = float(f"{whole}{frac}")
    return -value if negative else value


def numbers_equal(a: Number, b: Number, tolerance: float = 1e-3) -> bool:
    """Integers compare exactly; otherwise |a - b| <= tolerance (absolute)."""
    if isinstance(a, int) and isinstance(b, int):
        return a == b
    return abs(float(a) - float(b)) <= tolerance


def extract_answer(text: str, fallback: bool | str = False) -> tuple[Number | None, str | None]:
    """Find the response's final answer.

    Args:
        text: the response.
        fallback: False: only the number after the last `####`. "explicit": without a
            `####`, the last `\\boxed{}` or the last "answer is N". True or
            "last_number": also, as a last resort, the last number in the text.
    Returns:
        (value, source) with source "hash", "boxed", "answer_is" or "last_number";
        (None, None) when nothing is found; (None, "hash") when a `####` holds no number.
    """
    cut = text.rfind("####")
    if cut >= 0:
        line = text[cut + 4:].split("\n", 1)[0]
        return parse_number(line), "hash"
    if not fallback:
        return None, None
    boxed = _BOXED_RE.findall(text)
    if boxed:
        value = parse_number(boxed[-1])
        if value is not None:
            return value, "boxed"
    for match in reversed(list(_ANSWER_IS_RE.finditer(text))):
        value = parse_number(text[match.end():match.end() + 40])
        if value is not None:
            return value, "answer_is"
    if fallback in (True, "last_number"):
        value = parse_number(text, last=True)
        if value is not None:
            return value, "last_number"
    return None, None


def gold_number(final_answer: Any) -> Number | None:
    """The gold value: a number, or a string that is a number or ends with `#### N`."""
    if isinstance(final_answer, bool) or final_answer is None:
        return None
    if isinstance(final_answer, (int, float)):
        return final_answer
    text = str(final_answer)
    if "####" in text:
        text = text[text.rfind("####") + 4:]
    return parse_number(text)


@register_reward("gsm8k_correctness", fields=("final_answer",), score_range=(0.0, 1.0),
                 presets={"default": {}, "fallback": {"fallback": True}})
def gsm8k_correctness(completion: str, *, final_answer: Any, fallback: bool | str = False,
                      tolerance: float = 1e-3, correct: float = 1.0,
                      wrong: float = 0.0) -> RewardResult:
    """1.0 when the number after the last `####` equals the gold number, else 0.0.

    Args:
        completion: the response.
        final_answer: the gold number (int/float, "72", "1,000", or a full GSM8K answer
            ending in "#### 72").
        fallback: see `extract_answer`; False (default) scores a response without
            `####` as `no_answer`.
        tolerance: absolute tolerance for non-integer values.
        correct, wrong: the two scores (kept within [0, 1]).
    Returns:
        RewardResult; outcomes `correct`, `wrong`, `no_answer` (no `####`, or no number
        after it), `correct_fallback` / `wrong_fallback` (answer found by the fallback)
        and `bad_gold` (score None: the gold holds no number). Details: `predicted`,
        `gold`, `source`.
    Source: GSM8K answer format (Cobbe et al., 2021, "Training Verifiers to Solve Math
        Word Problems").
    """
    gold = gold_number(final_answer)
    if gold is None:
        return RewardResult(None, "bad_gold", {"error": f"no number in gold {final_answer!r}"})
    value, source = extract_answer(completion or "", fallback)
    details = {"predicted": value, "gold": gold, "source": source}
    if value is None:
        return RewardResult(wrong, "no_answer", details)
    ok = numbers_equal(value, gold, tolerance)
    suffix = "" if source == "hash" else "_fallback"
    return RewardResult(correct if ok else wrong, ("correct" if ok else "wrong") + suffix, details)


@register_reward("gsm8k_format", fields=(), score_range=(0.0, 0.5))
def gsm8k_format(completion: str, *, value: float = 0.5,
                 require_reasoning: bool = True) -> RewardResult:
    """`value` (0.5) when the response ends its reasoning with a `#### <number>` line.

    The last non-blank line must be `####`, a number (optionally with sign, `$`,
    thousands commas, decimals, `%` or a final period) and nothing else; with
    `require_reasoning`, some text must come before that line.

    Returns:
        RewardResult with outcome `formatted` or `unformatted` (details `reason`:
        "no_final_line", "no_reasoning").
    """
    text = (completion or "").rstrip()
    head, _, last = text.rpartition("\n")
    if not _FORMAT_LINE_RE.fullmatch(last.strip()):
        return RewardResult(0.0, "unformatted", {"reason": "no_final_line"})
    if require_reasoning and not head.strip():
        return RewardResult(0.0, "unformatted", {"reason": "no_reasoning"})
    return RewardResult(value, "formatted", {})
