"""Cheap surface features of a question's wording, for shortcut checks and report slices.

A policy can learn "abstain when the question mentions a year" instead of "abstain when the
answer cannot be known" if, in its training rows, the wording alone predicts answerability.
These features name the usual suspects so that the shortcut check (`rlvr data check`,
`rlvr.data.shortcuts`) can say which of them separate the labels, and the report
(`rlvr.eval.slices`) can break known-retention and prudence down by them. Standard library
only; every feature is a pure function of the question text.

| feature | values |
|---|---|
| `year` | `year` when a number from 1000 to 2099 or the word "century" appears, else `no year` |
| `number` | `number` when any digit or an English number word up to twelve appears, else `no number` |
| `tense` | `future` when "will", "going to", "next", "tomorrow" or "from now" appears, else `present/past` |
| `question_word` | the first of: how many, how much, in what year, which, what, who, where, when, why, how, yes/no (is/are/does/...), other |
| `person` | `personal` when "my", "I", "me" or "your" appears, else `impersonal` |
| `length` | `short` (8 words or fewer), `medium` (9-14), `long` (15 or more) |
"""

from __future__ import annotations

import re

FEATURES = ("year", "number", "tense", "question_word", "person", "length")

_YEAR = re.compile(r"\b(1\d{3}|20\d{2})\b|\bcentur(y|ies)\b", re.IGNORECASE)
_NUMBER = re.compile(r"\d|\b(zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
                     r"twelve|dozen|hundred|thousand|million)\b", re.IGNORECASE)
_FUTURE = re.compile(r"\b(will|going to|next|tomorrow|from now)\b", re.IGNORECASE)
_PERSON = re.compile(r"\b(my|I|me|your)\b")  # "I" is a capital on purpose
_YES_NO = ("is", "are", "was", "were", "does", "do", "did", "can", "could", "has", "have")
_QUESTION_WORDS = ("how many", "how much", "in what year", "in which year", "which", "what",
                   "who", "where", "when", "why", "how")


def question_word(question: str) -> str:
    """The question's asking word: the first `_QUESTION_WORDS` entry found (word-bounded),
    "in which year" counted as "in what year"; `yes/no` when the question opens with an
    auxiliary verb ("Is P equal to NP?"); `other` when neither."""
    text = question.lower()
    found = [(m.start(), w) for w in _QUESTION_WORDS
             for m in [re.search(rf"\b{w}\b", text)] if m]
    if found:
        word = min(found, key=lambda x: (x[0], -len(x[1])))[1]
        return "in what year" if word == "in which year" else word
    first = text.split()[0] if text.split() else ""
    return "yes/no" if first in _YES_NO else "other"


def question_features(question: str) -> dict[str, str]:
    """Every feature of `FEATURES` for one question (see the module table).

    Args:
        question: the question text as the user wrote it (no chat template).
    Returns:
        {feature: value}, one value per feature, each a short label.
    """
    words = len(question.split())
    return {
        "year": "year" if _YEAR.search(question) else "no year",
        "number": "number" if _NUMBER.search(question) else "no number",
        "tense": "future" if _FUTURE.search(question) else "present/past",
        "question_word": question_word(question),
        "person": "personal" if _PERSON.search(question) else "impersonal",
        "length": "short" if words <= 8 else "medium" if words <= 14 else "long",
    }
