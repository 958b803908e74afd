"""Whole-value number reading and comparison, shared by the numeric rewards.

Every number rule of the `####`, qa and selfaware graders is decided here, once (the
table in docs/rewards.md, "Numbers are read whole", states them):

A number is read whole or not at all: "3/4" is three quarters (never the 3 before the
slash), "108.92" is one value (never the 108 inside it), "1 1/2" is a mixed number,
"1.5e3" and "-2.5E-4" are scientific notation, "1,234" and "1,234.56" have thousands
groups, `\\frac{3}{4}` and `\\dfrac` are fractions. A token that runs on into more
number-like text ("1.2.3", "7,0", "3/4/5", "12:00", "3/4x") is no number at all. Scale
and multiplier words belong to the number and chain: "3 million" is 3000000, "5 hundred
thousand" 500000, "5 dozen" 60, "2 and a half" 5/2, "minus 5" -5; other count nouns are
units ("3 pairs" is 3); an amount in dollars and cents is one number of dollars ("7
dollars and 50 cents", "$7 and 50 cents": 7.5); a text whose one number has a decimal
comma ("2,5"; never "1,500") states that decimal. A fraction word divides: "3 halves" is 3/2, "2 thirds" 2/3;
"5 quarters" is no number (a coin count or 5/4). An exponent beyond +-400 or more than
400 digits is not read. Unicode forms are numbers too: digits of any script ("\uff15",
"\u0665"), a thin, narrow no-break or no-break space as the thousands separator
("1\u2009000", one separator per number; "1\u20092" is two numbers; in a text that must
state one number, plain spaces group too: "1 250" is 1250), vulgar fractions
("\u00bd"; "2\u00bd" is 5/2); a superscript digit runs on ("5\u00b2" is no number).
"percent" after a number is its percent sign; "5!" is an exclamation mark (prose), not a
factorial. Values are exact: an int when integral, else a
`fractions.Fraction`, so "0.5", "1/2" and "2/4" are the same value and "18.00" equals "18".

A text states a number (`read_whole`) when it holds exactly one, with at most
`MAX_WORDS` plain words on each side and no word that changes, doubts or retracts it
(`_BLOCKING`: "5 or 6", "not 5", "5, no wait", "5 is wrong") and no question mark: a value
named only to be retracted is no answer. Markup around it is punctuation (a closing tag
"18</answer>", backticks, "\\(18\\)", "**", `\\boxed`, `\\textbf`), but any other LaTeX
command changes the value ("\\sqrt{25}", "\\log 100", "\\neq 5": no answer), and a
struck-out text states nothing (`STRUCK`: HTML `<del>`/`<s>`/`<strike>`, a line-through
style, Markdown `~~`, LaTeX `\\sout`/`\\cancel`, combining strokes). `retracts`
finds a retraction after a value
(`RETRACTING` words in the rest of its sentence or opening the next one).
`offers_alternative` finds a value offered with another as its alternative ("4 or 5", "it
might have been 40", a run "1 2 3 4 5"); `is_range` tells the two ends of a range
("1990-2000", "from 5 to 6", "4 \u00b1 1", "between 5 and 6").

Comparison (`numbers_equal`): when either side is an integer they compare exactly
(1000000.4 is not 1000000); any other pair compares with a relative tolerance (default
1e-6 of the larger magnitude), which holds at every scale: 1e-8 and 2e-8 differ (an
absolute tolerance would call all tiny numbers equal), while 1/3 and 0.3333333 agree.

Used by `gsm8k_correctness` (the value after `####`), `qa` (numeric aliases) and the
`selfaware` reward (numeric gold answers).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterator

from rlvr.rewards.vocabulary import DISJUNCTION

# Unicode vulgar fractions ("½", "2¾"): one value each (a mixed number after digits).
# VULGAR and SUPERSCRIPT_DIGITS are the one table of these characters (math_forms reads them).
VULGAR = {chr(c): Fraction(unicodedata.numeric(chr(c))).limit_denominator(10)
          for c in [*range(0x00BC, 0x00BF), *range(0x2150, 0x215F)]}
_VULGAR_CHARS = sorted(VULGAR)
SUPERSCRIPT_DIGITS = dict(zip("\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079",
                              "0123456789"))
# For text folded with NFKC (selfaware): a superscript is an exponent ("5\u00b2" -> "5^2",
# which is no number, never 52) and a vulgar fraction its value ("2\u00bd" -> "2 1/2").
NFKC_SAFE_NUMBERS = {
    **{c: "^" + d for c, d in SUPERSCRIPT_DIGITS.items()},
    **{c: f" {v.numerator}/{v.denominator}" for c, v in VULGAR.items()}}
# One number token. The look-behind keeps it from starting inside a word or another number;
# the look-ahead keeps it from stopping inside one ("3/4", "108.92", "1,000", "12:00").
_NUMBER = re.compile(
    r"(?<![\w.,/:^\\])"
    r"(?:(?P<signword>minus|negative)\s+)?"
    r"(?P<sign>[-+\u2212])?(?P<cur>\\?\$\s?)?(?P<sign2>-)?"
    r"(?:(?P<mixed>\d+)\s+(?=\d+/\d|\\[dt]?frac\s*\{))?"
    r"(?:\\[dt]?frac\s*\{\s*(?P<tnum>\d+)\s*\}\s*\{\s*(?P<tden>\d+)\s*\}"
    rf"|(?:(?P<vwhole>\d+)\s?)?(?P<vulgar>[{''.join(_VULGAR_CHARS)}])"
    r"|(?P<body>(?:\d{1,3}(?P<sep>[,\u2009\u202f\u00a0])\d{3}(?:(?P=sep)\d{3})*|\d+)"
    r"(?:\.\d+)?(?:[eE][-+]?\d+)?|\.\d+)"
    r"(?:/(?P<den>\d+))?)"
    r"(?P<pct>\s?\\?%|\s+(?:percent|per\s?cent|pct)(?![\w/:^]))?"
    r"(?P<scale>(?:\s+(?:thousand|million|billion|trillion|dozen|hundred)s?(?![\w/:^]))*)"
    r"(?:\s+(?P<part>halves|half|thirds?|quarters?|fourths?|fifths?|sixths?|sevenths?"
    r"|eighths?|ninths?|tenths?|twelfths?|hundredths?|thousandths?)(?![\w/:^]))?"
    r"(?P<half>\s+and\s+a\s+half(?!\w))?"
    r"(?![\w/:^]|[.,\u2009\u202f\u00a0]\d)",
    re.IGNORECASE,
)
_SCALES = {"thousand": 1000, "million": 10**6, "billion": 10**9, "trillion": 10**12,
           "dozen": 12, "hundred": 100}
# A fraction word after a number divides it: "3 halves" is 3/2, "2 thirds" 2/3.
# "quarter(s)" is also a coin (25 cents): "5 quarters" states no single value (None).
_PARTS = {"half": 2, "halve": 2, "third": 3, "quarter": None, "fourth": 4, "fifth": 5,
          "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "twelfth": 12,
          "hundredth": 100, "thousandth": 1000}
MAX_EXPONENT = 400  # "1e100000000" is not read (its exact value would take minutes)
MAX_DIGITS = 400  # nor a 5,000-digit run (Python refuses int() beyond 4,300 digits)
# Words that, next to the one number of an answer, change or multiply what it says
# ("5 or six", "not 5", "between 5 and 6"): `read_whole` refuses the text.
_BLOCKING = frozenset((
    "or", "and", "not", "no", "nor", "between", "to", "minus", "plus", "times", "either",
    "maybe", "perhaps", "except", "zero", "one", "two", "three", "four", "five", "six",
    "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen",
    "sixteen", "seventeen", "eighteen", "nineteen", "twenty", "thirty", "forty", "fifty",
    "sixty", "seventy", "eighty", "ninety", "hundred", "thousand", "million", "billion",
    "half", "quarter", "third", "dozen",
    # a value named only to be retracted or doubted ("5, no wait", "5 is wrong", "5?")
    "wait", "actually", "wrong", "incorrect", "false", "scratch", "oops", "sorry", "mistake",
    "correction", "rather", "instead", "but", "unless", "never", "nope", "guess", "unsure",
    "probably", "possibly", "likely", "might", "may", "could", "if", "than", "less", "more",
    "over", "under", "least", "most", "almost", "nearly", "roughly", "around", "about"))
RETRACTING = frozenset((
    "no", "or", "maybe", "perhaps", "wait", "actually", "wrong", "incorrect", "scratch",
    "oops", "sorry", "mistake", "correction", "rather", "instead", "nope"))
MAX_WORDS = 4  # words a stated number may carry on each side (a unit: "square feet")


@dataclass(frozen=True)
class NumberToken:
    """One number read whole from a text.

    Attributes:
        value: the exact value: an int when integral, else a Fraction (a percent keeps
            its number: "50%" -> 50).
        start, end: character span in the text.
        text: the token as written.
    """

    value: int | Fraction
    start: int
    end: int
    text: str


def _decimal(body: str) -> int | Fraction | None:
    """The exact value of "123", "1.50", ".5" or "1.5e3" (an int when integral); None for
    more than `MAX_DIGITS` digits or an exponent beyond `MAX_EXPONENT`."""
    if len(body) > MAX_DIGITS:
        return None
    if "e" in body or "E" in body:
        mantissa, _, exponent = body.lower().partition("e")
        if abs(int(exponent)) > MAX_EXPONENT:
            return None
        value = Fraction(body)
    elif "." in body:
        whole, frac = body.split(".")
        scale = 10 ** len(frac)
        value = Fraction(int(whole or "0") * scale + int(frac), scale)
    else:
        return int(body)
    return value.numerator if value.denominator == 1 else value


def _value(match: re.Match) -> int | Fraction | None:
    """The exact value of one `_NUMBER` match, or None when it states no single value."""
    if match.group("tnum") is not None:  # \\frac{3}{4}
        value, den = int(match.group("tnum")), match.group("tden")
    elif match.group("vulgar") is not None:  # "½", "2½"
        if match.group("mixed") is not None or match.group("den") is not None:
            return None
        value, den = VULGAR[match.group("vulgar")] + int(match.group("vwhole") or 0), None
    else:
        sep = match.group("sep")
        value = _decimal(match.group("body").replace(sep, "") if sep else match.group("body"))
        den = match.group("den")
    if value is None:
        return None
    if den is not None:
        if int(den) == 0 or type(value) is not int:
            return None  # "12/0" and "1.5/2" are not numbers we read
        value = Fraction(value, int(den))
        if match.group("mixed") is not None:
            value += int(match.group("mixed"))
    elif match.group("mixed") is not None:
        return None
    if match.group("half") is not None:
        value = Fraction(value) + Fraction(1, 2)
    for word in match.group("scale").lower().split():
        value = value * _SCALES[word.removesuffix("s")]
    part = match.group("part")
    if part is not None:
        parts = _PARTS[part.lower().removesuffix("s")]
        if parts is None:
            return None
        value = Fraction(value, parts)
    if type(value) is Fraction and value.denominator == 1:
        value = value.numerator
    sign = match.group("sign")
    negative = ((sign is not None and sign != "+") or match.group("sign2") is not None
                or match.group("signword") is not None)
    return -value if negative else value


def iter_numbers(text: str) -> Iterator[NumberToken]:
    """Every number token of `text`, read whole, in order (see the module docstring)."""
    for match in _NUMBER.finditer(text):
        value = _value(match)
        if value is not None:
            yield NumberToken(value, match.start(), match.end(), match.group())


# "2.998 × 10^8", "3 x 10^{5}", "6.02·10^23": scientific notation written out
_TIMES_TEN = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*[\u00d7x\u00b7*]\s*10\s*\^\s*(\{\s*)?([-+]?\d{1,3})"
                        r"(?(2)\s*\})(?![\d.])")


# a bare power of ten: "10^6", "10^{6}", "10**6", "10⁶" (not "2^10", not "10^x")
_POWER_OF_TEN = re.compile(r"(?<![\w.^*])10\s*(?:\^|\*\*)\s*(\{\s*)?([-+]?\d{1,3})(?(1)\s*\})(?![\d.^])")
_SUPERSCRIPT = str.maketrans("\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079\u207b",
                             "0123456789-")
_POWER_SUPERSCRIPT = re.compile(r"(?<![\w.])10([\u207b]?[\u2070\u00b9\u00b2\u00b3\u2074-\u2079]{1,3})(?![\w.])")


def times_ten(text: str) -> str:
    """`text` with scientific notation written with "× 10^" spelt as `e` ("2.998 × 10^8" ->
    "2.998e8"), and a bare power of ten as one number ("10^6", "10**6", "10⁶" -> "1e6"), so
    it reads as one number."""
    if "10" not in text:
        return text
    text = _TIMES_TEN.sub(r"\1e\3", text)
    text = _POWER_OF_TEN.sub(r"1e\2", text)
    return _POWER_SUPERSCRIPT.sub(lambda m: "1e" + m.group(1).translate(_SUPERSCRIPT), text)


def numbers_in(text: str) -> list[int | Fraction]:
    """The values of every number token in `text`, in order."""
    return [token.value for token in iter_numbers(text)]


# Markup around a stated number is punctuation: a closing tag ("18</answer>"), backticks,
# LaTeX delimiters ("\\(18\\)"), markdown bold; a bare "<" or ">" is not (it compares).
# Only presentation commands are: `\\sqrt{25}`, `\\log 100`, `\\neq 5` change the value.
_MARKUP = (r"</?[a-z_]+>|\\[()\[\]]|`|\\(?:boxed|fbox|text(?:bf|rm|it|normal)?|math(?:bf|rm|it)"
           r"|mbox|bf|displaystyle|textstyle|left|right|quad|qquad|[,;:! ])(?![a-z])")
# A struck-out value is taken back, never stated, in every notation a response may use:
# HTML deletion and strike tags (<del>, <s>, <strike>, any attributes), a line-through
# style, Markdown `~~`, LaTeX `\\sout` / `\\st` / `\\cancel` (and `\\bcancel`, `\\xcancel`,
# `\\hcancel`) and Unicode combining strokes. `_MARKUP` would otherwise read the tags as
# punctuation.
STRUCK = re.compile(r"<\s*(?:del|s|strike)(?:\s[^>]*)?>|line-through|~~"
                    r"|\\(?:sout|st|xout|[bx]?cancel|hcancel|cancelto)(?![a-z])"
                    r"|[\u0334-\u0338\u20d2\u20e5]", re.IGNORECASE)
_FILLER = re.compile(rf"{_MARKUP}|[\s$%.,;:!*)(\[\]{{}}\u00b0\u2103\u2109]+|(?<!\\)\b[a-z]+",
                     re.IGNORECASE)  # a degree sign is a unit mark: "-5\u00b0C"
_PUNCT = re.compile(rf"{_MARKUP}|[\s$%.,;:!{{}}*]+", re.IGNORECASE)
_WORD = re.compile(r"[a-z]+")


# an amount in dollars and cents is one number of dollars: "7 dollars and 50 cents",
# "$7 and 50 cents", "7 dollars, 5 cents" (cents below 100)
_DOLLARS_AND_CENTS = re.compile(
    r"(?<![\w.,])(\$\s?)?(\d+)(?(1)|\s*dollars?)\s*(?:,\s*|and\s+)?(\d{1,2})\s*cents?(?!\w)",
    re.IGNORECASE)


# a decimal comma (German, French, ...): one or two digits after the comma, no other digit
# group around it ("2,5", "12,75"; never "1,500", a thousands group, nor "1,2,3", a list)
_DECIMAL_COMMA = re.compile(r"(?<![\d.,])(\d+),(\d{1,2})(?![\d]|[.,]\d)")


# thousands grouped by plain spaces, as SI and French write them ("1 250", "12 345 678"):
# read as one number only when the text holds nothing else that could be a second number
_SPACE_GROUPED = re.compile(r"(?<![\d.,])\d{1,3}(?: \d{3})+(?:\.\d+)?(?![\d]|[.,]\d)")


def _in_dollars(m: re.Match) -> str:
    return f"${m.group(2)}.{int(m.group(3)):02d}"


def read_whole(text: str, allow_words: bool = True) -> int | Fraction | None:
    """The single number that `text` states, or None.

    The text must hold exactly one number token (`iter_numbers`); besides it only spaces,
    punctuation, `\\boxed{}` and (when `allow_words`) at most `MAX_WORDS` plain words on
    each side may remain (a unit: "18 dollars", "$5.", "50%", "The answer is 5"), none of
    them a word that changes, doubts or retracts what the number says ("5 or six", "not
    5", "between 5 and 6", "5, no wait", "5 is wrong", "about 5": `_BLOCKING`), and no
    question mark. Several numbers ("5 or 6", "5 (not 6)", "2 + 3 = 5"), a number that
    cannot be read whole ("3/4x", "12:00", "1.2.3", "5 quarters"), a struck-out text
    (`STRUCK`: "<del>5</del>", "~~5~~", "\\sout{5}") or no number give None.
    """
    text = times_ten(_DOLLARS_AND_CENTS.sub(_in_dollars, text))
    tokens = list(iter_numbers(text))
    if not tokens and len(_DECIMAL_COMMA.findall(text)) == 1:  # "2,5": a decimal comma
        text = _DECIMAL_COMMA.sub(r"\1.\2", text)
        tokens = list(iter_numbers(text))
    if len(tokens) > 1 and len(_SPACE_GROUPED.findall(text)) == 1:  # "1 250": SI grouping
        text = _SPACE_GROUPED.sub(lambda m: m.group().replace(" ", ""), text)
        tokens = list(iter_numbers(text))
    if len(tokens) != 1 or "?" in text or STRUCK.search(text):
        return None
    before, after = text[:tokens[0].start], text[tokens[0].end:]
    rest = before + " " + after
    if any(ch.isdigit() for ch in rest):
        return None
    if allow_words and (not _BLOCKING.isdisjoint(_WORD.findall(rest.lower())) or max(
            len(_WORD.findall(before.lower())), len(_WORD.findall(after.lower()))) > MAX_WORDS):
        return None
    leftover = (_FILLER if allow_words else _PUNCT).sub("", rest)
    leftover = "".join(ch for ch in leftover  # an emoji or symbol after the answer: "#### 24 🎉"
                       if unicodedata.category(ch) not in ("So", "Sk", "Cf") and ch != "\ufe0f")
    return tokens[0].value if not leftover else None


def retracts(rest: str, after: str = "", words: frozenset[str] = RETRACTING) -> bool:
    """True when what follows a stated value takes it back or offers another: a
    retracting word (`RETRACTING`) in `rest` (the rest of the value's sentence: "5, no
    wait, 6", "5, or maybe 6") or opening `after` (the next sentence or line: "Actually,
    6.", "Or maybe 6."); `words` replaces the list (`RETRACTING`)."""
    first = _WORD.match(_INTERJECTION.sub("", after.strip().lower()))
    return not words.isdisjoint(_WORD.findall(rest.lower())) or bool(
        first and first.group() in words)


# interjections before the first word of the next sentence: "Hmm, actually, 6." retracts
_INTERJECTION = re.compile(r"^(?:\W*(?:hmm+|hm+|um+|uh+|ah+|oh|well|so|okay|ok)\b[\s,.!:;-]*)+")


# The two ends of a range ("1990-2000", "from 5 to 6", "4 ± 1", "between 5 and 6"): two
# candidates, never one stated value.
_RANGE = re.compile(r"\s*(?:[-\u2012-\u2015]|to|through|till|until|\u00b1|\\pm|\+/-)\s*",
                    re.IGNORECASE)
_BETWEEN = re.compile(r"\bbetween\s*$", re.IGNORECASE)


def is_range(text: str, first: NumberToken, second: NumberToken) -> bool:
    """True when two number tokens of `text` (in order) are the two ends of one range
    ("1990-2000", "from 5 to 6", "4 \u00b1 1", "between 5 and 6")."""
    between = text[first.end:second.start]
    return bool(_RANGE.fullmatch(between) or (re.fullmatch(r"\s*and\s*", between, re.I)
                                              and _BETWEEN.search(text[:first.start])))


def offers_alternative(text: str, value: int | Fraction) -> bool:
    """True when `text` offers a number equal to `value` and, as its alternative, one of
    another value: joined to it by a disjunction and at most one more word ("4 or 5",
    "40 or maybe 50", "eight or nine" once written in digits), or offered as a possibility
    ("it might have been 40,000"), or in a run of three or more numbers ("1 2 3 4 5").
    A range ("1994-1998", "between 1994 and 1998"), "20 or more", and the same quantity in
    a percent ("0.05 or 5%") are not alternatives (on
    EVOUNA's human labels every such answer refused was judged right)."""
    tokens = list(iter_numbers(text))
    for hit in (t for t in tokens if numbers_equal(t.value, value)):
        if _in_run(text, tokens, hit):
            return True
        for other in (t for t in tokens if not numbers_equal(t.value, value)):
            first, second = sorted((hit, other), key=lambda t: t.start)
            between = text[first.end:second.start]
            if "%" in text[first.start:second.end + 1] or re.match(r"\s*(?:%|percent)", text[
                    second.end:]) or re.match(r"\s*(?:%|percent)", text[first.end:]):
                continue
            if DISJUNCTION.search(between) and len(_WORD.findall(between.lower())) <= 2 \
                    and not re.search(r"\b(?:more|less|fewer|so|above|below|over|under)\b",
                                      text[second.start - 12:second.start].lower()):
                return True
            if _MAY_BE.search(text, max(0, other.start - 40), other.start):
                return True
    return False


def in_number_run(text: str, value: int | Fraction) -> bool:
    """True when a number equal to `value` sits in a run of three or more numbers of two or
    more values, with only spaces, commas or semicolons between them ("1 2 3 4 5")."""
    tokens = list(iter_numbers(text))
    return any(_in_run(text, tokens, t) for t in tokens if numbers_equal(t.value, value))


def _in_run(text: str, tokens: list, hit: NumberToken) -> bool:
    """True when `hit` sits in a run of three or more numbers of two or more values with
    only spaces, commas or semicolons between them ("1 2 3 4 5", "6, 7, 8")."""
    ordered = sorted(tokens, key=lambda t: t.start)
    at = ordered.index(hit)
    lo = hi = at
    while lo > 0 and re.fullmatch(r"[\s,;]+", text[ordered[lo - 1].end:ordered[lo].start]):
        lo -= 1
    while hi + 1 < len(ordered) and re.fullmatch(r"[\s,;]+", text[ordered[hi].end:ordered[hi + 1].start]):
        hi += 1
    run = ordered[lo:hi + 1]
    return len(run) >= 3 and any(not numbers_equal(t.value, hit.value) for t in run)


# another value offered as a possibility anywhere beside the answer
_MAY_BE = re.compile(r"\b(?:it|that|this|the (?:answer|number|figure|total|count|value|result))"
                     r"(?:'s| is| was)? (?:might|may|could)(?: also| well| even)? (?:have been|be)\s+"
                     r"(?:(?:about|around|roughly|approximately|closer to|nearer)\s+)?\$?$",
                     re.IGNORECASE)


def as_number(value: object) -> int | Fraction | None:
    """A gold value as an exact number: int/float/Fraction as is, a str read whole.

    Strings are cached (gold answers repeat once per generation in GRPO)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, Fraction)):
        return value
    if isinstance(value, float):
        return Fraction(repr(value)) if value == value and abs(value) != float("inf") else None
    if isinstance(value, str):
        return _read_gold(value)
    return None


@functools.lru_cache(maxsize=65536)
def _read_gold(text: str) -> int | Fraction | None:
    return read_whole(text)


def numbers_equal(a: int | Fraction | float, b: int | Fraction | float,
                  rel_tol: float = 1e-6) -> bool:
    """True when `a` and `b` are the same number.

    When either is an integer (int, or a Fraction/float with no fractional part: "18.00")
    they compare exactly: 1000000.4 is not 1000000, 1000000.0 is. Otherwise
    |a - b| <= rel_tol * max(|a|, |b|), a relative tolerance that keeps its meaning at
    every scale (0 equals only 0).

    Examples: 0.5 == 1/2; 1e-8 != 2e-8; 1/3 == 0.3333333 (relative gap 1e-7); 5 != 4.9999999.
    """
    if a == b:
        return True
    a, b = Fraction(a), Fraction(b)
    if a.denominator == 1 or b.denominator == 1:
        return False
    return abs(a - b) <= Fraction(rel_tol) * max(abs(a), abs(b))


def plain_number(value: int | Fraction) -> int | float:
    """A value as an int when integral, else a float (for reports and JSON)."""
    if type(value) is int:
        return value
    return int(value) if value.denominator == 1 else float(value)
