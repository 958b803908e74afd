"""Second readings of a `qa` answer, when nothing matched as written: every content word of
an alias near one another (`words_near`, `contains` mode) and an answer finer than its gold
(`finer`, `exact` mode). Each was measured on EVOUNA's human labels
(benchmarks/graders_outside.py; figures in docs/measured.md).
"""

from __future__ import annotations

import re

from rlvr.rewards.answers import contains_word, dates_in
from rlvr.rewards.qa_normalize import HONORIFIC, normalize_answer
from rlvr.rewards.qa_rules import FINER_DATE, FULL_NAME
from rlvr.rewards.rulebook import note

# words an alias's content is read without, and small numbers read as digits
_FUNCTION_WORDS = frozenset("a an the of in on at to and or for by with from is was are be "
                            "as its it this that s between during".split())
_SMALL = {w: str(i) for i, words in enumerate(
    ["", "one first", "two second", "three third", "four fourth", "five fifth", "six sixth",
     "seven seventh", "eight eighth", "nine ninth", "ten tenth"]) for w in words.split()}
_NEGATION = re.compile(r"\b(?:not|no|never|nor|neither|none)\b|n't\b")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n")


def words_near(raw: str, alias: str) -> bool:
    """Every content word of `alias` (normalised; two or more), in any order, within the
    alias's length plus four words of one sentence of the response that has no negation
    word ("started in 1881 and completed in 1885" for "between 1881 and 1885", "the season
    4 finale" for "season four"). Never for an alias the response writes as it is: there
    the rules that read it (denial, bounds, questions, retractions) have decided. Any order,
    because keeping the order refused 43 answers EVOUNA's people judged right to block 2
    they judged wrong; the cost is a sentence such as "Season 2 had four episodes" paid for
    "season four"."""
    own = normalize_answer(alias).split()
    content = {_SMALL.get(w, w) for w in own if w not in _FUNCTION_WORDS}
    if len(content) < 2 or contains_word(normalize_answer(raw), " ".join(own)):
        return False  # written as it is: the rules that refused it there decide
    span = len(own) + 4
    for sentence in _SENTENCE_END.split(raw):
        if _NEGATION.search(sentence.lower()):
            continue
        words = [_SMALL.get(w, w) for w in normalize_answer(sentence).split()]
        if content <= set(words) and any(content <= set(words[i:i + span])
                                         for i in range(max(1, len(words) - span + 1))):
            return True
    return False


def finer(raw: str, golds: list[str]) -> str | None:
    """Exact mode: the answer is the gold made finer, as people accept it (on EVOUNA's short
    answers: 19 such answers judged right on tune, none wrong): one full date whose year is
    a bare-year gold ("26 June 1997" for "1997", `qa.exact_finer_date`), or a
    person's first name before a one-word surname gold ("Elvis Presley" for "Presley",
    `qa.exact_full_name`). None otherwise."""
    text = raw.strip().rstrip(".")
    dates = dates_in(text)
    if len(dates) == 1 and dates[0][0] == 0 and dates[0][1] == len(text):
        year = str(dates[0][2][0])
        if year in golds:
            note(FINER_DATE, text, year)
            return year
    words = text.split()
    if len(words) == 2 and all(w[:1].isupper() and w[1:].isalpha() and w[1:].islower()
                               for w in words) \
            and not HONORIFIC.match(text):  # "General Patton": a title, no first name
        last = normalize_answer(words[1])
        if last in golds and len(last.split()) == 1:
            note(FULL_NAME, text, last)
            return last
    return None
