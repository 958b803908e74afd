"""Does a free-text response give the gold answer? (the `selfaware` reward's matcher)

Rules (each closes a way to be paid without answering; docs/rewards.md has the table):

* Text is folded before matching (`fold`): Unicode compatibility forms (NFKC: full-width
  letters, no-break spaces, ligatures) and typographic quotes become their plain forms,
  so "I don\u2019t know" reads as "I don't know" and "\uff30aris" as "Paris".
* A text alias must sit on word boundaries (`contains_word`: "10" does not contain "1",
  "Parisian" does not contain "Paris").
* A numeric alias (one that states one number read whole, `rlvr.rewards.answers.numbers`) is
  matched by value against the response's number tokens: "108" is not inside "108.92",
  and "0.5" matches "1/2"; English number words count as numbers on both sides ("eight"
  gives 8, `forms.word_numbers`).
* A quantity alias with a known unit ("42.195 km") matches the same quantity in another
  unit of its dimension ("42,195 metres"; `answers.units`), when that is the only quantity
  of the dimension the response states, not denied or asked only.
* Several candidates are not an answer. For a text alias: the alias among a list of short
  alternatives in one sentence (`lists_candidates`). For a numeric alias: another number
  of the answer's kind besides the gold one - a value within a factor of 10 of the gold
  (a result, not a year next to a count) that is not one of the question's own numbers
  (restating "9 times 12" is not a second answer). "60, which is 6 times 5, 60, 6 times 5
  equals 30" offers 60 and 30 for gold 30: a list, not an answer. A denied number is no
  rival ("8 planets, not 9"). Without the question (no `prompt` field), numbers restated
  from it count as candidates too, except operands of arithmetic written out.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from fractions import Fraction

from rlvr.rewards.answers.bare_lists import bare_list
from rlvr.rewards.answers.forms import (OPPOSITE, both_answers, other_fields, respell,
                                       retracted, stated, word_number, word_numbers)
from rlvr.rewards.answers.candidates import RULED_OUT, lists_candidates
from rlvr.rewards.answers.denial import denied
from rlvr.rewards.answers.words import contains_word, mark_words, word_starts
from rlvr.rewards.answers.units import conversion, read_unit
from rlvr.rewards.rulebook import note, noted, register_rule
from rlvr.rewards.answers.numbers import (NumberToken, as_number, iter_numbers, numbers_equal, times_ten,
                                  in_number_run, is_range, numbers_in,
                                  read_whole)


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
    ratio = abs(Fraction(value) / Fraction(gold))  # exact: no float overflow
    return Fraction(1, 10) <= ratio <= 10


_OPERATOR = r"(?:[-+*/\u00d7\u00f7\u2212x]|times|plus|minus|divided by|multiplied by)"
_OPERAND = r"[-+$]?\d[\d.,/]*"
# a calculation written out: operands joined by operators, then a result marker
_CALCULATION = re.compile(rf"(?<![\w.]){_OPERAND}(?:[ \t]*{_OPERATOR}[ \t]*{_OPERAND})+"
                          r"(?=[ \t]*(?:=|equals\b|is\b|makes\b|gives\b|comes to\b|yields\b))")


def _operand_spans(text: str) -> list[tuple[int, int]]:
    """Spans of written-out calculations ("17 + 20" in "17 + 20 = 37"): their numbers are
    operands, not candidate answers. A range or a bullet list ("25-30 years",
    "- 1944\n- 1945") has no result marker, so its numbers stay candidates."""
    return [m.span() for m in _CALCULATION.finditer(text)]


_SENTENCE_END = re.compile(r"[.!?\n](?=\s|$)")
_NOUN = re.compile(r"\s*([a-z]{3,})")


def _sentence_of(text: str, pos: int) -> int:
    """Index of the sentence holding `pos` (sentences end at . ! ? or a newline)."""
    return len(_SENTENCE_END.findall(text, 0, pos))


def _in_brackets(text: str, pos: int) -> bool:
    """True when `pos` sits inside an open parenthesis ("8,849 m (29,032 ft)")."""
    return text.rfind("(", 0, pos) > text.rfind(")", 0, pos)


def _noun_after(text: str, end: int) -> str:
    """The word right after a number ("2 atria" -> "atria"), or "" when none follows."""
    found = _NOUN.match(text, end)
    return found.group(1) if found else ""


def _counts_other(noun: str, gold_nouns: set[str]) -> bool:
    """True when a number counts something else than every gold occurrence does ("4
    chambers: 2 atria"); only decided when both are followed by a word."""
    named = gold_nouns - {""}
    return bool(noun) and bool(named) and noun not in named


def _numeric_match(text: str, alias: str, gold: Fraction, question: str) -> AnswerMatch:
    tokens = list(iter_numbers(text)) + [NumberToken(*w) for w in word_numbers(text)]
    spans = _operand_spans(text)
    # the gold as an operand ("48 - 24 = 20" for gold 24) or denied ("not 24") is not given
    golds = [t for t in tokens if numbers_equal(t.value, gold) and stated(text, t.start, t.end)
             and not any(a <= t.start and t.end <= b for a, b in spans)]
    if not golds or retracted(text, golds[-1].end):
        return _NO_MATCH
    if any(lists_candidates(text, t.text) for t in golds):
        return AnswerMatch(alias, True)  # "london, 108 or mars"
    if in_number_run(text, gold):
        note(NUMBER_RUN, alias)
        return AnswerMatch(alias, True)  # "1 2 3 4 5 6 7 8 9"
    asked = numbers_in(question) + [w[0] for w in word_numbers(question)] if question else []
    sentences = {_sentence_of(text, t.start) for t in golds}
    nouns = {_noun_after(text, t.end) for t in golds}
    bounds = _narrowed_range(text, tokens, golds, gold)
    others = sorted({t.value for t in tokens if not numbers_equal(t.value, gold)
                     and t.start not in bounds
                     and _same_kind(t.value, gold)
                     and _sentence_of(text, t.start) in sentences
                     and not _in_brackets(text, t.start) and not denied(text, t.start, t.end)
                     and not _ruled_out(text, t.start, golds)
                     and not _derived(text, t.start, t.end)
                     and not _CONTRASTED.search(text[_sentence_start(text, t.start):t.start])
                     and not _counts_other(_noun_after(text, t.end), nouns)
                     and not any(a <= t.start and t.end <= b for a, b in spans)
                     and not any(numbers_equal(t.value, q) for q in asked)})
    note(MATCH_NUMBER, golds[-1].text)
    if others:
        note(NUMBER_RIVALS, golds[-1].text, tuple(str(v) for v in others))
    return AnswerMatch(alias, bool(others), tuple(str(v) for v in others))


def _narrowed_range(text: str, tokens: list, golds: list, gold: Fraction) -> set[int]:
    """Starts of the two ends of each range that holds the gold and that a gold stated
    after it narrows ("between 1910 and 1915 - I believe it was 1912"): bounds, not rivals.
    A gold that is itself an end ("1910-1915" for 1910) narrows nothing."""
    ordered = sorted(tokens, key=lambda t: t.start)
    ends: set[int] = set()
    for first, second in zip(ordered, ordered[1:]):
        if is_range(text, first, second) and min(first.value, second.value) < gold \
                < max(first.value, second.value) and any(g.start >= second.end for g in golds):
            ends |= {first.start, second.start}
    return ends


# a total worked out from the answer: "11 players on the field, so 22 in total" (only with
# the total named: "24, so 32" offers 32)
_DERIVED_BEFORE = re.compile(r"\b(?:for|with) a total of\s+$|\btotall?ing\s+$")
_DERIVED_AFTER = re.compile(r"\s*(?:[a-z]+\s+){0,4}?(?:in total|altogether|in all|combined|overall)\b")


# a number in a clause about something else: "8 legs, unlike insects, which have 6"
_CONTRASTED = re.compile(r",\s*(?:unlike|whereas|while|compared (?:to|with)|as opposed to)\b"
                         r"[^.;]*$")


def _sentence_start(text: str, pos: int) -> int:
    return max((m.end() for m in _SENTENCE_END.finditer(text, 0, pos)), default=0)


def _derived(text: str, start: int, end: int) -> bool:
    """True when the number at `text[start:end]` is a total worked out after the answer ("so
    22 in total", "for a total of 22"): another quantity, not a rival candidate."""
    return bool(_DERIVED_BEFORE.search(text, max(0, start - 30), start)
                or _DERIVED_AFTER.match(text, end))


def _ruled_out(text: str, pos: int, golds: list) -> bool:
    """True when the number at `pos` follows a ruling-out word (`RULED_OUT`) in its
    sentence with no gold between them: the negation scopes over the disjunction after it
    ("It can't be 1968 or 1970, which leaves 1969", "1969, not 1968 or 1970")."""
    lo = max((m.end() for m in _SENTENCE_END.finditer(text, 0, pos)), default=0)
    cue = None
    for cue in RULED_OUT.finditer(text, lo, pos):
        pass
    return cue is not None and not any(cue.end() <= g.start < pos for g in golds)


def _affirmed(text: str, alias: str) -> bool:
    """`alias` occurs on word boundaries at least once without a denial around it
    (`rlvr.rewards.answers.denial.denied`: "It is not Paris.", "Marlowe, not Shakespeare.", "I doubt
    it's Paris", "Paris is wrong" do not give the alias), outside a question the response
    asks, and the last such occurrence is not taken back (`forms`: "Paris. Wait,
    no - Lyon.")."""
    if alias not in text:
        return False
    given = [s for s in word_starts(text, alias) if stated(text, s, s + len(alias))]
    return bool(given) and not retracted(text, given[-1] + len(alias))


@functools.lru_cache(maxsize=65536)
def alias_number(alias: str) -> int | Fraction | None:
    """The number a gold alias states whole (no words around it, or one number in English
    words: "eight"), or None; cached."""
    value = read_whole(alias, allow_words=False)
    return value if value is not None else word_number(alias)


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
        an `AnswerMatch`: listed when an alias found sits among candidates (unless it is
        part of a longer alias given whole), else the first alias found. When no alias is
        found, a second pass reads the alias's spellings without accents on Latin letters
        and with hyphens between letters as spaces as the alias (`forms.respell`).
        Answer fields with distinct values ("answer: rome" and "answer: paris" on two
        lines) are candidates (`forms.other_fields`).
    """
    if match == "substring":
        hit = next((a for a in aliases if a in text), None)
        return AnswerMatch(hit) if hit is not None else _NO_MATCH
    text = times_ten(text)  # "2.998 × 10^8" is one number
    found = _match_word(text, aliases, question)
    if found.hit is None:  # "42,195 metres" for "42.195 km": a quantity in another unit
        found = next((AnswerMatch(a) for a in aliases if _same_quantity(text, a)
                      and noted(MATCH_QUANTITY, a)), found)
    if found.hit is None:  # accents and hyphens: "sao paulo" gives "são paulo"
        respelled = respell(text, aliases)
        if respelled != text:
            note(MATCH_RESPELLED, respelled)
            found = _match_word(respelled, aliases, question)
    if found.hit is None:
        note(MATCH_NONE, "", tuple(aliases))
    others = other_fields(text, found.hit) if found.hit is not None and not found.listed else ()
    lines = _item_lines(text) if found.hit is not None and not found.listed and not others \
        else None
    if lines:  # candidates one per line ("canberra\nsydney"): a list across sentences,
        # which the in-sentence rules (`lists_candidates`) cannot see
        others = bare_list("\n".join(lines), aliases, _plain) or ()
        if others:
            note(BARE_LIST, text, others)
    return AnswerMatch(found.hit, True, others) if others else found


# words that make a line a sentence of prose ("I am sure.", "It is Paris."), not a candidate
_PROSE_WORDS = frozenset(
    "i i'm am is are was were be it it's its this that these those he she they we you my me "
    "so because sure think know believe guess answer yes no not maybe perhaps".split())


def _item_lines(text: str) -> list[str] | None:
    """The lines of a response that is two or more short candidates, one per line ("paris",
    "- lyon.", "2) rome"): bullets and closing stops removed, and a first line that ends
    the question ("in 1620?") before a blank line; None when a line is longer
    than four words or reads as prose (`_PROSE_WORDS`), or there is one line."""
    text = re.sub(r"^[^?\n]{0,30}\?\s*\n\s*\n", "", text.strip())  # "in 1620?\n\nplymouth rock"
    lines = [re.sub(r"^\s*(?:[-*\u2022]|\d+[.)])\s+|[\s.!]+$", "", line)
             for line in text.split("\n") if line.strip()]
    if len(lines) < 2 or any(not line or len(line.split()) > 4
                             or _PROSE_WORDS & set(_plain(line).split()) for line in lines):
        return None
    return lines


def _plain(item: str) -> str:
    """An item of a bare list as compared with the aliases: lower case, punctuation as
    spaces, spaces collapsed ("Canberra." and "canberra" are one item)."""
    return " ".join(re.sub(r"[^\w\s']", " ", item.lower()).split())


_QUANTITY = re.compile(r"(?<![\w.,])(-?\d[\d,]*(?:\.\d+)?)\s*([a-z][a-z./]*(?:\s+[a-z]+)?)")


def _same_quantity(text: str, alias: str) -> bool:
    """True when `alias` is one quantity with a known unit ("42.195 km") and the response
    states that quantity in another unit of its dimension ("42,195 metres"), exactly (a
    thousands comma is read as such), not denied or asked only, as its only quantity of
    that dimension. `answers.units` reads the units."""
    gold = _QUANTITY.fullmatch(alias.strip().rstrip("."))
    unit = read_unit(" " + gold.group(2)) if gold else None
    value = as_number(gold.group(1)) if gold else None
    if unit is None or value is None:
        return False
    found = []
    for m in _QUANTITY.finditer(text):
        other, amount = read_unit(" " + m.group(2)), as_number(m.group(1))
        factor = conversion(other, unit) if other is not None else None
        if factor is None or amount is None:
            continue
        found.append((m, Fraction(amount) * factor))
    return len(found) >= 1 and all(v == found[0][1] for _, v in found) \
        and found[0][1] == Fraction(value) and stated(text, found[-1][0].start(), found[-1][0].end())


def _without_longer(text: str, alias: str, aliases: list[str]) -> str:
    """`text` with every occurrence of a longer alias that holds `alias` as a word blanked
    out: "not Jane Austen" is judged as the alias "jane austen" (denied), never again as
    "austen" inside it."""
    for longer in aliases:
        if longer != alias and len(longer) > len(alias) and contains_word(longer, alias):
            text = mark_words(text, longer, " " * len(longer))
    return text


def _match_word(text: str, aliases: list[str], question: str) -> AnswerMatch:
    """`match_answer` in "word" mode on one reading of the text."""
    hits: list[AnswerMatch] = []
    for alias in aliases:
        gold = alias_number(alias)
        if gold is not None:
            found = _numeric_match(text, alias, gold, question)
        elif _affirmed(_without_longer(text, alias, aliases), alias):
            note(MATCH_WORD, alias)
            found = AnswerMatch(alias, lists_candidates(text, alias, same=tuple(
                a for a in aliases if alias_number(a) is None and not contains_word(a, alias)
                and not contains_word(alias, a)))
                                or (alias in OPPOSITE and both_answers(text, alias)))
        else:
            continue
        if found.hit is not None:
            hits.append(found)
    given = [f.hit for f in hits if not f.listed]
    # a short alias listed inside a longer alias given whole ("fish" in "fish versus
    # fishes") is not a list
    listed = [f for f in hits if f.listed and not any(f.hit in g for g in given)]
    if listed:
        return listed[0]
    return next((f for f in hits if not f.listed), _NO_MATCH)


# the named rules of this module (`rlvr.rewards.rulebook`); probes are (completion,
# question, gold)
_MOON = "When did humans first land on the Moon?"
MATCH_WORD = register_rule(
    "match.word", "a text gold alias found on word boundaries and affirmed (not denied, "
    "asked only or taken back)",
    fires=[("It is Canberra.", "What is the capital of Australia?", "Canberra")],
    spares=[("It is Canberraville.", "What is the capital of Australia?", "Canberra")])
MATCH_NUMBER = register_rule(
    "match.number", "a numeric gold found by value among the response's numbers (\"0.5\" "
    "gives \"1/2\", \"eight\" gives 8)",
    fires=[("In 1969.", _MOON, "1969"), ("A spider has eight legs.", "How many legs does a "
                                                                      "spider have?", "8")],
    spares=[("In 1969.92.", _MOON, "1969")])
NUMBER_RIVALS = register_rule(
    "candidates.number_rivals", "other numbers of the answer's kind in the gold's sentence "
    "(within a factor of 10, not the question's, not denied) make the number one candidate",
    fires=[("1969, though some say 1970.", _MOON, "1969")],
    spares=[("1969, not 1970.", _MOON, "1969")])
NUMBER_RUN = register_rule(
    "candidates.number_run", "the numeric gold inside a run of consecutive numbers (\"1 2 3 "
    "4 5 6 7 8 9\") offers every number",
    fires=[("1 2 3 4 5 6 7 8 9", "How many planets are there?", "8")],
    spares=[("8", "How many planets are there?", "8")])
MATCH_QUANTITY = register_rule(
    "match.quantity", "a quantity gold (\"42.195 km\") stated in another unit of its "
    "dimension (\"42,195 metres\"), as the response's only quantity of it",
    fires=[("It is 42,195 metres.", "How long is a marathon?", "42.195 km")],
    spares=[("It is 42 metres.", "How long is a marathon?", "42.195 km")])
MATCH_NONE = register_rule(
    "match.none", "no gold alias is given in the response (none found, or each found one "
    "denied, asked only or taken back); value = the aliases looked for",
    fires=[("Sydney.", "What is the capital of Australia?", "Canberra"),
           ("Around 1970.", _MOON, "1969")],
    spares=[("Canberra.", "What is the capital of Australia?", "Canberra")])
BARE_LIST = register_rule(
    "candidates.bare_list", "the response is nothing but a list of short items over two or "
    "more lines, holding the gold and a rival that shares no word with it "
    "(\"Canberra\\nSydney\"; `answers.bare_lists`): it offers them all",
    fires=[("Canberra\nSydney", "What is the capital of Australia?", "Canberra"),
           ("1969\n1970", _MOON, "1969")],
    spares=[("Canberra.\nIt has been the capital since 1913.",
             "What is the capital of Australia?", "Canberra"),
            ("Acid rain\nor acid precipitation.", "What is this pollution called?", "acid rain")])
MATCH_RESPELLED = register_rule(
    "match.respelled", "no alias found as written: the response's spellings of a gold without "
    "accents or hyphens (\"Sao Paulo\" for \"São Paulo\") are read as the gold",
    fires=[("Sao Paulo.", "Which is the largest city of Brazil?", "São Paulo")],
    spares=[("São Paulo.", "Which is the largest city of Brazil?", "São Paulo")])
