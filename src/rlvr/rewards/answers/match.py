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

from rlvr.rewards.answers.forms import (OPPOSITE, both_answers, other_fields, respell,
                                       retracted, stated, word_number, word_numbers)
from rlvr.rewards.answers.denial import denied
from rlvr.rewards.answers.units import conversion, read_unit
from rlvr.rewards.answers.numbers import (NumberToken, as_number, iter_numbers, numbers_equal, times_ten,
                                  numbers_in, read_whole)

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


_SENTENCE = re.compile(r"[.!\n:]+(?=\s|$)")
# a spaced or word/word slash separates items; "3 / 4" (bare numbers) is closed up first
_FRACTION = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s+/\s+(?=\d+(?:\.\d+)?(?![\w.]))")
# "or" in the languages the abstention grammar reads ("Lima, Quito o Bogotá", "Paris ou
# Lyon", "Berlin oder Bonn", "Москва или Киев")
_OR_WORD = r"\b(?:or|o|u|ou|oder|oppure|или|lub|veya|ya da)\b"
_ITEM_SEP = re.compile(r"\s*(?:[,;?\u00bf|()\u2014\u2013]|" + _OR_WORD + r"|\band\b|\bvs\b\.?|\bversus\b|"
                       r"(?<=[a-z\x00])\s*/\s*(?=[a-z\x00])|\s/\s)\s*")
_MAYBE_LIST = re.compile(r"[,;?/|(\n]|" + _OR_WORD + r"|\band\b|\bvs\b|\bversus\b|[.!]\s")
# markers of alternatives: with one of them, two candidates already make a list
_OR = re.compile(_OR_WORD + r"|[a-z\x00]\s*/\s*[a-z\x00]|\s/\s|\||\bvs\b|"
                 r"\bversus\b|\?\s+(?=[^\s?])")
# a confirmation after a tentative answer ("Paris? Yes.") is not another candidate
_CONFIRM = re.compile(r"(?:yes|yeah|yep|definitely|exactly|right|correct|sure|indeed|absolutely|"
                      r"of course|certainly|i (?:think|believe|guess|suppose|reckon) so)[.!]?$")
# an item that is only an interjection or a retracting word offers nothing ("Barcelona.
# Wait, no, it's Madrid": "wait" and "no" are no candidates)
_INTERJECTION = re.compile(r"(?:wait|no|nope|hmm+|hm|oh|ah|um+|uh|er|well|ok|okay|oops|sorry|"
                           r"actually|so|yes|yeah|right|correction|i mean)[.!]?")
# an item that opens with one of these offers an alternative ("Paris, possibly Rome"); on
# the alias's own item it is only the guess itself ("Who knows? Probably Paris.")
_ALTERNATIVE = re.compile(r"(?:but\s+)?(?:maybe|perhaps|possibly|probably|alternatively|else)\b(?!\W*$)")
# an item that rules candidates out ("it can't be Rome or Madrid, which leaves Paris",
# "Paris, not Rome or Madrid"): it and the items after it, up to the alias, are no offer
_RULED_OUT = re.compile(r"(?:\b(?:not|never|neither|nor|cannot|except|excluding|"
                        r"rul(?:es?|ed|ing) out|eliminat\w*)\b|n't\b)"
                        # a negated verb of knowing is ignorance, not a ruling-out: "I
                        # don't know, 1970 or 1969" offers both
                        r"(?!\s+(?:\w+\s+)?(?:know|remember|recall|sure|certain|say|tell)\b)")
# the alias chosen with certainty: "Shakespeare, of course", "definitely Paris"
_CHOSEN = re.compile("\x00[,\\s]*(?:of course|definitely|certainly|obviously|for sure|"
                     "without (?:a|any) doubt|no doubt)\\b|(?:definitely|certainly|obviously|"
                     "undoubtedly|surely),?\\s+(?:it(?:'s| is| was)\\s+)?\x00")
# one word offered right beside the alias by "or": "oxygen or carbon dioxide" (not "or so",
# "or more", "whether or not", "more or less")
_NOT_OFFERED = r"(?:not|so|more|less|other|others|else|later|never|two|either|whether|rather)"
_ADJACENT_OR = re.compile(rf"(?<![\w'-])(?!{_NOT_OFFERED}\b)[a-z][a-z-]+ {_OR_WORD} \x00|"
                          rf"\x00 {_OR_WORD} (?!{_NOT_OFFERED}\b)[a-z][a-z-]+(?![\w'-])")
_PREPOSITION = re.compile(r"(?:in|on|at|from|of|by|for|with|to|near|between|during|since|"
                          r"until|followed by|after|before|about)\b")
_QUESTION = re.compile(r"[^.!?\n]*\?")
# a question opens with an auxiliary or holds an interrogative; "Paris, London, Rome,
# Berlin?" and "The answer is Paris?" ask nothing
_ASKS = re.compile(r"^\W*(?:is|are|was|were|can|could|do|does|did|will|would|should|has|have|had)\b|"
                   r"\b(?:which|what|who|whom|whose|where|when|why|how|whether|asked|asking)\b")
_LABEL = re.compile(r"^\s*(?:(?:[-*\u2022]|\d{1,2}[.)])\s+)?\**[a-z][a-z ]{0,20}\**:\**\s+")
_UNIT_SEP = re.compile(r"\n+|(?<=[.!?])\s+")
_BULLET = re.compile(r"^\s*(?:[-*\u2022]|\d{1,2}[.)])\s+")
_LEAD_IN = re.compile(r"^(?:or\s+)?(?:it\s+)?(?:could|might|may)\s+(?:also\s+)?be\s+|"
                      r"^(?:or\s+)?(?:maybe|perhaps|possibly|probably|alternatively),?\s+")
# an answer frame before the first item ("The answer is London or Paris") is not part of it
_FRAME = re.compile(r"^(?:(?:the|my)\s+)?(?:final\s+|best\s+|correct\s+)?answer\s+(?:is|would be|was|:)\s+|"
                    r"^(?:it|that)(?:'s|\s+is|\s+was)\s+|^i\s+(?:think|believe|guess)\s+(?:it(?:'s|\s+is)\s+)?|"
                    r"^(?:either|both)\s+")


def mark_words(text: str, alias: str, mark: str) -> str:
    """`text` with each word-bounded occurrence of `alias` (left to right, not overlapping)
    replaced by `mark`."""
    out, pos = [], 0
    for start in word_starts(text, alias):
        if start >= pos:
            out.append(text[pos:start] + mark)
            pos = start + len(alias)
    return "".join(out) + text[pos:]


def _mark(text: str, alias: str) -> str:
    """`text` with each word-bounded occurrence of `alias` replaced by one mark character."""
    return mark_words(text, alias, _MARK)


_MARK = "\x00"
# a unit written with a slash ("m/s", "km/h", "g/mol") is one unit, not two alternatives
_UNIT_SLASH = re.compile(r"(?<![a-z])(?:m|km|cm|mm|mi|ft|kg|g|mg|s|h|hr|min|l|ml|mol|kwh|w|j|n)"
                         r"/(?:s|h|hr|min|kg|l|m|km|g|mol|ml|s\^?2|s\u00b2|m\^?2|m\^?3|day|yr|year)"
                         r"(?![a-z])")
# a number with a word beside it in one item: a detail ("9.58 s", "berlin 2009"), not a name
_DETAIL = re.compile(r"\d\s+[a-z]|[a-z]\s+\d")
# a relative or causal clause after a comma, up to the next comma, describes; it offers
# nothing ("-40 degrees, where the Celsius and Fahrenheit scales meet")
_RELATIVE = re.compile(r",\s*(?:where|which|who|whose|whom|because|since)\b[^,\x00]*(?=,|$)")


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
    lists; "Paris or Rome", "Paris, Rome, Berlin" and "Paris? Rome? Berlin?" are. An answer
    frame or lead-in ("the answer is", "it could be") does not count toward an item's
    length, a "?" between items marks alternatives ("Paris? London."), and a question is
    dropped as an echo only when it asks ("Who knows?", "Is it Paris or Rome?"). Items
    ruled out are no offer: a negation and the items after it up to the alias ("It can't
    be Rome or Madrid, which leaves Paris", "Paris, not Rome or Madrid"); nor are items
    taken back by a retraction after them ("Lyon (I retract that; it's Paris)"), and an
    alias chosen with certainty is no offer ("Romeo and Juliet? Shakespeare, of course.").
    Lists
    across lines and sentences count too (`_unit_list`): "- Paris\n- Rome", "It could be
    Paris. It could be Rome.", "Paris\nRome\nBerlin". Both arguments are expected
    lower-cased.
    """
    if _looped(text, alias):  # "paris lyon paris lyon paris lyon ...": a degenerate list
        return True
    if not _MAYBE_LIST.search(text):  # no separator at all: the common case, cheap
        return False
    marked = _FRACTION.sub(r"\1/", _mark(text, alias))
    marked = _UNIT_SLASH.sub(lambda u: u.group().replace("/", "\u2215"), marked)  # "m/s"
    if _CHOSEN.search(marked):  # "Romeo and Juliet? Shakespeare, of course.": a choice
        return False
    if _unit_list(marked, max_item_words):
        return True
    if "?" in marked:  # an echoed question ("Is it Russia or Canada?", "Who knows?") is no list
        marked = _QUESTION.sub(lambda m: " " if _ASKS.search(m.group()) else m.group(), marked)
    for sentence in _SENTENCE.split(marked):
        if _MARK not in sentence:
            continue
        sentence = _RELATIVE.sub("", sentence)  # "-40 degrees, where C and F meet": no items
        if _ADJACENT_OR.search(sentence):  # "absorb oxygen or carbon dioxide": two offered
            return True
        items = [p.strip() for p in _ITEM_SEP.split(sentence) if p.strip()]
        has_or = bool(_OR.search(sentence)) or any(
            _MARK not in p and _ALTERNATIVE.match(p) for p in items)
        # without an "or", items must be bare: "born in Warsaw, Poland, in 1867" and
        # "March 14, 1879, in Ulm, Germany" are not lists
        digits = any(ch.isdigit() for p in items if _MARK in p for ch in p)
        flags = [(len(_LEAD_IN.sub("", _FRAME.sub("", p)).split()) <= max_item_words
                  and not _CONFIRM.match(p) and not _INTERJECTION.fullmatch(p)
                  # without an "or", an item with a number beside a name is a detail
                  # ("U. Bolt, 9.58 s, Berlin 2009")
                  and (has_or or digits or _MARK in p
                       or not _DETAIL.search(_LEAD_IN.sub("", _FRAME.sub("", p))))
                  and (has_or or not _PREPOSITION.match(p)))
                 or (has_or and p.endswith(_MARK)) for p in items]
        ruled_out = False  # a negation scopes over the disjunction after it, up to the alias
        for i, item in enumerate(items):
            if _MARK in item:
                ruled_out = False
            elif _RULED_OUT.search(item):
                ruled_out = True
            if ruled_out:
                flags[i] = False
            if _MARK not in item and retracted(item, 0):  # "Lyon (I retract that; it's Paris)":
                flags[:i + 1] = [False] * (i + 1)       # what came before is taken back
        run: list[str] = []  # consecutive candidate items
        for item, flag in zip(items + [""], flags + [False]):
            if flag:
                run.append(item)
                continue
            if any(_MARK in p for p in run) and (len(run) >= 3 or (len(run) >= 2 and has_or)):
                return True
            run = []
    return False


_LOOP = re.compile(r"\W*((?:[^\W\d_][\w'-]*\W+){2,4}?)\1{2,}", re.UNICODE)


def _looped(text: str, alias: str) -> bool:
    """True when the response is a loop of a few words repeated three or more times, the
    alias among them with another word ("paris lyon paris lyon paris lyon"): every name in
    the loop is offered, none answered. A loop of the alias alone is no list."""
    m = _LOOP.match(text + " ")
    if m is None or any(ch in m.group(1) for ch in ".!?;:"):
        return False  # a repeated sentence ("The capital is Paris. The capital is ...")
    unit = [w.strip(",") for w in m.group(1).split()]
    others = set(unit) - set(alias.split())
    return contains_word(m.group(1), alias) and bool(others) and not others & _SENTENCE_WORDS


# words that make a repeated unit a sentence, not a list of names
_SENTENCE_WORDS = frozenset("""is are was were be been the a an of in on at to it this that
and or i you he she they we my your its their has have had will would can could not no
so but very""".split())


def _unit_list(marked: str, max_item_words: int) -> bool:
    """A list spread over lines or sentences, the marked alias being one of its items.

    Units are lines, then sentences; a unit is a candidate when, without its bullet or
    numbering and a lead-in ("it could be", "maybe"), it has at most `max_item_words`
    words. Besides the alias's unit it takes one more candidate when bullets or lead-ins
    mark them as alternatives, two more on separate lines, or three more sentences
    ("Paris. It is the capital." is not a list).
    """
    lines = [u for u in marked.split("\n") if u.strip()]
    units = [(u, len(lines) > 1) for line in lines for u in _UNIT_SEP.split(line) if u.strip()]
    if len(units) < 2:
        return False
    others, marked_alt, on_lines, found = 0, False, True, False
    if _parallel(units, max_item_words):
        return True
    for unit, own_line in units:
        if _LABEL.match(unit) and own_line:
            continue  # "Country: France", "- Capital: Canberra" is a field, not an alternative
        core = _BULLET.sub("", unit)
        alt = core != unit
        stripped = _LEAD_IN.sub("", core.strip())
        alt = alt or stripped != core.strip()
        if stripped.endswith("?") or len(stripped.rstrip(".!").split()) > max_item_words:
            continue  # a question ("who knows?") is not an offered answer
        if _MARK in stripped:
            found = True
        else:
            others += 1
        marked_alt = marked_alt or alt
        on_lines = on_lines and own_line
    if not found:
        return False
    return others >= (1 if marked_alt else 2 if on_lines else 3)


def _parallel(units: list[tuple[str, bool]], max_item_words: int) -> bool:
    """Sentences that repeat one frame with different endings ("The capital is Paris. The
    capital is Lyon."), the alias ending one of them: a list in full sentences."""
    words = [u.rstrip(" .!").split() for u, _ in units]
    for mine in (w for w in words if w and _MARK in w[-1]):
        for other in words:
            if other is mine or not other or _MARK in " ".join(other):
                continue
            common = 0
            while common < min(len(mine), len(other)) and mine[common] == other[common]:
                common += 1
            if common >= 2 and 0 < len(mine) - common <= max_item_words \
                    and 0 < len(other) - common <= max_item_words:
                return True
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
    if any(lists_candidates(text, t.text) for t in golds):  # "london, 108 or mars"
        return AnswerMatch(alias, True)
    asked = numbers_in(question) + [w[0] for w in word_numbers(question)] if question else []
    sentences = {_sentence_of(text, t.start) for t in golds}
    nouns = {_noun_after(text, t.end) for t in golds}
    others = sorted({t.value for t in tokens if not numbers_equal(t.value, gold)
                     and _same_kind(t.value, gold)
                     and _sentence_of(text, t.start) in sentences
                     and not _in_brackets(text, t.start) and not denied(text, t.start, t.end)
                     and not _ruled_out(text, t.start, golds)
                     and not _derived(text, t.start, t.end)
                     and not _CONTRASTED.search(text[_sentence_start(text, t.start):t.start])
                     and not _counts_other(_noun_after(text, t.end), nouns)
                     and not any(a <= t.start and t.end <= b for a, b in spans)
                     and not any(numbers_equal(t.value, q) for q in asked)})
    return AnswerMatch(alias, bool(others), tuple(str(v) for v in others))


# a total worked out from the answer: "11 players on the field, so 22 in total" (only with
# the total named: "24, so 32" offers 32)
_DERIVED_BEFORE = re.compile(r"\b(?:for|with) a total of\s+$|\btotall?ing\s+$")
_DERIVED_AFTER = re.compile(r"\s*(?:[a-z]+\s+)?(?:in total|altogether|in all|combined|overall)\b")


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
    """True when the number at `pos` follows a ruling-out word (`_RULED_OUT`) in its
    sentence with no gold between them: the negation scopes over the disjunction after it
    ("It can't be 1968 or 1970, which leaves 1969", "1969, not 1968 or 1970")."""
    lo = max((m.end() for m in _SENTENCE_END.finditer(text, 0, pos)), default=0)
    cue = None
    for cue in _RULED_OUT.finditer(text, lo, pos):
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
        found = next((AnswerMatch(a) for a in aliases if _same_quantity(text, a)), found)
    if found.hit is None:  # accents and hyphens: "sao paulo" gives "são paulo"
        respelled = respell(text, aliases)
        if respelled != text:
            found = _match_word(respelled, aliases, question)
    others = other_fields(text, found.hit) if found.hit is not None and not found.listed else ()
    return AnswerMatch(found.hit, True, others) if others else found


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
            for start in word_starts(text, longer):
                text = text[:start] + " " * len(longer) + text[start + len(longer):]
    return text


def _match_word(text: str, aliases: list[str], question: str) -> AnswerMatch:
    """`match_answer` in "word" mode on one reading of the text."""
    hits: list[AnswerMatch] = []
    for alias in aliases:
        gold = alias_number(alias)
        if gold is not None:
            found = _numeric_match(text, alias, gold, question)
        elif _affirmed(_without_longer(text, alias, aliases), alias):
            found = AnswerMatch(alias, lists_candidates(text, alias)
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
