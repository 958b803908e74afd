"""What a math answer is, and which tokens a reading may drop: the `math` reward's rules.

Three designs, each against a reading that silently drops something and is trusted (red-team
inputs modelled on public math-verify bug reports: a `\\mathrm{e}` stripped as a unit, an
interval compared with the set of its endpoints, a tuple gold read as one component):

1. Tokens that change the value are rewritten before math-verify reads the text, so no
   normalisation can drop them (`rewrite_math`): `\\mathrm{e}`, `\\text{i}` (and `\\rm`,
   `\\textrm`, `\\operatorname`) are the constants e and i, never a unit; a scale word
   after a number (`5 million`, `5\\text{ billion}`) multiplies it; a base subscript on
   digits (`101_2`) is the value in that base (5), and digits not valid in the base are
   an error; thousands groups (`1,000`, `27,\\!000`; not right inside a bracket, where
   `(1,100)` is a pair) lose their commas. Everything math-verify's unit rule strips
   afterwards must be a unit (`tail_verdict`): known unit words (`UNIT_WORDS`,
   math-verify's list and common units) after a numeric answer; single letters after a
   formula are factors (re-read); anything else (other words, digits,
   `\\text{ (not 6)}`) is `partial`.
2. Every answer has a kind (`kind_of`): `scalar`, `equation`, `relation` (inequalities,
   `x \\neq 1`, and/or of them), `region` (intervals, unions, `x \\in S`), `pair` (`(a, b)`:
   an open interval or an ordered pair as written), `tuple`, `collection` (`\\{a, b\\}`,
   `a, b`, `\\pm a`), `matrix`, `empty`. Only compatible kinds are compared
   (`compatible`): the same kind; `pair` with `region`; the empty set with `collection` and
   `region`. A one-element collection is its element. So a tuple, list, set, `\\pm` or
   matrix is never one of its components. A relation in one variable and a region are
   compared as the sets of reals they name (`math_compare.same_answer`: `x \\geq 2` is
   `[2, \\infty)`, either way round; math-verify allowed it one way round only), never a
   relation and a pair (`(1, 3)` may be a point: it does not match `1 < x < 3`).
3. Plain text that offers two different values joined by a disjunction ("4 or 5",
   "either 3 or 7", "x=2, or maybe x=3") in one sentence is `listed_candidates`
   (`other_candidates` finds them; the caller compares values); so are two final-answer
   markers of different values (`final_markers`: boxes, "final answer is") and an `=`
   chain whose numeric sides differ (`chain_disagrees`: `12 = 13`).

Standard library at import (`kind_of` and `unwrap` import SymPy when called); the caller
supplies math-verify's readings. Tests: tests/test_rewards_math.py (DROPPED, KINDS,
CANDIDATES, GOLDS), tests/test_math_properties.py.
"""

from __future__ import annotations

import re
from typing import Iterator

from rlvr.rewards.answers.boxes import BOXED_OR_FBOX, boxed_spans, outermost
from rlvr.rewards.answers.forms import word_number
from rlvr.rewards.answers.math_forms import RewriteError, spaces, spell
from rlvr.rewards.answers.units import WORDS as UNIT_SYMBOLS_AND_NAMES
from rlvr.rewards.answers.units import merge_mixed
from rlvr.rewards.vocabulary import DISJUNCTION

# Units a numeric answer may carry (a dropped tail made only of these keeps the value):
# math-verify's own unit list (latex2sympy2_extended.math_normalization.units), without
# its single letters other than metric symbols, plus common units and counted things.
UNIT_WORDS = frozenset((
    "acre apple cc cent cm coin cu cube cubic day deg degree dm east edge feet ft gal gallon "
    "gm hectare hour hr inch inches kg km kmh kmph lb liter litre man meal men meter metre "
    "mile min minute mm monkey month mph mt mtr ohm per pie pm am pound rs rupee sec second "
    "soldier sq square student tile toy unit way west woman women yard year yr "
    # common additions
    "dollar dollars cents euro euros usd mi ml kl mg km2 cm2 m2 oz ounce ounces ton tons "
    "tonne litres liters meters metres kilometers kilometres centimeters centimetres "
    "millimeters millimetres grams gram kilograms kilogram seconds minutes hours days weeks "
    "week years months units sq. m. cm. mph. km/h people person persons students ways "
    "times apples marbles pages miles feet foot inches degrees radians radian "
    "boxes box books book balls ball cookies cookie candies "
    "items item pieces piece points point handshakes games game rounds steps "
    "numbers integers digits triangles diagonals sides edges vertices faces st nd rd th"
    ).split()) | UNIT_SYMBOLS_AND_NAMES
_METRIC_LETTERS = frozenset("mgslhtcdo")  # math-verify strips these letters after a number
# of which these are units after a number (`units._LETTERS`); `3t`, `2c`, `5d` are products
_UNIT_LETTERS = frozenset("mgslh")
_SCALES = {"thousand": 3, "million": 6, "billion": 9, "trillion": 12}
_TEXT_CMD = r"\\(?:text|textrm|mathrm|mathit|mbox|operatorname|rm)"
_CONSTANT = re.compile(rf"(?:{_TEXT_CMD}\s*\{{\s*([ei])\s*\}}|\{{\\rm\s+([ei])\s*\}})")
_SCALE = re.compile(
    rf"(?<=[\d}}])\s*(?:\\[ ,;:!]\s*)*(?:(?P<open>{_TEXT_CMD}\s*\{{)\s*)?"
    r"(thousand|million|billion|trillion)s?(?![A-Za-z])(?(open)\s*\}|)", re.IGNORECASE)
_SCALE_AFTER_MATH = re.compile(  # `$5$ million`: the scale word joins the formula
    r"(?<=\d)(\s*(?:\$|\\\)))\s*(thousand|million|billion|trillion)s?(?![A-Za-z])",
    re.IGNORECASE)
_BASE = re.compile(r"(?<![\w.])(\d+)_(?:\{\s*(\d+)\s*\}|(\d))(?!\d)")
_GROUP = r"(?:,(?:\\!)?|\\,|[\u2009\u202f\u00a0])"  # `1,000`, `27,\!000`, `10\,000`, `10 000`
# the first group never opens with 0: "0,111" is a decimal comma or a list, never 111
_THOUSANDS = re.compile(rf"(?<![\d.,(\[])[1-9]\d{{0,2}}(?:{_GROUP}\d{{3}})+(?![\d)\]]|{_GROUP}\d)")
_SIDE_BY_SIDE = re.compile(r"\d(?:\s|\\[ ,;:!]|~)+\d")  # `2 3`, which LaTeX reads as 5
_MIXED = re.compile(r"(?<![\w.,/\\^])(\d+)[ \t]+(\d+)/(\d+)(?![\d/]|[.,]\d)")
_TAIL_WORD = re.compile(r"[A-Za-z]+\.?")
_NEGATION = re.compile(r"\b(?:not|never|no|cannot|isn't|isnt|can't|aren't|wasn't|won't"
                       r"|doesn't|nor|neither)\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|\n")
_MATH_SEGMENT = re.compile(r"\$\$.+?\$\$|\$[^$]+\$|\\\(.+?\\\)|\\\[.+?\\\]"
                           r"|\\boxed\s*\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\}", re.DOTALL)


def _base(m: re.Match) -> str:
    """`101_2` as its decimal value "5".

    Raises:
        RewriteError: a base outside 2..10 or a digit not valid in it.
    """
    digits, base = m.group(1), int(m.group(2) or m.group(3))
    if not 2 <= base <= 10 or any(int(d) >= base for d in digits):
        raise RewriteError(f"{m.group()!r} is not a number in base {base}")
    return str(int(digits, base))


# an answer stated in English number words after an answer marker: math-verify reads
# digits only ("The answer is twelve." gave no answer)
_ANSWER_IN_WORDS = re.compile(r"(\b(?:answer|total|result)\s+(?:is|was|equals|=|:)\s+)"
                              r"([A-Za-z][A-Za-z -]*?)(?=\s*[.!]|\s*$)", re.IGNORECASE)


def _digits_for_words(m: re.Match) -> str:
    value = word_number(m.group(2).lower())
    return m.group() if value is None else f"{m.group(1)}{value}"


_ESCAPED_DOLLAR = re.compile(r"\\\$\s?(\d[\d,]*(?:\.\d+)?)(?![\d.,]*\s*(?:dollars?|usd)\b)")


def rewrite_math(text: str) -> str:
    """`text` with value-changing decorations spelt as math: `\\mathrm{e}` -> `e`,
    `5\\text{ million}` -> `5*10^(6)`, `101_2` -> `5`, `1,000\\%` -> `1000\\%`, the plain
    mixed number `1 1/2` -> `3/2` (see the module doc).

    Raises:
        RewriteError: a base subscript whose digits are not valid in the base.
    """
    text = spell(text)  # Unicode digits, colour, repeating decimals... (`math_forms`)
    # an escaped dollar sign before a number ("makes \\$18 a day", `\\$18` in math) is the
    # currency: the number in dollars (math-verify reads no answer from `\\$18` in prose)
    text = _ESCAPED_DOLLAR.sub(r"\1\\text{ dollars}", text)
    text = merge_mixed(text)  # "2 hours 30 minutes" is 150 minutes, not 30
    text = _ANSWER_IN_WORDS.sub(_digits_for_words, text)  # "The answer is twelve." -> 12
    text = _CONSTANT.sub(lambda m: "{" + (m.group(1) or m.group(2)) + "}", text)
    text = _SCALE.sub(lambda m: f"*10^({_SCALES[m.group(2).lower()]})", text)
    text = _SCALE_AFTER_MATH.sub(
        lambda m: f"*10^({_SCALES[m.group(2).lower()]}){m.group(1)}", text)
    text = _THOUSANDS.sub(lambda m: re.sub(_GROUP, "", m.group()), text)
    text = spaces(text)
    text = _MIXED.sub(lambda m: f"{int(m[1]) * int(m[3]) + int(m[2])}/{m[3]}"
                      if int(m[2]) < int(m[3]) else m.group(), text)  # 1 1/2 is 3/2
    return _BASE.sub(_base, text)


def has_base(text: str) -> bool:
    """True when `text` writes a number with a base subscript (`101_2`, `12_{8}`)."""
    return bool(_BASE.search(text))


def base_digits(gold: str) -> str | None:
    """The digits of a gold that is one based number (`101_2` -> "101"), else None: a
    response that writes those digits without the subscript states the same number."""
    m = _BASE.fullmatch(gold.strip().strip("$").strip())
    return m.group(1) if m else None


def _numeric(latex: str) -> bool:
    """True when `latex` holds no letter outside commands (`5`, `\\frac{1}{2}`, `3\\pi`)."""
    return bool(re.search(r"\d", latex)) and not re.search(
        "[A-Za-z]", re.sub(r"\\[A-Za-z]+", "", latex))


def tail_verdict(kept: str, full: str) -> str:
    """What math-verify's unit rule dropped: `full` (read without it) minus `kept`.

    Returns:
        "merged" (two numbers side by side, `2 3`, which latex2sympy reads as 5),
        "none" (nothing dropped), "unit" (unit words after a numeric answer: the value is
        kept), "factors" (single letters after a non-numeric answer: re-read them) or
        "partial" (anything else was dropped).
    """
    if _SIDE_BY_SIDE.search(full):
        return "merged"  # two numbers side by side: latex2sympy adds them
    if kept == full:
        return "none"
    if not full.startswith(kept):
        return "partial"
    tail = full[len(kept):]
    bare = re.sub(rf"{_TEXT_CMD}|[{{}}\s~,]|\\[,;!: ]|\^\s*\{{?[23]\}}?", " ", tail)
    words = _TAIL_WORD.findall(bare)
    if re.sub(r"[A-Za-z.]+", "", bare).strip() or not words:
        return "partial"  # digits, operators or brackets were dropped
    lower = [w.lower().rstrip(".") for w in words]
    if all(len(w) == 1 or w in ("ab", "bc") for w in lower) and not (
            _numeric(kept) and all(w in _UNIT_LETTERS for w in lower)):
        return "factors"  # letters after a formula are variables (`\\frac12 ab`)
    if not _numeric(kept):
        return "partial"
    if all(w in UNIT_WORDS or w.rstrip("s") in UNIT_WORDS or w.removesuffix("es") in
           UNIT_WORDS or (len(w) == 1 and w in _METRIC_LETTERS) for w in lower):
        return "unit"
    return "partial"


def kind_of(value, shown: str = "") -> str:
    """The kind of a SymPy answer (see the module doc); `shown` is the text it was read
    from (a `(a, b)` interval is a `pair`)."""
    import sympy
    from sympy.logic.boolalg import And, Or

    if isinstance(value, (sympy.MatrixBase, sympy.MatrixExpr)):
        return "matrix"
    if value is sympy.S.EmptySet:
        return "empty"
    if isinstance(value, sympy.FiniteSet):
        return "collection"
    if isinstance(value, sympy.Tuple):
        return "tuple"
    if isinstance(value, sympy.Interval):
        written = re.sub(r"\\left|\\right|\s", "", shown)
        pair = written.startswith("(") and written.endswith(")") and value.left_open \
            and value.right_open and value.left.is_finite and value.right.is_finite
        return "pair" if pair else "region"
    if isinstance(value, sympy.Set):
        return "region"
    if isinstance(value, sympy.Eq):
        return "region" if isinstance(value.rhs, sympy.Set) else "equation"
    if isinstance(value, sympy.Rel) or isinstance(value, (And, Or)):
        return "relation" if any(isinstance(a, sympy.Rel) and not isinstance(a, sympy.Eq)
                                 for a in sympy.preorder_traversal(value)) else "equation"
    return "scalar"


def compatible(gold_kind: str, pred_kind: str) -> bool:
    """True when answers of these kinds may be compared at all (see the module doc)."""
    if gold_kind == pred_kind:
        return True
    pairs = {frozenset(("pair", "region")), frozenset(("empty", "collection")),
             frozenset(("empty", "region"))}
    return frozenset((gold_kind, pred_kind)) in pairs


def unwrap(value):
    """A one-element FiniteSet as its element (`\\{3\\}` is 3); anything else as is."""
    import sympy

    if isinstance(value, sympy.FiniteSet) and len(value) == 1:
        return next(iter(value))
    return value


def sentence_rest(text: str, end: int) -> tuple[str, str]:
    """(the rest of the sentence after `end`, the sentence or line after it): where a
    retraction of the answer would be (`rlvr.rewards.answers.numbers.retracts`)."""
    stop = _SENTENCE_END.search(text, end)
    if stop is None:
        return text[end:], ""
    after = _SENTENCE_END.search(text, stop.end())
    return text[end:stop.start()], text[stop.end():after.start() if after else len(text)]


def _answer_span(text: str, start: int, end: int, lo: int, hi: int) -> tuple[int, int]:
    """The math segment of `text[lo:hi]` holding `start`, else (start, end)."""
    for m in _MATH_SEGMENT.finditer(text, lo, hi):
        if m.start() <= start < m.end():
            return m.span()
    return start, end


def negated_before(text: str, start: int, end: int) -> bool:
    """True when a negation ("not", "never", "isn't", ...) is among the three words right
    before the answer at `text[start:end]`, in its sentence: "the answer is not 5"."""
    lo = max((m.end() for m in _SENTENCE_END.finditer(text, 0, start)), default=0)
    a0, _ = _answer_span(text, start, end, lo, len(text))
    # "no" followed by a stop answers oneself ("Actually, no: it's 14"), it negates nothing
    before = re.sub(r"\bno\s*(?:[:,;!.\u2014\u2013-]|wait\b)", " ",
                    re.sub(r"\$[^$]*\$", " ", text[lo:a0]), flags=re.IGNORECASE)
    words = re.findall(r"[A-Za-z']+", before)
    return bool(_NEGATION.search(" ".join(words[-3:])))


# another value offered after the answer, however far in its sentence: "it may be 3"
_MAY_BE = re.compile(r"\b(?:it|that|this|the answer|or) (?:may|might|could) (?:also |well |just as well )?"
                     r"be\s*\$?\s*$", re.IGNORECASE)


def other_candidates(text: str, start: int, end: int) -> Iterator[str]:
    """Other values offered as alternatives to the answer at `text[start:end]`.

    Yields each math segment (`$...$`, `\\(...\\)`, `\\boxed{}`) or plain number formula in
    the answer's sentence that a disjunction ("or", "either", "maybe", "perhaps",
    "possibly", "alternatively") joins to the answer: the text between them holds one
    and at most four words, or that follows it as "it may (also) be N". The caller reads
    each and compares its value.
    """
    lo = max((m.end() for m in _SENTENCE_END.finditer(text, 0, start)), default=0)
    stop = _SENTENCE_END.search(text, end)
    hi = stop.start() if stop else len(text)
    spans = [m.span() for m in _MATH_SEGMENT.finditer(text, lo, hi)]
    a0, b0 = _answer_span(text, start, end, lo, hi)
    taken = [s for s in spans if s[1] <= a0 or s[0] >= b0]
    for m in re.finditer(r"[-+]?\$?\d[\d.,/]*(?:\s*[-+*/^]\s*\d[\d.,]*)*", text[lo:hi]):
        a, b = m.start() + lo, m.end() + lo
        if (b <= a0 or a >= b0) and not any(x <= a < y for x, y in spans):
            taken.append((a, b))
    for a, b in taken:
        between = text[b:a0] if b <= a0 else text[b0:a]
        words = re.findall(r"[A-Za-z]+", re.sub(r"\$[^$]*\$", " ", between))
        if (DISJUNCTION.search(between) and len(words) <= 4 and not re.search(r"\d", between)) \
                or (a >= b0 and _MAY_BE.search(between) and not re.search(r"\d", between)):
            yield text[a:b]  # "\\boxed{2}, but I'm not confident; it may be 3"


_FINAL = re.compile(r"final\s+answer\s*(?:is|:|=)?[:\s]*", re.IGNORECASE)


def final_markers(text: str) -> list[tuple[int, int]]:
    """Spans of every final-answer marker of `text`: each outermost closed `\\boxed{}` /
    `\\fbox{}`, and the rest of the sentence after each "final answer is" / "Final
    answer:". Two markers of different values offer two candidates (the caller compares)."""
    spans = [(a, b) for a, b, _ in outermost(boxed_spans(text, BOXED_OR_FBOX))]
    for m in _FINAL.finditer(text):
        stop = _SENTENCE_END.search(text, m.end())
        end = stop.start() if stop else len(text)
        if end > m.end() and not any(a <= m.end() < b for a, b in spans):
            spans.append((m.end(), end))
    return spans


def listed_value(values: list, grader):
    """The set of values a list of candidates offers (`x = 2 or x = 3` -> {2, 3}; a set
    among them gives its elements), or None when one is not a single number or symbol."""
    import sympy

    flat = [x for v in values for x in (v.args if isinstance(v, sympy.FiniteSet) else (v,))]
    flat = [v.rhs if grader.is_assignment_relation(v) else v for v in flat]
    return sympy.FiniteSet(*flat) if flat and all(kind_of(v) == "scalar" for v in flat) \
        else None


def chain_disagrees(value, shown: str) -> bool:
    """True when `value` is an equality chain whose numeric sides differ (`12 = 13`, `1 + 1
    = 3`, `\\text{Total} = 5 \\times 3 = 16`): it states two values. A side written with k
    decimals may be the other rounded to k places (`\\frac{22}{7} = 3.14`)."""
    import sympy
    from sympy.logic.boolalg import And

    eqs = [value] if isinstance(value, sympy.Eq) else list(value.args) \
        if isinstance(value, And) and all(isinstance(a, sympy.Eq) for a in value.args) else []
    sides = [side for eq in eqs for side in (eq.lhs, eq.rhs)
             if isinstance(side, sympy.Expr) and not side.free_symbols]
    if len(sides) < 2:
        return False  # `x = 5`: a labelled value, one number
    places = [len(d) for d in re.findall(r"\d\.(\d+)", shown)]
    tol = sympy.Rational(1, 2) / 10 ** min(places) if places else sympy.Integer(0)
    exact = [x.xreplace({f: sympy.Rational(str(f)) for f in x.atoms(sympy.Float)}) for x in sides]
    try:
        gaps = [abs(sympy.N(a - exact[0], 30)) for a in exact[1:]]
        return any(bool(g > tol + sympy.Rational(1, 10**25)) for g in gaps)
    except TypeError:  # a complex or undefined side: no verdict
        return False


_APPROX = re.compile(  # `a \approx b`, `a ≈ b`: something on the left, a relation between
    r"(?<=[\w})\]|.])(\s*)(?:\\(?:approx|simeq|doteq|thickapprox)(?![A-Za-z])|\u2248)")


def approx_disagrees(shown: str) -> bool:
    """True when `shown` joins two values by `\\approx` (`\\simeq`, `\\doteq`, `≈`) that
    differ beyond the rounding of the shorter side (`5 \\approx 6`): math-verify read the
    left side alone and dropped the rest; `\\pi \\approx 3.14` keeps its left side."""
    if not _APPROX.search(shown):
        return False
    from math_verify import parse

    parsed = parse("$" + _APPROX.sub(r"\1=", shown.strip().strip("$")) + "$")
    return bool(parsed) and chain_disagrees(parsed[0], shown)


def in_math(text: str, pos: int) -> bool:
    """True when `pos` lies inside a math segment (`$...$`, `\\(...\\)`, `\\boxed{}`) of
    `text`: a plain number read there means math-verify could not read that LaTeX."""
    return any(m.start() <= pos < m.end() for m in _MATH_SEGMENT.finditer(text))
