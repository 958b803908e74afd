"""Properties of whole-number reading (`rlvr.rewards.answers.numbers`) through its rewards
(`gsm8k_correctness` `####` lines and fallbacks, `qa` numeric aliases): classes, not rows.

1. Every formatting of one number (thousands groups, trailing zeros, scientific notation,
   `$`, fractions, `\\frac`, `\\dfrac`, mixed numbers, fraction words, scale words) scores
   the same, and the next number never scores like it.
2. A line listing candidates that include the gold, or naming the gold only to retract
   it, never scores correct; nor does one followed in its paragraph by another value, or a
   LaTeX operator (`\\sqrt`, `\\log`, `\\neq`) applied to the gold.
3. (from a red-team round) Unicode forms (thin/no-break-space thousands, other digit
   scripts, vulgar fractions), markup around the number (a closing tag, backticks, `\\(`
   `\\)`, `\\textbf`) and a percent word are formattings like any other.
4. Thousands grouped by plain spaces ("12 000") are one number, in `qa` and on a `####`
   line, and a power of ten (`10^6`, `10^{-3}`, `10**6`) is one number.
Every failure found here is a fixed row in tests/test_rewards_numbers.py.
"""

from __future__ import annotations

import os
from fractions import Fraction

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from conftest import FAST, FEW, contains
from rlvr.rewards.answers.numbers import read_whole
from rlvr.rewards.gsm8k import gsm8k_correctness
from rlvr.rewards.qa import qa_reward

EXAMPLES = int(os.environ.get("RLVR_PROPERTY_EXAMPLES", "0"))
SETTINGS = settings(max_examples=EXAMPLES or 150, deadline=None, derandomize=not EXAMPLES)
_WORDS = {2: "halves", 3: "thirds", 4: "fourths", 5: "fifths", 8: "eighths", 10: "tenths"}


def forms(value: Fraction) -> list[str]:
    """Ways to write `value` on a `####` line (the first is the canonical one)."""
    out = []
    if value.denominator == 1:
        n = value.numerator
        out += [str(n), f"{n}.0", f"{n}.00", f"{n:,}", f"{n:,}.00", f"{n} dollars",
                f"{n}.", f"\\boxed{{{n}}}"]
        out += [f"${n:,}", f"\\${n}"] if n >= 0 else [f"-${-n:,}", f"$-{-n}"]
        if abs(n) >= 1000:
            out += [f"{n:,}".replace(",", sep) for sep in "\u2009\u202f\u00a0"]
        out += [str(n).translate(_FULL_WIDTH), str(n).translate(_ARABIC_INDIC), f"{n}</answer>",
                f"`{n}`", f"\\({n}\\)", f"\\textbf{{{n}}}", f"**{n}**"]
        if n and n % 1000 == 0:
            out.append(f"{n // 1000} thousand")
        if n and n % 12 == 0:
            out.append(f"{n // 12} dozen")
        if n and n % 10 == 0:
            digits = str(abs(n)).rstrip("0")
            mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
            out.append(f"{'-' if n < 0 else ''}{mantissa}e{len(str(abs(n))) - 1}")
    else:
        p, q = value.numerator, value.denominator
        out += [f"{p}/{q}", f"\\frac{{{p}}}{{{q}}}", f"\\dfrac{{{p}}}{{{q}}}", f"{2 * p}/{2 * q}"]
        if p > q:
            out.append(f"{p // q} {p % q}/{q}")  # a mixed number
        if q in _WORDS and p > 1:
            out.append(f"{p} {_WORDS[q]}")
        if all(f in (2, 5) for f in _factors(q)):
            decimal = f"{p / q:.10f}".rstrip("0")
            out += [decimal, decimal + "0"]
        vulgar = {Fraction(1, 2): "\u00bd", Fraction(1, 4): "\u00bc", Fraction(3, 4): "\u00be",
                  Fraction(1, 3): "\u2153", Fraction(2, 3): "\u2154", Fraction(1, 8): "\u215b"}
        if value - (p // q) in vulgar and p > 0:
            out.append(f"{p // q or ''}{vulgar[value - p // q]}")
    return out


_FULL_WIDTH = str.maketrans("0123456789", "".join(map(chr, range(0xFF10, 0xFF1A))))
_ARABIC_INDIC = str.maketrans("0123456789", "".join(map(chr, range(0x0660, 0x066A))))


def _factors(q: int) -> set[int]:
    found, d = set(), 2
    while q > 1:
        while q % d == 0:
            found.add(d)
            q //= d
        d += 1
    return found


VALUES = st.one_of(
    st.integers(-10**8, 10**8).map(Fraction),
    st.sampled_from([12, 24, 1000, 12000, 36000, 5000000]).map(Fraction),
    st.tuples(st.integers(1, 999), st.sampled_from([2, 3, 4, 5, 8, 10, 16, 25, 7])).map(
        lambda t: Fraction(*t)).filter(lambda f: f.denominator > 1))


@SETTINGS
@given(VALUES)
def test_every_formatting_of_a_number_scores_the_same(value):
    gold = forms(value)[0]
    for form in forms(value):
        result = gsm8k_correctness(f"Reasoning.\n#### {form}", final_answer=gold)
        assert result.outcome == "correct", (gold, form, result.details)
        boxed = gsm8k_correctness(f"So the answer is \\boxed{{{form}}}.", final_answer=gold,
                                  fallback="explicit")
        assert boxed.outcome == "correct_fallback", (gold, form, boxed.details)
    for form in forms(value + 1):  # the next number, however it is written
        result = gsm8k_correctness(f"Reasoning.\n#### {form}", final_answer=gold)
        assert result.outcome == "wrong", (gold, form, result.details)


@SETTINGS
@given(VALUES)
def test_qa_numeric_aliases_match_every_formatting(value):
    gold = forms(value)[0]
    for form in forms(value):
        if "\\" in form or "dollars" in form or "dozen" in form or "thousand" in form \
                or "<" in form or "`" in form or "*" in form:
            continue  # qa reads a bare answer: no LaTeX, no words
        result = qa_reward(f"<answer>{form}</answer>", aliases=[gold])
        assert result.outcome == "correct", (gold, form, result.details)


LISTS = ["#### {a} or {g}", "#### {g} or {a}", "#### either {a} or {g}", "#### {g}, no wait, {a}",
         "#### {g} (not {a})", "#### {g}, or maybe {a}", "#### {a}-{g}",
         "#### between {a} and {g}"]
RETRACTIONS = ["#### {g}, no wait", "#### {g} is wrong", "#### {g}?", "#### {g}\nActually, no.",
               "#### {g}\nWait, that is a mistake.", "#### {g} - scratch that",
               "#### {g}, incorrect"]
AFTER = ["#### {g}\nAlternatively, it could be {a}.", "#### {g}\nHmm, let me recheck: {a}.",
         "#### {g} (or possibly {a})", "#### {g} \u00b1 {a}", "#### {g} to {a}"]
OPERATORS = ["#### \\sqrt{{{g}}}", "#### \\log {g}", "#### \\neq {g}", "#### \\approx {g}",
             "#### \\overline{{{g}}}", "#### \\lfloor {g} \\rfloor"]
FALLBACKS = ["The answer is {g}, or maybe {a}.", "The answer is {g}, no wait, {a}.",
             "The answer is {g}. Or perhaps {a}.", "Answer: {g} or {a}"]


@SETTINGS
@given(st.integers(-500, 500), st.integers(1, 500),
       st.sampled_from(LISTS + RETRACTIONS + FALLBACKS + AFTER + OPERATORS))
def test_candidates_and_retractions_never_score(g, a, template):
    assume(a != g)
    text = template.format(g=g, a=a)
    for fallback in (False, "explicit"):
        result = gsm8k_correctness(text, final_answer=str(g), fallback=fallback)
        assert not result.outcome.startswith("correct"), (text, result.details)


# alternatives, hedge symbols and a range as the whole answer; a range inside a sentence
# ("It was built between 1994 and 1998.") is paid in `contains` mode: on EVOUNA's human
# labels every such range refused was judged right
QA_LISTS = ["It is {a} or {g}.", "either {g} or maybe {a}", "{g}, or perhaps {a}",
            "<answer>{a} or {g}</answer>", "It was {a}-{g}.", "It was {g}\u2013{a}.",
            "between {g} and {a}", "from {a} to {g}", "<answer>~{g}</answer>",
            "<answer>< {g}</answer>"]


@SETTINGS
@given(st.integers(-500, 500), st.integers(1, 500), st.sampled_from(QA_LISTS),
       st.sampled_from(["exact", "contains"]))
def test_qa_lists_of_numbers_never_score(g, a, template, mode):
    assume(a != g)
    result = qa_reward(template.format(g=g, a=a), aliases=[str(g)], mode=mode)
    assert result.outcome != "correct", (template, g, a, mode, result.details)


# ---------------------------------------------------------------- 4. spaces and powers of ten
@FAST
@given(st.integers(1, 999), st.integers(0, 999), st.sampled_from(["{n} years", "about {n}",
                                                                   "{n}"]))
def test_plain_space_thousands_read_whole(high, low, frame):
    value = high * 1000 + low
    spaced = f"{high} {low:03d}"
    assert contains(f"It ended {frame.format(n=spaced)} ago.", str(value)) == 1.0
    assert contains(f"It ended {frame.format(n=spaced)} ago.", str(high)) == 0.0


@FEW
@given(st.integers(1000, 99_999_999))
def test_thousands_grouped_by_spaces_are_one_number(n):
    grouped = f"{n:,}".replace(",", " ")
    assert gsm8k_correctness(f"#### {grouped}", final_answer=str(n)).outcome == "correct"


@FEW
@given(st.integers(-6, 12))
def test_a_power_of_ten_is_one_number(k):
    for written in (f"10^{k}", f"10^{{{k}}}", f"10**{k}"):
        assert read_whole(written) == Fraction(10) ** k
