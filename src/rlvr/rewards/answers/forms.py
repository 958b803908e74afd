"""Forms of the same text the answer matcher must not tell apart, and the gold said only
to be taken back (each found by a red-team round against the rebuilt matcher: a look-alike
letter, an accent or a hyphen hid the gold or a denial; a retracted gold was paid).

* `unmix_scripts` (`folding`): a word that mixes Latin letters with Cyrillic or Greek look-alikes
  ("n\u043et" with a Cyrillic o, "\u0420aris" with a Cyrillic P) is read in Latin letters,
  so a look-alike cannot hide a denial ("It's n\u043et Paris") or an abstention. Words
  wholly in one script are left alone ("\u042d\u0442\u043e \u043d\u0435 \u041f\u0430\u0440\u0438\u0436").
* `loosen`, `respell`: accents on Latin letters and hyphens between letters are dropped, on
  both the response and the gold, and the response's loose spellings of the gold are
  written as the gold before a second matching pass: "S\u00e3o Paulo" gives "Sao Paulo",
  "Zurich" gives "Z\u00fcrich", "Jean Paul Sartre" gives "Jean-Paul Sartre". Marks on other
  scripts are kept (Japanese dakuten change the word).
* `retracted`: an answer taken back after it is said ("Paris. Wait, no - Lyon.", "Paris...
  scratch that", "Paris? No. Lyon.", "I'd say Paris, but on second thought, Lyon") is not
  given; saying the gold again after the retraction gives it.
* `asked_only`: the gold inside a question the response asks ("Is it Paris? No, it's
  Lyon.", "Could it be Paris?") is not given, unless the next sentence confirms it ("Is it
  Paris? Yes.").
* `other_fields`: answer fields written in free text ("Answer: Rome\nAnswer: Paris") with
  distinct values are candidates, as in the structured formats.
"""

from __future__ import annotations

import re
from fractions import Fraction
import unicodedata

from rlvr.rewards.answers.boxes import boxed_values
from rlvr.rewards.answers.denial import denied
from rlvr.rewards.answers.fields import ABSTAIN_VALUE, answer_line_values, normalise_value
from rlvr.rewards.answers.spellings import MONTHS
from rlvr.rewards.rulebook import note, noted, register_rule
from rlvr.rewards.vocabulary import OPENS_QUESTION

_HYPHEN = re.compile(r"(?<=[^\W\d_])[-\u2010\u2011](?=[^\W\d_])")
_STROKES = str.maketrans("\u00f8\u0142\u0111\u00d8\u0141\u0110", "oldOLD")


def loosen(text: str) -> str:
    """`text` without accents on Latin letters and with hyphens between letters made
    spaces ("jean-paul s\u00e3o" -> "jean paul sao"); returned unchanged when ASCII without a
    hyphen."""
    if text.isascii() and "-" not in text:
        return text
    out = []
    for ch in unicodedata.normalize("NFD", text):
        if unicodedata.category(ch) == "Mn" and out and out[-1] < "\u0250":
            continue  # a mark on a Latin letter
        out.append(ch)
    return _HYPHEN.sub(" ", unicodedata.normalize("NFC", "".join(out)).translate(_STROKES))


# a footnote number glued to the word before it ("Richard Nixon123."), and two words
# glued where a space was lost ("sung byJohn Goodman"): how retrieval chat models' answers
# arrive when their citation links are stripped
_FOOTNOTE = re.compile(r"(?<=[a-z]{4})\d{1,3}(?=[\s.,;:!?)\]]|$)")
_GLUED = re.compile(r"(?<=[a-z]{2})(?=[A-Z][a-z])")


def unglue(text: str) -> str:
    """`text` with footnote numbers glued to a word of four or more letters dropped
    ("Nixon123." -> "Nixon.") and a space put back between a lower-case run and a
    capitalised word glued to it ("byJohn" -> "by John"); unchanged otherwise."""
    return _GLUED.sub(" ", _FOOTNOTE.sub("", text))


def in_digits(text: str) -> str:
    """`text` with its English number words written in digits ("eight or nine" -> "8 or
    9": `word_numbers`)."""
    for value, start, end, _ in sorted(word_numbers(text), key=lambda w: -w[1]):
        text = f"{text[:start]}{value}{text[end:]}"
    return text


def respell(text: str, aliases: list[str]) -> str:
    """`text` with each word-bounded occurrence of an alias's loose form (`loosen`) written
    as the alias: "it is sao paulo, not zurich" with aliases ["são paulo"] -> "it is são
    paulo, not zurich". Only the occurrence changes, so the words around it (a denial:
    "non è paris") are read as written. Loosening keeps the length of NFC text; a text or
    alias whose length it changes is left alone."""
    loose_text = loosen(text)
    if len(loose_text) != len(text):
        return text
    for alias in aliases:
        loose = loosen(alias)
        if len(loose) != len(alias) or (loose == alias and loose_text == text):
            continue
        for found in re.finditer(rf"(?<![^\W_]){re.escape(loose)}(?![^\W_])", loose_text):
            text = text[:found.start()] + alias + text[found.end():]
    return text


# a retraction after an answer: the answer said before it is taken back
_RETRACT = re.compile(
    r"\b(?:wait(?=\s*[,.!\u2014\u2013-]|\s+(?:no|actually|i mean|sorry))|scratch that|strike that|"
    r"just kidding|j/k|on second thought|on reflection|correction\s*:|or rather|make that|"
    r"never mind|nope(?![,\s]+(?:not (?:a|an|the|really)|it's not a|this is not a)\b)|"
    r"actually,?\s+no\b|no,?\s+wait|i was wrong|my mistake|i misspoke|"
    r"let me (?:reconsider|rethink|think again|correct (?:that|myself))|come to think of it|"
    r"on closer (?:inspection|look)|i retract (?:that|it)|i take (?:that|it) back|scrap that|"
    r"(?<![\w'])(?:oops|whoops|my bad)(?![\w']))"
    r"|(?:^|[.!?;]\s*|\s?[\u2014\u2013]\s*|\s-\s*)(?:(?:hmm+|hm|oh|um+|uh|ah|er|well|oops),?\s*)?"
    r"no\s*[.!,:\u2014\u2013-](?!\s*(?:doubt|not|never|question|really|seriously|honestly|kidding)\b)")


def retracted(text: str, end: int) -> bool:
    """True when a retraction follows the answer that ends at `end` (module docstring).

    Args:
        text: the response, folded and lower-cased; `end`: the end of the LAST occurrence
            of the answer that counts (an answer said again after a retraction is given).
    """
    found = _RETRACT.search(text, end)
    return found is not None and noted(RETRACTED, found.group())


_CONFIRMS = re.compile(r"\s*(?:yes|yeah|yep|correct|exactly|indeed|right|that's right|"
                       r"that's it|definitely|absolutely|(?:it is|it was)(?=\s*(?:[.!,;]|$))|"
                       r"i (?:think|believe|guess|suppose|reckon) so)\b(?!\s+not\b)")
# a question the next sentence answers "no": the occurrence inside it is not given
_REFUSES = re.compile(r"\s*(?:no|nope|nah|not at all|not really|not quite|"
                      r"(?:definitely|certainly|of course|absolutely|surely) not|"
                      r"i (?:don't|do not) think so)\b")


def _question_end(text: str, start: int) -> int:
    """The index of the "?" that ends the sentence holding `start`, or -1 when that
    sentence is no question."""
    end = text.find("?", start)
    if end < 0 or any(c in text[start:end] for c in ".!\n"):
        return -1
    return end


# a bound before the value: "sometime after 1969", "more than 40" state a range, not it;
# the standard of a comparison ("The Japanese Terrier is bigger than the Cane Corso") is
# named, not chosen. The prepositions bound only a number or a date: "named after Amerigo
# Vespucci", "in dispute over Gibraltar" state the name (measured on EVOUNA's human labels:
# every name they refused there was judged right).
_BOUND = re.compile(r"(?:\b(?:after|before|over|under|above|below|beyond|upwards of|"
                    r"later than|earlier than)|[<>\u2264\u2265])\s*$")
_COMPARED = re.compile(r"\b(?:more than|less than|fewer than|greater than|at least|at most|"
                       r"no more than|no less than|(?<!other )(?<!rather )(?<!else )than"
                       r"(?: (?:the|a|an|that of|those of))?)\s*$")
_NUMBER_WORD = re.compile(r"(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
                          r"twelve|twenty|thirty|forty|fifty|hundred|thousand|million|dozen|"
                          r"a few|several|half)\b")


def _quantity(said: str) -> bool:
    """Whether a span reads as a number or a date (a digit, a number word, a month)."""
    low = said.lower().lstrip(" $\u00a3\u20ac~")
    return bool(re.search(r"\d", said)) or bool(_NUMBER_WORD.match(low)) \
        or low.startswith(MONTHS)


def stated(text: str, start: int, end: int) -> bool:
    """Whether the occurrence `text[start:end]` of an answer is given: not denied
    (`rlvr.rewards.answers.denial.denied`), not only asked (`asked_only`), and not in a
    question the next sentence answers "no" ("Paris? Definitely not.", "Paris is the answer?
    Not at all."). A question the next sentence confirms gives it, a negative one too
    ("Isn't it obviously Paris? Yes.", "Could it be Paris? I think so."). A value after a
    bound ("sometime after 1969", "more than 40") states a range, not the value (a name
    after a preposition is stated: "named after Amerigo Vespucci"), and one after "than" is
    the standard of a comparison ("X is bigger than the Cane Corso")."""
    said = text[start:end]
    bound = _COMPARED.search(text, max(0, start - 20), start) or (
        _BOUND.search(text, max(0, start - 20), start) if _quantity(said) else None)
    if bound:
        note(BOUND_BEFORE, f"{bound.group().strip()} {said}")
        return False

    question = _question_end(text, start)
    if question >= 0:
        if _REFUSES.match(text, question + 1):
            note(REFUSED_QUESTION, text[start:question + 1 + 12])
            return False
        if _CONFIRMS.match(text, question + 1):
            return True
    if denied(text, start, end):
        note(DENIED, said)
        return False
    if asked_only(text, start):
        note(ASKED_ONLY, said)
        return False
    return True


def asked_only(text: str, start: int) -> bool:
    """True when the occurrence at `start` sits in a question the response asks (it opens
    with an auxiliary, "what about", "how about" or a wh-word: "Which is larger, Canada or
    the United States?") and the next sentence does not confirm it ("yes", "exactly", "it
    is")."""
    end = _question_end(text, start)
    if end < 0:
        return False
    opening = max(text.rfind(c, 0, start) for c in ".!?\n") + 1
    # an auxiliary, "what about", or a wh-question that names the answer among its options
    # or restates the question ("Which is larger, Canada or the United States?")
    if not OPENS_QUESTION.match(text[opening:start].lstrip()):
        return False
    return _CONFIRMS.match(text, end + 1) is None


OPPOSITE = {"yes": "no", "no": "yes", "true": "false", "false": "true"}


def both_answers(text: str, alias: str) -> bool:
    """A yes/no (true/false) gold and its opposite both given as answers: "Yes and no.",
    "Yes. No." ("Yes, whales have no gills." gives one answer)."""
    other = OPPOSITE[alias]
    pair = rf"\b(?:{alias}|{other})\s+(?:and|or)\s+(?:{alias}|{other})\b"
    opening = rf"(?:^|[.!?;]\s*){other}\s*(?:[,.!;]|$)"
    found = re.search(pair, text) or re.search(opening, text)
    return found is not None and noted(BOTH_ANSWERS, found.group(), (alias, other))


def other_fields(text: str, alias: str) -> tuple[str, ...]:
    """The values of the response's other answer fields when it has several with distinct
    values and one of them gives `alias` ("\\boxed{rome} ... \\boxed{paris}", "answer:
    rome\nanswer: paris"), else (): free text that writes fields is read like the
    structured formats, where distinct fields are candidates. Abstention values and
    repeats of the same value are not candidates. Both arguments lower-cased."""
    if "boxed" not in text and "answer" not in text:
        return ()
    values = {normalise_value(v) for v in boxed_values(text) + answer_line_values(text)}
    values -= {"", normalise_value(ABSTAIN_VALUE)}
    word = re.compile(rf"(?<![^\W_]){re.escape(normalise_value(alias))}(?![^\W_])")
    if len(values) < 2 or not any(word.search(v) for v in values):
        return ()
    others = tuple(sorted(v for v in values if not word.search(v)))
    note(OTHER_FIELDS, alias, others)
    return others


_UNITS = {w: i for i, w in enumerate("zero _ two three four five six seven eight nine ten eleven "
                                     "twelve thirteen fourteen fifteen sixteen seventeen eighteen "
                                     "nineteen".split()) if w != "_"}
_TENS = {w: 10 * i for i, w in enumerate("_ _ twenty thirty forty fifty sixty seventy eighty "
                                         "ninety".split(), ) if w != "_"}
_SMALL = "|".join(sorted(_UNITS, key=len, reverse=True))
# "eight", "twenty-one", "forty two", "three hundred", "two thousand"; "one" is left out
# (a pronoun far more often than a number: "no one knows", "the one on the left")
_NUMBER_WORDS = re.compile(
    rf"(?<![\w-])(?:(?P<tens>{'|'.join(_TENS)})(?:[- ](?P<unit>one|two|three|four|five|six|seven|eight|nine))?|(?P<small>{_SMALL}))"
    r"(?:\s+(?P<scale>hundred|thousand|million))?(?!\w|-(?:one|two|three|four|five|six|seven|eight|"
    r"nine)\b)")  # "six-sided" names six; "twenty-one" is read whole
_SCALE = {None: 1, "hundred": 100, "thousand": 1000, "million": 10**6}


_DIGIT_WORD = "one|two|three|four|five|six|seven|eight|nine"
_ANY_WORD = "|".join(sorted([*_UNITS, "one", *_TENS], key=len, reverse=True))
_BIG = {"hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9}
# a number said in several parts, or with a decimal point: it has a scale word followed by
# more, or "point" and digits ("two hundred seventy-three", "three point one four")
_COMPOUND = re.compile(
    rf"(?<![\w-])(?:{_ANY_WORD})(?:[\s-]+(?:and\s+)?(?:{_ANY_WORD}|hundred|thousand|million|billion))*"
    rf"(?:\s+point(?:\s+(?:zero|oh|{_DIGIT_WORD}))+)?(?![\w-])")
_SCALE_THEN_MORE = re.compile(rf"\b(?:hundred|thousand|million|billion)[\s-]+(?:and\s+)?"
                              rf"(?:{_ANY_WORD}|thousand|million|billion)\b")


def _compound(said: str) -> bool:
    """True when a run of number words is one number said in parts: a scale word with more
    after it ("two hundred seventy-three"), "one" before a scale word ("one hundred"), or a
    decimal point ("three point one four"); "and" only after a scale word ("three and four"
    is two numbers), and "three four five" is a list."""
    if re.search(rf"(?<!hundred)(?<!thousand)(?<!million)(?<!billion)\s+and\b", said):
        return False
    return " point " in said or bool(_SCALE_THEN_MORE.search(said)) or bool(
        re.match(r"one[\s-]+(?:hundred|thousand|million|billion)\b", said))


def _compound_value(said: str):
    """The value of a number said in parts (`_COMPOUND`), exact (a Fraction with a point)."""
    whole, _, point = said.partition(" point ")
    total = current = 0
    for word in re.split(r"[\s-]+", whole):
        if word in _BIG:
            if word == "hundred":
                current = (current or 1) * 100
            else:
                total, current = total + (current or 1) * _BIG[word], 0
        elif word != "and":
            current += _TENS.get(word) or _UNITS.get(word) or (1 if word == "one" else 0)
    value = total + current
    if not point:
        return value
    digits = "".join(str({"zero": 0, "oh": 0, "one": 1}.get(w, _UNITS.get(w, 0)))
                     for w in point.split())
    return value + Fraction(int(digits), 10 ** len(digits))
_TEEN = "ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen"
# a year said as two numbers: "nineteen forty-five" (1945), "nineteen oh five" (1905),
# "eighteen hundred" (1800), "twenty twenty-four" (2024)
_YEAR_WORDS = re.compile(
    rf"(?<![\w-])(?P<century>{_TEEN}|twenty)\s+(?:(?P<tens>{'|'.join(_TENS)})"
    rf"(?:[- ](?P<unit>{_DIGIT_WORD}))?|(?P<teen>{_TEEN})|oh[- ](?P<oh>{_DIGIT_WORD})|"
    r"(?P<hundred>hundred))(?![\w-])")


_DOZENS = {"half a dozen": 6, "a dozen": 12, "a baker's dozen": 13, "a couple of": 2,
           "a pair of": 2, "a score of": 20}
_DOZEN = re.compile(r"(?<![\w-])(half a dozen|a baker's dozen|a dozen|a couple of|a pair of|"
                    r"a score of)(?![\w-])")


def _year_value(found: re.Match) -> int:
    century = {**_UNITS, "twenty": 20}[found.group("century")]
    if found.group("hundred"):
        return century * 100
    if found.group("oh"):
        return century * 100 + _UNITS[found.group("oh")]
    if found.group("teen"):
        return century * 100 + _UNITS[found.group("teen")]
    unit = found.group("unit")
    return century * 100 + _TENS[found.group("tens")] + (1 if unit == "one" else _UNITS.get(unit or "", 0))


def word_numbers(text: str):
    """Numbers written as English words in `text`, as (value, start, end, text) tuples:
    "a spider has eight legs" -> [(8, 14, 19, "eight")]. Cardinals up to ninety-nine,
    optionally times hundred, thousand or million; a year said as two numbers ("nineteen
    forty-five" is 1945, "nineteen oh five" 1905); "half a dozen" (6), "a dozen", "a couple
    of" (2); "one" is not read (a pronoun) unless a longer number holds it. A number of
    several parts ("two hundred seventy-three", "one thousand and five") and a decimal
    said with "point" ("two hundred seventy-three point one five", 273.15) are read whole.
    """
    out = [(_year_value(y), y.start(), y.end(), y.group()) for y in _YEAR_WORDS.finditer(text)]
    out += [(_DOZENS[d.group(1)], d.start(), d.end(), d.group()) for d in _DOZEN.finditer(text)]
    years = [(start, end) for _, start, end, _ in out]
    for found in _COMPOUND.finditer(text):
        if _compound(found.group()) and not any(a < found.end() and found.start() < b
                                                 for a, b in years):
            out.append((_compound_value(found.group()), found.start(), found.end(), found.group()))
            years.append(found.span())
    for found in _NUMBER_WORDS.finditer(text):
        if any(a <= found.start() < b for a, b in years):
            continue
        if found.group("tens"):
            value = _TENS[found.group("tens")] + _UNITS.get(found.group("unit") or "", 0) \
                + (found.group("unit") == "one")
        else:
            value = _UNITS[found.group("small")]
        out.append((value * _SCALE[found.group("scale")], found.start(), found.end(), found.group()))
    return sorted(out, key=lambda number: number[1])


def word_number(alias: str) -> int | None:
    """The value of an alias that is one number in words ("eight", "twenty-one"), else None."""
    found = _NUMBER_WORDS.fullmatch(alias.strip())
    return word_numbers(alias.strip())[0][0] if found else None


# the named rules of this module (`rlvr.rewards.rulebook`); probes are (completion,
# question, gold)
_WHO = "Who is Belfast's airport named after?"
BOUND_BEFORE = register_rule(
    "forms.bound_before", "a value after a bound (\"after 1969\", \"more than 40\") or after "
    "\"than\" states a range or the standard of a comparison, not the value",
    fires=[("Sometime after 1969.", "When did humans first land on the Moon?", "1969"),
           ("It is bigger than Paris.", "Which city is bigger, Paris or Lyon?", "Paris")],
    spares=[("In 1969.", "When did humans first land on the Moon?", "1969"),
            ("It is George Best.", _WHO, "George Best"),
            ("It is named after George Best.", _WHO, "George Best")])
REFUSED_QUESTION = register_rule(
    "forms.refused_question", "the answer inside a question the next sentence answers "
    "\"no\" (\"Paris? Definitely not.\") is not given",
    fires=[("Paris? Definitely not.", "What is the capital of France?", "Paris")],
    spares=[("Paris? Yes.", "What is the capital of France?", "Paris")])
DENIED = register_rule(
    "denial.denied", "the answer named only to be denied (\"not Paris\", \"Paris is wrong\") "
    "is not given",
    fires=[("It is not Paris.", "What is the capital of France?", "Paris"),
           ("Canberra is not the capital; Sydney is.", "What is the capital of Australia?",
            "Canberra"),
           ("Sydney. Canberra is a common mistake.", "What is the capital of Australia?",
            "Canberra")],
    spares=[("It is Paris, not Lyon.", "What is the capital of France?", "Paris"),
            ("Paris is not the only big city in France, but it is the capital.",
             "What is the capital of France?", "Paris")])
ASKED_ONLY = register_rule(
    "forms.asked_only", "the answer inside a question the response asks (\"Could it be "
    "Paris?\"), with no confirmation after it, is not given",
    fires=[("What about Paris? Lyon.", "What is the capital of France?", "Paris")],
    spares=[("Could it be Paris? Yes, it is.", "What is the capital of France?", "Paris")])
RETRACTED = register_rule(
    "forms.retracted", "an answer taken back after it is said (\"Paris. Wait, no - Lyon.\") "
    "is not given",
    fires=[("Paris. Wait, no - Lyon.", "What is the capital of France?", "Paris")],
    spares=[("Lyon. Wait, no - Paris.", "What is the capital of France?", "Paris")])
OTHER_FIELDS = register_rule(
    "forms.other_fields", "answer fields written in free text with distinct values "
    "(\"Answer: Rome\" and \"Answer: Paris\") are candidates",
    fires=[("Answer: Rome\nAnswer: Paris", "What is the capital of France?", "Paris")],
    spares=[("Answer: Paris\nAnswer: Paris", "What is the capital of France?", "Paris")])
BOTH_ANSWERS = register_rule(
    "forms.both_answers", "a yes/no (true/false) gold and its opposite both given (\"Yes and "
    "no.\") is a list of candidates",
    fires=[("Yes and no.", "Is the Earth round?", "yes")],
    spares=[("Yes, whales have no gills.", "Do whales breathe air?", "yes")])
