"""Whether two math readings are the same answer (`rlvr.rewards.answers.math_compare`),
through the `math` reward, as properties over generated answers:

* a gold written in another base (`1010_2`) asks for its digits: the digits, with or
  without the base subscript, pay; the decimal value written plainly does not;
* assignments to two letters ("x = 3, y = 4", in either order of writing) are the tuple
  in letter order;
* an arithmetic expression or a factorial left unevaluated (`\\boxed{3 \\times 4}`,
  `\\boxed{4!}`) is not the number asked for; the evaluated number is.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from conftest import FEW
from rlvr.rewards.math import math_reward


def _digits(n: int, base: int) -> str:
    out = ""
    while n:
        n, r = divmod(n, base)
        out = str(r) + out
    return out or "0"


@FEW
@given(st.integers(2, 500), st.integers(2, 9))
def test_a_based_gold_wants_its_digits_not_the_decimal_value(n, base):
    digits = _digits(n, base)
    gold = f"{digits}_{base}"
    assert math_reward(f"$\\boxed{{{digits}}}$", solution=gold).outcome == "correct"
    assert math_reward(f"$\\boxed{{{digits}_{{{base}}}}}$", solution=gold).outcome == "correct"
    if digits != str(n):  # "ten is \boxed{10}" for the gold 1010_2: the decimal, not binary
        assert math_reward(f"$\\boxed{{{n}}}$", solution=gold).outcome == "wrong"


@FEW
@given(st.integers(-20, 20), st.integers(-20, 20))
def test_assignments_to_two_letters_are_the_tuple_in_letter_order(a, b):
    gold = f"({a}, {b})"
    assert math_reward(f"Solving gives x = {a}, y = {b}.", solution=gold).outcome == "correct"
    assert math_reward(f"So $y = {b}$ and $x = {a}$.", solution=gold).outcome == "correct"
    if a != b:
        assert math_reward(f"Solving gives x = {b}, y = {a}.", solution=gold).outcome == "wrong"


@FEW
@given(st.integers(2, 99), st.integers(2, 99))
def test_an_unevaluated_product_is_not_the_number_asked_for(a, b):
    gold = str(a * b)
    assert math_reward(f"$\\boxed{{{a} \\times {b}}}$", solution=gold).outcome == "wrong"
    assert math_reward(f"$\\boxed{{{a} + {b}}}$", solution=str(a + b)).outcome == "wrong"
    assert math_reward(f"${a} \\times {b} = {a * b}$", solution=gold).outcome == "correct"
    assert math_reward(f"$\\boxed{{{a * b}}}$", solution=gold).outcome == "correct"


@FEW
@given(st.integers(3, 8))
def test_an_unevaluated_factorial_is_not_the_count(n):
    from math import factorial
    assert math_reward(f"$\\boxed{{{n}!}}$", solution=str(factorial(n))).outcome == "wrong"
    assert math_reward(f"$\\boxed{{{factorial(n)}}}$", solution=str(factorial(n))).outcome \
        == "correct"
