"""Properties of the `math` reward over generated answers (classes, not rows).

1. Perturbing one symbol of a correct answer (a sign, a constant, an exponent, a factor,
   a variable) never keeps it correct when its value changes; the value is checked with
   SymPy at random points, independently of the reward.
2. Every formatting of one number scores the same against the same gold.
3. A list of candidates containing the gold, one component of a tuple/interval/set/list/
   `\\pm`/matrix gold, and the gold followed by a retraction never score correct; the
   whole structured answer does.
4. (from a red-team round) Two final-answer markers of different values, an `=` chain whose
   numeric sides differ, a struck-out part and a relation with nothing on its left never
   score correct; a relation never matches an interval (either way round) and an ordered
   pair never matches an inequality; Unicode and presentation spellings (other digit
   scripts, thin-space thousands, colour, `\\phantom`, a final point, repeating decimals,
   vulgar fractions) are formattings like any other (property 2).
5. A bracket that restates the value rounded ("1/6 (about 16.7%)") is no rival; one that
   states another value is.
Every failure found here is a fixed row in tests/test_rewards_math.py.
"""

from __future__ import annotations

import os
import random
import re
from fractions import Fraction

import pytest
import sympy
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from conftest import FEW
from rlvr.rewards.math import math_reward

# RLVR_PROPERTY_EXAMPLES=2000 explores further (random seeds); the default is fixed and fast
EXAMPLES = int(os.environ.get("RLVR_PROPERTY_EXAMPLES", "0"))
SETTINGS = settings(max_examples=EXAMPLES or 60, deadline=None, derandomize=not EXAMPLES)
X, Y = sympy.symbols("x y")
# one way each to spell the constant e (a unit rule must never drop it)
E_SPELLINGS = ["e", "\\mathrm{e}", "\\text{e}", "\\mathrm{e}"]


def _atom(kind: str, n: int, e_form: str) -> tuple[str, sympy.Expr]:
    """One leaf: (LaTeX, SymPy value)."""
    if kind == "int":
        return str(n), sympy.Integer(n)
    if kind == "x":
        return "x", X
    if kind == "y":
        return "y", Y
    if kind == "pi":
        return "\\pi", sympy.pi
    if kind == "e":
        return e_form, sympy.E
    return f"\\sqrt{{{n}}}", sympy.sqrt(n)


ATOMS = st.tuples(st.sampled_from(["int", "x", "y", "pi", "e", "sqrt"]),
                  st.integers(2, 9), st.sampled_from(E_SPELLINGS))


@st.composite
def expressions(draw, depth: int = 2):
    """A random expression tree as nested tuples: ("atom", kind, n, e_form) or
    (op, left, right) with op in + - * frac pow."""
    if depth == 0 or draw(st.integers(0, 2)) == 0:
        return ("atom",) + draw(ATOMS)
    op = draw(st.sampled_from(["+", "-", "*", "frac", "pow"]))
    if op == "pow":
        return ("pow", draw(expressions(depth - 1)), draw(st.integers(2, 4)))
    return (op, draw(expressions(depth - 1)), draw(expressions(depth - 1)))


def render(tree) -> tuple[str, sympy.Expr]:
    """(LaTeX, SymPy value) of a tree; every operand is braced so the LaTeX is exact."""
    if tree[0] == "atom":
        return _atom(*tree[1:])
    if tree[0] == "pow":
        latex, value = render(tree[1])
        return f"\\left({latex}\\right)^{{{tree[2]}}}", value ** tree[2]
    (a, va), (b, vb) = render(tree[1]), render(tree[2])
    if tree[0] == "frac":
        return f"\\frac{{{a}}}{{{b}}}", va / vb
    if tree[0] == "*" and tree[1][0] == "atom" and tree[1][1] == "int" and tree[2][0] == "atom":
        return f"{a}{b}" if tree[2][1] != "sqrt" else f"{a}{b}", va * vb  # 3x, 2\\mathrm{e}
    if tree[0] == "*":
        return f"\\left({a}\\right) \\cdot \\left({b}\\right)", va * vb
    return f"{a} {tree[0]} \\left({b}\\right)", va + vb if tree[0] == "+" else va - vb


def perturbations(tree):
    """Every tree that differs from `tree` in exactly one symbol."""
    if tree[0] == "atom":
        kind, n, e_form = tree[1:]
        swaps = {"x": ["y", "e"], "y": ["x"], "pi": ["e", "int"], "e": ["pi", "x"],
                 "int": ["x"], "sqrt": ["int"]}[kind]
        for other in swaps:
            yield ("atom", other, n, e_form)
        yield ("atom", kind, n + 1, e_form)
        if kind == "int":  # a factor added: 2 -> 2e, 2\\mathrm{e}, 2\\pi, 2x
            for factor in ("e", "pi", "x"):
                yield ("*", tree, ("atom", factor, n, e_form))
        return
    if tree[0] == "pow":
        yield ("pow", tree[1], tree[2] + 1)
        for sub in perturbations(tree[1]):
            yield ("pow", sub, tree[2])
        return
    op, left, right = tree
    for other in {"+": ["-"], "-": ["+"], "*": ["frac"], "frac": ["*"]}[op]:
        yield (other, left, right)
    for sub in perturbations(left):
        yield (op, sub, right)
    for sub in perturbations(right):
        yield (op, left, sub)


def differ(a: sympy.Expr, b: sympy.Expr) -> bool | None:
    """True when `a` and `b` take different values at some of 5 random points (None when
    neither is finite there: no verdict)."""
    rng = random.Random(0)
    seen = False
    for _ in range(5):
        point = {X: sympy.Rational(rng.randint(11, 97), 13),
                 Y: sympy.Rational(rng.randint(3, 89), 7)}
        try:
            u, v = complex(a.subs(point).evalf(30)), complex(b.subs(point).evalf(30))
        except (TypeError, ValueError, ZeroDivisionError):
            continue
        if not all(abs(z) < 1e12 for z in (u, v)):
            continue
        seen = True
        if abs(u - v) > 1e-9 * max(1.0, abs(u), abs(v)):
            return True
    return False if seen else None


@settings(SETTINGS, max_examples=EXAMPLES or 40)
@given(st.integers(0, 2).flatmap(expressions))  # depth 0: a lone number, constant, letter
def test_one_symbol_changed_is_never_correct(tree):
    gold_latex, gold_value = render(tree)
    changes = [render(changed) for changed in perturbations(tree)]
    changes.append((f"{gold_latex}\\%", gold_value / 100))  # a percent sign added
    for latex, value in changes:  # every one-symbol change of this answer
        if differ(gold_value, value) is not True:
            continue  # the same value (or no finite point): either verdict is fine
        result = math_reward(f"The answer is $\\boxed{{{latex}}}$.", solution=gold_latex)
        assert result.outcome != "correct", (gold_latex, latex, result.details)


@SETTINGS
@given(expressions())
def test_the_answer_itself_is_correct(tree):
    # the same value, spelt the same way: never partial (a correct answer stays correct)
    latex, value = render(tree)
    assume(value.is_finite is not False and not value.has(sympy.zoo, sympy.nan))
    result = math_reward(f"The answer is $\\boxed{{{latex}}}$.", solution=latex)
    assume(result.outcome != "bad_gold")  # the gold itself undefined (a zero divisor)
    assert result.outcome == "correct", (latex, result.details)


def number_forms(value: Fraction, percent: bool = False) -> list[str]:
    """Ways to write `value` (a response's boxed content)."""
    forms = []
    if value.denominator == 1:
        n = value.numerator
        forms += [str(n), f"{n}.0", f"{n}.00", f"{n:,}", f"\\${n:,}" if n >= 0 else str(n),
                  f"\\frac{{{2 * n}}}{{2}}", f"{n}\\text{{ units}}"]
        if n and n % 10 == 0:
            digits = str(abs(n)).rstrip("0")
            mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
            exponent = len(str(abs(n))) - 1
            sign = "-" if n < 0 else ""
            forms += [f"{sign}{mantissa}\\times 10^{{{exponent}}}", f"{sign}{mantissa}e{exponent}"]
        forms += [str(n).translate(_FULL_WIDTH), str(n).translate(_ARABIC_INDIC),
                  f"\\color{{red}}{{{n}}}", f"\\textcolor{{blue}}{{{n}}}", f"{n}\\phantom{{0}}",
                  f"{n}.", f"\\mathbf{{{n}}}", f"\\displaystyle {n}"]
        if abs(n) >= 1000:
            forms += [f"{n:,}".replace(",", "\u2009"), f"{n:,}".replace(",", "\u202f")]
    else:
        p, q = value.numerator, value.denominator
        forms += [f"\\frac{{{p}}}{{{q}}}", f"\\dfrac{{{p}}}{{{q}}}", f"{p}/{q}",
                  f"\\frac{{{2 * p}}}{{{2 * q}}}"]
        if p > q > 1:
            forms += [f"{p // q}\\frac{{{p % q}}}{{{q}}}", f"{p // q} {p % q}/{q}"]
        if all(f in (2, 5) for f in sympy.factorint(q)):
            decimal = str(sympy.Rational(p, q).evalf(30)).rstrip("0")
            forms += [decimal, decimal + "00"]
        else:
            forms.append(repeating(value))
        if p > 0 and value - p // q in _VULGAR:
            forms.append(f"{p // q or ''}{_VULGAR[value - p // q]}")
    if percent:
        # math-verify does not read `\frac{1}{2}\%` at all (no answer): left out, see
        # the module doc of rlvr.rewards.math
        forms = [f"{f}\\%" for f in forms if re.fullmatch(r"-?[\d.,]+", f)]
    return forms


_FULL_WIDTH = str.maketrans("0123456789", "".join(map(chr, range(0xFF10, 0xFF1A))))
_ARABIC_INDIC = str.maketrans("0123456789", "".join(map(chr, range(0x0660, 0x066A))))
_VULGAR = {Fraction(1, 2): "\u00bd", Fraction(1, 3): "\u2153", Fraction(2, 3): "\u2154",
           Fraction(1, 4): "\u00bc", Fraction(3, 4): "\u00be", Fraction(1, 8): "\u215b"}


def repeating(value: Fraction) -> str:
    """`value` as a repeating decimal in LaTeX (`1/6` -> `0.1\\overline{6}`), by long
    division (independent of the reward's own conversion)."""
    sign, value = ("-" if value < 0 else ""), abs(value)
    whole, rest = divmod(value.numerator, value.denominator)
    digits, seen = [], {}
    while rest and rest not in seen:
        seen[rest] = len(digits)
        rest *= 10
        digits.append(str(rest // value.denominator))
        rest %= value.denominator
    if not rest:
        return f"{sign}{whole}." + "".join(digits)
    start = seen[rest]
    fixed, cycle = "".join(digits[:start]), "".join(digits[start:])
    return f"{sign}{whole}.{fixed}\\overline{{{cycle}}}"


def plain_words(value: Fraction) -> list[str]:
    """Plain-text spellings with words (read by rlvr.rewards.answers.numbers): 3 halves, 5 dozen,
    5 thousand, minus 5, 2 and a half."""
    words = {2: "halves", 3: "thirds", 4: "fourths", 5: "fifths", 8: "eighths"}
    p, q = value.numerator, value.denominator
    out = [f"{p} {words[q]}"] if q in words and p > 1 else []
    if q == 1 and p < 0:
        out.append(f"minus {-p}")
    if q == 1 and p > 0 and p % 1000 == 0:
        out.append(f"{p // 1000} thousand")
    if q == 1 and p > 0 and p % 12 == 0:
        out.append(f"{p // 12} dozen")
    if q == 2 and p > 2:
        out.append(f"{p // 2} and a half")
    return out


@SETTINGS
@given(st.one_of(st.integers(-10**7, 10**7).map(Fraction),
                 st.tuples(st.integers(-999, 999), st.integers(2, 64)).map(
                     lambda t: Fraction(*t)).filter(lambda f: f.denominator > 1)),
       st.booleans())
def test_every_formatting_of_a_number_scores_the_same(value, percent):
    percent = percent and value.denominator == 1  # a percent gold: an integer of percent
    forms = number_forms(value, percent)
    gold = forms[0]
    for form in forms:
        result = math_reward(f"So the answer is $\\boxed{{{form}}}$.", solution=gold)
        assert result.outcome == "correct", (gold, form, result.details)
    words = [] if percent else plain_words(value)
    for plain in [f for f in forms if "\\" not in f] + words:  # plain text too
        result = math_reward(f"So the answer is {plain}.", solution=gold)
        assert result.outcome == "correct", (gold, plain, result.details)
    other = value + 1
    result = math_reward(f"So the answer is $\\boxed{{{number_forms(other)[0]}}}$.", solution=gold)
    assert result.outcome == "wrong", (gold, other, result.details)


CANDIDATE_LISTS = [
    "It is {a} or {g}.", "It is {g} or {a}.", "The answer is either {a} or {g}.",
    "x = {a}, or maybe x = {g}", "So $x = {g}$, or perhaps $x = {a}$.",
    "The answer is $\\boxed{{{a}}}$ or $\\boxed{{{g}}}$.", "It could be {g}, possibly {a}.",
    # red team: several final answers, false chains, strike-outs
    "First guess $\\boxed{{{a}}}$. Second guess $\\boxed{{{g}}}$.",
    "So $\\boxed{{{a}}}$. Therefore the final answer is {g}.",
    "So $\\boxed{{{g}}}$. Therefore the final answer is {a}.",
    "$\\boxed{{{g}}}$\n\nFinal answer: {a}", "$y = {a} = {g}$", "\\boxed{{{a} = {g}}}",
    "\\boxed{{\\cancel{{{a}}} {g}}}",
]


@SETTINGS
@given(st.integers(-50, 50), st.integers(-50, 50), st.sampled_from(CANDIDATE_LISTS))
def test_a_list_of_candidates_with_the_gold_is_never_correct(g, a, template):
    assume(a != g)
    result = math_reward(template.format(a=a, g=g), solution=str(g))
    assert result.outcome != "correct", (template, g, a, result.details)


STRUCTURES = [  # (gold LaTeX, its components)
    ("({a}, {b})", "ab"), ("[{a}, {b}]", "ab"), ("\\{{{a}, {b}\\}}", "ab"), ("{a}, {b}", "ab"),
    ("({a}, {b}, {c})", "abc"), ("\\begin{{pmatrix}} {a} \\\\ {b} \\end{{pmatrix}}", "ab"),
    ("\\pm {c}", "c"), ("x \\in [{a}, {b}]", "ab"),
]


@SETTINGS
@given(st.integers(-20, 20), st.integers(21, 60), st.integers(1, 30),
       st.sampled_from(STRUCTURES))
def test_a_component_of_a_structured_gold_is_never_correct(a, b, c, structure):
    template, parts = structure
    gold = template.format(a=a, b=b, c=c)
    for part in parts:
        component = {"a": a, "b": b, "c": c}[part]
        result = math_reward(f"The answer is $\\boxed{{{component}}}$.", solution=gold)
        assert result.outcome != "correct", (gold, component, result.details)
    whole = math_reward(f"The answer is $\\boxed{{{gold}}}$.", solution=gold)
    assert whole.outcome == "correct", (gold, whole.details)


RETRACTIONS = [
    "The answer is $\\boxed{{{g}}}$. Actually, no, that is wrong.",
    "So $\\boxed{{{g}}}$, no wait.", "The answer is {g}, no wait, it is {a}.",
    "The answer is {g}. Wait, I made a mistake: it is {a}.",
    "The answer is not $\\boxed{{{g}}}$.", "It is not {g}.",
]


@SETTINGS
@given(st.integers(-50, 50), st.integers(-50, 50), st.sampled_from(RETRACTIONS))
def test_the_gold_inside_a_retraction_is_never_correct(g, a, template):
    assume(a != g)
    result = math_reward(template.format(g=g, a=a), solution=str(g))
    assert result.outcome != "correct", (template, g, a, result.details)


@pytest.mark.parametrize("form", number_forms(Fraction(1234567)))
def test_number_forms_are_what_they_claim(form):
    # the generator itself: each form of 1234567 is read as that value by SymPy's reader
    result = math_reward(f"$\\boxed{{{form}}}$", solution="1234567")
    assert result.outcome == "correct", (form, result.details)


DANGLING = ["\\boxed{{> {g}}}", "\\boxed{{\\neq {g}}}", "\\boxed{{\\approx {g}}}", "$\\leq {g}$",
            "The answer is > {g}.", "The answer is \u2260 {g}."]


@SETTINGS
@given(st.integers(-50, 50), st.sampled_from(DANGLING))
def test_a_relation_with_nothing_on_its_left_is_never_correct(g, template):
    result = math_reward(template.format(g=g), solution=str(g))
    assert result.outcome != "correct", (template, g, result.details)


@SETTINGS
@given(st.integers(-20, 20), st.integers(1, 20))
def test_relations_and_intervals_compare_as_the_sets_they_name(a, width):
    b = a + width
    same = [(f"[{a}, \\infty)", f"x \\geq {a}"), (f"[{a}, {b}]", f"{a} \\le x \\le {b}"),
            (f"(-\\infty, {a}]", f"x \\le {a}")]
    other = [(f"({a}, \\infty)", f"x \\geq {a}"), (f"[{a}, {b})", f"{a} \\le x \\le {b}"),
             (f"({a}, {b})", f"{a} < x < {b}")]  # an open end, or a pair (a point?)
    for pairs, outcome in ((same, True), (other, False)):
        for interval, relation in pairs:
            for gold, response in ((interval, relation), (relation, interval)):
                result = math_reward(f"$\\boxed{{{response}}}$", solution=gold)
                assert (result.outcome == "correct") is outcome, (gold, response, result.details)
    for interval, relation in same + other:
        for one in (interval, relation):
            result = math_reward(f"$\\boxed{{{one}}}$", solution=one)
            assert result.outcome == "correct", (one, result.details)


@FEW
@given(st.integers(1, 9), st.integers(2, 12))
def test_a_bracket_that_restates_the_value_rounded_is_no_rival(p, q):
    value = Fraction(p, q)
    percent = f"{float(value) * 100:.1f}%"
    gold = f"\\frac{{{p}}}{{{q}}}"
    said = f"The probability is {p}/{q} (about {percent})."
    assert math_reward(said, solution=gold).outcome == "correct"
    off = f"{float(value) * 100 + 7:.1f}%"  # 7 points away: a second value, never paid
    assert math_reward(f"The probability is {p}/{q} (about {off}).", solution=gold).outcome \
        != "correct"


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 40), st.integers(2, 41), st.sampled_from([" ", "  ", "\t"]))
def test_spaces_inside_the_math_delimiters_change_nothing(num, den, pad):
    """`$ 1/3 $` reads as `$1/3$`: padding inside the delimiters is no dropped word."""
    gold = f"{num}/{den}"
    tight = math_reward(f"The answer is ${gold}$.", solution=gold)
    padded = math_reward(f"The answer is ${pad}{gold}{pad}$.", solution=gold)
    assert (padded.score, padded.outcome) == (tight.score, tight.outcome) == (1.0, "correct")
