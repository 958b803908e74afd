"""GSM8K rewards: final-answer correctness and the `#### <number>` format.

GSM8K solutions end with a line `#### N`. `gsm8k_correctness` reads the number after the
LAST `####` of a response (so a worked example's `#### 12` earlier in the text does not
count) and compares it with the gold number; `gsm8k_format` pays for ending the reasoning
with such a line. Together they score at most 1.0 + 0.5 = 1.5.

Answers are read whole (`rlvr.rewards.answers.numbers`): the text after the last `####` must
state exactly one number, which may be a fraction (`3/4`), a mixed number (`1 1/2`), a
decimal, scientific notation, have a sign, `$`, `%`, valid thousands commas and unit
words; "3/4" is three quarters, never 3, and a line such as `#### 5 or 6` or `#### 12:00`
is `no_answer`, never the first number in it; so is a value named only to be retracted
(`#### 5, no wait, 6`, `#### 5 is wrong`, or a next line opening "Actually, no"), and
one followed, in its paragraph (up to a blank line), by a number of another value
(`#### 5` then "Alternatively, it could be 6."), or by a later paragraph that opens
with an alternative ("Alternatively", "Or", "But if", "Otherwise") and states another
value: the answer must be the last value stated. Text right after the line that explains
it ("That is 9 eggs at $2 each.": it opens with "That is", "Because", "Since", "(", ... and
holds no word of doubt, correction, alternative or answer) is no rival.
Answer lines in a row with different values (`#### 7` `#### 8` `#### 9`, only blank lines
between) are candidates: no answer (a worked example earlier, with text between, is no
rival). An arithmetic chain that holds states its last side (`#### 36 - 4 = 32` is 32, and
the run-on `#### 16 - 3 - 4 = 9 * 2 = 18` is 18; `#### 36 - 4 = 30` states two values: no
answer). A quantity in two units (`#### 3 hours
and 30 minutes`) pays in either unit (3.5 or 210: the gold's unit is the question's), and
an amount in dollars and cents, or a decimal comma (`#### 2,5`), is one number
(`answers.numbers`).
Values are compared exactly when either is an integer, else with a relative tolerance
(`rel_tol`, 1e-6), so `#### 1/2` equals `0.5`, `#### 1000000.4` is not 1000000 and 1e-8
differs from 2e-8.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from rlvr.rewards.answers import (
    as_number,
    boxed_values,
    iter_numbers,
    numbers_equal,
    numbers_in,
    plain_number,
    read_whole,
    retracts,
    unstrike,
)
from rlvr.rewards.answers import word_number
from rlvr.rewards.answers import corrected
from rlvr.rewards.answers import plain_shape
from rlvr.rewards.answers import two_unit_values
from rlvr.rewards.contract import RewardResult
from rlvr.rewards.registry import register_reward
from rlvr.rewards.rulebook import explained, note, register_rule

_ANSWER_IS_RE = re.compile(r"answer\s*(?:is|:|=)\s*", re.IGNORECASE)

Number = int | float


def parse_number(text: str, last: bool = False) -> Number | None:
    """The first (or last) number token in `text`, read whole, as int or float.

    Returns an int when the value is integral (`18.00` -> 18), else a float; None when
    no number can be read whole ("1.2.3", "7,0"). See `rlvr.rewards.answers.numbers`.
    """
    values = numbers_in(text)
    if not values:
        return None
    return plain_number(values[-1] if last else values[0])


_QUALIFIER_RE = re.compile(r"(?:approximately|about|around|roughly|exactly|just|only)\s+",
                           re.IGNORECASE)


_CLAUSE_END_RE = re.compile(r"[.!?;,](?=\s|$)|\n")
_SENTENCE_END_RE = re.compile(r"[.!?](?=\s|$)|\n")


def _first_after(text: str, pos: int) -> Fraction | None:
    """The one number stated between `pos` and the end of its clause (after a qualifier
    such as "approximately"), read whole: "the answer is 5 or 6" gives None, and so does
    one the rest of its sentence takes back ("the answer is 5, no wait, 6")."""
    qualifier = _QUALIFIER_RE.match(text, pos)
    pos = qualifier.end() if qualifier else pos
    end = _CLAUSE_END_RE.search(text, pos)
    stop = end.start() if end else len(text)
    sentence = _SENTENCE_END_RE.search(text, stop)
    if retracts(text[stop:sentence.start() if sentence else len(text)],
                text[sentence.end():] if sentence else ""):
        return None
    return read_whole(text[pos:stop])


def extract_value(text: str, fallback: bool | str = False) -> tuple[Fraction | None, str | None]:
    """Find the response's final answer as an exact value.

    Args:
        text: the response.
        fallback: False: only the number after the last `####`. "explicit": without a
            `####`, the last `\\boxed{}` or the last "answer is N". True or
            "last_number": also, as a last resort, the last number in the text.
    Returns:
        (value, source) with source "hash", "boxed", "answer_is" or "last_number";
        (None, None) when nothing is found; (None, "hash") when the `####` line does not
        state exactly one number read whole ("#### 5 or 6", "#### 12:00") or another
        value follows it in the same paragraph.
    """
    text = _readable(text)
    cut = text.rfind("####")
    if cut >= 0:
        line, _, after = text[cut + 4:].partition("\n")
        if retracts("", after.lstrip()):
            return None, "hash"  # a next line opening "Actually, no": taken back
        value = _line_value(line)
        if value is None:
            value = word_number(line.strip(" .!*").lower())  # "#### twelve" states 12
        if value is None:
            return None, "hash"
        if _rival_line(text, cut, value):
            return None, "hash"  # "#### 7\n#### 8\n#### 9": candidates, not an answer
        if corrected(after, 0, value):
            return None, "hash"  # "#### 18\n\nHmm, that's wrong: ... 27": taken back
        paragraphs = re.split(r"(?:^|\n)[^\S\n]*\n", after)
        if not _explains(paragraphs[0]) and any(
                not numbers_equal(v, value) for v in numbers_in(paragraphs[0])):
            return None, "hash"  # "#### 5\nAlternatively, 6.": another value after the answer
        if any(_ALTERNATIVE.match(p) and any(not numbers_equal(v, value) for v in numbers_in(p))
               for p in paragraphs[1:]):
            return None, "hash"  # a later paragraph "Alternatively, ... 21": a second answer
        return value, "hash"
    if not fallback:
        return None, None
    boxed = boxed_values(text)
    if boxed:
        value = read_whole(boxed[-1])
        if value is not None:
            return value, "boxed"
    for match in reversed(list(_ANSWER_IS_RE.finditer(text))):
        value = _first_after(text, match.end())
        if value is not None:
            return value, "answer_is"
    if fallback in (True, "last_number"):
        tokens = list(iter_numbers(text))  # the text tokenised once
        if tokens and not _in_formula(text, tokens[-1].start, tokens[-1].end):
            return tokens[-1].value, "last_number"
    return None, None


# the last number inside a formula: an argument of a LaTeX command or an operand of "^",
# "_" or "/" ("\frac{1+\sqrt5}{2}" states no 2)
_FORMULA_BEFORE = re.compile(r"(?:[{^_/]|\\[a-zA-Z]+)\s*$")
_FORMULA_AFTER = re.compile(r"\s*[}^_/]")


def _in_formula(text: str, start: int, end: int) -> bool:
    """True when the number at `text[start:end]` is part of a formula rather than a value
    the text states (`_FORMULA_BEFORE`, `_FORMULA_AFTER`)."""
    return bool(_FORMULA_BEFORE.search(text[max(0, start - 12):start])
                or _FORMULA_AFTER.match(text, end))


# a paragraph after the answer that offers another one ("Alternatively, if Sunday counts,
# the answer would be 21."); a new question or worked example is not one
_ALTERNATIVE = re.compile(r"\s*(?:alternatively|or\b|otherwise|however,? if|but if|if instead|"
                          r"on the other hand|another (?:answer|reading|interpretation))",
                          re.IGNORECASE)


# text after the answer line that explains it ("That is 9 eggs at $2 each."): it opens
# like an explanation and holds no word that doubts, corrects or offers another answer
_EXPLAINS = re.compile(r"\s*(?:that(?:'s| is| was)|this is|i\.e\.|because|since|explanation|"
                       r"reason(?:ing)?:|\()", re.IGNORECASE)
_REVISES = re.compile(r"\b(?:or|either|alternatively|otherwise|instead|wait|actually|hmm+|oops|"
                      r"recheck|re-?calculat\w*|mistake|wrong|forgot|correct\w*|should|would|"
                      r"could|might|maybe|perhaps|possibly|unless|if|not|no|sure|answer|"
                      r"total|result|final|with|without|including|excluding|except|counting)\b|[?]", re.IGNORECASE)


def _explains(paragraph: str) -> bool:
    """True when the text after a `####` line explains the answer rather than offering
    another: it opens like an explanation (`_EXPLAINS`) and no word in it doubts, corrects
    or restates an answer (`_REVISES`: "That is 9 eggs at $2 each." explains; "That is
    wrong, it is 20." and "That is the total, or 20 with tax." do not)."""
    return bool(_EXPLAINS.match(paragraph)) and not _REVISES.search(paragraph)


def _readable(text: str) -> str:
    """The text a `####` line is read from: structured shapes as plain lines
    (`answers.shapes`), struck-out text taken back ("#### ~~5~~ 6" states 6)."""
    return unstrike(plain_shape(text))


def _rival_line(text: str, cut: int, value: Fraction) -> bool:
    """True when another `####` line right before the last one (at `cut`, stating `value`;
    nothing but blank lines between) states another value: a list of answer lines, not a
    worked example."""
    before = text.rfind("####", 0, cut)
    if before < 0 or text[text.rfind("\n", 0, before) + 1:before].strip():
        return False  # none, or one mentioned inside a sentence ("we would write #### 12")
    previous, _, between = text[before + 4:cut].partition("\n")
    if between.strip():
        return False
    theirs = _line_value(previous)
    return theirs is not None and not numbers_equal(value, theirs)


def _line_value(line: str) -> Fraction | None:
    """The one value a `####` line states: a number read whole, the last side of an
    arithmetic chain that holds, or a quantity in two units (in the larger one)."""
    for read in (read_whole, chain_value, mixed):
        value = read(line)
        if value is not None:
            return value
    return None


_ARITHMETIC = re.compile(r"[\d\s.,+\-*/()=\u00d7\u00f7$]+")


def chain_value(line: str) -> Fraction | None:
    """The last side of an arithmetic chain that holds ("36 - 4 = 32" -> 32, "3 x 12 = 36"),
    exactly; None when the line is no such chain or a side disagrees ("36 - 4 = 30": the
    line states two values). A run-on chain, where a side opens with the value so far and
    goes on computing ("16 - 3 - 4 = 9 * 2 = 18"), holds and states its last side."""
    text = line.strip().rstrip(".").replace("\u00d7", "*").replace("\u00f7", "/").replace("$", "")
    if "=" not in text or not _ARITHMETIC.fullmatch(text):
        return None
    sides = text.split("=")
    value = _evaluate(sides[0])
    for side in sides[1:]:
        lead = re.match(r"\s*\(?\s*(\d[\d,]*(?:\.\d+)?)", side)
        now = _evaluate(side)
        if value is None or now is None:
            return None
        if now != value and not (lead and Fraction(lead[1].replace(",", "")) == value):
            return None  # "36 - 4 = 30": a side that disagrees
        value = now  # "16 - 3 - 4 = 9 * 2 = 18": a run-on chain goes on from the last value
    return value


def _evaluate(side: str) -> Fraction | None:
    """An arithmetic expression of numbers, + - * / and brackets, exactly (no names, no
    powers, no calls); None when it is anything else or divides by zero."""
    import ast

    try:
        tree = ast.parse(side.strip().replace(",", ""), mode="eval").body
    except SyntaxError:
        return None

    def value(node: ast.AST) -> Fraction:
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            return Fraction(str(node.value))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            inner = value(node.operand)
            return -inner if isinstance(node.op, ast.USub) else inner
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
            left, right = value(node.left), value(node.right)
            if isinstance(node.op, ast.Div):
                return left / right
            return {ast.Add: left + right, ast.Sub: left - right,
                    ast.Mult: left * right}[type(node.op)]
        raise ValueError("not arithmetic")

    try:
        return value(tree)
    except (ValueError, ZeroDivisionError):
        return None


def mixed(line: str) -> Fraction | None:
    """A quantity in two units ("3 hours and 30 minutes") in the larger unit (7/2); the
    smaller unit's value also pays (`gsm8k_correctness`): the gold's unit is the question's."""
    values = two_unit_values(line)
    return values[0] if values else None


def gold_value(final_answer: Any) -> Fraction | None:
    """The gold value, exact: a number, or a string that is one number or ends with `#### N`."""
    if isinstance(final_answer, str) and "####" in final_answer:
        final_answer = final_answer[final_answer.rfind("####") + 4:]
    return as_number(final_answer)


def gold_number(final_answer: Any) -> Number | None:
    """`gold_value` as an int or float (None when the gold is not one number)."""
    value = gold_value(final_answer)
    return None if value is None else plain_number(value)


@register_reward("gsm8k_correctness", fields=("final_answer",), score_range=(0.0, 1.0),
                 presets={"default": {}, "fallback": {"fallback": True}},
                 outcomes=("correct", "wrong", "no_answer", "correct_fallback",
                           "wrong_fallback", "bad_gold"))
@explained(register_rule(
    "gsm8k.table", "the `gsm8k_correctness` value for the outcome (1.0 for the gold number "
    "after `####`, else 0.0); read = the outcome", grader="gsm8k_correctness",
    fires=[("2 + 3 = 5\n#### 5", None, "5"), ("#### 6", None, "5")],
    spares=[("#### 5", None, "five or six")]))
def gsm8k_correctness(completion: str, *, final_answer: Any, fallback: bool | str = False,
                      rel_tol: float = 1e-6, correct: float = 1.0,
                      wrong: float = 0.0) -> RewardResult:
    """1.0 when the number after the last `####` equals the gold number, else 0.0.

    Args:
        completion: the response.
        final_answer: the gold number (int/float, "72", "1,000", "3/4", or a full GSM8K
            answer ending in "#### 72").
        fallback: see `extract_value`; False (default) scores a response without
            `####` as `no_answer`.
        rel_tol: relative tolerance when either value is not an integer
            (`rlvr.rewards.answers.numbers.numbers_equal`).
        correct, wrong: the two scores (kept within [0, 1]).
    Returns:
        RewardResult; outcomes `correct`, `wrong`, `no_answer` (no `####`, or its line
        does not state one number read whole), `correct_fallback` / `wrong_fallback`
        (answer found by the fallback) and `bad_gold` (score None: the gold is not one
        number). Details: `predicted`, `gold`, `source`.
    Source: GSM8K answer format (Cobbe et al., 2021, "Training Verifiers to Solve Math
        Word Problems").
    """
    gold = gold_value(final_answer)
    if gold is None:
        return RewardResult(None, "bad_gold", {"error": f"gold {final_answer!r} is not one number"})
    value, source = extract_value(completion or "", fallback)
    details = {"predicted": None if value is None else plain_number(value),
               "gold": plain_number(gold), "source": source}
    if value is None:
        note(NO_ANSWER)
        return RewardResult(wrong, "no_answer", details)
    note(READ if source == "hash" else FALLBACK, str(plain_number(value)))
    ok = numbers_equal(value, gold, rel_tol)
    if not ok and source == "hash":  # "#### 3 hours and 30 minutes": 3.5 (hours) or 210
        text = _readable(completion or "")
        line = text[text.rfind("####") + 4:].partition("\n")[0]
        both = two_unit_values(line)
        ok = both is not None and numbers_equal(both[1], gold, rel_tol)
        if ok:
            note(TWO_UNITS, line.strip(), plain_number(both[1]))
    suffix = "" if source == "hash" else "_fallback"
    return RewardResult(correct if ok else wrong, ("correct" if ok else "wrong") + suffix, details)


@register_reward("gsm8k_format", fields=(), score_range=(0.0, 0.5),
                 outcomes=("formatted", "unformatted"))
def gsm8k_format(completion: str, *, value: float = 0.5,
                 require_reasoning: bool = True) -> RewardResult:
    """`value` (0.5) when the response ends its reasoning with a `#### <number>` line.

    The last non-blank line must be `####` and one number read whole (sign, `$`,
    thousands commas, decimals, fractions, `%` and punctuation allowed; no words); with
    `require_reasoning`, some text must come before that line.

    Returns:
        RewardResult with outcome `formatted` or `unformatted` (details `reason`:
        "no_final_line", "no_reasoning").
    """
    text = (completion or "").rstrip()
    head, _, last = text.rpartition("\n")
    last = last.strip()
    if not last.startswith("####") or read_whole(last[4:], allow_words=False) is None:
        return RewardResult(0.0, "unformatted", {"reason": "no_final_line"})
    if require_reasoning and not head.strip():
        return RewardResult(0.0, "unformatted", {"reason": "no_reasoning"})
    return RewardResult(value, "formatted", {})


# the `gsm8k_correctness` reward's named steps (`rlvr.rewards.rulebook`); probes are
# (completion, "fallback" or None, final answer)
NO_ANSWER = register_rule(
    "gsm8k.no_answer", "no `####` line, or its line does not state one number read whole "
    "(a range, two values, a retraction)", grader="gsm8k_correctness",
    fires=[("The answer is 5.", None, "5"), ("#### 4 or 5", None, "5")],
    spares=[("#### 5", None, "5")])
READ = register_rule(
    "gsm8k.hash_line", "the number on the last `####` line, read whole; value = that number",
    grader="gsm8k_correctness",
    fires=[("2 + 3 = 5\n#### 5", None, "5"), ("#### 6", None, "5")],
    spares=[("The answer is 5.", None, "5")])
FALLBACK = register_rule(
    "gsm8k.fallback", "with `fallback`, the answer read without a `####` line (the last "
    "number, or a boxed one): outcomes `correct_fallback` / `wrong_fallback`",
    grader="gsm8k_correctness",
    fires=[("So she has 5 apples.", "fallback", "5")],
    spares=[("#### 5", "fallback", "5"), ("So she has 5 apples.", None, "5")])
TWO_UNITS = register_rule(
    "gsm8k.two_units", "a `####` line that states one quantity in two units (\"3 hours and 30 "
    "minutes\") gives the gold when its value in the smaller unit does",
    grader="gsm8k_correctness",
    fires=[("#### 3 hours and 30 minutes", None, "210")],
    spares=[("#### 210 minutes", None, "210")])
