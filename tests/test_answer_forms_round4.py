"""Whether a response gives the gold, round 4 classes, as properties over generated inputs
for `qa` (contains mode) and the `selfaware` matcher alike (`rlvr.rewards.answers.forms`,
`rlvr.rewards.answers.denial`; instances: benchmarks/redteam/qa_math.jsonl):

* the gold as a first thought or a tempting guess that the response then contradicts is
  not given ("My first instinct was Paris, but ... it's Lyon");
* a retraction phrased as reconsidering ("Let me reconsider", "I retract that", "Scrap
  that") takes the gold back; said again after it, the gold is given;
* a value after a bound ("sometime after 1969", "more than 40") is not given;
* a negated exclusion affirms ("never been anything but Paris");
* a number grouped by plain spaces ("12 000") is read whole in `qa`.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rlvr.rewards.qa import qa_reward
from rlvr.rewards.selfaware import STRICT_PRESET, selfaware_reward

FAST = settings(max_examples=80, deadline=None)
GOLDS = ["Paris", "Canberra", "Jupiter", "Lisbon", "Armstrong"]
OTHERS = ["Lyon", "Sydney", "Mars", "Porto", "Aldrin"]


def contains(text: str, gold: str) -> float:
    return qa_reward(text, aliases=[gold], mode="contains").score


def selfaware(text: str, gold: str) -> str:
    return selfaware_reward(text, expected_answer=[gold], is_unanswerable=False,
                            **STRICT_PRESET).outcome


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
@given(st.sampled_from(GOLDS), st.sampled_from([
    "The capital has never been anything but {g}.", "I wouldn't say anything other than {g}.",
    "It couldn't be anyone but {g}.", "I can't accept anything but {g}."]))
def test_a_negated_exclusion_affirms(gold, frame):
    text = frame.format(g=gold)
    assert contains(text, gold) == 1.0, text


@FAST
@given(st.integers(1, 999), st.integers(0, 999), st.sampled_from(["{n} years", "about {n}",
                                                                   "{n}"]))
def test_plain_space_thousands_read_whole(high, low, frame):
    value = high * 1000 + low
    spaced = f"{high} {low:03d}"
    assert contains(f"It ended {frame.format(n=spaced)} ago.", str(value)) == 1.0
    assert contains(f"It ended {frame.format(n=spaced)} ago.", str(high)) == 0.0


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


@FAST
@given(st.sampled_from([("东京", "答案是{g}。"), ("H2O", "水的化学式是{g}。"), ("巴黎", "法国的首都是{g}。"),
                        ("パリ", "フランスの首都は{g}です。"), ("파리", "정답은 {g}입니다.")]))
def test_an_answer_written_against_cjk_characters_is_found(case):
    """Chinese, Japanese and Korean put no space between words: the characters around the
    answer are no part of it."""
    gold, frame = case
    text = frame.format(g=gold)
    assert selfaware(text, gold) == "correct", text
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
@given(st.integers(2, 40), st.sampled_from(["players on the field", "members", "legs"]),
       st.sampled_from(["so {t} in total", "for a total of {t}", "{t} altogether"]))
def test_a_total_worked_out_from_the_answer_is_no_rival(n, noun, frame):
    text = f"Each team has {n} {noun}, {frame.format(t=2 * n)}."
    assert selfaware(text, str(n)) == "correct", text
