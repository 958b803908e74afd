"""Is an answer offered among other candidates? (`lists_candidates`, used by the
`selfaware` matcher and by `qa` in `contains` mode)

A gold named beside alternatives ("Paris or Rome", "Paris, Rome, Berlin", a bulleted list,
"It could be Paris. It could be Rome.", "It's 1. It's 2. It's 3.", a fallback "Mercury.
(If that's wrong, then Venus.)", a loop "Paris Lyon Paris Lyon ...") is no answer; the
gold's other names beside it ("珠穆朗玛峰 (Mount Everest)") are no alternatives;
the rules that keep other text from reading as a list (a field label, a unit with a slash,
a detail such as "9.58 s", a relative clause, candidates ruled out or taken back) are here
too. Standard library only.
"""

from __future__ import annotations

import re

from rlvr.rewards.answers.forms import retracted
from rlvr.rewards.answers.words import contains_word, mark_words
from rlvr.rewards.rulebook import note, noted, register_rule
from rlvr.rewards.vocabulary import (AUXILIARIES, NEGATED_AUXILIARIES, OR_WORDS, WH_WORDS,
                                     alternation)

_SENTENCE = re.compile(r"[.!\n:]+(?=\s|$)")
# a spaced or word/word slash separates items; "3 / 4" (bare numbers) is closed up first
_FRACTION = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s+/\s+(?=\d+(?:\.\d+)?(?![\w.]))")
# "or" in the languages the abstention grammar reads ("Lima, Quito o Bogotá", "Paris ou
# Lyon", "Berlin oder Bonn", "Москва или Киев")
_OR_WORD = rf"\b(?:{alternation(tuple(w for w in OR_WORDS if w != 'یا'))})\b"
_ITEM_SEP = re.compile(r"\s*(?:[,;?\u00bf|()\u2014\u2013]|" + _OR_WORD + r"|\band\b|\bvs\b\.?|\bversus\b|"
                       r"(?<=[a-z\x00])\s*/\s*(?=[a-z\x00])|\s/\s)\s*")
_MAYBE_LIST = re.compile(r"[,;?/|(\n]|" + _OR_WORD + r"|\band\b|\bvs\b|\bversus\b|[.!]\s")
# markers of alternatives: with one of them, two candidates already make a list
_OR = re.compile(_OR_WORD + r"|[a-z\x00]\s*/\s*[a-z\x00]|\s/\s|\||\bvs\b|"
                 r"\bversus\b|\?\s+(?=[^\s?])")
# a confirmation after a tentative answer ("Paris? Yes.") is not another candidate
_CONFIRM = re.compile(r"(?:yes|yeah|yep|definitely|exactly|right|correct|sure|indeed|absolutely|"
                      r"of course|certainly|i (?:think|believe|guess|suppose|reckon) so)[.!]?$")
# an item that refuses what came before it ("Sydney? No - Canberra.") and an item that
# turns from a side clause to the answer ("..., but Canberra")
_REFUSED = re.compile(r"\s*(?:no|nope|nah|not quite|not really|wrong|incorrect)\b[\s.!,:;\u2014-]*"
                      r"(?:\x00|$)")
_CONTRASTED = re.compile(r"\s*(?:but|however|yet|though)\b")
# an item that is only an interjection or a retracting word offers nothing ("Barcelona.
# Wait, no, it's Madrid": "wait" and "no" are no candidates)
_INTERJECTION = re.compile(r"(?:wait|no|nope|hmm+|hm|oh|ah|um+|uh|er|well|ok|okay|oops|sorry|"
                           r"actually|so|yes|yeah|right|correction|i mean)[.!]?")
# an item that opens with one of these offers an alternative ("Paris, possibly Rome"); on
# the alias's own item it is only the guess itself ("Who knows? Probably Paris.")
_ALTERNATIVE = re.compile(r"(?:but\s+)?(?:maybe|perhaps|possibly|probably|alternatively|else)\b(?!\W*$)")
# an item that rules candidates out ("it can't be Rome or Madrid, which leaves Paris",
# "Paris, not Rome or Madrid"): it and the items after it, up to the alias, are no offer
RULED_OUT = re.compile(r"(?:\b(?:not|never|neither|nor|cannot|except|excluding|"
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
_ASKS = re.compile(rf"^\W*(?:{alternation(AUXILIARIES, NEGATED_AUXILIARIES)})\b|"
                   rf"\b(?:{alternation(WH_WORDS, ('whether', 'asked', 'asking'))})\b")
_LABEL = re.compile(r"^\s*(?:(?:[-*\u2022]|\d{1,2}[.)])\s+)?\**[a-z][a-z ]{0,20}\**:\**\s+")
_UNIT_SEP = re.compile(r"\n+|(?<=[.!?])\s+")
_BULLET = re.compile(r"^\s*(?:[-*\u2022]|\d{1,2}[.)])\s+")
_LEAD_IN = re.compile(r"^(?:or\s+)?(?:it\s+)?(?:could|might|may)\s+(?:also\s+)?be\s+|"
                      r"^(?:or\s+)?(?:maybe|perhaps|possibly|probably|alternatively),?\s+")
# an answer frame before the first item ("The answer is London or Paris") is not part of it
_FRAME = re.compile(r"^(?:(?:the|my)\s+)?(?:final\s+|best\s+|correct\s+)?answer\s+(?:is|would be|was|:)\s+|"
                    r"^(?:it|that)(?:'s|\s+is|\s+was)\s+|^i\s+(?:think|believe|guess)\s+(?:it(?:'s|\s+is)\s+)?|"
                    r"^(?:either|both)\s+")


def _mark(text: str, alias: str, same: tuple[str, ...] = ()) -> str:
    """`text` with each word-bounded occurrence of `alias`, and of each other name in `same`
    (longest first), replaced by one mark character."""
    for name in sorted({alias, *same}, key=len, reverse=True):
        if name:
            text = mark_words(text, name, _MARK)
    return text


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


def lists_candidates(text: str, alias: str, max_item_words: int = 3,
                     same: tuple[str, ...] = ()) -> bool:
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
    Paris. It could be Rome.", "Paris\nRome\nBerlin". `same` holds the gold's other names
    (its other aliases): an item that is one of them is the alias again, no rival
    ("珠穆朗玛峰 (Mount Everest), 8849 m"). The strings are expected lower-cased.
    """
    if degenerate_list(text, alias):
        return True
    if not _MAYBE_LIST.search(text):  # no separator at all: the common case, cheap
        return False
    marked = _FRACTION.sub(r"\1/", _mark(text, alias, same))
    marked = _UNIT_SLASH.sub(lambda u: u.group().replace("/", "\u2215"), marked)  # "m/s"
    chosen = _CHOSEN.search(marked)
    if chosen:  # "Romeo and Juliet? Shakespeare, of course.": a choice
        note(CHOSEN, chosen.group().replace(_MARK, alias))
        return False
    units = _unit_list(marked, max_item_words, bool(_NUMBER.fullmatch(alias)))
    if units:
        return noted(UNIT_LIST, "", _unmark(units, alias))
    fallback = _fallback(marked, max_item_words)
    if fallback:  # "Mercury. (If that's wrong, then Venus.)"
        return noted(FALLBACK, fallback, (alias, fallback))
    if "?" in marked:  # an echoed question ("Is it Russia or Canada?", "Who knows?") is no list
        marked = _QUESTION.sub(lambda m: " " if _ASKS.search(m.group()) else m.group(), marked)
    for sentence in _SENTENCE.split(marked):
        if _MARK not in sentence:
            continue
        sentence = _RELATIVE.sub("", sentence)  # "-40 degrees, where C and F meet": no items
        adjacent = _ADJACENT_OR.search(sentence)
        if adjacent:  # "absorb oxygen or carbon dioxide": two offered
            return noted(OR_ADJACENT, adjacent.group().replace(_MARK, alias))
        # the gold's names joined by "or" ("Chomolungma, or Mount Everest") are one item
        sentence = re.sub(rf"\x00[\s,(]*{_OR_WORD}[\s,]*\x00\)?", _MARK, sentence)
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
            elif RULED_OUT.search(item):
                ruled_out = True
            if ruled_out:
                flags[i] = False
            if _MARK not in item and retracted(item, 0):  # "Lyon (I retract that; it's
                flags[:i + 1] = [False] * (i + 1)       # Paris)": what came before is taken back
            if _REFUSED.match(item):  # "Sydney? No - Canberra.": refused before the answer
                flags[:i] = [False] * i
            if _MARK in item and _CONTRASTED.match(item):  # "not sure if you want the city
                flags[:i] = [False] * i  # or the territory, but Canberra": a side clause
        run: list[str] = []  # consecutive candidate items
        for item, flag in zip(items + [""], flags + [False]):
            if flag:
                run.append(item)
                continue
            rivals = sum(_MARK not in p for p in run)  # the alias named twice is one item
            if any(_MARK in p for p in run) and (rivals >= 2 or (rivals >= 1 and has_or)):
                return noted(OR_ALTERNATIVE if has_or else COMMA_LIST,
                             sentence.replace(_MARK, alias).strip(), _unmark(run, alias))
            run = []
    return False


def degenerate_list(text: str, alias: str) -> bool:
    """True when `alias` sits in text no person writes as an answer: a loop of a few words
    repeated ("paris lyon paris lyon paris lyon") or an unpunctuated run of four or more
    names ("answer: everest k2 kangchenjunga lhotse makalu"). These forms are what a policy
    produces when listing pays; they never occur in the human-judged answers of EVOUNA, so
    they refuse nothing a person judged right there. `text` lower-cased."""
    if _looped(text, alias):
        return noted(LOOP, text[:60])
    if _bare_run(text, alias):
        return noted(BARE_RUN, text[:60])
    return False


# a fallback offered in case the answer is wrong: "Mercury. (If that's wrong, then Venus.)"
_FALLBACK = re.compile(
    r"\b(?:if (?:that|this|it|i)(?:'s|'m| is| am| was) (?:wrong|incorrect|mistaken|not (?:it|right|"
    r"correct))|if not(?: that)?|otherwise|failing that|or else|also possible|other possibilities|"
    r"(?:it )?could also be|alternatives?)\b[,:]?\s*(?:then\s+)?"
    r"(?:(?:it(?:'s| is| would be| could be| might be| must be)|try|maybe|perhaps|go with)\s+)?"
    r"([^.!?\n()\x00]+)")


def _fallback(marked: str, max_item_words: int) -> str:
    """The other short answer of a fallback that follows the alias ("Mercury. (If that's
    wrong, then Venus.)", "Paris; if not, Lyon": "venus"), or "" when there is none."""
    first = marked.find(_MARK)
    return next((m.group(1).strip() for m in _FALLBACK.finditer(marked)
                 if m.start() > first and 1 <= len(m.group(1).split()) <= max_item_words
                 and not re.match(r"(?:i|i'd|i'm|we|you|that|this|it)\b", m.group(1).strip())),
                "")


_RUN_FRAME = re.compile(r"^\W*(?:(?:the|my)\s+)?(?:final\s+)?answer\s*(?:is\b|:)\W*")
_FUNCTION_WORDS = frozenset("""is are was were be been the a an of in on at to it this that and or
i you he she they we my your its their has have had will would can could not no so but very
for from with by as than then there here what which who when where why how about into times
equals plus minus divided over makes gives around circa approximately roughly wrote""".split())


def _bare_run(text: str, alias: str) -> bool:
    """True when an answer field's value ("Answer: ...", "The answer is ...") or a line
    without any punctuation is only names, four or more words with no function word
    between them, and three or more are not the alias (a sentence is prose: read without
    its capitals, "Shakespeare wrote Hamlet around 1600." looks the same):
    "Answer: Everest K2 Kangchenjunga Lhotse Makalu" lists five mountains. A long name the
    alias covers but for two words ("Martin Luther King Jr") is no list; a full name of
    five words given for a one-word alias is read as a list (decided)."""
    for line in text.split("\n"):
        if alias not in line:
            continue  # the common case: no text is marked
        value = _RUN_FRAME.sub("", line.strip())
        if value == line.strip() and re.search(r"[.!?,;:]", line):
            continue  # a field's value, or a bare line of words: prose has punctuation
        words = _mark(value, alias).rstrip(" .!").split()
        if len(words) >= 4 and all(re.fullmatch(r"[^\W_][\w'-]*|\x00", w) for w in words) \
                and not _FUNCTION_WORDS & set(words) \
                and sum(w.isdigit() for w in words) <= 1 \
                and sum(_MARK not in w for w in words) >= 3:
            return True
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


def _unit_list(marked: str, max_item_words: int, numeric: bool = False) -> tuple[str, ...]:
    """A list spread over lines or sentences, the marked alias being one of its items: its
    units (lines or sentences), or () when there is none.

    Units are lines, then sentences; a unit is a candidate when, without its bullet or
    numbering and a lead-in ("it could be", "maybe"), it has at most `max_item_words`
    words. Besides the alias's unit it takes one more candidate when bullets or lead-ins
    mark them as alternatives, two more on separate lines, or three more sentences
    ("Paris. It is the capital." is not a list).
    """
    lines = [u for u in marked.split("\n") if re.search(r"[^\W_]|\x00", u)]  # not "```"
    units = [(u, len(lines) > 1) for line in lines for u in _UNIT_SEP.split(line) if u.strip()]
    if len(units) < 2:
        return ()
    others, marked_alt, on_lines, found = 0, False, True, False
    texts = tuple(u.strip() for u, _ in units)
    if _parallel(units, max_item_words, numeric):
        return texts
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
        return ()
    return texts if others >= (1 if marked_alt else 2 if on_lines else 3) else ()


def _parallel(units: list[tuple[str, bool]], max_item_words: int, numeric: bool = False) -> bool:
    """Sentences that repeat one frame with different endings ("The capital is Paris. The
    capital is Lyon."), the alias ending one of them: a list in full sentences. A frame of
    one word ("It's 1. It's 2.") makes a list when the endings are numbers and the alias is
    one (`numeric`), or when three or more sentences share it ("It's Paris. It's Lyon.
    It's Nice."); "It's Paris. It's lovely." is no list."""
    words = [u.rstrip(" .!").split() for u, _ in units]
    for mine in (w for w in words if w and _MARK in w[-1]):
        short = 0  # other sentences that share a one-word frame
        for other in words:
            if other is mine or not other or _MARK in " ".join(other):
                continue
            common = 0
            while common < min(len(mine), len(other)) and mine[common] == other[common]:
                common += 1
            if not (0 < len(mine) - common <= max_item_words
                    and 0 < len(other) - common <= max_item_words):
                continue
            if not re.search(r"[^\W_]", " ".join(mine[:common])):
                continue  # only a bullet in common ("- **Capital:** ..."): no frame
            if common >= 2 or common == 1 and numeric and _NUMBER.fullmatch(" ".join(other[1:])):
                return True
            short += common == 1
        if short >= 2:
            return True
    return False


_NUMBER = re.compile(r"[-+$]?\d[\d,.]*%?")


def _unmark(items, alias: str) -> tuple[str, ...]:
    """Items with the alias's mark written back as the alias."""
    return tuple(item.replace(_MARK, alias).strip() for item in items)


# the named rules of this module (`rlvr.rewards.rulebook`); probes are (completion,
# question, gold)
_CAPITAL = "What is the capital of Australia?"
LOOP = register_rule(
    "candidates.loop", "a loop of a few words repeated three or more times, the answer among "
    "them with another word (\"paris lyon paris lyon paris lyon\"), offers every name",
    fires=[("Canberra Sydney Canberra Sydney Canberra Sydney", _CAPITAL, "Canberra")],
    spares=[("Canberra Canberra Canberra", _CAPITAL, "Canberra")])
BARE_RUN = register_rule(
    "candidates.bare_run", "an answer field or an unpunctuated line of four or more names, "
    "three of them not the answer, lists them",
    fires=[("Answer: Canberra Sydney Melbourne Perth", _CAPITAL, "Canberra")],
    spares=[("Answer: Canberra", _CAPITAL, "Canberra")])
CHOSEN = register_rule(
    "candidates.chosen", "an answer chosen with certainty (\"Shakespeare, of course\", "
    "\"definitely Paris\") is no offer among candidates",
    fires=[("Sydney or Perth? Definitely Canberra.", _CAPITAL, "Canberra")],
    spares=[("Sydney or Canberra.", _CAPITAL, "Canberra")])
UNIT_LIST = register_rule(
    "candidates.unit_list", "a list over lines or sentences (bullets, \"It could be X. It "
    "could be Y.\", parallel sentences), the answer one of its items",
    fires=[("- Canberra\n- Sydney", _CAPITAL, "Canberra"),
           ("The capital is Canberra. The capital is Sydney.", _CAPITAL, "Canberra")],
    spares=[("Canberra. It is in the ACT.", _CAPITAL, "Canberra")])
FALLBACK = register_rule(
    "candidates.fallback", "a fallback to another short answer after the answer (\"Mercury. "
    "(If that's wrong, then Venus.)\") offers two candidates",
    fires=[("Canberra; if not, Sydney.", _CAPITAL, "Canberra")],
    spares=[("Canberra; if not, I am wrong.", _CAPITAL, "Canberra")])
OR_ADJACENT = register_rule(
    "candidates.or_adjacent", "one word offered right beside the answer by \"or\" (\"oxygen or "
    "carbon\") offers two candidates (not \"or so\", \"or more\")",
    fires=[("Canberra or Sydney.", _CAPITAL, "Canberra")],
    spares=[("Canberra or so.", _CAPITAL, "Canberra")])
OR_ALTERNATIVE = register_rule(
    "candidates.or_alternative", "the answer in a run of short items of one sentence with an "
    "alternative marker (\"or\", a slash, \"?\" between items, \"maybe\") offers them all",
    fires=[("Canberra, Sydney or Perth.", _CAPITAL, "Canberra")],
    spares=[("Canberra, the capital city.", _CAPITAL, "Canberra")])
COMMA_LIST = register_rule(
    "candidates.comma_list", "the answer among three or more short items of one sentence "
    "separated by commas or semicolons (\"Paris, Rome, Berlin\") offers them all",
    fires=[("Canberra, Sydney, Perth.", _CAPITAL, "Canberra")],
    spares=[("Canberra, Australia.", _CAPITAL, "Canberra")])
