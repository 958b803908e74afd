"""A response that is nothing but a list of candidates: the list a policy offers when
listing pays ("Paris, London, Berlin, Madrid, Rome", "Either Paris or Lyon.", "- Paris\\n-
Lyon", "Between 1939 and 1945."), told apart from a list a person writes inside an answer.

`qa` in `contains` mode pays a list inside prose (on EVOUNA's human labels, refusing those
cost 279 right answers to block 6 wrong ones); it refuses only a response that is the list
itself (`bare_list`). Measured on the same labels: 3 of the 19,831 long answers are such
bare lists with the alias beside a rival, all judged right by people (synonyms such as
"Solidus or slash"); the rule refuses them, and blocks the red-team rounds' listing hacks,
which those labels cannot show (none of the models that wrote them was trained against
this grader).

Standard library only. Tests: tests/test_qa_names.py.
"""

from __future__ import annotations

import re
from typing import Callable

# what may frame the list: "I think it's either ...", "The answer is ...", "Answer: ..."
_FRAME = re.compile(
    r"^\s*(?:(?:i think|i guess|i believe|maybe|perhaps|probably|possibly)\s*,?\s*)?"
    r"(?:(?:it(?:'s| is| was| could be| might be| may be)|the answer is|answer\s*:|"
    r"that(?:'s| is| would be))\s+)?(?:either\s+)?", re.IGNORECASE)
# what may close it: "... - I can't decide", "..., not sure which"
_TAIL = re.compile(r"\s*(?:[\u2014\u2013-]+\s*i can't decide|,?\s*i (?:can't|cannot) decide|"
                   r",?\s*not sure which(?: one)?)?[\s.!]*$", re.IGNORECASE)
_SEPARATOR = re.compile(r"\s*(?:,\s*(?:or|and)?\s*|;\s*|\s/\s|\?\s*|\s+or\s+|"
                        r"\n\s*(?:[-*\u2022]|\d+[.)])?\s*)\s*", re.IGNORECASE)
_ALTERNATIVE = re.compile(r"\bor\b|\?|\n|\s/\s", re.IGNORECASE)
# a range as the whole answer: "Between 1939 and 1945.", "From 1939 to 1945", "1939-1945"
_RANGE = re.compile(r"^\s*(?:it was\s+|sometime\s+)?(?:between\s+(\S+)\s+and\s+(\S+)|from\s+(\S+)"
                    r"\s+to\s+(\S+)|([-\u2212]?\d[\d,.]*)\s*[-\u2013]\s*([-\u2212]?\d[\d,.]*))"
                    r"(?:\s+[^\W\d_]+){0,2}[\s.!]*$", re.IGNORECASE)  # "... 330 metres."
# a short disclaimer before the list ("I don't know. Paris? London? Rome?") and a word of
# certainty that makes an item a choice ("Romeo and Juliet? Shakespeare, of course.")
_DISCLAIMER = re.compile(r"^\s*(?:i (?:don't|do not) know|not sure|i'm not sure|i am not sure|"
                         r"no idea|hmm+|good question|let me think)[.!]\s*", re.IGNORECASE)
_CERTAIN = re.compile(r"(?:of course|definitely|certainly|surely|obviously|clearly|for sure|"
                      r"no doubt)")
_INTERJECTION = re.compile(r"(?:oops|sorry|wait|no|nope|yes|yeah|yep|indeed|right|correct|exactly|hmm+|actually|i mean|rather|well|"
                           r"scratch that|never ?mind)")


def bare_items(raw: str) -> list[str] | None:
    """The items when the whole answer (the grader's reading of the response: the last
    `<answer>` tag's content when there is one) is a list
    of two or more short items (three or more without an "or", a "?", a slash or a line
    break: "Paris, France" is a place), each of at most three words, behind at most a
    short disclaimer ("I don't know."), a frame ("I think it's either") and a closing "I
    can't decide", or a range ("Between 300 and 330 metres."); None otherwise (a
    bracket or a colon, a second sentence, a longer item, an item that corrects ("oops",
    "sorry") or chooses ("of course"), "X, or Y" naming one thing twice)."""
    text = raw
    ranged = _RANGE.match(text)
    if ranged:
        return [g for g in ranged.groups() if g]
    text = _DISCLAIMER.sub("", text)
    text = re.sub(r"^[^?\n]{0,30}\?\s{2,}|^\W+(?=\w)", "", text.strip())  # "in 1993?  X"
    if re.search(r"[\w%)],\s+or\s", text):  # "Crapaud, or craps": one thing named twice
        return None
    text = re.sub(r"^\s*(?:[-*\u2022]|\d+[.)])\s*", "", text)
    text = _TAIL.sub("", _FRAME.sub("", text, count=1))
    if re.search(r"[()\[\]:]|[.!]\s+\S", text):  # a bracket, a colon, a second sentence
        return None
    items = [i.strip(" .!?") for i in _SEPARATOR.split(text) if i and i.strip(" .!?")]
    if len(items) < (2 if _ALTERNATIVE.search(text) else 3) \
            or any(len(i.split()) > 3 or _INTERJECTION.fullmatch(i.lower())
                   or _CERTAIN.fullmatch(i.lower()) for i in items):
        return None  # "Barcelona, oops, sorry, Madrid" corrects itself; "..., of course" chooses
    return items


def bare_list(raw: str, golds: list[str], normalize: Callable[[str], str]) -> tuple | None:
    """The rival items when the response is a bare list (`bare_items`) holding a gold alias
    and another item that is no gold alias and shares no word with the one that is; None
    when it is no bare list, when two or more items are golds (a list the question asks
    for), or when every other item names the gold again ("acid precipitation or acid
    rain").

    Args:
        raw: the response as written.
        golds: the gold aliases (any forms).
        normalize: the grader's normalisation (`qa.normalize_answer`).
    """
    items = bare_items(raw)
    if not items:
        return None
    said = [normalize(i) for i in items]
    gold = {normalize(g) for g in golds}
    hits = {s for s in said if s in gold}
    if len(hits) != 1:
        return None
    named = {w for s in hits for w in s.split()}
    value = next(_value(i) for i, s in zip(items, said) if s in hits)
    rivals = tuple(s for i, s in zip(items, said) if s not in gold
                   and not set(s.split()) & named and not _same_quantity(_value(i), value))
    return rivals or None


def _value(item: str) -> float | None:
    """A plain number written as the whole item, a percent as its fraction ("5%" -> 0.05)."""
    m = re.fullmatch(r"\s*([-\u2212]?\d+(?:\.\d+)?)\s*(%|percent)?\s*", item)
    if not m:
        return None
    number = float(m.group(1).replace("\u2212", "-"))
    return number / 100 if m.group(2) else number


def _same_quantity(a: float | None, b: float | None) -> bool:
    """One quantity written twice ("0.05 or 5%")."""
    return a is not None and b is not None and abs(a - b) <= 1e-9 * max(1.0, abs(a))
