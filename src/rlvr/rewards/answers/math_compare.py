"""The `math` reward's comparison: two readings (gold, response) of one answer each.

`same_answer(gold, pred)` decides whether they are the same answer: clock times and ratios as
text; answers of incompatible kinds (`rlvr.rewards.answers.math_kinds`) never; a response's
percent by its value (50% is 1/2; a gold's percent also accepts its number of percent); an integer on
either side exactly (1000000.4 is not 1000000, 1000000.0 is); single real numbers written with a
decimal point within REL_TOL of the larger magnitude; everything else through
`math_verify.verify(gold, target)` after decimals become exact fractions. The rules are
stated in `rlvr.rewards.math`'s docstring.
"""

from __future__ import annotations

import functools
import re
import threading
from dataclasses import dataclass, replace
from typing import Any

from rlvr.rewards.answers.math_kinds import compatible, kind_of, tail_verdict, unwrap

REL_TOL = 1e-6  # relative tolerance for numbers written with a decimal point


@dataclass(frozen=True)
class MathAnswer:
    """One text's answer: a SymPy `value` (kind "math"), a clock time or ratio kept as
    text (kind "text", `value` is the text without spaces) or a reading that dropped part
    of the text (kind "partial", `why` says what)."""

    kind: str
    value: Any = None
    shown: str = ""
    why: str = ""
    digits: str | None = None  # a gold `101_2`: the digits as written
    based: bool = False  # a response that writes a number with a base subscript (`12_8`)
    unit: Any = None  # the `units.Unit` stated right after the answer, if any


@functools.cache
def math_lib():
    """math-verify and SymPy names, imported on first use (they take a second to load)."""
    import sympy
    from latex2sympy2_extended.latex2sympy2 import normalize_latex
    from math_verify import grader, parser

    grader.TIMEOUT_WARNING_SHOWN = True  # verify() runs under our own alarm (see Timeouts)
    latex = parser.LatexExtractionConfig()
    latex_no_units = replace(latex, normalization_config=replace(
        latex.normalization_config, units=False))
    return dict(sympy=sympy, grader=grader, parser=parser, normalize=normalize_latex,
                latex=latex, latex_no_units=latex_no_units, expr=parser.ExprExtractionConfig())


_LEADING_DECIMAL = re.compile(r"\s*-?\d+\.\d+")


def dropped_tail(m) -> str:
    """What math-verify's unit rule dropped from the match's LaTeX pieces (`tail_verdict`:
    "none", "unit", "factors", "partial" or "merged"; the worst over the pieces)."""
    names = math_lib()
    worst = "none"
    groups = [(v, k) for k, v in m.groupdict().items() if v and "_latex" in k]
    for raw, name in groups:  # first_latex..., next1_latex... (math-verify's LaTeX pieces)
        configs = [names[key].normalization_config for key in ("latex", "latex_no_units")]
        if name.endswith("latexBoxed"):
            configs = [replace(c, boxed="last") for c in configs]
        kept, full = (names["normalize"](raw.strip(), config=c) for c in configs)  # "$ 1/3 $"
        lead = _LEADING_DECIMAL.match(full)
        if lead and not full.startswith(kept) \
                and names["normalize"](lead.group(), config=configs[0]) == kept:
            kept = lead.group()  # `0.5\text{ h}`: the unit rule also spelt 0.5 as \frac{1}{2}
        verdict = tail_verdict(kept, full)
        worst = max(worst, verdict, key=("none", "unit", "factors", "partial", "merged").index)
    return worst


def alarm_limit(timeout_s: int | None) -> int | None:
    """The alarm length to use here: none outside the main thread (signal.alarm fails)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return timeout_s if timeout_s and timeout_s > 0 else None


def timed(func, limit: int | None, *args):
    """Run `func(*args)` under one `signal.alarm` of `limit` seconds (None: no limit).

    Raises:
        math_verify.errors.TimeoutException: the call took longer than `limit`.
    """
    from math_verify.utils import timeout

    return timeout(timeout_seconds=limit)(func)(*args)


def exact_value(x):
    """`x` with every decimal (SymPy Float) replaced by the exact fraction it spells."""
    sympy = math_lib()["sympy"]
    if isinstance(x, sympy.Float):
        return sympy.Rational(str(x)) if x.is_finite else x
    if isinstance(x, sympy.MatrixBase):
        return x.applyfunc(exact_value)
    if not isinstance(x, sympy.Basic) or not x.atoms(sympy.Float):
        return x
    if hasattr(x, "_unsorted_args"):  # latex2sympy's ordered FiniteSet / And
        return type(x)(*[exact_value(a) for a in x._unsorted_args])
    args = [exact_value(a) for a in x.args]
    try:
        return x.func(*args, evaluate=False)
    except TypeError:
        return x.func(*args)


def _symbols(x) -> set:
    return set(x.free_symbols) if isinstance(x, math_lib()["sympy"].Basic) else set()


def plain_symbols(x):
    """`x` with every free symbol replaced by a plain `Symbol` of its name: latex2sympy
    gives the same letter different assumptions depending on its spelling (`4i` and `4 i`
    differed), so two spellings of one answer compared unequal."""
    sympy = math_lib()["sympy"]
    if isinstance(x, sympy.Rel):  # rebuilt unevaluated: Eq(n, {1, 2}) must not become False
        return x.func(plain_symbols(x.lhs), plain_symbols(x.rhs), evaluate=False)
    if not isinstance(x, sympy.Expr) or not x.free_symbols:
        return x  # sets, tuples, booleans: as read
    return x.xreplace({s: sympy.Symbol(s.name) for s in x.free_symbols
                       if isinstance(s, sympy.Symbol)})


def number(x) -> tuple[Any, bool] | None:
    """(exact value, written with a decimal point) for a single real number, else None."""
    sympy = math_lib()["sympy"]
    if not isinstance(x, sympy.Expr) or isinstance(x, (sympy.MatrixBase, sympy.MatrixExpr)) \
            or x.free_symbols or x.has(sympy.UnevaluatedExpr) \
            or any(p.exp.is_Number and abs(p.exp) > 10**5 for p in x.atoms(sympy.Pow)):
        return None  # not one plain number, or too large to evaluate exactly
    value = exact_value(x).doit()
    if not (value.is_real and value.is_finite):
        return None
    return value, bool(x.atoms(sympy.Float))


def percent_value(x):
    """The value of a percent answer (math-verify reads `50\\%` as 50 times an unevaluated
    1/100): 1/2; None when `x` holds no percent."""
    sympy = math_lib()["sympy"]
    marks = [u for u in getattr(x, "atoms", lambda *_: ())(sympy.UnevaluatedExpr)
             if u.args[0] == sympy.Rational(1, 100)]
    return x.xreplace({u: u.args[0] for u in marks}).doit() if marks else None


def is_undefined(x) -> bool:
    """True when `x` holds SymPy's zoo or nan, or an unevaluated division by zero."""
    sympy = math_lib()["sympy"]
    return isinstance(x, sympy.Basic) and (x.has(sympy.zoo, sympy.nan) or any(
        p.base == 0 and p.exp.is_negative for p in x.atoms(sympy.Pow)))


def _solution_set(value, kind: str):
    """The set of reals a region or a one-variable relation names (`1 \\le x \\le 5` is
    [1, 5], `x \\in [1, 5]` too), or None: a relation in several variables or none, or one
    SymPy cannot solve."""
    import sympy

    if kind == "region":
        if isinstance(value, sympy.Eq) and isinstance(value.rhs, sympy.Set):
            return value.rhs
        return value if isinstance(value, sympy.Set) else None
    if len(value.free_symbols) != 1:
        return None
    try:
        return value.as_set()
    except (NotImplementedError, TypeError, ValueError, AttributeError):
        return None


def _assignments_as_tuple(g: Any, p: Any, sympy: Any) -> tuple[Any, Any]:
    """`x = 2, y = -1` (one value given to each of several letters) as the tuple `(2, -1)`,
    the letters in alphabetical order, when the gold is a tuple of that length (a system's
    solution; a gold `(0, 1)` that math-verify read as an open interval is that pair
    here); `(g, p)` as they are otherwise."""
    if not isinstance(p, (sympy.FiniteSet, sympy.Tuple)):
        return g, p
    pair = g
    if isinstance(g, sympy.Interval) and g.left_open and g.right_open:
        pair = sympy.Tuple(g.start, g.end)
    if not isinstance(pair, sympy.Tuple):
        return g, p
    pairs = [(e.lhs, e.rhs) for e in p.args if isinstance(e, sympy.Eq)]
    if len(pairs) != len(p.args) or len(pairs) != len(pair) or not all(
            isinstance(lhs, sympy.Symbol) and not rhs.free_symbols for lhs, rhs in pairs) \
            or len({lhs.name for lhs, _ in pairs}) != len(pairs):
        return g, p
    return pair, sympy.Tuple(*(rhs for _, rhs in sorted(pairs, key=lambda lr: lr[0].name)))


def _unevaluated(p: Any, sympy: Any) -> bool:
    """True when `p` is a sum or product of plain numbers left as written (`17 \\times 23`,
    `2 + 3`), or a factorial or binomial coefficient of numbers (`4!`, `\\binom{5}{2}`): the
    computation the question asks for, not its result. A sign (`-5`), a
    fraction (`12/2`) and scientific notation (`2 \\times 10^3`) are values."""
    if isinstance(p, (sympy.factorial, sympy.binomial)) and not p.free_symbols:
        return True  # `4!`, `\\binom{5}{2}`: the count asked for, not counted
    if not isinstance(p, (sympy.Add, sympy.Mul)) or p.free_symbols:
        return False
    args = p.args
    if not all(isinstance(a, (sympy.Integer, sympy.Float, sympy.Rational, sympy.Pow)) for a in args):
        return False
    if any(isinstance(a, sympy.Pow) and (a.exp.is_negative or a.base == 10) for a in args):
        return False  # 12/2, 2 * 10^3
    if isinstance(p, sympy.Mul) and any(a in (-1, 1) for a in args):
        return False  # -5 read as -1 * 5
    return len(args) >= 2


def same_answer(gold: MathAnswer, pred: MathAnswer) -> tuple[bool, str | None]:
    """(equal?, reason when an equation was refused) for two readable answers.

    Raises:
        Exception: whatever math-verify raises while comparing (callers count it wrong).
    """
    if "text" in (gold.kind, pred.kind):
        return gold.kind == pred.kind and gold.value == pred.value, None
    if gold.digits:
        if re.sub(r"[\s{}]", "", pred.shown) == gold.digits:
            return True, None  # gold 101_2, response 101: the digits in the gold's base
        if not pred.based:  # gold 1010_2, response 10: the decimal value, not the digits
            return False, "the gold is a number in another base: its digits are the answer"
    names = math_lib()
    grader, sympy = names["grader"], names["sympy"]
    g, p = gold.value, pred.value
    if grader.is_assignment_relation(g) and grader.is_assignment_relation(p) \
            and grader.take_last_relation(g).lhs != grader.take_last_relation(p).lhs:
        return False, "the equation names another variable"
    if grader.is_equation(p) and not grader.is_equation(g):
        lhs = grader.take_last_relation(p).lhs  # 2x, x - 3y + 5: arithmetic on unknowns
        if lhs.free_symbols and isinstance(lhs, (sympy.Add, sympy.Mul, sympy.Pow)) \
                and not grader.is_assignment_relation(p):
            return False, "an equation is not the value of its right side"
        p = grader.take_last_relation(p).rhs
    elif grader.is_assignment_relation(g) and not grader.is_equation(p):
        g = grader.take_last_relation(g).rhs
    g, p = unwrap(g), unwrap(p)
    if {x.name for x in _symbols(g) | _symbols(p)} == {"i"}:  # `(1+i)^2`, `2i`: complex
        g, p = (x.xreplace({s: sympy.I for s in _symbols(x)}) for x in (g, p))
    g, p = _assignments_as_tuple(g, p, sympy)
    if isinstance(g, sympy.Integer) and _unevaluated(p, sympy):
        return False, "an arithmetic expression left unevaluated is not the number asked for"
    kinds = kind_of(g, gold.shown), kind_of(p, pred.shown)
    if set(kinds) == {"region", "relation"}:  # `1 \le x \le 5` against `[1, 5]`
        sets = [_solution_set(v, k) for v, k in ((g, kinds[0]), (p, kinds[1]))]
        if None not in sets:
            return sets[0] == sets[1], None
    if not compatible(*kinds):
        return False, f"a {kinds[1]} is not a {kinds[0]}"
    if percent_value(p) is not None and percent_value(g) is None:
        p = percent_value(p)  # a response's % is never dropped: 50% is 1/2, not 50
    a, b = number(g), number(p)
    if a and b and (a[1] or b[1] or (a[0].is_Rational and b[0].is_Rational)):
        (x, approx_x), (y, approx_y) = a, b  # one is a decimal, or both are fractions
        if x == y or not (approx_x or approx_y) or x.is_Integer or y.is_Integer:
            return x == y, None  # an integer (gold or response) compares exactly
        gap, size = abs(x - y), max(abs(x), abs(y))
        if not (x.is_Rational and y.is_Rational):
            gap, size = gap.evalf(30), size.evalf(30)
        return bool(gap <= sympy.Rational(str(REL_TOL)) * size), None
    from math_verify import verify

    g, p = plain_symbols(g), plain_symbols(p)  # `4i`, `4 i`, `4\\mathrm{i}`: one letter i
    ok = verify([exact_value(g)], [exact_value(p)], numeric_precision=100, timeout_seconds=None,
                raise_on_error=True)
    return ok, None


