"""Presentation forms of math answers, spelt as plain LaTeX before the `math` reward reads.

Each rewrite here keeps the value exactly (a normalisation either provably keeps the value
or the reading is partial: red-team inputs modelled on public math-verify bug reports were
paid when a dropped token changed the value); none drops a token that could change it:

- Unicode forms: every decimal digit of another script (full-width `５`, Arabic-Indic `٥`)
  is its ASCII digit; superscript digits are an exponent (`5²` is `5^{2}`, never 5 or
  52); a vulgar fraction is its value (`½` is 1/2, `2½` is 5/2); a thin, narrow or
  no-break space between digit groups is a thousands separator (`10 000`: `math_kinds`),
  any other Unicode space is a space (`1 2` is two numbers side by side, never 2).
- Colour (`\\color{red}`, `\\textcolor{red}{5}`, `\\colorbox`) and invisible space
  (`\\phantom{0}`) are dropped: they are no value. A struck-out part (`\\cancel{6} 5`) and
  a relation with nothing on its left (`\\boxed{> 5}`, `$\\neq 5$`, `\\boxed{\\approx 5}`) in
  the answer's own segment make the reading partial (`answer_flaw`): math-verify read both
  as 5.
- A decimal point with no digits after it at the end of a math segment (`\\boxed{5.}`).
- A percent word after a number (`50\\text{ percent}`) is the percent sign (`\\%`), as
  math-verify already reads plain "50 percent".
- A repeating decimal (`0.\\overline{3}`, `0.1\\overline{6}`, `0.\\dot{3}`) is the exact
  fraction it denotes (1/3, 1/6): math-verify read it as nothing, or as 0.1 times a bar.
- `\\varnothing` is `\\emptyset`; set-builder notation `\\{x \\mid x > 2\\}` (also `:` and
  `\\in \\mathbb{R}`) is its condition (a relation, compared only with relations); math-verify
  read it as the number 2.

Standard library only. Tests: tests/test_rewards_math.py, tests/test_math_properties.py.
"""

from __future__ import annotations

import re
import unicodedata
from fractions import Fraction

from rlvr.rewards.answers.numbers import STRUCK, SUPERSCRIPT_DIGITS, VULGAR

_OTHER_DIGIT = re.compile(r"(?![0-9])\d")
_SUPERSCRIPT = {**SUPERSCRIPT_DIGITS, "\u207b": "-"}
_SUPERSCRIPTS = re.compile("[\u207b]?[" + "".join(sorted(SUPERSCRIPT_DIGITS)) + "]+")
_VULGARS = re.compile(r"(?:(\d+)[ \t]?)?([" + "".join(sorted(VULGAR)) + "])")
_SPACES = re.compile("[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]")
_COLOR = re.compile(r"\\color\s*\{[^{}]*\}|\\(?:textcolor|colorbox)\s*\{[^{}]*\}")
_END_POINT = re.compile(r"(?<=\d)\.(?=\s*(?:\}|\$|\\\]|\\\)|\\%))")
_PERCENT_WORD = re.compile(
    r"(?<=[\d}])\s*(?:\\[ ,;:!]\s*)*\\(?:text|textrm|mathrm|mbox)\s*\{\s*(?:percent|per\s?cent)"
    r"\s*\}", re.IGNORECASE)
_REPEATING = re.compile(r"(?<![\d.])(\d*)\.(\d*)\\(?:overline|bar|dot)\s*(?:\{\s*(\d+)\s*\}|(\d))")
_SET_BUILDER = re.compile(
    r"\\\{\s*[A-Za-z](?:\s*\\in\s*\\mathbb\s*\{?[A-Z]\}?)?\s*(?:\\mid|\\vert|\||:)\s*(.+?)\s*\\\}")


_PHANTOM = re.compile(r"\\[hv]?phantom\s*\{[^{}]*\}")
_DANGLING = re.compile(  # a relation with nothing on its left: `\boxed{> 5}`, `$\neq 5$`
    r"(?:\\boxed\s*\{|\\fbox\s*\{|(?<!\$)\$|\\\(|\\\[)\s*"
    r"(?:<|>|\\(?:n?eq|ne|[lg]eq?|[lg]eqslant|[lg]t"
    r"|approx|sim|simeq|cong|propto|not)(?![A-Za-z]))")


_PLAIN_RELATION = re.compile(  # "the answer is > 5": a relation after a word, not an operand
    r"(?:^|[A-Za-z]{2,}|:)\s*(?:[<>\u2260\u2264\u2265\u2248~]|!=|<=|>=)\s*[-+]?\.?\d")


class RewriteError(ValueError):
    """A token that cannot be read with its value (`129_2`: 9 is not a base-2 digit)."""


def _repeating(m: re.Match) -> str:
    """`a.b\\overline{c}` as `\\frac{p}{q}` (exact)."""
    whole, fixed, cycle = m.group(1) or "0", m.group(2), m.group(3) or m.group(4)
    value = Fraction(int(whole + fixed + cycle) - int(whole + fixed),
                     10 ** len(fixed) * (10 ** len(cycle) - 1))
    return f"\\frac{{{value.numerator}}}{{{value.denominator}}}"


def _exponent(m: re.Match) -> str:
    """`²` as `^2` (plain text and LaTeX read it), `⁻¹` or `²³` as `^{-1}`, `^{23}`."""
    digits = "".join(_SUPERSCRIPT[c] for c in m.group())
    return "^" + digits if len(digits) == 1 else "^{" + digits + "}"


def _vulgar(m: re.Match) -> str:
    value = VULGAR[m.group(2)] + int(m.group(1) or 0)
    return f"{value.numerator}/{value.denominator}"


def spell(text: str) -> str:
    """`text` with the presentation forms above spelt as plain LaTeX (values unchanged)."""
    if not text.isascii():
        text = _OTHER_DIGIT.sub(lambda m: str(unicodedata.digit(m.group())), text)
        text = _SUPERSCRIPTS.sub(_exponent, text)
        text = _VULGARS.sub(_vulgar, text)
        text = text.replace("\u2212", "-")
    if "\\" in text:
        text = _PHANTOM.sub("", _COLOR.sub("", text))
        text = _REPEATING.sub(_repeating, text)
        text = text.replace("\\varnothing", "\\emptyset")
        text = _SET_BUILDER.sub(lambda m: m.group(1), text)
        text = _PERCENT_WORD.sub(r"\\%", text)
    return _END_POINT.sub("", text)


def answer_flaw(segment: str, plain: bool = False, inside_math: bool = False) -> str | None:
    """Why the answer's own reading (`segment`: its box, `$...$` or plain match) cannot be
    trusted, or None (`plain`: math-verify read it as plain text): a plain number read
    inside a math segment (`inside_math`: the LaTeX
    around it did not parse, `\\boxed{> 5}` gave 5), a struck-out part (`\\cancel{6} 5`:
    two answers) or a relation with nothing on its left (`$\\neq 5$`, "is > 5": not a
    value). Reasoning elsewhere in the response may use all of these."""
    if inside_math:
        return "the LaTeX around the number did not parse"
    if STRUCK.search(segment):  # every notation of a struck-out part
        return "a struck-out part (\\cancel, \\sout, <del>, ~~, a combining stroke) offers two answers"
    if _DANGLING.search(segment) or (plain and _PLAIN_RELATION.search(segment)):
        return "a relation with nothing on its left is not a value"
    return None


def spaces(text: str) -> str:
    """Unicode spaces as ASCII spaces (after thousands groups were joined)."""
    return _SPACES.sub(" ", text) if not text.isascii() else text


# A list, pair or interval written in plain text ("2 and 3", "x = -1, 4", "1, 2, and 3",
# "[2, 5)", "(-inf, 3]"): math-verify's plain reading took one number of it.
_PNUM = r"-?\d+(?:\.\d+)?(?:/\d+)?"
_ITEM = rf"(?:[A-Za-z]\s*=\s*)?{_PNUM}"
_PLAIN_LIST = re.compile(
    rf"(?<![\w.,/=^-])(?<!= )({_ITEM})((?:\s*,\s*(?:and\s+)?{_ITEM}|\s+and\s+{_ITEM})+)"
    r"(?=\s*(?:[.;!]\s|[.;!]?\s*$|\n))")
_ENDPOINT = rf"(?:{_PNUM}|[-+]?(?:\u221e|inf(?:inity)?\b))"
_PLAIN_INTERVAL = re.compile(
    rf"(?<![\w\])])[\[(]\s*{_ENDPOINT}\s*,\s*{_ENDPOINT}\s*[\])](?![\w(\[^])", re.IGNORECASE)
_INFINITY = re.compile(r"\u221e|(?<!\\)inf(?:inity)?\b", re.IGNORECASE)
_RANGE_WORD = re.compile(r"\b(?:between|from|to|of|range|ranges|ranging)\s*$", re.IGNORECASE)


def plain_structure(line: str, start: int, end: int) -> str | None:
    """The plain-text list, pair or interval that holds the number at `line[start:end]`,
    spelt as LaTeX for math-verify (`"2 and 3"` -> `"2, 3"`, `"x = 2 and x = 3"` -> `"x = 2,
    x = 3"`, `"[2, inf)"` -> `"[2, \\infty)"`), or None: the number stands alone, or the list
    follows a range word ("between 2 and 3", "from 2 to 3": a range, not two answers) or
    runs on into more words ("2 and 3 apples")."""
    for m in _PLAIN_INTERVAL.finditer(line):
        if m.start() <= start and end <= m.end():
            return interval_latex(m.group())
    for m in _PLAIN_LIST.finditer(line):
        if m.start() <= start and end <= m.end() and not _RANGE_WORD.search(line[:m.start()]):
            return re.sub(r"\s*,\s*(?:and\s+)?|\s+and\s+", ", ", m.group())
    return None


def interval_latex(interval: str) -> str:
    """A plain-text interval spelt as LaTeX: its infinite endpoints as `\\infty`."""
    return _INFINITY.sub(r"\\infty", interval).replace("+\\infty", "\\infty")


def spell_infinite_intervals(text: str, in_math) -> str:
    """`text` with each plain-text interval that has an infinite endpoint ("[2, inf)",
    "(-\u221e, 3]") outside math (`in_math(text, position)` false) written as `$...$` LaTeX:
    math-verify's plain reading finds no number in it, so the answer was missed."""
    def spelt(m: re.Match) -> str:
        if not _INFINITY.search(m.group()) or in_math(text, m.start()):
            return m.group()
        return f"${interval_latex(m.group())}$"

    return _PLAIN_INTERVAL.sub(spelt, text)
