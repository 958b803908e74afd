"""`qa` reward: SQuAD-style normalised match against any gold alias.

Both sides are normalised the way the SQuAD v1.1 evaluation script does it (lower-case,
punctuation removed, the articles "a", "an", "the" removed, whitespace collapsed); the
answer scores 1.0 when it equals any normalised alias (`exact` mode). `contains` mode
also accepts an alias found inside the answer on word boundaries ("10" does not contain
"1"), unless a negation word comes right before it ("not Mark Twain"). Contains mode pays
a list a person writes ("Paris or Lyon", "Germany, Austria-Hungary and the Ottoman Empire",
a bulleted list, a range "1994-1998"): on EVOUNA's human judgements of long chat-model
answers (the tune half), refusing such lists cost 279 right answers to block 6 wrong ones
(benchmarks/graders_outside.py, docs/measured.md). It refuses only what no person writes
as an answer (a loop of names, an unpunctuated run of names, a run of numbers), a response
that is nothing but a list with the alias and a rival ("Paris, London, Berlin, Madrid,
Rome", "Either Paris or Lyon.", "Between 1939 and 1945.": `answers.bare_lists`), and a
number offered with another as its alternative ("4 or 5"). Prefer `exact` for training: a policy
can learn to list.

Numbers keep their value: normalisation leaves a decimal point or fraction slash between
digits in place ("2.5" stays "2.5", never "25"; "3.14" never equals "314"), drops
thousands commas only in valid groups ("1,000" = "1000", "1,234.56" = "1234.56"), keeps
a sign before a currency sign ("-$1" is -1), and an answer and an alias that each state
one number read whole (`rlvr.rewards.answers.numbers`) match when the values are equal ("2.50" =
"2.5" = "5/2"); thin-space thousands group as commas do, and a hedge or comparison symbol
before a number ("~5", "<5") is kept, never normalised away; a power of ten ("10^6",
"10**6") is that number. In `contains` mode a numeric alias matches only a whole number
token of equal value ("108" is not inside "108.92"), and not when the answer offers another
number as its alternative ("4 or 5", "eight or nine", "it might have been 40", a run "1 2 3
4 5 6 7 8 9": `listed_candidates`, `rlvr.rewards.answers.numbers.offers_alternative`, on
the answer as written), nor after a hedge symbol ("~5"), nor when the alias is a year
written only inside a full date that none of the gold's full dates is ("November 8, 2013"
for "November 27, 2013" / "2013"); English number words count as that number ("eight
legs" gives 8, `answers.forms.word_numbers`).

Normalisation never merges different names (`_same_name`):
- symbols that are part of a name (`+ # * & @ ^ = | \\`) must be the same on both sides,
  so "C", "C++" and "C#" are three answers (SQuAD's script made them all "c");
- an alias that normalises to nothing ("A", "The The", "!!!": a letter, a name made of
  articles or of punctuation) is compared as written instead (lower-case, outer spaces
  and a final full stop dropped), in both modes;
- in `contains` mode an alias of one letter, or made only of articles, counts as the
  whole answer, or inside a sentence only as written with its capitals and standing alone
  ("the vitamin is C", "my favourite band is The The"; never "C++", "U.S." or a stray "e";
  "A" and "I" only after a word at the end of a clause, "the answer is A.": elsewhere they
  are the article and the pronoun).

Aliases are first read as datasets write them (`answers.aliases`: a bracketed qualifier,
"X or Y" in one alias, an inverted name, a title, a descriptor such as "State" or "F.C.",
a person's middle name, a number in words, a currency sign, a leading preposition, a
possessive). Other spellings of one name match (`answers.spellings`: full dates in any common format,
initials however spaced, "&" and "and", "Mt." and "Mount" before a place name), and so do accents on Latin letters either way
("Río Grande" and "Rio Grande", read again without them when nothing matched); in `exact`
mode a title or rank before a name of two or more words may be dropped ("Gen. George S.
Patton" for "George S. Patton"; never "St. Louis" for "Louis"), and so may an answer frame
("The answer is Canberra.", "It's Canberra."), and a finer answer people accept counts
(one full date for a bare-year gold, a first name before a one-word surname gold:
`qa_readings.finer`); Markdown emphasis ("**Tokyo**") is no part
of the answer.

In `contains` mode an alias is given only where the response affirms it: an occurrence
that is denied ("Paris is wrong", "I doubt it's Paris": `answers.denial`), sits in a
question the response asks ("Is it Paris?") or is taken back afterwards ("Paris. Wait,
no: Lyon.") does not count, and an alias offered among other candidates ("Either Paris or
Lyon") is `listed_candidates` (`answers.match` uses the same rules). An alias named only
inside a longer alias is judged as that alias ("I doubt it was Charles Darwin" gives
neither "Charles Darwin" nor "Darwin"). These checks read the
response as written (folded, lower-case) wherever the alias appears there verbatim.
A capital "A" after a word ("Vitamin A", "Plan A") and an article that ends the text are
part of the name, not articles to drop.

When nothing matched as written, `contains` mode reads again: a plural of the alias's last
word ("mashed potatoes"), the answer with glued words and footnote numbers undone ("sung
byJohn Goodman1", as retrieval chat models' answers arrive), accents dropped, and every
content word of an alias of two or more within its length plus four words of one sentence
without a negation ("started in 1881 and completed in 1885" for "between 1881 and 1885":
`qa.words_near`).

When the response has `<answer>...</answer>` tags, only the last tag's content is read
(an empty tag is an empty answer, not a fallback to the whole text).
"""

from __future__ import annotations

import functools
import re
from typing import Any

from rlvr.rewards.answers import (iter_numbers, numbers_equal, offers_alternative, read_whole,
                                  unstrike)
from rlvr.rewards.answers import denied
from rlvr.rewards.answers import fold
from rlvr.rewards.answers import json_answer, plain_shape
from rlvr.rewards.answers import other_date, spellings
from rlvr.rewards.answers import (in_digits, loosen, retracted, stated, unglue, word_number,
                                  word_numbers)
from rlvr.rewards.answers import bare_list, degenerate_list
from rlvr.rewards.answers import contains_word, mark_words, word_starts
from rlvr.rewards.contract import RewardResult
from rlvr.rewards.registry import register_reward
from rlvr.rewards.rulebook import explained, note
from rlvr.rewards.qa_normalize import HONORIFIC, normalize_answer
from rlvr.rewards.qa_readings import finer, words_near
from rlvr.rewards.qa_rules import (
    ALIAS_FORM,
    BARE_LIST,
    CAPITAL,
    CONTAINS,
    EMPTY,
    EXACT,
    FRAME_DROPPED,
    LITERAL,
    LOOSENED,
    NEGATED,
    NO_MATCH,
    NUMBERS_OFFERED,
    OTHER_DATE,
    WORDS_NEAR,
    SAME_NUMBER,
    TABLE,
    TITLE_DROPPED,
    TWO_TAGS,
)

_ANSWER_TAG_RE = re.compile(r"<answer>(.*?)</answer>", re.DOTALL)
_NEGATIONS = frozenset({"not", "no", "never", "isnt", "wasnt", "arent", "nor", "neither"})
_QUALIFIED_RE = re.compile(r"[~<>\u2248\u2264\u2265\u2260]\s?$")  # "~5": a hedge, never 5


def gold_aliases(aliases: Any = None, answer: Any = None) -> list[str]:
    """Normalised, non-empty gold strings from an `aliases` list and/or an `answer` str."""
    normalised = (normalize_answer(v) for v in _written(aliases, answer))
    return list(dict.fromkeys(n for n in normalised if n))


def _written(aliases: Any = None, answer: Any = None) -> list[str]:
    """The gold strings as given: an `aliases` list or tuple and/or an `answer` str."""
    return [a for item in (aliases, answer)
            for a in ([item] if isinstance(item, str)
                      else item if isinstance(item, (list, tuple)) else [])
            if isinstance(a, str)]


def extract_response_answer(text: str) -> str:
    """The content of the last `<answer>` tag when there is one, else the whole text."""
    tags = _ANSWER_TAG_RE.findall(text)
    return tags[-1] if tags else text


def _same_number(prediction: str, alias: str) -> bool:
    """Both strings state one number read whole, of equal value; a whole answer in
    English number words ("twelve", "twenty-one") states its number."""
    gold = read_whole(alias, allow_words=False)
    if gold is None:
        return False
    value = read_whole(prediction, allow_words=False)
    if value is None:
        value = word_number(prediction)
    if value is None and len(prediction.split()) <= 3:
        value = read_whole(prediction)  # "100 °C", "100 degrees": a unit after the number
    return value is not None and numbers_equal(value, gold)


def _contains(prediction: str, alias: str, raw: str = "") -> bool:
    gold = read_whole(alias, allow_words=False)
    if gold is not None:  # a number matches only a whole token of equal value
        if any(numbers_equal(t.value, gold) and not _negated(prediction, t.start)
               and not _QUALIFIED_RE.search(prediction, 0, t.start)
               for t in iter_numbers(prediction)):
            return True
        said = _said(raw)  # "eight legs" states 8, "not eight" does not
        return any(numbers_equal(value, gold) and not _negated(said, start)
                   for value, start, _, _ in word_numbers(said))
    words, target = prediction.split(), alias.split()
    n = len(target)
    last = target[-1] if target[-1].isalpha() and len(target[-1]) >= 3 \
        and not target[-1].endswith("s") else None
    for i in range(len(words) - n + 1):
        if words[i:i + n] == target or (last and words[i:i + n - 1] == target[:-1] and words[
                i + n - 1] in (last + "s", last + "es")):  # "mashed potatoes": a plural
            if i == 0 or words[i - 1] not in _NEGATIONS:
                return True
            note(NEGATED, " ".join(words[i - 1:i + n]))
    return False


def _negated(prediction: str, start: int) -> bool:
    before = prediction[:start].split()
    return bool(before) and before[-1] in _NEGATIONS


def _given(raw: str, prediction: str, alias: str, forms: list[str],
           longer: tuple[str, ...] = ()) -> bool:
    """Contains mode: the alias is in the normalised answer and, where the answer shows it
    as written, affirmed there (module docstring); a one-letter alias only as the whole
    answer; name symbols must agree where the alias is the whole answer. An occurrence
    inside a longer alias (`longer`, written forms) is judged only as that alias: "I doubt
    it was Charles Darwin" does not give "Darwin"."""
    if len(alias) == 1 and not alias.isdigit():
        return (prediction == alias and _same_name(raw, forms)) or _capital_given(raw, forms)
    if prediction == alias and not _same_name(raw, forms):
        return False
    if longer:
        text = _said(raw)
        blanked = text
        for form in longer:
            name = _said(form).strip(" .")
            blanked = mark_words(blanked, name, " " * len(name)) if name else blanked
        if blanked != text:
            own = [a for a in (_said(f).strip(" .") for f in forms) if a]
            if not any(next(word_starts(blanked, a), None) is not None for a in own):
                return False  # named only inside the longer alias: that alias decides
            raw = blanked
    affirmed = _affirmed_raw(raw, forms)
    if affirmed is not None and read_whole(alias, allow_words=False) is None:
        return affirmed  # written as the alias is: the denial grammar decides ("Wait, no: X")
    return _contains(prediction, alias, raw) and affirmed is not False


def _capital_given(raw: str, forms: list[str]) -> bool:
    """A short name as written with its capitals ("C" in "the vitamin is C", "The The" in
    "my favourite band is The The"), standing alone (not "C++", "C#", "U.S.", "C's") and
    affirmed in the response (not denied, asked only or taken back). "A" and "I" count
    only after a word and before the end of a clause ("the answer is A."): elsewhere they
    are the article and the pronoun. Forms written in lower case never count here."""
    written = " ".join(raw.split())
    text = written.lower()
    if len(text) != len(written):
        return False
    for form in forms:
        name = " ".join(form.split()).strip(" .")
        if not name or not name[0].isupper():
            continue
        pattern = rf"(?<![\w.'+#&@-]){re.escape(name)}(?![\w+#&@'-]|\.\w)"
        if name in ("A", "I"):
            pattern = rf"(?<=\w )({pattern})(?=\s*(?:[.,;:!)]|$))"
        starts = [m.start() for m in re.finditer(pattern, written)]
        given = [s for s in starts if stated(text, s, s + len(name))]
        if given and not retracted(text, given[-1] + len(name)):
            return True
    return False


_NAME_MARKS = re.compile(r"[+#*&@^=|\\]")
# a title or rank before a name, which the exact mode may drop ("Gen. George S. Patton")
# an answer frame before the answer, which the exact mode may drop ("The answer is Canberra.")
_FRAME = re.compile(r"^(?:(?:the|my)\s+)?(?:final\s+|correct\s+)?answer\s*(?:is\b|:|=)\s*|"
                    r"^(?:it|that)(?:'s|\s+is|\s+was)\s+", re.IGNORECASE)
# Markdown emphasis around words: "**Tokyo**", "*Tokyo*", "__Tokyo__"
_EMPHASIS = re.compile(r"(\*\*|__|\*|_)(?=\S)([^*_\n]+?)(?<=\S)\1(?![\w*])")
_OUTER = re.compile(r"^[\s\"'`]+|[\s\"'`.]+$")


def _raw_forms(aliases: Any = None, answer: Any = None) -> dict[str, list[str]]:
    """Each normalised alias with the forms it was written in (empty key: aliases that
    normalise to nothing)."""
    forms: dict[str, list[str]] = {}
    for item in (aliases, answer):
        values = [item] if isinstance(item, str) else list(item) \
            if isinstance(item, (list, tuple)) else []
        values = _spelled(tuple(v for v in values if isinstance(v, str)))  # `answers.spellings`
        for value in values:
            if isinstance(value, str) and value.strip():
                value = _folded(value)
                key = normalize_answer(value)
                if set(key.split()) <= {"a", "an", "the"}:  # "The The", "A": as written
                    key = ""
                forms.setdefault(key, []).append(value)
    return forms


@functools.lru_cache(maxsize=65536)  # aliases repeat once per generation in GRPO
def _spelled(values: tuple[str, ...]) -> list[str]:
    """The aliases and their other spellings (dates, initials, "&": `answers.spellings`)."""
    return spellings(list(values))


def _folded(text: str) -> str:
    """Unicode compatibility forms folded (`answers.folding.fold`: full-width letters and
    signs, typographic quotes), and the music sharp sign written as "#"; thin and no-break
    spaces are kept (they group thousands)."""
    spaces = {"\u2009": "\x10", "\u202f": "\x11", "\u00a0": "\x12"}  # thousands groups
    for space, mark in spaces.items():
        text = text.replace(space, mark)
    text = fold(text).replace("\u266f", "#")
    for space, mark in spaces.items():
        text = text.replace(mark, space)
    return text


def _marks(text: str) -> str:
    return "".join(_NAME_MARKS.findall(text))


def _said(text: str) -> str:
    """`text` folded, lower-case, spaces collapsed: the response (or an alias) as written."""
    return " ".join(fold(text).lower().split())


def _as_written(text: str) -> str:
    """`_said`, outer quotes and spaces and a final full stop dropped."""
    return _OUTER.sub("", _said(text))


def _affirmed_raw(raw: str, forms: list[str]) -> bool | None:
    """Whether the response as written affirms one of the alias's written `forms` (not
    denied, asked only or taken back); None when no form occurs in it verbatim."""
    text = _said(raw)
    seen = False
    for form in forms:
        alias = _said(form).strip(" .")
        starts = [s for s in word_starts(text, alias) if alias] if alias else []
        if not starts:
            continue
        seen = True
        given = [s for s in starts if stated(text, s, s + len(alias))]
        if given and not retracted(text, given[-1] + len(alias)):
            return True
    return False if seen else None


def _listed_raw(raw: str, forms: list[str]) -> bool:
    """The alias, written as in `forms`, in a degenerate list of candidates in the response
    as written (a loop of names, an unpunctuated run of names:
    `answers.candidates.degenerate_list`; lines are kept, since a run may be one name per
    line). Lists a person writes ("Paris or Lyon", "Germany, Austria-Hungary and the
    Ottoman Empire") are not refused: on EVOUNA's human labels refusing them cost far more
    right answers than the wrong ones it blocked."""
    text = "\n".join(_said(line) for line in raw.splitlines() if line.strip())
    for form in forms:
        alias = _said(form).strip(" .")
        if alias and next(word_starts(text, alias), None) is not None \
                and degenerate_list(text, alias):
            return True
    return False


def _same_name(raw: str, forms: list[str]) -> bool:
    """The written answer, taken whole, names what one of the alias's `forms` names: the
    same name symbols (`_NAME_MARKS`)."""
    return any(_marks(raw) == _marks(form) for form in forms)


@register_reward("qa", fields=(), required_any=("aliases", "answer"), score_range=(0.0, 1.0),
                 presets={"default": {}, "contains": {"mode": "contains"}},
                 outcomes=("correct", "wrong", "empty_answer", "listed_candidates", "no_gold"))
@explained(TABLE)
def qa_reward(completion: str, *, aliases: Any = None, answer: Any = None, mode: str = "exact",
              correct: float = 1.0, wrong: float = 0.0) -> RewardResult:
    """1.0 when the normalised answer matches a normalised gold alias.

    Args:
        completion: the response (the last `<answer>` tag's content when present).
        aliases: list of acceptable gold strings (e.g. TriviaQA's `aliases`).
        answer: a single gold string; used with or instead of `aliases`.
        mode: "exact" (normalised equality) or "contains" (alias inside the answer on
            word boundaries, not right after a negation).
        correct, wrong: the two scores (kept within [0, 1]).
    Returns:
        RewardResult with outcome `correct`, `wrong`, `empty_answer` (nothing left after
        normalisation), `listed_candidates` (contains mode: a numeric alias offered beside
        another number, "4 or 5"; score `wrong`) or `no_gold` (score None: no usable
        alias). Details: `prediction` (normalised), `matched`.
    Raises:
        ValueError: unknown mode.
    Source: Rajpurkar et al. (2016), SQuAD evaluation script; TriviaQA uses the same
        normalisation over aliases (Joshi et al., 2017).
    """
    if mode not in ("exact", "contains"):
        raise ValueError(f"qa mode must be 'exact' or 'contains', got {mode!r}")
    forms = _raw_forms(aliases, answer)
    golds = [g for g in forms if g]
    literal = {_as_written(f) for f in forms.get("", [])} - {""}
    if not golds and not literal:
        return RewardResult(None, "no_gold", {"error": "no non-empty alias"})
    tags = {" ".join(t.split()).lower() for t in _ANSWER_TAG_RE.findall(completion or "")}
    if len(tags) > 1:  # "<answer>Paris</answer> <answer>London</answer>": two answers
        note(TWO_TAGS, "", tuple(sorted(tags)))
        return RewardResult(wrong, "listed_candidates", {"answers": sorted(tags)})
    shaped = json_answer(completion or "")  # {"answer": "Paris", ...}: its answer field
    completion = plain_shape(completion or "", tags=False) if shaped is None else shaped
    raw = _folded(extract_response_answer(unstrike(completion)))  # struck-out: taken back
    raw = _EMPHASIS.sub(r"\2", raw)  # "**Tokyo**": Markdown emphasis is no part of the name
    prediction = normalize_answer(raw)
    details: dict[str, Any] = {"prediction": prediction}
    if _as_written(raw) in literal:  # "A", "The The": the alias as written, the whole answer
        note(LITERAL, _as_written(raw))
        return RewardResult(correct, "correct", {**details, "matched": _as_written(raw)})
    if mode == "contains" and _capital_given(raw, forms.get("", [])):  # "... is The The."
        note(CAPITAL, sorted(literal)[0])
        if _listed_raw(raw, forms[""]):
            return RewardResult(wrong, "listed_candidates", details)
        return RewardResult(correct, "correct", {**details, "matched": sorted(literal)[0]})
    if not prediction:
        note(EMPTY, raw)
        return RewardResult(wrong, "empty_answer", details)
    if mode == "exact":
        hit = prediction if prediction in golds and _same_name(raw, forms[prediction]) \
            else next((g for g in golds if _same_number(prediction, g)
                       or _same_number(_as_written(raw).lower(), g)), None)
        if hit is not None:
            note(EXACT if hit == prediction else SAME_NUMBER, prediction)
        untitled = normalize_answer(HONORIFIC.sub("", raw.strip()))
        if hit is None and untitled in golds and len(untitled.split()) >= 2 \
                and _same_name(raw, forms[untitled]):
            hit = untitled  # "Gen. George S. Patton" for "George S. Patton"
            note(TITLE_DROPPED, raw.strip())
        if hit is None:  # "26 June 1997" for "1997", "Elvis Presley" for "Presley"
            hit = finer(raw, golds)
        unframed = _FRAME.sub("", raw.strip())
        if hit is None and unframed != raw.strip() and normalize_answer(unframed) in golds \
                and _same_name(unframed, forms[normalize_answer(unframed)]):
            hit = normalize_answer(unframed)  # "The answer is Canberra." for "Canberra"
            note(FRAME_DROPPED, raw.strip())
    else:
        hit = next((g for g in golds if _given(raw, prediction, g, forms[g], tuple(
            f for other in golds if other != g and len(other) > len(g)
            and contains_word(other, g) for f in forms[other]))), None)
        if hit is not None:
            note(CONTAINS, hit)
    if hit is None and mode == "contains":
        hit = next((g for g in golds if words_near(raw, g)), None)
        if hit is not None:
            note(WORDS_NEAR, hit)
    given = _written(aliases, answer)
    if hit is not None:
        if hit not in {normalize_answer(_folded(a)) for a in given}:  # "Claudia Wells" for
            source = next((a for a in given if hit in {  # "Claudia Grace Wells"
                normalize_answer(_folded(f)) for f in _spelled((a,))}), None)
            note(ALIAS_FORM, hit, source)
    if hit is None:
        loose = unglue(loosen(raw))
        loose_aliases = [loosen(a) for a in given]
        # "Río Grande" and "Rio Grande": accents; "byJohn Goodman1": glued words, footnotes
        if loose != raw or loose_aliases != given:
            again = qa_reward(loose, aliases=loose_aliases, mode=mode, correct=correct,
                              wrong=wrong)
            if again.score == correct:
                note(LOOSENED, loose)
                return RewardResult(correct, again.outcome, {**details, **again.details})
        note(NO_MATCH, prediction, tuple(golds + sorted(literal)))
        return RewardResult(wrong, "wrong", details)
    if mode == "contains" and _listed_raw(raw, forms[hit]):
        return RewardResult(wrong, "listed_candidates", {**details, "matched": hit})
    other = other_date(raw, hit, [f for fs in forms.values() for f in fs]) \
        if mode == "contains" else None
    if other:  # "released on November 8, 2013" for "November 27, 2013" / "2013"
        note(OTHER_DATE, other)
        return RewardResult(wrong, "wrong", {**details, "matched": hit})
    value = read_whole(hit, allow_words=False)
    said = in_digits(_said(raw))
    if mode == "contains" and value is not None and offers_alternative(said, value):
        note(NUMBERS_OFFERED, prediction)  # "4 or 5", "eight or nine", "1 2 3 4 5 6"
        return RewardResult(wrong, "listed_candidates", {**details, "matched": hit})
    rivals = bare_list(raw, [f for fs in forms.values() for f in fs], normalize_answer) \
        if mode == "contains" else None
    if rivals:  # "Paris, London, Berlin, Madrid, Rome": the response is the list
        note(BARE_LIST, prediction, rivals)
        return RewardResult(wrong, "listed_candidates", {**details, "matched": hit})
    return RewardResult(correct, "correct", {**details, "matched": hit})
