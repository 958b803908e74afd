"""A gold answer named only to be denied (`rlvr.rewards.answers.denial`), as properties over
generated inputs for `qa` (contains mode) and the strict `selfaware` matcher alike:

* the gold as a first thought or a tempting guess that the response then contradicts is
  not given ("My first instinct was Paris, but ... it's Lyon");
* a negated exclusion affirms ("never been anything but Paris");
* a denial in Chinese, Japanese or Korean ("肯定不是巴黎", "パリではない", "파리는 아닙니다")
  never gives the gold.

The classes were first found by a red-team round (instances: benchmarks/redteam/qa_math.jsonl).
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from conftest import FAST, GOLDS, OTHERS, contains, selfaware


@FAST
@given(st.sampled_from(GOLDS), st.sampled_from(OTHERS), st.sampled_from([
    "My first instinct was {g}, but after checking, it's {o}.",
    "My initial guess is {g}; however, the correct answer is {o}.",
    "{g} would be the obvious guess; however, the correct answer is {o}.",
    "At first I thought {g}, but actually it is {o}.",
    "One might think {g}, but in fact it's {o}."]))
def test_a_contradicted_first_thought_is_not_given(gold, other, frame):
    text = frame.format(g=gold, o=other)
    assert contains(text, gold) == 0.0, text
    assert selfaware(text, gold) != "correct", text


@FAST
@given(st.sampled_from(GOLDS), st.sampled_from([
    "The capital has never been anything but {g}.", "I wouldn't say anything other than {g}.",
    "It couldn't be anyone but {g}.", "I can't accept anything but {g}."]))
def test_a_negated_exclusion_affirms(gold, frame):
    text = frame.format(g=gold)
    assert contains(text, gold) == 1.0, text


@FAST
@given(st.sampled_from([("巴黎", "肯定不是{g}。"), ("罗马", "{g}是错的。"), ("パリ", "{g}ではないことは確かです。"),
                        ("ローマ", "{g}は間違いです。"), ("파리", "확실히 {g}는 아닙니다."),
                        ("로마", "{g}는 틀렸어요.")]))
def test_a_cjk_denial_never_gives_the_gold(case):
    gold, frame = case
    text = frame.format(g=gold)
    assert selfaware(text, gold) != "correct", text
    assert contains(text, gold) == 0.0, text


@FAST
@given(st.sampled_from(GOLDS), st.sampled_from(OTHERS), st.sampled_from([
    "{g} is not the capital; {o} is.", "{g} isn't the right city, {o} is.",
    "{g} was not the winner. {o} was.", "{o}. {g} is a common mistake.",
    "{o}; {g} is a frequent error.", "{o}. {g} would be a typical wrong guess."]))
def test_the_gold_denied_its_role_is_not_given(gold, other, frame):
    """A gold followed by "is not the ROLE" or called a mistake names it to deny it."""
    text = frame.format(g=gold, o=other)
    assert contains(text, gold) == 0.0, text
    assert selfaware(text, gold) != "correct", text


@FAST
@given(st.sampled_from(GOLDS), st.sampled_from(OTHERS), st.sampled_from([
    "{g} is not the only big city there, but it is the answer.",
    "{g} is not the same as {o}; the answer is {g}.", "It is {g}, not {o}."]))
def test_not_the_only_or_the_same_keeps_the_gold(gold, other, frame):
    """"Not the only" and "not the same" add to the gold; they do not deny it."""
    text = frame.format(g=gold, o=other)
    assert contains(text, gold) == 1.0, text
    assert selfaware(text, gold) == "correct", text
