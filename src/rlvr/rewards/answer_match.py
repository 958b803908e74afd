"""Does a free-text response give the gold answer? (the `selfaware` reward's matcher)

Rules (each closes a way to be paid without answering; docs/rewards.md has the table):

* Text is folded before matching (`fold`): Unicode compatibility forms (NFKC: full-width
  letters, no-break spaces, ligatures) and typographic quotes become their plain forms,
  so "I don\u2019t know" reads as "I don't know" and "\uff30aris" as "Paris".
* A text alias must sit on word boundaries (`contains_word`: "10" does not contain "1",
  "Parisian" does not contain "Paris").
* A numeric alias (one that states one number read whole, `rlvr.rewards.numbers`) is
  matched by value against the response's number tokens: "108" is not inside "108.92",
  and "0.5" matches "1/2".
* Several candidates are not an answer. For a text alias: the alias among a list of short
  alternatives in one sentence (`lists_candidates`). For a numeric alias: another number
  of the answer's kind besides the gold one - a value within a factor of 10 of the gold
  (a result, not a year next to a count) that is not one of the question's own numbers
  (restating "9 times 12" is not a second answer). "60, which is 6 times 5, 60, 6 times 5
  equals 30" offers 60 and 30 for gold 30: a list, not an answer. Without the question
  (no `prompt` field), numbers restated from it count as candidates too, except operands
  of arithmetic written out ("17 + 20 = 37": 17 and 20 are operands, 37 the result).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from fractions import Fraction

from rlvr.rewards.numbers import iter_numbers, numbers_equal, numbers_in, read_whole

_QUOTES = str.maketrans({
    "\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u201b": "'", "\u2032": "'", "\u00b4": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
    "\u00ab": '"', "\u00bb": '"', "\u3002": ".", "\uff61": ".",
})


def fold(text: str) -> str:
    """`text` with Unicode compatibility forms (NFKC) and typographic quotes folded.

    Curly apostrophes and primes become "'", curly and angle quotation marks become '"',
    the ideographic full stop becomes ".". ASCII text is returned unchanged (fast path).
    """
    if text.isascii():
        return text
    return unicodedata.normalize("NFKC", text).translate(_QUOTES)


def contains_word(text: str, alias: str) -> bool:
    """True when `alias` occurs in `text` with no letter, digit or "_" right before or after."""
    start = text.find(alias)
    while start >= 0:
        end = start + len(alias)
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        if not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_"):
            return True
        start = text.find(alias, start + 1)
    return False


_SENTENCE = re.compile(r"[.!\n:]+(?=\s|$)")
_ITEM_SEP = re.compile(r"\s*(?:[,;?]|\bor\b|\band\b|(?<=[a-z\x00])\s*/\s*(?=[a-z\x00]))\s*")
_MAYBE_LIST = re.compile(r"[,;?/]|\bor\b|\band\b")
_OR = re.compile(r"\bor\b|[a-z\x00]\s*/\s*[a-z\x00]")


def _mark(text: str, alias: str) -> str:
    """`text` with each word-bounded occurrence of `alias` replaced by one mark character."""
    out, pos = [], 0
    start = text.find(alias)
    while start >= 0:
        end = start + len(alias)
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        if not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_"):
            out.append(text[pos:start] + _MARK)
            pos = end
            start = text.find(alias, end)
        else:
            start = text.find(alias, start + 1)
    return "".join(out) + text[pos:]


_MARK = "\x00"


def lists_candidates(text: str, alias: str, max_item_words: int = 3) -> bool:
    """True when `alias` is one of several candidate answers offered in `text`.

    The alias's occurrences are first marked as single items (so a gold that itself holds
    "and", "or", a comma or a final period, "eggs or ova", counts as one candidate). Within
    the sentence that holds the alias, the text is cut at commas, semicolons, question
    marks, "or", "and" and word/word slashes. A candidate item has at most
    `max_item_words` words, or is the alias or ends with it after a lead-in such as "it
    could be". The alias must sit in a run of consecutive candidate items that offers
    alternatives: two or more items when the sentence has an "or" (or a word/word slash),
    else three or more. "The capital of France is Paris." and "London, England." are not
    lists; "Paris or Rome", "Paris, Rome, Berlin" and "Paris? Rome? Berlin?" are. Both
    arguments are expected lower-cased.
    """
    if not _MAYBE_LIST.search(text):  # no separator at all: the common case, cheap
        return False
    for sentence in _SENTENCE.split(_mark(text, alias)):
        if _MARK not in sentence:
            continue
        items = [p.strip() for p in _ITEM_SEP.split(sentence) if p.strip()]
        flags = [len(p.split()) <= max_item_words or p.endswith(_MARK) for p in items]
        run: list[str] = []  # consecutive candidate items
        for item, flag in zip(items + [""], flags + [False]):
            if flag:
                run.append(item)
                continue
            if any(_MARK in p for p in run) and (
                    len(run) >= 3 or (len(run) >= 2 and _OR.search(sentence))):
                return True
            run = []
    return False


@dataclass(frozen=True)
class AnswerMatch:
    """How a response relates to the gold aliases.

    Attributes:
        hit: the alias found (None when none is given as the answer).
        listed: True when the hit is only one of several candidates offered.
        others: for a numeric hit, the other candidate values (as strings).
    """

    hit: str | None = None
    listed: bool = False
    others: tuple[str, ...] = ()


_NO_MATCH = AnswerMatch()


def _same_kind(value: Fraction, gold: Fraction) -> bool:
    """A value within a factor of 10 of the gold, of the same sign (zero: |value| < 10)."""
    if gold == 0:
        return abs(value) < 10
    if value == 0 or (value > 0) != (gold > 0):
        return False
    ratio = abs(value / gold)
    return Fraction(1, 10) <= ratio <= 10


_OPERATOR = r"(?:[-+*/\u00d7\u00f7\u2212x]|times|plus|minus|divided by|multiplied by)"
_OPERATOR_AFTER = re.compile(rf"\s*{_OPERATOR}\s*[-+$]?[\d.]")
_OPERATOR_BEFORE = re.compile(rf"[\d.)]\s*{_OPERATOR}\s*$")


def _operand(text: str, start: int, end: int) -> bool:
    """True when the number at text[start:end] is an operand of arithmetic ("17 + 20")."""
    return bool(_OPERATOR_AFTER.match(text, end) or _OPERATOR_BEFORE.search(text, 0, start))


def _numeric_match(text: str, alias: str, gold: Fraction, question: str) -> AnswerMatch:
    tokens = list(iter_numbers(text))
    golds = [t for t in tokens if numbers_equal(t.value, gold)]
    if not golds:
        return _NO_MATCH
    if any(lists_candidates(text, t.text) for t in golds):  # "london, 108 or mars"
        return AnswerMatch(alias, True)
    asked = numbers_in(question) if question else []
    others = sorted({t.value for t in tokens if not numbers_equal(t.value, gold)
                     and _same_kind(t.value, gold) and not _operand(text, t.start, t.end)
                     and not any(numbers_equal(t.value, q) for q in asked)})
    return AnswerMatch(alias, bool(others), tuple(str(v) for v in others))


@functools.lru_cache(maxsize=65536)
def alias_number(alias: str) -> int | Fraction | None:
    """The number a gold alias states whole (no words around it), or None; cached."""
    return read_whole(alias, allow_words=False)


def match_answer(text: str, aliases: list[str], *, question: str = "",
                 match: str = "word") -> AnswerMatch:
    """Find the gold answer in a response (rules in the module docstring).

    Args:
        text: the response, folded and lower-cased.
        aliases: gold answers, folded and lower-cased; any of them counts.
        question: the question text, lower-cased ("" when unknown); its numbers are not
            counted as competing candidates.
        match: "word" (word boundaries, numbers by value, lists detected) or "substring"
            (the reference project's plain containment: no number or list rules).
    Returns:
        an `AnswerMatch`: listed when any alias found sits among candidates (a long
        alias listed makes a shorter one inside it listed too), else the first alias found.
    """
    if match == "substring":
        hit = next((a for a in aliases if a in text), None)
        return AnswerMatch(hit) if hit is not None else _NO_MATCH
    first = None
    for alias in aliases:
        gold = alias_number(alias)
        if gold is not None:
            found = _numeric_match(text, alias, gold, question)
        elif contains_word(text, alias):
            found = AnswerMatch(alias, lists_candidates(text, alias))
        else:
            continue
        if found.listed:
            return found
        first = first or (found if found.hit is not None else None)
    return first or _NO_MATCH
