"""Units after a math answer are compared, never stripped (`rlvr.rewards.answers.units`):
a table of rows, then properties over every pair of units of one dimension, every written
form of a unit, and every pair of dimensions."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("math_verify")

from rlvr.rewards.answers.units import _BASE, conversion, read_unit  # noqa: E402
from rlvr.rewards.math import math_reward  # noqa: E402

ROWS = [
    # (completion, gold, outcome)
    ("The length is 150 cm.", "1.5 m", "correct"),  # 150 x 1/100 = 1.5
    ("The answer is $2\\text{ cm}$.", "2\\text{ m}", "wrong"),  # 2 cm is 0.02 m
    ("\\boxed{2 \\text{ km}}", "2000 \\text{ m}", "correct"),  # 2 x 1000
    ("It takes 1.5 hours.", "90 \\text{ minutes}", "correct"),  # 1.5 x 3600 / 60 = 90
    ("It takes 90 hours.", "90 \\text{ minutes}", "wrong"),
    ("5 cm", "5 \\text{ hours}", "wrong"),  # another dimension
    ("The area is 10000 cm^2", "1 \\text{ m}^2", "correct"),  # (1/100)^2 x 10000 = 1
    ("The area is 100 cm^2", "1 \\text{ m}^2", "wrong"),
    ("2 m", "2 \\text{ m}^2", "wrong"),  # a length is not an area
    ("5 ml", "5 \\text{ cm}^3", "correct"),  # 1 ml = 1 cm^3
    ("$150$ cm", "1.5\\text{ m}", "correct"),  # the unit outside the dollars
    ("\\boxed{3\\,\\mathrm{kg}}", "3000 \\text{ g}", "correct"),
    ("\\boxed{3\\,\\mathrm{g}}", "3 \\text{ kg}", "wrong"),
    ("The walk is 2 km long.", "2000 \\text{ m}", "correct"),
    ("The walk is 2 m long.", "2 \\text{ km}", "wrong"),
    # no unit on one side, or a word that is not a unit: compared as before
    ("\\boxed{5}", "5\\text{ m}", "correct"),
    ("5 m", "5", "correct"),
    ("The answer is 72 apples.", "72", "correct"),
    ("12 in total", "12", "correct"),  # "in" is never inches
    ("The speed is 5 km/h", "5 \\text{ km}", "wrong"),  # a speed is not a length
    # a dollar sign, a unit in brackets, units LaTeX reads as variables, areas, restatements
    ("$\\boxed{\\$5}$", "5\\text{ cents}", "wrong"),  # $5 is 500 cents
    ("\\boxed{\\$0.50}", "50\\text{ cents}", "correct"),
    ("It costs $5.", "5", "correct"),
    ("**Answer:** 70 (kg)", "70\\text{ g}", "wrong"),
    ("\\boxed{5\\text{ tonnes}}", "5\\text{ kg}", "wrong"),
    ("\\boxed{5\\text{ hectares}}", "5\\text{ m}^2", "wrong"),  # 1 ha = 10000 m^2
    ("\\boxed{2\\text{ hectares}}", "20000\\text{ m}^2", "correct"),
    ("\\boxed{16 oz}", "1\\text{ lb}", "correct"),  # read as 16*o*z by LaTeX
    ("\\boxed{70\\,kg}", "70000\\text{ g}", "correct"),
    ("\\boxed{1 m^3}", "1000\\text{ L}", "correct"),
    ("That is $\\boxed{150\\text{ cm}}$; so $\\boxed{1.5\\text{ m}}$.", "1.5\\text{ m}",
     "correct"),  # one value restated in another unit is not two candidates
    ("$\\boxed{150\\text{ cm}}$ or $\\boxed{2\\text{ m}}$", "1.5\\text{ m}", "listed_candidates"),
]


@pytest.mark.parametrize("completion, gold, outcome", ROWS)
def test_unit_rows(completion, gold, outcome):
    result = math_reward(completion, solution=gold)
    assert result.outcome == outcome, result.details


NAMES = {symbol: [symbol, *names.split()] for symbol, (_, _, names) in _BASE.items()}
INTEGER_PAIRS = [(big, small, int(_BASE[big][1] / _BASE[small][1]))
                 for big in _BASE for small in _BASE
                 if _BASE[big][0] == _BASE[small][0] and big != small
                 and (_BASE[big][1] / _BASE[small][1]).denominator == 1]


def _written(symbol: str, form: int, latex: bool) -> str:
    words = NAMES[symbol]
    word = words[form % len(words)]
    return f"\\text{{ {word}}}" if latex else f" {word}"


@settings(max_examples=60, deadline=None)
@given(pair=st.sampled_from(INTEGER_PAIRS), value=st.integers(1, 999),
       forms=st.tuples(st.integers(0, 5), st.integers(0, 5)), latex=st.booleans())
def test_every_pair_of_units_converts_and_a_bare_number_in_the_other_unit_fails(
        pair, value, forms, latex):
    big, small, factor = pair  # 1 big = factor small, factor an integer > 1
    gold = f"{value}{_written(big, forms[0], True)}"
    same = f"The answer is {value * factor}{_written(small, forms[1], latex)}."
    assert math_reward(same, solution=gold).outcome == "correct"
    unconverted = f"The answer is {value}{_written(small, forms[1], latex)}."
    result = math_reward(unconverted, solution=gold)
    assert result.outcome == "wrong", (unconverted, gold, result.details)


DIMENSIONS = {}
for _symbol, (_dimension, _, _) in _BASE.items():
    DIMENSIONS.setdefault(_dimension, []).append(_symbol)


@settings(max_examples=40, deadline=None)
@given(gold_unit=st.sampled_from(sorted(_BASE)), other=st.sampled_from(sorted(_BASE)),
       value=st.integers(1, 999))
def test_units_of_other_dimensions_never_match(gold_unit, other, value):
    gold_unit_read, other_read = read_unit(" " + gold_unit), read_unit(" " + other)
    if conversion(other_read, gold_unit_read) is not None:
        return  # one dimension (litres and cubic lengths count as one)
    result = math_reward(f"\\boxed{{{value}\\text{{ {other}}}}}",
                         solution=f"{value}\\text{{ {gold_unit}}}")
    assert result.outcome == "wrong"
    assert "the answer is in" in result.details["error"]


@pytest.mark.parametrize("text, name", [
    (" cm.", "cm"), ("\\text{ km}", "km"), ("\\,\\mathrm{m}^2", "m^2"), (" square feet", "ft^2"),
    (" minutes", "min"), (" hrs", "h"), (" ounces", "oz"), (" inches", "inch"), (" mL", "ml"),
    ("\\text{ cm}^{3}$", "cm^3"), (" cubic metres", "m^3"), (" km/h", "km/h"),
    (" metres per second", "m/s"), (" (kg)", "kg"), (" hectares", "hectare"),
])
def test_read_unit_forms(text, name):
    assert read_unit(text).name == name


@pytest.mark.parametrize("text", [" per hour", " m2", " in total", " apples",
                                  "^{\\circ}", " months", " x", ""])
def test_read_unit_refuses_what_is_not_one_unit(text):
    assert read_unit(text) is None


def test_conversion_is_exact():
    # 1 mile = 1609.344 m; 1 ft = 0.3048 m; 1 ml = 1 cm^3
    assert conversion(read_unit(" mi"), read_unit(" m")) == Fraction(1609344, 1000)
    assert conversion(read_unit(" ft"), read_unit(" inch")) == 12
    assert conversion(read_unit(" ml"), read_unit(" cm^3")) == 1
    assert conversion(read_unit(" cm"), read_unit(" cm^2")) is None


# Retraction words that do not retract: a weak word ("no", "actually", "sorry", "maybe")
# takes the answer back only with a number or an error word after it, or as a bare "No."
KEPT = ["Each box holds $\\boxed{{{v}}}$ eggs, no more and no less.",
        "$\\boxed{{{v}}}$. Actually, this matches the quick estimate, so I'm confident.",
        "$\\boxed{{{v}}}$. Sorry if the steps were long!",
        "The answer is $\\boxed{{{v}}}$. Perhaps a diagram would help to see why."]
TAKEN_BACK = ["$\\boxed{{{v}}}$. Actually, no: it is {w}.",
              "$\\boxed{{{v}}}$, or maybe {w}.",
              "$\\boxed{{{v}}}$. Actually, that was a mistake.",
              "$\\boxed{{{v}}}$. Sorry, I double-counted one tile.",
              "$\\boxed{{{v}}}$. Wait, let me redo this.",
              "$\\boxed{{{v}}}$. No, it is {w}."]


@settings(max_examples=40, deadline=None)
@given(v=st.integers(2, 500), template=st.sampled_from(KEPT))
def test_courtesy_and_confirmation_do_not_retract(v, template):
    assert math_reward(template.format(v=v), solution=str(v)).outcome == "correct"


@settings(max_examples=40, deadline=None)
@given(v=st.integers(2, 500), template=st.sampled_from(TAKEN_BACK))
def test_a_retraction_with_a_value_or_an_error_still_takes_the_answer_back(v, template):
    result = math_reward(template.format(v=v, w=v + 1), solution=str(v))
    assert result.outcome != "correct", (template, result.outcome)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 99999), st.sampled_from([
    "So Janet makes \\${n} every day.", "The total is \\${n}.", "$\\boxed{{\\${n}}}$",
    "She earns \\$ {n} in total."]))
def test_an_escaped_dollar_before_a_number_is_the_number_in_dollars(n, frame):
    """`\\$18` in prose read no answer (math-verify); it is 18 dollars: paid against a bare
    gold and a dollar gold, never against cents."""
    text = frame.format(n=n)
    assert math_reward(text, solution=str(n)).outcome == "correct", text
    assert math_reward(text, solution=f"\\${n}").outcome == "correct", text
    assert math_reward(text, solution=f"{n}\\text{{ cents}}").outcome == "wrong", text


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([("hours", "minutes", 60), ("minutes", "seconds", 60),
                        ("feet", "inches", 12), ("kg", "g", 1000), ("days", "hours", 24)]),
       st.integers(1, 9), st.integers(1, 11), st.sampled_from([" ", " and "]))
def test_a_quantity_in_two_units_is_one_value(units, big, small, joint):
    """"2 hours 30 minutes" is 150 minutes (read as written, its last number, 30, was the
    answer): paid against the total in either unit, never against its last part."""
    large, unit, factor = units
    text = f"It comes to {big} {large}{joint}{small} {unit}."
    total = big * factor + small
    assert math_reward(text, solution=f"{total}\\text{{ {unit}}}").outcome == "correct", text
    assert math_reward(text, solution=f"{small}\\text{{ {unit}}}").outcome == "wrong", text
