"""`math` reward: mathematical equivalence through math-verify, refusing partial readings.

Each text (gold or response) is read once: math-verify's own extraction (its
`LatexExtractionConfig` and `ExprExtractionConfig` regexes, in its priority order:
`\\boxed{}`, "final answer is", LaTeX, then plain numbers) finds the answer, then the
checks below decide whether the reading covers what was written. Values are compared by
`math_verify.verify(gold, prediction)` in that documented order (the gold decides, e.g.,
whether an interval or a set is expected), except single numbers (see Numbers).

Partial readings (a response gets outcome `partial_parse` and the `wrong` score; a gold
gets None as `bad_gold`: a reading that dropped part of the answer proves nothing):
- Plain text: math-verify reads only digits and operators, so `x - 3y + 5 = 0` was 0 and
  `5x` was 5. The formula around the number (numbers, single letters and operators on
  its line) is read instead. The number stands alone when it is the whole formula, the
  result of a numeric chain (`48/2 = 24`) or of a one-letter assignment (`x = 5`, as
  math-verify intends); otherwise the formula (at most 200 characters) is parsed as LaTeX
  (`$x - 3y + 5 = 0$` is an equation, compared as one); `partial_parse` if that fails.
- LaTeX: math-verify's unit rule strips trailing letters it takes for units (`c`, `h`,
  `ab`...): `\\frac{a}{b}c` became a/b, `\\frac{1}{3}\\pi r^2 h` lost h. A stripped letter
  is a unit only right after a bare number (`5 m`); elsewhere the text is re-read with
  math-verify's `units=False` normalisation. When the whole LaTeX fails to parse and
  math-verify falls back to the last side of an `=` chain, the reading is partial.
- Equations against values: math-verify compares an equation response with a value
  gold through its right side (any `x - 3y + 5 = 0` matched gold 0). The right side
  counts only for an assignment (`x = 5`, `\\text{Total} = 15`), a numeric chain
  (`2 + 3 = 5`) or a labelled value (`P(A) = 0.5`); other equations are `wrong`.

Clock times and ratios (`12:00`, `3:30`, `2:3`, either side) are never a quotient
(math-verify read `$12:00$` as 12/0, so every response was wrong, and `$3:30$` as 1/10,
so `1:10` matched): they compare as text, equal once spaces are removed (`2:3` does not
match `4:6` or `\\frac23`). A gold whose value is undefined (`1/0`, `\\frac{1}{0}`: SymPy's
zoo or nan) gives None (`bad_gold`); infinity is a normal answer.

Numbers: when gold and response are single real numbers and either is written with a
decimal point (`0.5`, `18.00`, `1.0e20`), they match within a relative tolerance of
REL_TOL = 1e-6 of the larger magnitude, at every scale (1e-8 differs from 2e-8, 3.0e-10
from 3.1e-10; 0 equals only 0); integers and fractions compare exactly (1e20 differs
from 1e20+1). math-verify rounded to 6 decimals (all numbers below 5e-7 were equal), and
its `evalf(chop=True)` made `\\sqrt{2}/10^{20}` equal `\\sqrt{3}/10^{20}`. Elsewhere (sets,
tuples, intervals, matrices, symbols, percentages, exact irrational values) decimals
become exact fractions before math-verify compares at 100 digits (there 0.333333 is not
1/3). Scientific notation (`1e-8`, `2.5E3`) is a number in text and LaTeX (math-verify
read `1e-8` as 1 and `$1e-8$` as e - 8), so `2e-1` without spaces is 0.2, never 2e - 1.

Bare LaTeX (`\\text{13}`: no `$`, a backslash, at most three words) and one plain formula
with a digit or operator (`x^2+1`) are re-read inside `$...$`; prose never is.

Timeouts: `signal.alarm` works only in the main thread and cannot nest, so math-verify
runs without its own and `timeout_s` bounds each whole reading and each comparison (main
thread only; elsewhere the details say it is off). A response timing out scores `wrong`
(outcome `timeout`), a gold timing out gives None.
"""

from __future__ import annotations

import functools
import re
import threading
from dataclasses import dataclass, replace
from itertools import groupby
from typing import Any

from rlvr.rewards.base import RewardResult, register_reward

REL_TOL = 1e-6  # relative tolerance for numbers written with a decimal point

_SCI = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)[eE]([-+]?\d+)(?!\w|\.\d)")
_NUM = r"\d+(?:[.,]\d+)*(?::\d+| : \d+)*"
_TERM = rf"[(\[]*-?(?:{_NUM}(?:[A-Za-z](?![A-Za-z]))?|(?<![A-Za-z])[A-Za-z](?![A-Za-z]))[)\]]*%?"
_FORMULA = re.compile(rf"{_TERM}(?:(?:[ \t]*[-+*/^=\u00d7\u00f7\u00b7][ \t]*|(?=\()){_TERM})*")
_CLOCK = re.compile(r"\d+(?::\d+| : \d+)+")
_COLON = re.compile(r"\d\s*:\s*\d")
_LOST_TAIL = re.compile(r"(?:\s*\b[A-Za-z]\b)+\s*|\s*(?:ab|bc)\s*")
_LONGEST = 200  # longest plain formula parsed as LaTeX (a longer one is partial)
_SYMBOLS = {"\u00d7": "\\times ", "\u00f7": "\\div ", "\u00b7": "\\cdot ", "%": "\\%"}


@dataclass(frozen=True)
class _Answer:
    """One text's answer: a SymPy `value` (kind "math"), a clock time or ratio kept as
    text (kind "text", `value` is the text without spaces) or a reading that dropped part
    of the text (kind "partial", `why` says what)."""

    kind: str
    value: Any = None
    shown: str = ""
    why: str = ""


@functools.cache
def _lib():
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


def _timeout(timeout_s: int | None) -> int | None:
    """The alarm length to use here: none outside the main thread (signal.alarm fails)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return timeout_s if timeout_s and timeout_s > 0 else None


def _timed(func, limit: int | None, *args):
    """Run `func(*args)` under one `signal.alarm` of `limit` seconds (None: no limit).

    Raises:
        math_verify.errors.TimeoutException: the call took longer than `limit`.
    """
    from math_verify.utils import timeout

    return timeout(timeout_seconds=limit)(func)(*args)


def _first_parsed(text: str, targets: list) -> tuple | None:
    """math-verify's extraction order (`extract_target_from_pred`, "any_match"), keeping
    the regex match: the first (match, target, value, normalised text) that parses."""
    parser = _lib()["parser"]
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


def _lost_factor(m) -> bool:
    """True when the unit rule stripped variable letters (not a unit after a number)."""
    lib = _lib()
    groups = [(v, k) for k, v in m.groupdict().items() if v and "_latex" in k]
    for raw, name in groups:  # first_latex..., next1_latex... (math-verify's LaTeX pieces)
        configs = [lib["latex"].normalization_config, lib["latex_no_units"].normalization_config]
        if name.endswith("latexBoxed"):
            configs = [replace(c, boxed="last") for c in configs]
        kept, full = (lib["normalize"](raw, config=c) for c in configs)
        if kept != full and full.startswith(kept) and _LOST_TAIL.fullmatch(full[len(kept):]) \
                and not re.fullmatch(r"-?[\d.,]+", kept.strip()):
            return True
    return False


def _latex_answer(m, value, shown: str) -> _Answer:
    """Check a LaTeX reading: a colon form is text, a lost factor is re-read, a fallback to
    the last side of an `=` chain is partial."""
    lib = _lib()
    if _COLON.search(shown):
        return _Answer("text", re.sub(r"\s+", "", shown), shown)
    if _lost_factor(m):
        value, shown = lib["parser"].extract_latex(m, lib["latex_no_units"])
        if value is None:
            return _Answer("partial", shown=shown, why="a factor parses only as a unit")
    parts = lib["parser"].equation_split_regex.split(shown)
    if len(parts) > 2 and not re.search("[,;]| and ", shown) \
            and not lib["grader"].is_relation(value):
        return _Answer("partial", shown=shown, why="only the last side of an equation parsed")
    return _Answer("math", value, shown)


def _plain_answer(text: str, m, value, shown: str) -> _Answer:
    """Check a plain-text number against the formula around it (see the module doc)."""
    spans = [m.span(g) for g, v in m.groupdict().items() if v and g != "percent"]
    if not spans:
        return _Answer("math", value, shown)
    start, end = min(s for s, _ in spans), max(m.end(), max(e for _, e in spans))
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    line_end = len(text) if line_end < 0 else line_end
    for f in _FORMULA.finditer(text, line_start, line_end):
        if f.start() <= start < f.end():
            break
    else:
        return _Answer("math", value, shown)
    lo, hi = f.span()  # drop brackets opened or closed outside the formula

    def depth() -> int:
        return sum(text.count(c, lo, hi) for c in "([") - sum(text.count(c, lo, hi) for c in ")]")

    while text[lo] in "([" and depth() > 0:
        lo += 1
    while text[hi - 1] in ")]" and depth() < 0:
        hi -= 1
    formula = text[lo:hi]
    if lo >= start and hi <= end:
        return _Answer("math", value, shown)
    if _CLOCK.fullmatch(formula):
        return _Answer("text", re.sub(r"\s+", "", formula), formula)
    last = formula.rfind("=")
    rhs = formula[last + 1:]
    if last >= 0 and hi <= end and lo + last + 1 + len(rhs) - len(rhs.lstrip()) >= start:
        lhs = formula[formula.rfind("=", 0, last) + 1:last].strip()  # numeric, or one letter
        if not re.search("[A-Za-z]", lhs) or re.fullmatch("[A-Za-z]", lhs):
            return _Answer("math", value, shown)
    latex = "".join(_SYMBOLS.get(c, c) for c in formula)
    hit = _first_parsed(f"${latex}$", [_lib()["latex"]]) if len(formula) <= _LONGEST else None
    if hit is None:
        return _Answer("partial", shown=formula[:_LONGEST], why=f"only {shown!r} of "
                       f"{formula[:60]!r}{'...' * (len(formula) > 60)} parsed")
    return _latex_answer(hit[0], hit[2], hit[3])


def _read(text: str) -> _Answer | None:
    """The answer `text` states (see the module doc), or None when nothing parses."""
    lib = _lib()
    text = _SCI.sub(lambda s: f"{s[1]}*10^({int(s[2])})", text)
    hit = _first_parsed(text, [lib["latex"], lib["expr"]])
    stripped = text.strip()
    if hit is None and "$" not in stripped and (
            ("\\" in stripped and len(stripped.split()) <= 3)
            or (len(stripped) <= _LONGEST and _FORMULA.fullmatch(stripped)
                and re.search(r"[\d+*/^=-]", stripped))):
        hit = _first_parsed(f"${stripped}$", [lib["latex"]])  # bare LaTeX, never prose
    if hit is None:
        return None
    m, target, value, shown = hit
    if target is lib["expr"]:
        return _plain_answer(text, m, value, shown)
    return _latex_answer(m, value, shown)


def _exact(x):
    """`x` with every decimal (SymPy Float) replaced by the exact fraction it spells."""
    sympy = _lib()["sympy"]
    if isinstance(x, sympy.Float):
        return sympy.Rational(str(x)) if x.is_finite else x
    if isinstance(x, sympy.MatrixBase):
        return x.applyfunc(_exact)
    if not isinstance(x, sympy.Basic) or not x.atoms(sympy.Float):
        return x
    if hasattr(x, "_unsorted_args"):  # latex2sympy's ordered FiniteSet / And
        return type(x)(*[_exact(a) for a in x._unsorted_args])
    args = [_exact(a) for a in x.args]
    try:
        return x.func(*args, evaluate=False)
    except TypeError:
        return x.func(*args)


def _number(x) -> tuple[Any, bool] | None:
    """(exact value, written with a decimal point) for a single real number, else None."""
    sympy = _lib()["sympy"]
    if not isinstance(x, sympy.Expr) or isinstance(x, (sympy.MatrixBase, sympy.MatrixExpr)) \
            or x.free_symbols or x.has(sympy.UnevaluatedExpr) \
            or any(p.exp.is_Number and abs(p.exp) > 10**5 for p in x.atoms(sympy.Pow)):
        return None  # not one plain number, or too large to evaluate exactly
    value = _exact(x).doit()
    if not (value.is_real and value.is_finite):
        return None
    return value, bool(x.atoms(sympy.Float))


def _undefined(x) -> bool:
    """True when `x` holds SymPy's zoo or nan, or an unevaluated division by zero."""
    sympy = _lib()["sympy"]
    return isinstance(x, sympy.Basic) and (x.has(sympy.zoo, sympy.nan) or any(
        p.base == 0 and p.exp.is_negative for p in x.atoms(sympy.Pow)))


def _same(gold: _Answer, pred: _Answer) -> tuple[bool, str | None]:
    """(equal?, reason when an equation was refused) for two readable answers.

    Raises:
        Exception: whatever math-verify raises while comparing (callers count it wrong).
    """
    if "text" in (gold.kind, pred.kind):
        return gold.kind == pred.kind and gold.value == pred.value, None
    lib = _lib()
    grader, sympy = lib["grader"], lib["sympy"]
    g, p = gold.value, pred.value
    if grader.is_equation(p) and not grader.is_equation(g):
        lhs = grader.take_last_relation(p).lhs  # 2x, x - 3y + 5: arithmetic on unknowns
        if lhs.free_symbols and isinstance(lhs, (sympy.Add, sympy.Mul, sympy.Pow)) \
                and not grader.is_assignment_relation(p):
            return False, "an equation is not the value of its right side"
        p = grader.take_last_relation(p).rhs
    elif grader.is_assignment_relation(g) and not grader.is_equation(p):
        g = grader.take_last_relation(g).rhs
    a, b = _number(g), _number(p)
    if a and b and (a[1] or b[1] or (a[0].is_Rational and b[0].is_Rational)):
        (x, approx_x), (y, approx_y) = a, b  # one is a decimal, or both are fractions
        if x == y or not (approx_x or approx_y):
            return x == y, None
        gap, size = abs(x - y), max(abs(x), abs(y))
        if not (x.is_Rational and y.is_Rational):
            gap, size = gap.evalf(30), size.evalf(30)
        return bool(gap <= sympy.Rational(str(REL_TOL)) * size), None
    from math_verify import verify

    ok = verify([_exact(g)], [_exact(p)], numeric_precision=100, timeout_seconds=None,
                raise_on_error=True)
    return ok, None


@functools.lru_cache(maxsize=4096)
def _parse_gold(solution: str, timeout_s: int | None) -> tuple[_Answer | None, str | None]:
    """The gold's answer (cached: GRPO scores every gold once per generation), or an error."""
    from math_verify.errors import TimeoutException

    def read() -> tuple[_Answer | None, str | None]:
        gold = _read(solution)
        if gold is None:
            return None, "gold does not parse"
        if gold.kind == "partial":
            return None, f"gold parse is partial: {gold.why}"
        if gold.kind == "math" and _undefined(gold.value):
            return None, f"gold is undefined ({gold.value})"
        return gold, None

    try:
        return _timed(read, timeout_s)
    except TimeoutException:
        return None, "gold parsing timed out"
    except Exception as exc:  # noqa: BLE001  (an unexpected parser error: no gold)
        return None, f"gold parsing failed: {exc!r}"[:200]


def _shown(answer: _Answer) -> str:
    """The answer as the details report it."""
    return str(answer.value) if answer.kind == "math" else answer.shown


@register_reward("math", fields=("solution",), score_range=(0.0, 1.0))
def math_reward(completion: str, *, solution: Any, timeout_s: int = 5,
                correct: float = 1.0, wrong: float = 0.0) -> RewardResult:
    """1.0 when the response's answer is mathematically equivalent to the gold solution.

    Args:
        completion: the response (its `\\boxed{}` answer, or the last LaTeX/number
            math-verify finds, read with the formula around it).
        solution: the gold answer or full gold solution (str; its `\\boxed{}` counts).
        timeout_s: seconds allowed for each reading and comparison (main thread only).
        correct, wrong: the two scores (kept within [0, 1]).
    Returns:
        RewardResult with outcome `correct`, `wrong`, `no_answer` (nothing parsed in the
        response), `partial_parse` (the reading dropped part of the response's answer;
        score `wrong`), `timeout` (score `wrong`), `bad_gold` (score None: the gold is
        empty, unparseable, partial or undefined, or timed out). Details: `gold`,
        `predicted`, `error`, `note`. The rules are in the module docstring.
    Raises:
        Nothing: parser and comparison errors become outcomes.
    Source: math-verify (Hugging Face), extraction + `verify(gold, target)`; numbers of
    one value compared here with a relative tolerance (REL_TOL).
    """
    from math_verify.errors import TimeoutException

    limit = _timeout(timeout_s)
    details: dict[str, Any] = {}
    if timeout_s and not limit:
        details["note"] = "timeout off outside the main thread"
    if not isinstance(solution, str) or not solution.strip():
        return RewardResult(None, "bad_gold", {**details, "error": "empty or non-string gold"})
    gold, error = _parse_gold(solution, limit)
    if gold is None:
        return RewardResult(None, "bad_gold", {**details, "error": error})
    details["gold"] = _shown(gold)
    try:
        predicted = _timed(_read, limit, completion or "")
    except TimeoutException:
        return RewardResult(wrong, "timeout", {**details, "error": "response parsing timed out"})
    except Exception as exc:  # noqa: BLE001  (an unexpected parser error: nothing read)
        predicted, details["error"] = None, f"response parsing failed: {exc!r}"[:200]
    if predicted is None:
        return RewardResult(wrong, "no_answer", details)
    details["predicted"] = _shown(predicted)
    if predicted.kind == "partial":
        return RewardResult(wrong, "partial_parse", {**details, "error": predicted.why})
    try:
        ok, reason = _timed(_same, limit, gold, predicted)
    except TimeoutException:
        return RewardResult(wrong, "timeout", {**details, "error": "comparison timed out"})
    except Exception as exc:  # noqa: BLE001  (a comparison that fails proves nothing)
        error = f"comparison failed: {exc!r}"[:200]
        return RewardResult(wrong, "wrong", {**details, "error": error})
    if reason:
        details["error"] = reason
    return RewardResult(correct if ok else wrong, "correct" if ok else "wrong", details)
