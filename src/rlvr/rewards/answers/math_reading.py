"""Reading one math-verify match of a response as an answer, and refusing partial
readings (the rules: `rlvr.rewards.math`, "Partial readings"): math-verify's extraction
order with the regex match kept (`first_parsed`), a LaTeX reading checked for dropped
words and a conversion chain (`latex_answer`), a plain-text number read with the formula
around it (`plain_answer`) or as the list, pair or interval it belongs to
(`structure_answer`), and a set of one value in several forms read as that value
(`one_value`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction
from itertools import groupby

from rlvr.rewards.answers.math_compare import MathAnswer, dropped_tail, exact_value, math_lib
from rlvr.rewards.answers.math_forms import plain_structure
from rlvr.rewards.answers.math_units import unit_chain
from rlvr.rewards.answers.numbers import iter_numbers

_NUM = r"\d+(?:[.,]\d+)*(?::\d+| : \d+)*"
_TERM = rf"[(\[]*-?(?:{_NUM}(?:[A-Za-z](?![A-Za-z]))?|(?<![A-Za-z])[A-Za-z](?![A-Za-z]))[)\]]*%?"
FORMULA = re.compile(rf"{_TERM}(?:(?:[ \t]*[-+*/^=\u00d7\u00f7\u00b7][ \t]*|(?=\()){_TERM})*")
_CLOCK = re.compile(r"\d+(?::\d+| : \d+)+")
_COLON = re.compile(r"\d\s*:\s*\d")
LONGEST = 200  # longest plain formula parsed as LaTeX (a longer one is partial)
_SYMBOLS = {"\u00d7": "\\times ", "\u00f7": "\\div ", "\u00b7": "\\cdot ", "%": "\\%"}


def first_parsed(text: str, targets: list) -> tuple | None:
    """math-verify's extraction order (`extract_target_from_pred`, "any_match"), keeping
    the regex match: the first (match, target, value, normalised text) that parses."""
    parser = math_lib()["parser"]
    patterns = sorted(((pattern, target, priority)
                       for regexes, target in parser.get_extraction_regexes(targets)
                       for pattern, priority in regexes), key=lambda p: p[2])
    for _, group in groupby(patterns, key=lambda p: p[2]):
        found = [(m, target) for pattern, target, _ in group for m in pattern.finditer(text)]
        for m, target in sorted(found, key=lambda f: (f[0].end(), -f[0].start()), reverse=True):
            try:
                value, shown = parser.extract_match(m, target)
            except Exception:  # noqa: BLE001  (one candidate failing is not an answer)
                continue
            if value is not None:
                return m, target, value, shown
    return None


def latex_answer(m, value, shown: str) -> MathAnswer:
    """Check a LaTeX reading: a colon form is text, dropped letters that are factors are
    re-read, other dropped words and a fallback to the last side of an `=` chain are
    partial."""
    lib = math_lib()
    if _COLON.search(shown):
        return MathAnswer("text", re.sub(r"\s+", "", shown), shown)
    pieces = [v for k, v in m.groupdict().items() if v and "_latex" in k]
    if len(pieces) == 1 and (chain := unit_chain(pieces[0])) is not None:
        return chain  # `150\text{ cm} = 1.5\text{ m}`: the last side, when all agree
    verdict = dropped_tail(m)
    if verdict in ("partial", "merged"):
        why = "dropped words that are not units" if verdict == "partial" else \
            "two numbers side by side"
        return MathAnswer("partial", shown=shown, why=why)
    if verdict == "factors":
        value, shown = lib["parser"].extract_latex(m, lib["latex_no_units"])
        if value is None:
            return MathAnswer("partial", shown=shown, why="a factor parses only as a unit")
    parts = lib["parser"].equation_split_regex.split(shown)
    if len(parts) > 2 and not re.search("[,;]| and ", shown) \
            and not lib["grader"].is_relation(value):
        return MathAnswer("partial", shown=shown, why="only the last side of an equation parsed")
    return MathAnswer("math", value, shown)


def _whole(line: str, start: int, end: int, value, shown: str) -> MathAnswer:
    """A plain number (`line[start:end]`) read with the words that belong to it
    (`rlvr.rewards.answers.numbers`: "3 halves" is 3/2, "minus 5" -5), never without them."""
    if re.match(r"\s+quarters?\b", line[end:], re.IGNORECASE):
        return MathAnswer("partial", shown=shown, why="a quarter is a coin or 1/4")
    for token in iter_numbers(line):
        words = line[token.start:start] + " " + line[end:token.end]
        if token.start <= start < token.end and re.search("[A-Za-z]", words) \
                and "%" not in token.text:
            whole = math_lib()["sympy"].Rational(token.value.numerator, token.value.denominator) \
                if isinstance(token.value, Fraction) else math_lib()["sympy"].Integer(token.value)
            if whole != exact_value(value):
                return MathAnswer("math", whole, token.text)
    return MathAnswer("math", value, shown)


def plain_answer(text: str, m, value, shown: str) -> MathAnswer:
    """Check a plain-text number against the formula around it (see the module doc)."""
    spans = [m.span(g) for g, v in m.groupdict().items() if v and g != "percent"]
    if not spans:
        return MathAnswer("math", value, shown)
    start, end = min(s for s, _ in spans), max(m.end(), max(e for _, e in spans))
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    line_end = len(text) if line_end < 0 else line_end
    for f in FORMULA.finditer(text, line_start, line_end):
        if f.start() <= start < f.end():
            break
    else:
        return _whole(text[line_start:line_end], start - line_start, end - line_start,
                      value, shown)
    lo, hi = f.span()  # drop brackets opened or closed outside the formula

    def depth() -> int:
        return sum(text.count(c, lo, hi) for c in "([") - sum(text.count(c, lo, hi) for c in ")]")

    while text[lo] in "([" and depth() > 0:
        lo += 1
    while text[hi - 1] in ")]" and depth() < 0:
        hi -= 1
    formula = text[lo:hi]
    if re.search(r"\d[ \t]+$", text[line_start:lo]) or re.match(r"[ \t]+\d", text[hi:line_end]):
        return MathAnswer("partial", shown=formula, why="a number beside the formula was dropped")
    if lo >= start and hi <= end:
        return _whole(text[line_start:line_end], start - line_start, end - line_start,
                      value, shown)
    if _CLOCK.fullmatch(formula):
        return MathAnswer("text", re.sub(r"\s+", "", formula), formula)
    last = formula.rfind("=")
    rhs = formula[last + 1:]
    if last >= 0 and hi <= end and lo + last + 1 + len(rhs) - len(rhs.lstrip()) >= start:
        lhs = formula[formula.rfind("=", 0, last) + 1:last].strip()  # numeric, or one letter
        if not re.search("[A-Za-z]", lhs) or re.fullmatch("[A-Za-z]", lhs):
            return MathAnswer("math", value, shown)
    latex = "".join(_SYMBOLS.get(c, c) for c in formula)
    hit = first_parsed(f"${latex}$", [math_lib()["latex"]]) if len(formula) <= LONGEST else None
    if hit is None:
        return MathAnswer("partial", shown=formula[:LONGEST], why=f"only {shown!r} of "
                       f"{formula[:60]!r}{'...' * (len(formula) > 60)} parsed")
    return latex_answer(hit[0], hit[2], hit[3])


def structure_answer(text: str, m) -> MathAnswer | None:
    """The plain-text list, pair or interval around a plain number (`plain_structure`:
    "x = 2 and x = 3", "[2, 5)"), read as LaTeX, or None when the number stands alone."""
    spans = [m.span(g) for g, v in m.groupdict().items() if v and g != "percent"]
    if not spans:
        return None
    start, end = min(s for s, _ in spans), max(e for _, e in spans)
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    line_end = len(text) if line_end < 0 else line_end
    latex = plain_structure(text[line_start:line_end], start - line_start, end - line_start)
    hit = first_parsed(f"${latex}$", [math_lib()["latex"]]) if latex else None
    return latex_answer(hit[0], hit[2], hit[3]) if hit else None


def one_value(answer: MathAnswer) -> MathAnswer:
    """A set math-verify read from several segments whose members are all one number
    (`\\{1/2, 50\\%\\}` from "$0.5$ or $50\\%$") as that number; anything else as is."""
    sympy = math_lib()["sympy"]
    value = answer.value
    if not isinstance(value, sympy.FiniteSet) or len(value) < 2:
        return answer
    try:
        members = [sympy.nsimplify(sympy.simplify(v)) for v in value]
    except Exception:  # noqa: BLE001  (not numbers: a set stays a set)
        return answer
    if all(m.is_number for m in members) and all(sympy.simplify(m - members[0]) == 0
                                                   for m in members[1:]):
        return replace(answer, value=members[0])
    return answer
