"""Forms of an answer the matcher must read as what they say (`rlvr.rewards.answers.forms`),
as properties over generated inputs for `qa` (contains mode) and the strict `selfaware`
matcher alike:

* a retraction phrased as reconsidering ("Let me reconsider", "I retract that", "Scrap
  that") takes the gold back; said again after it, the gold is given (`retracted`);
* a value after a bound ("sometime after 1969", "more than 40") is not given, nor is the
  standard of a comparison ("The Saturn is bigger than the Jupiter": Jupiter is named, not
  chosen) (`forms.bound_before`);
* English number words are read whole (`word_numbers`): a number said in parts ("three
  thousand two hundred five"), a decimal said with "point", a number word before a
  hyphenated noun ("a six-sided shape").
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import FAST, FEW, GOLDS, OTHERS, contains, selfaware
from rlvr.rewards.answers.forms import word_numbers
from rlvr.rewards.selfaware import STRICT_PRESET, selfaware_reward


# ---------------------------------------------------------------- retraction, bounds
@FAST
@given(st.sampled_from(GOLDS), st.sampled_from(OTHERS), st.sampled_from([
    "{g}. Let me reconsider. The answer is {o}.", "{g} (I retract that; it's {o}).",
    "{g}. Scrap that, it's {o}.", "{g}. Come to think of it, {o}.",
    "{g}. I take that back: {o}."]), st.booleans())
def test_a_reconsidered_answer_is_taken_back_unless_said_again(gold, other, frame, again):
    text = frame.format(g=gold, o=other)
    if again:
        text = frame.format(g=other, o=gold)  # the gold after the retraction is given
        assert contains(text, gold) == 1.0, text
    else:
        assert contains(text, gold) == 0.0, text


@FAST
@given(st.integers(10, 2000), st.sampled_from(["after", "before", "more than", "less than",
                                                "at least", "over", "under"]),
       st.sampled_from(["Sometime {b} {n}.", "It was {b} {n}.", "{b} {n}, I think."]))
def test_a_value_after_a_bound_is_not_given(n, bound, frame):
    text = frame.format(b=bound, n=n)
    text = text[0].upper() + text[1:]
    assert contains(text, str(n)) == 0.0, text


@FAST
@given(st.sampled_from(["Cane Corso", "Jupiter", "the Nile", "Everest"]),
       st.sampled_from(["Japanese Terrier", "Saturn", "the Amazon", "K2"]),
       st.sampled_from(["bigger", "older", "longer", "more famous", "less known"]))
def test_the_standard_of_a_comparison_is_not_the_answer(gold, other, adjective):
    """"Which is bigger, A or B?" answered "A is bigger than B": B is named, not chosen (a
    trained model's answer on real SelfAware was paid for the gold this way)."""
    text = f"The {other} is {adjective} than the {gold}."
    assert selfaware(text, gold) != "correct", text
    assert contains(text, gold) == 0.0, text
    chosen = f"The {gold} is {adjective} than the {other}."
    assert selfaware(chosen, gold) == "correct", chosen


# ---------------------------------------------------------------- number words
_ONES = "zero one two three four five six seven eight nine ten eleven twelve thirteen " \
        "fourteen fifteen sixteen seventeen eighteen nineteen".split()

_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def _say(n: int) -> str:
    """n < 10**6 in English words (written here, independently of the grader)."""
    def under_1000(k: int) -> list[str]:
        words = []
        if k >= 100:
            words += [_ONES[k // 100], "hundred"]
            k %= 100
        if k >= 20:
            words.append(_TENS[k // 10] + (f"-{_ONES[k % 10]}" if k % 10 else ""))
        elif k:
            words.append(_ONES[k])
        return words
    thousands, rest = divmod(n, 1000)
    words = (under_1000(thousands) + ["thousand"] if thousands else []) + under_1000(rest)
    return " ".join(words)


@FEW
@given(st.integers(101, 999_999).filter(lambda n: n % 100 and n // 100 % 10 != 0
                                        and not 1100 <= n < 2000))
def test_a_number_said_in_parts_is_read_whole(n):
    said = _say(n)
    assert [v for v, *_ in word_numbers(f"it is {said} metres")] == [n]


@FEW
@given(st.integers(1, 999), st.integers(1, 99))
def test_a_decimal_said_with_point_is_read_whole(whole, tenths):
    digits = " ".join(_ONES[int(d)] for d in f"{tenths:02d}")
    found = word_numbers(f"{_say(whole)} point {digits}")
    assert [v for v, *_ in found] == [whole + Fraction(tenths, 100)]


@pytest.mark.parametrize("word,value", [("two", 2), ("six", 6), ("eight", 8), ("twenty", 20)])
def test_a_number_word_before_a_hyphenated_noun_is_read(word, value):
    assert [v for v, *_ in word_numbers(f"a {word}-sided shape")] == [value]
    result = selfaware_reward(f"It is {word}-sided.", expected_answer=[str(value)],
                              is_unanswerable=False, **STRICT_PRESET)
    assert result.outcome == "correct"
