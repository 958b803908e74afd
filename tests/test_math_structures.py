"""Answers with more than one number in them are read whole in `math` and `gsm8k`:

- a list, pair or interval written in plain text ("2 and 3", "x = 2 and x = 3", "[2, 5)")
  is that structure, never one of its numbers (`answers.math_forms.plain_structure`);
- a conversion chain in one answer (`150\\text{ cm} = 1.5\\text{ m}`) is its last side
  when every side states the same quantity, else two candidates (`math_units.unit_chain`);
- a letter glued to a number is a unit only for the metric symbols m, g, s, l, h (`3t` is
  3 times t, never 3 tonnes); `0.5\\text{ h}` keeps its unit;
- an amount in dollars and cents is one number of dollars (`answers.numbers`).

A table of rows, then a property per class.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("math_verify")

from rlvr.rewards.gsm8k import gsm8k_correctness  # noqa: E402
from rlvr.rewards.math import math_reward  # noqa: E402

ROWS = [
    # (completion, gold, outcome)
    ("x = 2 and x = 3", "$2, 3$", "correct"),
    ("The solutions are x=2 and x=3.", "\\boxed{2, 3}", "correct"),
    ("The roots are 2 and 3.", "\\boxed{2, 3}", "correct"),
    ("Answer: 1, 2, and 3", "\\boxed{1,2,3}", "correct"),
    ("x = 2 and x = 3", "\\boxed{3}", "wrong"),  # two roots are not the one root 3
    ("The answer is 2 and 3.", "\\boxed{3}", "wrong"),
    ("The answer is between 2 and 3", "\\boxed{2,3}", "wrong"),  # a range, not the two roots
    ("There are 2 apples and 3 pears, total 5.", "\\boxed{5}", "correct"),  # words between
    ("I got 2 and 3, so the answer is 3.", "\\boxed{3}", "correct"),
    ("The answer is [2, 5)", "\\boxed{[2,5)}", "correct"),
    ("Final answer: x \u2208 [2, 5)", "\\boxed{[2,5)}", "correct"),
    ("The answer is (2, 5]", "\\boxed{(2,5]}", "correct"),
    ("The answer is (2, 5]", "\\boxed{[2,5)}", "wrong"),
    ("The answer is [2, inf)", "\\boxed{[2,\\infty)}", "correct"),
    ("The point is (1, 2).", "\\boxed{(1,2)}", "correct"),
    ("\\boxed{3t}", "\\boxed{3}", "wrong"),  # 3 times t
    ("\\boxed{3t}", "\\boxed{3t}", "correct"),
    ("\\boxed{5m}", "\\boxed{5}", "correct"),  # 5 metres against a bare gold: the values
    ("\\boxed{0.5\\text{ h}}", "\\boxed{30\\text{ minutes}}", "correct"),  # 0.5 x 60 = 30
    ("\\boxed{0.5\\text{ h}}", "\\boxed{0.5}", "correct"),
    ("\\boxed{0.5\\text{ h}}", "\\boxed{50\\text{ minutes}}", "wrong"),
    ("\\boxed{150\\text{ cm} = 1.5\\text{ m}}", "\\boxed{1.5\\text{ m}}", "correct"),
    ("$150\\text{ cm} = 1.5\\text{ m}$", "\\boxed{150 \\text{ cm}}", "correct"),
    ("\\boxed{150\\text{ cm} = 2\\text{ m}}", "\\boxed{1.5\\text{ m}}", "listed_candidates"),
    ("The answer is 3 pounds.", "\\boxed{48 \\text{ ounces}}", "correct"),  # 3 x 16 = 48
    ("The answer is 3 pounds.", "\\boxed{3}", "correct"),
    ("The answer is 3 pounds.", "\\boxed{3\\text{ kg}}", "wrong"),  # 3 lb is 1.36 kg
]


@pytest.mark.parametrize("completion, gold, outcome", ROWS)
def test_rows(completion, gold, outcome):
    assert math_reward(completion, solution=gold).outcome == outcome


pair = st.tuples(st.integers(-50, 50), st.integers(-50, 50)).filter(lambda p: p[0] < p[1])
LIST_FORMS = ["The answer is {a} and {b}.", "x = {a} and x = {b}", "Answer: {a}, {b}",
              "The solutions are x = {a} and x = {b}.", "So the roots are {a}, and {b}."]


@settings(max_examples=40, deadline=None)
@given(pair, st.sampled_from(LIST_FORMS))
def test_plain_list_is_the_collection(p, form):
    a, b = p
    text = form.format(a=a, b=b)
    assert math_reward(text, solution=f"\\boxed{{{a}, {b}}}").outcome == "correct", text
    # never one of its members: paying "2 and 3" for the gold 3 pays a candidate list
    assert math_reward(text, solution=f"\\boxed{{{b}}}").outcome != "correct", text
    assert math_reward(text, solution=f"\\boxed{{{a}}}").outcome != "correct", text


@settings(max_examples=40, deadline=None)
@given(pair, st.sampled_from("[("), st.sampled_from("])"))
def test_plain_interval_is_the_interval(p, left, right):
    a, b = p
    text = f"The answer is {left}{a}, {b}{right}."
    gold = f"\\boxed{{{left}{a}, {b}{right}}}"
    assert math_reward(text, solution=gold).outcome == "correct", text
    flipped = {"[": "(", "(": "["}[left]
    other = f"\\boxed{{{flipped}{a}, {b}{right}}}"
    assert math_reward(text, solution=other).outcome != "correct", text
    assert math_reward(text, solution=f"\\boxed{{{b}}}").outcome != "correct", text


@settings(max_examples=30, deadline=None)
@given(pair, st.sampled_from(["between {a} and {b}", "from {a} to {b}"]))
def test_range_is_not_a_list(p, form):
    a, b = p
    text = "The answer is " + form.format(a=a, b=b) + "."
    assert math_reward(text, solution=f"\\boxed{{{a}, {b}}}").outcome != "correct", text


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 99), st.sampled_from("tcdo"))
def test_glued_letter_that_is_no_unit_is_a_factor(n, letter):
    assert math_reward(f"\\boxed{{{n}{letter}}}", solution=f"\\boxed{{{n}}}").outcome == "wrong"
    assert math_reward(f"\\boxed{{{n}{letter}}}",
                       solution=f"\\boxed{{{n}{letter}}}").outcome == "correct"


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 400))
def test_conversion_chain(cm):
    # cm centimetres = cm/100 metres exactly; a chain that agrees states its last side
    metres = f"{cm / 100:g}"
    chain = f"\\boxed{{{cm}\\text{{ cm}} = {metres}\\text{{ m}}}}"
    assert math_reward(chain, solution=f"\\boxed{{{metres}\\text{{ m}}}}").outcome == "correct"
    wrong = f"\\boxed{{{cm}\\text{{ cm}} = {cm}\\text{{ m}}}}"
    assert math_reward(wrong, solution=f"\\boxed{{{metres}\\text{{ m}}}}").outcome \
        == "listed_candidates"


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 999), st.integers(1, 99),
       st.sampled_from(["{d} dollars and {c} cents", "${d} and {c} cents", "{d} dollars {c} cents",
                        "{d} dollars, {c} cents"]))
def test_dollars_and_cents_are_one_amount(d, c, form):
    line = "#### " + form.format(d=d, c=c)
    assert gsm8k_correctness(line, final_answer=f"{d}.{c:02d}").score == 1.0, line
    assert gsm8k_correctness(line, final_answer=str(d)).score == 0.0, line
    assert gsm8k_correctness(line, final_answer=str(c)).score == 0.0, line
    # the same amount in the smaller unit pays too: the gold's unit is the question's
    if "dollars" in form:
        assert gsm8k_correctness(line, final_answer=str(100 * d + c)).score == 1.0, line


@settings(max_examples=30, deadline=None)
@given(st.integers(-50, 50), st.sampled_from(["inf", "infinity", "\u221e", "+inf"]),
       st.sampled_from(["[", "("]))
def test_plain_interval_to_infinity(a, inf, left):
    text = f"So x lies in {left}{a}, {inf})."
    assert math_reward(text, solution=f"\\boxed{{{left}{a}, \\infty)}}").outcome == "correct", text
    assert math_reward(text, solution=f"\\boxed{{{a}}}").outcome != "correct", text
    low = f"The answer is (-{inf.lstrip('+')}, {a}]."
    assert math_reward(low, solution=f"\\boxed{{(-\\infty, {a}]}}").outcome == "correct", low


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 99), st.integers(0, 99), st.sampled_from("+-*"))
def test_a_gsm8k_chain_that_holds_states_its_last_side(a, b, op):
    result = {"+": a + b, "-": a - b, "*": a * b}[op]
    line = f"#### {a} {op} {b} = {result}"
    assert gsm8k_correctness(line, final_answer=str(result)).score == 1.0, line
    wrong = f"#### {a} {op} {b} = {result + 1}"  # two values: no answer, whichever is gold
    assert gsm8k_correctness(wrong, final_answer=str(result + 1)).outcome == "no_answer", wrong


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 50), min_size=2, max_size=4, unique=True))
def test_answer_lines_in_a_row_with_different_values_are_candidates(values):
    text = "\n".join(f"#### {v}" for v in values)
    for v in values:
        assert gsm8k_correctness(text, final_answer=str(v)).outcome == "no_answer", text
    # a worked example before the reasoning is no rival
    example = f"Example: #### {values[0]}\nNow this one: {values[-1]}.\n#### {values[-1]}"
    assert gsm8k_correctness(example, final_answer=str(values[-1])).score == 1.0


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 99), st.integers(1, 99))
def test_a_decimal_comma_is_a_decimal(whole, part):
    line = f"#### {whole},{part:02d}"
    assert gsm8k_correctness(line, final_answer=f"{whole}.{part:02d}").score == 1.0, line
    assert gsm8k_correctness(f"#### {whole},{part:02d}0", final_answer=f"{whole}{part:02d}0"
                             ).score == 1.0  # three digits: a thousands group


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 12), st.integers(1, 59))
def test_hours_and_minutes_are_one_quantity(h, m):
    from fractions import Fraction

    line = f"#### {h} hours and {m} minutes"
    hours = Fraction(h) + Fraction(m, 60)
    assert gsm8k_correctness(line, final_answer=str(60 * h + m)).score == 1.0, line
    if hours.denominator in (1, 2, 4, 5, 10, 20):
        assert gsm8k_correctness(line, final_answer=str(float(hours))).score == 1.0, line
    assert gsm8k_correctness(line, final_answer=str(h)).score == 0.0, line


@settings(max_examples=30, deadline=None)
@given(st.integers(-60, 60), st.sampled_from(["\u00b0C", "\u00b0F", "\u00b0", " \u00b0C", "\u2103"]))
def test_a_degree_sign_is_a_unit_mark(value, mark):
    line = f"#### {value}{mark}"
    assert gsm8k_correctness(line, final_answer=str(value)).score == 1.0, line
    assert gsm8k_correctness(line, final_answer=str(value + 1)).score == 0.0, line


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 50), st.sampled_from(["an arithmetic slip", "a typo", "a slip", "an error"]))
def test_a_named_slip_takes_the_first_box_back(value, slip):
    text = (f"First attempt: $\\boxed{{{value}}}$. Hmm, I made {slip}: so the answer is "
            f"$\\boxed{{{value + 1}}}$.")
    assert math_reward(text, solution=str(value + 1)).outcome == "correct", text
    assert math_reward(text, solution=str(value)).outcome != "correct", text


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 60), st.integers(1, 9))
def test_a_later_paragraph_offering_another_answer_takes_the_line_back(value, delta):
    text = f"#### {value}\n\nAlternatively, if we count the extra day, the answer would be {value + delta}."
    assert gsm8k_correctness(text, final_answer=str(value)).outcome == "no_answer", text
    assert gsm8k_correctness(text, final_answer=str(value + delta)).outcome == "no_answer", text
    # a new question after the answer is not an alternative
    other = f"#### {value}\n\nQuestion: Tom has {value + delta} apples."
    assert gsm8k_correctness(other, final_answer=str(value)).score == 1.0


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 9), st.integers(2, 9))
def test_one_value_in_two_forms_is_one_answer(num, den):
    from fractions import Fraction
    value = Fraction(num, den)
    if value.denominator not in (2, 4, 5, 8, 10, 20, 25):
        return
    decimal = f"{float(value):g}"
    percent = f"{float(value) * 100:g}"
    text = f"The probability is $\\frac{{{num}}}{{{den}}}$, i.e. ${decimal}$ or ${percent}\\%$."
    assert math_reward(text, solution=f"\\frac{{{num}}}{{{den}}}").outcome == "correct", text
