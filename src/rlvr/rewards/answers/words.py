"""Word boundaries for answer matching: where an alias occurs in a response as a word of
its own ("10" is not in "108", "Paris" not in "Parisian"); a character of a script written
without spaces (Chinese, Japanese, Korean) next to it is no letter of its word.

Standard library only. Used by `answers.match` and `answers.candidates`.
"""

from __future__ import annotations

import re

# scripts written without spaces between words (CJK ideographs, kana, Hangul): a character
# of these next to an answer is no part of it ("水的化学式是H2O。", "答案是东京。", "파리는")
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")


def _joins(ch: str) -> bool:
    """Whether `ch` next to an answer would make it part of a longer word."""
    return (ch.isalnum() or ch == "_") and not _UNSPACED.match(ch)


def word_starts(text: str, alias: str):
    """Start indices of every occurrence of `alias` in `text` with no letter, digit or "_"
    right before or after it (overlapping occurrences included); a character of a script
    written without spaces (Chinese, Japanese, Korean) is no letter of the answer's word."""
    start = text.find(alias)
    while start >= 0:
        end = start + len(alias)
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        if not _joins(before) and not _joins(after):
            yield start
        start = text.find(alias, start + 1)


def contains_word(text: str, alias: str) -> bool:
    """True when `alias` occurs in `text` with no letter, digit or "_" right before or after."""
    return alias in text and next(word_starts(text, alias), None) is not None


def mark_words(text: str, alias: str, mark: str) -> str:
    """`text` with each word-bounded occurrence of `alias` (left to right, not overlapping)
    replaced by `mark`."""
    out, pos = [], 0
    for start in word_starts(text, alias):
        if start >= pos:
            out.append(text[pos:start] + mark)
            pos = start + len(alias)
    return "".join(out) + text[pos:]
