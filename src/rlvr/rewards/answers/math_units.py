"""Units on `math` answers: the unit stated with an answer, a number whose unit LaTeX read
as variables, and a response converted into the gold's unit (the rules: `rlvr.rewards.math`,
"Units"; the units themselves: `rlvr.rewards.answers.units`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction

from rlvr.rewards.answers.math_compare import MathAnswer, math_lib, number
from rlvr.rewards.answers.units import clean_latex, conversion, read_unit

_LAST_DIGIT = re.compile(r"\d(?!.*\d)", re.DOTALL)
_UNIT_POWER = re.compile(r"(?<=[A-Za-z}])\s*\^\s*\{?\s*[23]\s*\}?")
_CLOSERS = re.compile(r"^(?:\s|\$|\\\)|\\\]|\})*")
_DOLLAR_INSIDE = re.compile(r"\\\$\s*-?\s*[\d.]")
_DOLLAR_BEFORE = re.compile(r"(?:\\\$|(?<!\$)\$)\s*-?$")
_DOLLAR = read_unit(" dollar")


def unit_after(text: str, m, plain: bool = False):
    """The unit stated with the answer `m` (a math-verify regex match in `text`) matched (`units.read_unit`): a dollar sign right
    before its number (`\\$5` inside the match; "$5" in plain text); inside its LaTeX after
    the last digit (`$5\\text{ cm}$`, `\\boxed{5\\,\\mathrm{m}}`), else in the text after
    the match (`5 cm`, `$150$ cm`); None when there is none."""
    if _DOLLAR_INSIDE.search(m.group()) or (plain and _DOLLAR_BEFORE.search(text, 0, m.start())):
        return _DOLLAR
    group = _UNIT_POWER.sub(lambda p: "#" * len(p.group()), m.group())  # m^2: not the value
    found = _LAST_DIGIT.search(group)
    if found is not None:
        unit = read_unit(m.group()[found.end():])
        if unit is not None:
            return unit
    rest = text[m.end():m.end() + 60]
    return read_unit(rest[_CLOSERS.match(rest).end():] if "$" in m.group() or "\\" in
                     m.group() else rest)


def scalar_value(answer: MathAnswer) -> MathAnswer:
    """A number whose unit LaTeX read as variables (`16 oz` as 16*o*z, `70\\,kg` as 70*g*k)
    is the number: the coefficient, when every symbol is a letter of the unit as written."""
    unit = answer.unit
    if unit is None or not unit.written or number(answer.value) is not None:
        return answer
    try:
        coefficient, rest = answer.value.as_coeff_Mul()
    except AttributeError:
        return answer
    names = {str(symbol) for symbol in getattr(rest, "free_symbols", ())}
    if names and names <= set(unit.written) and number(coefficient) is not None:
        return replace(answer, value=coefficient)
    return answer


def in_gold_unit(gold: MathAnswer, predicted: MathAnswer) -> tuple[MathAnswer | None, str | None]:
    """The response in the gold's unit when both state one (`units`: one dimension and
    power converts exactly; others are refused), else the response as it is.

    Returns:
        (answer to compare, None) or (None, why it is wrong).
    """
    if gold.unit is None or predicted.unit is None or gold.unit == predicted.unit \
            or gold.kind != "math" or predicted.kind != "math":
        return predicted, None
    factor = conversion(predicted.unit, gold.unit)
    why = f"the answer is in {predicted.unit.name}, the gold in {gold.unit.name}"
    if factor is None or number(predicted.value) is None:
        return None, why
    sympy = math_lib()["sympy"]
    value = predicted.value * sympy.Rational(factor.numerator, factor.denominator)
    return replace(predicted, value=value, unit=gold.unit), None


_QUANTITY = re.compile(r"\s*(-?\d+(?:\.\d+)?)")


def unit_chain(latex: str) -> MathAnswer | None:
    """A conversion chain written as the answer (`150\\text{ cm} = 1.5\\text{ m}`): every side
    one number with a known unit of one dimension. Its last side is the answer when every
    side states the same quantity; two different quantities are kind "listed". None when
    `latex` is no such chain (math-verify's unit rule would drop all but the first number).
    """
    boxed = re.fullmatch(r"\s*\\(?:boxed|fbox)\s*\{(.*)\}\s*", latex, re.DOTALL)
    sides = (boxed.group(1) if boxed else latex).split("=")
    if len(sides) < 2:
        return None
    quantities = []
    for side in sides:
        plain = clean_latex(side)
        m = _QUANTITY.match(plain)
        unit = read_unit(plain[m.end():]) if m else None
        if unit is None or re.search(r"\d", plain[m.end():]):
            return None
        quantities.append((Fraction(m.group(1)), unit))
    value, last = quantities[-1]
    sympy = math_lib()["sympy"]
    shown = sides[-1].strip()
    for other, unit in quantities[:-1]:
        factor = conversion(unit, last)
        if factor is None or other * factor != value:
            return MathAnswer("listed", None, latex, "the = chain states two quantities")
    return MathAnswer("math", sympy.Rational(value.numerator, value.denominator), shown,
                      unit=last)
