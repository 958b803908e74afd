"""The normalisation of the `qa` reward: SQuAD's, made to keep numbers' values and the
letters that name things (`normalize_answer`).

Source: the official SQuAD v1.1 evaluation script (`normalize_answer`), Rajpurkar et al.
(2016); the differences are listed in the function's docstring and in `rlvr.rewards.qa`.
"""

from __future__ import annotations

import functools
import re
import string
import unicodedata

from rlvr.rewards.vocabulary import TITLES, alternation

_ARTICLES_RE = re.compile(r"\b(?:a|an|the)\b(?=\W*\w)")  # an article before a word
_NAME_LETTER_RE = re.compile(r"(?<=[A-Za-z0-9] )A\b(?!['\u2019]\w)")
_PUNCT_TABLE = {ord(c): None for c in string.punctuation}
_THOUSANDS_RE = re.compile(  # "1,234.56" too; thin, no-break and plain spaces group as commas do
    r"(?<![\d.,\u2009\u202f\u00a0])(?<!\d )(\d{1,3})((?P<sep>[,\u2009\u202f\u00a0 ])\d{3}"
    r"(?:(?P=sep)\d{3})*)(?![\d-]|[,\u2009\u202f\u00a0 ]\d)")
_INNER_POINT_RE = re.compile(r"(?<=\d)([./])(?=\d)")
_SIGNED_CURRENCY_RE = re.compile(r"(?<![\w.])([-\u2212])\s?\\?\$\s?(?=\d)")  # "-$5" is -5
_LEAD_RE = re.compile(r"(?<![\w.])([-\u2212.])(?=\d)")  # a sign or a leading point: "-5", ".5"
_BETWEEN_DIGITS_RE = re.compile(r"(?<=\d)[^\w\s\0-\6](?=\d)")
# A symbol that changes what the number next to it says survives normalisation: "~5" is
# about 5, "<5" and ">5" compare (SQuAD's script made them all "5"). "5!" stays an
# exclamation, as in `rlvr.rewards.answers.numbers`.
_QUALIFIER_RE = re.compile(r"[~<>](?=\s?[-\u2212.]?\d)")
_QUALIFIERS = {"~": "\4", "<": "\5", ">": "\6"}
_KEPT = str.maketrans({"\0": ".", "\1": "/", "\2": ".", "\3": "-", "\4": "~", "\5": "<", "\6": ">"})
# "\7" marks a capital A that names a letter ("Vitamin A"); it becomes "a" after the
# articles are gone


@functools.lru_cache(maxsize=65536)  # gold aliases repeat: once per generation in GRPO
def normalize_answer(text: str) -> str:
    """SQuAD normalisation: lower-case, drop punctuation (ASCII and Unicode), drop the
    articles a/an/the, collapse whitespace.

    Source: the official SQuAD v1.1 evaluation script (`normalize_answer`); Unicode
    punctuation (curly quotes, dashes) is dropped too, which the original leaves in; a
    "." or "/" between two digits, a leading "-" or "." before a digit ("-5", ".5") are
    kept, other punctuation between digits becomes a space ("3-4" -> "3 4", "1,5" -> "1 5")
    and thousands commas in valid groups are removed, so numbers keep their value (the
    original turns "2.5" into "25" and "-5" into "5").
    """
    text = _NAME_LETTER_RE.sub("\7", text)  # "Vitamin A", "Plan A": a letter, not an article
    text = _SIGNED_CURRENCY_RE.sub(r"\1", text.lower())
    text = _THOUSANDS_RE.sub(lambda m: m.group(1) + m.group(2).replace(m.group("sep"), ""), text)
    text = _INNER_POINT_RE.sub(lambda m: "\0" if m.group(1) == "." else "\1", text)
    text = _QUALIFIER_RE.sub(lambda m: _QUALIFIERS[m.group()], text)
    text = _LEAD_RE.sub(lambda m: "\2" if m.group(1) == "." else "\3", text)
    text = _BETWEEN_DIGITS_RE.sub(" ", text)  # "3-4", "1:2", "2^10" stay two numbers
    text = text.translate(_PUNCT_TABLE)
    if not text.isascii():  # before the kept marks come back ("-" is Unicode punctuation too)
        text = "".join(ch for ch in text if not unicodedata.category(ch).startswith("P"))
    text = text.translate(_KEPT)
    return " ".join(_ARTICLES_RE.sub(" ", text).split()).replace("\7", "a")


# a title or rank before a name ("Gen.", "Sir", "President"): `exact` mode may drop it
HONORIFIC = re.compile(
    rf"^(?:(?:{alternation(TITLES + ('pres', 'sgt', 'sergeant', 'lt', 'lieutenant'))})\.?\s+)+",
    re.IGNORECASE)
