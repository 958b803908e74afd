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
