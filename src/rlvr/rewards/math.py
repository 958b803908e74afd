"""`math` reward: mathematical equivalence through math-verify, refusing partial readings.

A response is read once: value-changing decorations are rewritten into math first
(`answers.math_kinds.rewrite_math`: `\\mathrm{e}` is e, `5\\text{ million}` is 5*10^6,
`101_2` is 5, `1,000` is 1000), then math-verify's own extraction (its `LatexExtractionConfig` and
`ExprExtractionConfig` regexes, in its priority order: `\\boxed{}`, "final answer is",
LaTeX, then plain numbers) finds the answer, then the checks below decide whether the
reading covers what was written. Two different values joined by a disjunction in the
answer's sentence ("4 or 5", "x=2, or maybe x=3"), two final-answer markers of different
values (two boxes, a box and "the final answer is 13") and an `=` chain whose numeric
sides differ (`12 = 13`) are `listed_candidates`; a number math-verify read as plain text
inside LaTeX it could not parse (`\\boxed{> 5}`), a struck-out part or a relation with
nothing on its left is `partial_parse` (`answers.math_forms.answer_flaw`); an answer
followed by a retracting word ("Actually, no: 6", "Wait") is taken back and the answer
after the retraction is read instead (6; none there: `no_answer`); one right after a
negation ("it is not 5") or only asked ("Is the answer 5?") states none (`no_answer`); the weak words "no", "actually", "sorry", "maybe",
"perhaps" retract only with a number or an error word after them ("12 eggs, no more and no
less", "Actually, this matches", "Sorry if the steps were long!" keep the answer); a
correction of the work anywhere after the answer ("that double-counts", "scrap that", "I
ignored the restriction") followed by a different final number takes the answer back
(`answers.math_retraction`); work after a retracting word that ends on the answer's own number
keeps it ("Wait, let me check: 2 + 3 = 5"). A gold is read
as LaTeX first (`_read_gold`): its last `\\boxed{}`, else the whole string, which must be
one LaTeX answer (prose is `bad_gold`), so `(1, 3)`, `\\pm 3` and `10,080` are read whole,
never as their last number. Values are compared by
`math_verify.verify(gold, prediction)` in that documented order (the gold decides, e.g.,
whether an interval or a set is expected), except single numbers (see Numbers), and only
between answers of compatible kinds (`answers.math_kinds.kind_of`: an interval is not the
set of its endpoints, a tuple, list, `\\pm` or matrix is never one of its components).

Partial readings (a response gets outcome `partial_parse` and the `wrong` score; a gold
gets None as `bad_gold`: a reading that dropped part of the answer proves nothing):
- Plain text: math-verify reads only digits and operators, so `x - 3y + 5 = 0` was 0 and
  `5x` was 5. The formula around the number (numbers, single letters and operators on
  its line) is read instead. The number stands alone when it is the whole formula, the
  result of a numeric chain (`48/2 = 24`) or of a one-letter assignment (`x = 5`, as
  math-verify intends); otherwise the formula (at most 200 characters) is parsed as LaTeX
  (`$x - 3y + 5 = 0$` is an equation, compared as one); `partial_parse` if that fails.
- LaTeX: math-verify's unit rule strips trailing letters and `\\text{}` it takes for units
  (`c`, `h`, `ab`, `\\text{ (not 6)}`...): `\\frac{a}{b}c` became a/b, `2\\mathrm{e}` 2.
  What it strips must be unit words (`answers.math_kinds.UNIT_WORDS`) after a numeric
  answer (`5 m`, `5\\text{ cm}`); single letters after a formula are factors, re-read with
  math-verify's `units=False` normalisation; anything else is partial. When the whole
  LaTeX fails to parse and math-verify falls back to the last side of an `=` chain, the
  reading is partial.
- Equations against values: math-verify compares an equation response with a value
  gold through its right side (any `x - 3y + 5 = 0` matched gold 0). The right side
  counts only for an assignment (`x = 5`, `\\text{Total} = 15`), a numeric chain
  (`2 + 3 = 5`) or a labelled value (`P(A) = 0.5`); other equations are `wrong`.

Units (`answers.units`): the unit stated right after an answer (`150 cm`, `5\\text{ km}`,
`2\\,\\mathrm{m}^2`) is read on both sides, never dropped. When the gold and the response
both state a known unit, the response is converted into the gold's unit exactly before the
comparison (150 cm is 1.5 m; 1.5 hours is 90 minutes), and units of different dimensions or
powers (cm against hours, m against m^2, km/h against km) are `wrong`. A dollar sign before
the number is a unit (`\\$5` against `500\\text{ cents}`); a unit LaTeX reads as variables
(`\\boxed{16 oz}`, 16*o*z) leaves its number; two candidates that state one value in two
units (`\\boxed{150 cm}` ... `\\boxed{1.5 m}`) agree. A bare number on either side, or a
word that is not a known unit, compares the values as before.

Clock times and ratios (`12:00`, `3:30`, `2:3`, either side) are never a quotient
(math-verify read `$12:00$` as 12/0, so every response was wrong, and `$3:30$` as 1/10,
so `1:10` matched): they compare as text, equal once spaces are removed (`2:3` does not
match `4:6` or `\\frac23`). A gold whose value is undefined (`1/0`, `\\frac{1}{0}`: SymPy's
zoo or nan) gives None (`bad_gold`); infinity is a normal answer.

Numbers: an integer on either side compares exactly (`1000000.4` is not 1000000,
`1000000.0` is; as in `rlvr.rewards.answers.numbers`);
otherwise, when gold and response are single real numbers and either is written with a
decimal point (`0.5`, `18.00`, `1.0e20`), they match within a relative tolerance of
REL_TOL = 1e-6 of the larger magnitude, at every scale (1e-8 differs from 2e-8, 3.0e-10
from 3.1e-10; 0 equals only 0); integers and fractions compare exactly (1e20 differs
from 1e20+1). math-verify rounded to 6 decimals (all numbers below 5e-7 were equal), and
its `evalf(chop=True)` made `\\sqrt{2}/10^{20}` equal `\\sqrt{3}/10^{20}`. Elsewhere (sets,
tuples, intervals, matrices, symbols, percentages, exact irrational values) decimals
become exact fractions before math-verify compares at 100 digits (there 0.333333 is not
1/3). Scientific notation (`1e-8`, `2.5E3`) is a number in text and LaTeX (math-verify
read `1e-8` as 1 and `$1e-8$` as e - 8), so `2e-1` without spaces is 0.2, never 2e - 1.

A gold written in another base (`1010_2`) asks for its digits: `1010`, `1010_2` or a
number with a base subscript of the same value pay, the decimal value written plainly
(`\\boxed{10}`) does not. Letters each given one value (`x = 2, y = -1`) are the tuple of
the values in the letters' alphabetical order against a tuple gold `(2, -1)` (also when
math-verify reads a written pair as an open interval). A bracket right after the answer
that restates it rounded ("1/6 (about 16.7%)", "$2\\pi$ (approximately 6.28)": the
bracket agrees to its last digit) is no second value; one that does not round from it is.
"The correct answer is" between two boxes withdraws the first.

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
from dataclasses import replace
from typing import Any

from rlvr.rewards.answers import (
    UNIT_WORDS,
    MathAnswer,
    RewriteError,
    alarm_limit,
    answer_flaw,
    approx_disagrees,
    base_digits,
    has_base,
    chain_disagrees,
    drop_stroked,
    final_markers,
    in_math,
    is_undefined,
    kind_of,
    listed_value,
    math_lib,
    negated_before,
    other_candidates,
    rewrite_math,
    same_answer as _same,  # a module name: tests replace it
    timed,
)
from rlvr.rewards.answers import REL_TOL  # noqa: F401  (documented here too)
from rlvr.rewards.answers import asked_only
from rlvr.rewards.answers import spell_infinite_intervals
from rlvr.rewards.answers import (LONGEST, FORMULA, first_parsed, latex_answer,
                                              one_value, plain_answer, structure_answer)
from rlvr.rewards.answers import plain_shape
from rlvr.rewards.answers import negated_marker, taken_back, withdrawn
from rlvr.rewards.answers import in_gold_unit, scalar_value, unit_after
from rlvr.rewards.contract import RewardResult
from rlvr.rewards.registry import register_reward
from rlvr.rewards.rulebook import explained, note, register_rule

_SCI = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)[eE]([-+]?\d+)(?!\w|\.\d)")
# a sentence that checks the answer by substituting it ("Check: 2(4) + 3 = 11 ✓") is no
# answer of its own: the answer is read before it (a box or a final marker is read as is)
_CHECK = re.compile(r"\b(?:check(?:ing)?|verif(?:y|ying|ication)|double-check\w*|sanity check|"
                    r"substitut\w+|plug\w* (?:it |this |that )?(?:back|in))\b|[\u2713\u2714]",
                    re.IGNORECASE)
_CHECK_SENTENCE = re.compile(r"(?<=[.!?\n])[^\S\n]*[^.!?\n]*(?:[.!?](?=\s|$)|(?=\n)|$)")


def _without_withdrawn(text: str) -> str:
    """`text` with each final answer (box or "final answer is") that is withdrawn before
    the next one (`answers.math_retraction.withdrawn`) blanked out, character for character:
    math-verify reads "\\boxed{5}. Wait, no: \\boxed{6}" as the set {5, 6}."""
    markers = final_markers(text)
    for (a, b), (later, _) in zip(markers, markers[1:]):
        if withdrawn(text, b, later):
            text = text[:a] + re.sub(r"\S", " ", text[a:b]) + text[b:]
    return text


# a value restated in brackets as a rounded decimal or percent: "1/6 (about 16.7%)"
_RESTATED = re.compile(r"\(\s*(?:about|approximately|approx\.?|roughly|around|nearly|almost|"
                       r"\u2248|~|\\approx|i\.e\.,?|that is,?|or)?\s*\$?\s*"
                       r"(-?\d+(?:\.(\d+))?)\s*(\\?%|percent)?\s*\$?\s*\)")


def _without_restatements(text: str) -> str:
    """`text` with each bracket that restates the value before it as a rounded decimal or
    percent blanked out, character for character: "1/6 (about 16.7%)" is read as 1/6, since
    16.7% is 1/6 to the bracket's last digit; a bracket that does not round from the value
    ("1/6 (about 20%)") is kept, and read as the second value it is."""
    for m in reversed(list(_RESTATED.finditer(text))):
        before = _read(text[:m.start()], candidates=False)
        if before is None or before.kind != "math":
            continue
        try:
            value = float(before.value)
        except (TypeError, ValueError):
            continue
        scale = 0.01 if m.group(3) else 1.0
        stated = float(m.group(1)) * scale
        if abs(stated - value) <= 0.5 * 10 ** -len(m.group(2) or "") * scale + 1e-12:
            text = text[:m.start()] + " " * (m.end() - m.start()) + text[m.end():]
    return text


def _without_checks(text: str) -> str:
    """`text` with every sentence after the first that checks an answer (`_CHECK`) and
    holds no box or answer marker blanked out, character for character ("So $x = 4$.
    Check: $2(4) + 3 = 11$ ✓" is read as 4, not as the check's equation; "The answer is
    12. Check: 12 + 3 = 15." as 12)."""
    def blank(m: re.Match) -> str:
        part = m.group()
        if _CHECK.search(part) and not re.search(r"\\boxed|\\fbox|answer", part, re.I):
            return re.sub(r"\S", " ", part)
        return part

    return _CHECK_SENTENCE.sub(blank, text)


def _read(text: str, candidates: bool = True) -> MathAnswer | None:
    """The answer `text` states (see the module doc), or None when nothing parses; with
    `candidates`, an answer offered beside a different value is kind "listed"."""
    lib = math_lib()
    try:
        text = rewrite_math(_SCI.sub(lambda s: f"{s[1]}*10^({int(s[2])})", text))
    except RewriteError as exc:
        return MathAnswer("partial", shown=text[-LONGEST:], why=str(exc))
    text = spell_infinite_intervals(text, in_math)
    blanked = _without_withdrawn(_without_checks(text))  # same length: positions stay
    if "(" in blanked and _RESTATED.search(blanked):
        blanked = _without_restatements(blanked)
    hit = (first_parsed(blanked, [lib["latex"], lib["expr"]]) if blanked != text else None) \
        or first_parsed(text, [lib["latex"], lib["expr"]])
    stripped = text.strip()
    if hit is None and "$" not in stripped and (
            ("\\" in stripped and len(stripped.split()) <= 3)
            or (len(stripped) <= LONGEST and FORMULA.fullmatch(stripped)
                and re.search(r"[\d+*/^=-]", stripped))):
        text = f"${stripped}$"
        hit = first_parsed(text, [lib["latex"]])  # bare LaTeX, never prose
    if hit is None:
        return None
    m, target, value, shown = hit
    if re.match(r"\s*=\s*(?:$|[.!?,;]|\s*[A-Za-z])", text[m.end():]) and \
            not re.search(r"=\s*\S", text[m.end():m.end() + 40]) or m.group().rstrip().endswith("="):
        return MathAnswer("partial", shown=m.group(), why="an expression left unfinished (ends with =)")
    plain = target is lib["expr"]
    if flaw := answer_flaw(m.group(), plain, plain and in_math(text, m.start())):
        return MathAnswer("partial", shown=m.group()[:LONGEST], why=flaw)
    if target is lib["expr"]:
        answer = structure_answer(text, m) or plain_answer(text, m, value, shown)
    else:
        answer = latex_answer(m, value, shown)
    if answer.kind == "math":
        answer = scalar_value(replace(answer, unit=unit_after(text, m, plain)))
        answer = one_value(answer)  # "$0.5$ or $50\%$": one value in two forms, not a set
    if candidates and answer.kind in ("math", "text"):
        if taken_back(text, m.end(), answer):  # "... is 12. Actually, no: it's 14." -> 14
            return _read(text[m.end():], candidates) if m.end() < len(text) else None
        if negated_before(text, *m.span()) or negated_marker(m.group()) or \
                asked_only(text.lower(), m.start()):
            return None  # "it is not 5", "Is the answer 5? I'm not sure": no answer
        if answer.kind == "math" and (chain_disagrees(answer.value, answer.shown)
                                      or approx_disagrees(answer.shown)):
            return MathAnswer("listed", None, answer.shown, "the = chain states two values")
        markers = final_markers(text)
        # where the value was read: the last marker inside the match (math-verify's box match
        # may span "\\boxed{5}. Wait, no: \\boxed{6}"), else the match
        at = max((a for a, b in markers if m.start() <= a < m.end()), default=m.start())
        chunks = [*other_candidates(text, *m.span()), *(
            text[a:b] for a, b in markers if not a < m.end() <= b
            and not (b <= at and withdrawn(text, b, at)))]
        others = [(chunk, other) for chunk in chunks
                  if (other := _read(chunk, candidates=False)) is not None
                  and other.kind in ("math", "text") and not _agree(answer, other)]
        if others:
            answers = [answer] + [o for _, o in others]
            listed = listed_value([a.value for a in answers], lib["grader"]) \
                if all(a.kind == "math" for a in answers) else None
            return MathAnswer("listed", listed, answer.shown, f"also offers {others[0][0]!r}")
    return answer


def _agree(a: MathAnswer, b: MathAnswer) -> bool:
    """True when two candidate answers are the same value, in `a`'s unit when both state
    one (`150 cm` and `1.5 m` agree; an error: not the same)."""
    b, _ = in_gold_unit(a, b)
    if b is None:
        return False
    try:
        return _same(a, b)[0]
    except Exception:  # noqa: BLE001
        return False


_DELIMITED = re.compile(r"\$\$(.+)\$\$|\$(.+)\$|\\\((.+)\\\)|\\\[(.+)\\\]", re.DOTALL)
_FUNCTIONS = frozenset("sin cos tan cot sec csc log ln exp sqrt max min gcd lcm det mod arcsin "
                       "arccos arctan sinh cosh tanh infty infinity inf and or frac dfrac".split())


def _read_gold(solution: str) -> MathAnswer | None:
    """A gold read as LaTeX first: its last `\\boxed{}` when it has one, else the whole
    string (inside one `$...$`, `\\(...\\)` or `\\[...\\]` at most), which must parse
    whole: prose (a word that is not a unit or a function name) is partial."""
    text = solution.strip()
    if "\\boxed" in text or "\\fbox" in text:
        return _read(text, candidates=False)
    delimited = _DELIMITED.fullmatch(text)
    body = next(g for g in delimited.groups() if g) if delimited else text
    outside = re.sub(r"\\[A-Za-z]+(?:\s*\{[^{}]*\})?", " ", body)
    words = [w.lower() for w in re.findall("[A-Za-z]{3,}", outside)]
    if "$" in body.replace("\\$", "") or any(
            w not in UNIT_WORDS and w not in _FUNCTIONS for w in words):
        return MathAnswer("partial", shown=body, why="the gold is not one LaTeX answer")
    answer = _read(f"${body}$", candidates=False)
    if answer is not None and answer.kind == "math":
        answer = replace(answer, digits=base_digits(body))
    return answer


@functools.lru_cache(maxsize=4096)
def _parse_gold(solution: str, timeout_s: int | None) -> tuple[MathAnswer | None, str | None]:
    """The gold's answer (cached: GRPO scores every gold once per generation), or an error."""
    from math_verify.errors import TimeoutException

    def read() -> tuple[MathAnswer | None, str | None]:
        gold = _read_gold(solution)
        if gold is None:
            return None, "gold does not parse"
        if gold.kind == "partial":
            return None, f"gold parse is partial: {gold.why}"
        if gold.kind == "math" and is_undefined(gold.value):
            return None, f"gold is undefined ({gold.value})"
        return gold, None

    try:
        return timed(read, timeout_s)
    except TimeoutException:
        return None, "gold parsing timed out"
    except Exception as exc:  # noqa: BLE001  (an unexpected parser error: no gold)
        return None, f"gold parsing failed: {exc!r}"[:200]


def _shown(answer: MathAnswer) -> str:
    """The answer as the details report it."""
    return str(answer.value) if answer.kind == "math" else answer.shown


@register_reward("math", fields=("solution",), score_range=(0.0, 1.0),
                 outcomes=("correct", "wrong", "no_answer", "partial_parse",
                           "listed_candidates", "timeout", "bad_gold"))
@explained(register_rule(
    "math.table", "the `math` reward's value for the outcome (1.0 for an answer math-verify "
    "finds equal to the solution, else 0.0); read = the outcome", grader="math",
    fires=[("The answer is $\\boxed{4}$.", None, "$4$"), ("$\\boxed{5}$", None, "$4$")],
    spares=[("$\\boxed{4}$", None, "")]))
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
        response, or its answer retracted), `partial_parse` (the reading dropped part of
        the response's answer; score `wrong`), `listed_candidates` (two different values
        offered; score `wrong`), `timeout` (score `wrong`), `bad_gold` (score None: the gold is
        empty, unparseable, partial or undefined, or timed out). Details: `gold`,
        `predicted`, `error`, `note`. The rules are in the module docstring.
    Raises:
        Nothing: parser and comparison errors become outcomes.
    Source: math-verify (Hugging Face), extraction + `verify(gold, target)`; numbers of
    one value compared here with a relative tolerance (REL_TOL).
    """
    from math_verify.errors import TimeoutException

    limit = alarm_limit(timeout_s)
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
        # a character overlaid with a combining stroke was struck out: never read as said
        predicted = timed(_read, limit, drop_stroked(plain_shape(completion or "")))
    except TimeoutException:
        return RewardResult(wrong, "timeout", {**details, "error": "response parsing timed out"})
    except Exception as exc:  # noqa: BLE001  (an unexpected parser error: nothing read)
        predicted, details["error"] = None, f"response parsing failed: {exc!r}"[:200]
    if predicted is None:
        note(NO_ANSWER, details.get("error", ""))
        return RewardResult(wrong, "no_answer", details)
    details["predicted"] = _shown(predicted)
    if predicted.kind == "listed" and predicted.value is not None and gold.kind == "math" \
            and kind_of(gold.value) == "collection":  # "x = 2 or x = 3" for the gold "2, 3"
        predicted = replace(predicted, kind="math")
    if predicted.kind in ("partial", "listed"):
        outcome = "partial_parse" if predicted.kind == "partial" else "listed_candidates"
        note(PARTIAL if predicted.kind == "partial" else LISTED, predicted.why or "")
        return RewardResult(wrong, outcome, {**details, "error": predicted.why})
    if gold.digits and predicted.kind == "math":
        predicted = replace(predicted, based=has_base(completion or ""))
    predicted, unit_error = in_gold_unit(gold, predicted)
    if predicted is None:
        note(UNIT, unit_error or "")
        return RewardResult(wrong, "wrong", {**details, "error": unit_error})
    try:
        ok, reason = timed(_same, limit, gold, predicted)
    except TimeoutException:
        return RewardResult(wrong, "timeout", {**details, "error": "comparison timed out"})
    except Exception as exc:  # noqa: BLE001  (a comparison that fails proves nothing)
        error = f"comparison failed: {exc!r}"[:200]
        return RewardResult(wrong, "wrong", {**details, "error": error})
    if reason:
        details["error"] = reason
    note(SAME if ok else DIFFERENT, reason or "",
         details["predicted"] if ok else (details["predicted"], details["gold"]))
    return RewardResult(correct if ok else wrong, "correct" if ok else "wrong", details)


# the `math` reward's named steps (`rlvr.rewards.rulebook`); probes are (completion, None,
# solution); read = the step's reason, when it gives one
NO_ANSWER = register_rule(
    "math.no_answer", "no answer is read in the response (nothing parsed, or the answer taken "
    "back)", grader="math",
    fires=[("I am not sure how to solve this.", None, "$4$")],
    spares=[("$\\boxed{4}$", None, "$4$")])
PARTIAL = register_rule(
    "math.partial_parse", "the reading dropped a token of the answer that changes its value "
    "(`partial_parse`, scored wrong)", grader="math",
    fires=[("$\\boxed{4 \\text{ or so, give or take a little}}$", None, "$4$")],
    spares=[("$\\boxed{4}$", None, "$4$")])
LISTED = register_rule(
    "math.listed", "two different values offered as the answer (\"x = 2 or x = 3\", two final "
    "boxes): `listed_candidates`", grader="math",
    fires=[("$\\boxed{4}$ or maybe $\\boxed{5}$", None, "$4$")],
    spares=[("$\\boxed{4}$", None, "$4$")])
UNIT = register_rule(
    "math.unit", "the answer's unit cannot be brought into the gold's (another dimension): "
    "wrong", grader="math",
    fires=[("$\\boxed{4\\text{ kg}}$", None, "$4\\text{ m}$")],
    spares=[("$\\boxed{400\\text{ cm}}$", None, "$4\\text{ m}$")])
SAME = register_rule(
    "math.same_answer", "math-verify (or the exact value comparison) finds the answer equal to "
    "the gold; value = the answer read", grader="math",
    fires=[("$\\boxed{\\frac{8}{2}}$", None, "$4$")], spares=[("$\\boxed{5}$", None, "$4$")])
DIFFERENT = register_rule(
    "math.different_answer", "the answer read is not equal to the gold; value = (the answer "
    "read, the gold), read = the reason when the comparison gives one", grader="math",
    fires=[("$\\boxed{5}$", None, "$4$")], spares=[("$\\boxed{4}$", None, "$4$")])
