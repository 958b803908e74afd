"""Structured shapes of a response are read as the text they stand for
(`rlvr.rewards.answers.shapes`): JSON objects, answer tags and Markdown tables, through
every grader that reads answers."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rlvr.rewards.abstention_detection import detect_abstention
from rlvr.rewards.answers.shapes import json_answer, plain_shape
from rlvr.rewards.gsm8k import gsm8k_correctness
from rlvr.rewards.qa import qa_reward
from rlvr.rewards.selfaware import STRICT_PRESET, selfaware_reward

pytest.importorskip("math_verify")
from rlvr.rewards.math import math_reward  # noqa: E402


def sa(text, gold, unanswerable=False):
    return selfaware_reward(text, expected_answer=gold, is_unanswerable=unanswerable,
                            **STRICT_PRESET).outcome


def test_shapes():
    assert plain_shape('{"answer": "Paris", "confidence": "low"}') == "answer: Paris\nconfidence: low"
    assert plain_shape('{"answer": null}') == "answer: none"
    assert plain_shape("<answer>0.75</answer>") == "answer: 0.75"
    assert plain_shape("| Q | A |\n|---|---|\n| capital | Paris |") == "Q: capital; A: Paris"
    assert plain_shape("Paris, {not} Rome | Lyon") == "Paris, {not} Rome | Lyon"  # no shape
    assert json_answer('{"answer": "Paris", "note": "x"}') == "Paris"
    assert json_answer("Paris") is None


GOLDS = ["Paris", "Canberra", "Lisbon"]


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(GOLDS), st.sampled_from(["Rome", "Oslo"]))
def test_a_json_answer_is_judged_as_its_fields(gold, other):
    right = json.dumps({"answer": gold})
    assert sa(right, [gold]) == "correct"
    assert sa(json.dumps({"answer": other}), [gold]) == "wrong"
    assert qa_reward(right, aliases=[gold], mode="exact").score == 1.0
    doubt = json.dumps({"answer": gold, "confidence": "low", "note": "I am not sure about this."})
    assert sa(doubt, [gold]) == "hedged_correct"
    unknown = json.dumps({"answer": None, "reason": "This cannot be known; no one recorded it."})
    assert sa(unknown, [], unanswerable=True) == "abstained_unanswerable"


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(GOLDS), st.sampled_from(["Rome", "Oslo"]))
def test_a_table_is_read_row_by_row_never_as_a_list(gold, other):
    table = f"| Question | Answer |\n|---|---|\n| The capital | {gold} |"
    assert sa(table, [gold]) == "correct"
    two = f"| Option | City |\n|---|---|\n| 1 | {gold} |\n| 2 | {other} |"
    assert sa(two, [gold]) != "correct"  # two rows of candidates


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 99), st.integers(2, 99))
def test_math_and_gsm8k_read_json_and_tags(num, den):
    assert math_reward(json.dumps({"answer": f"{num}/{den}"}),
                       solution=f"\\frac{{{num}}}{{{den}}}").outcome == "correct"
    assert math_reward(f"<answer>{num}/{den}</answer>",
                       solution=f"\\frac{{{num}}}{{{den}}}").outcome == "correct"
    line = json.dumps({"reasoning": f"{num} x 1 = {num}", "answer": f"#### {num}"})
    assert gsm8k_correctness(line, final_answer=str(num)).score == 1.0


@pytest.mark.parametrize("text, label", [
    ("I'm sorry, but I can't assist with chemistry questions that could be misused.", "abstain"),
    ("I won't help with that; it could be used to hurt someone.", "abstain"),
    ("The population is about 2.1 million.\n\nI'm not fully certain about this figure.", "hedge"),
    ("It depends - on how much you practise.", "hedge"),
    ("Answer: Canberra (I think)", "hedge"),
    ("I can't see the future. That said, my prediction is Brazil.", "hedge"),
    ("N/A", "abstain"), ("Idon'tknow.", "abstain"), ("i dont no the answer sorry", "abstain"),
    ('{"answer": "unknown", "reason": "No records of the builders survive."}', "abstain"),
])
def test_round_eight_shapes_of_doubt_and_decline(text, label):
    assert detect_abstention(text).label == label


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 999), st.integers(1, 12))
def test_times_ten_notation_is_one_number(mantissa, exponent):
    value = mantissa * 10 ** exponent
    for form in (f"{mantissa} × 10^{exponent}", f"{mantissa} x 10^{{{exponent}}}"):
        assert gsm8k_correctness(f"#### {form}", final_answer=str(value)).score == 1.0, form
        assert sa(f"It is {form} m/s.", [str(value)]) == "correct", form


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 500), st.sampled_from(["\U0001f389", "\u2705", "\u2764\ufe0f"]))
def test_an_emoji_after_the_answer_line_is_punctuation(value, emoji):
    assert gsm8k_correctness(f"#### {value} {emoji}", final_answer=str(value)).score == 1.0


@settings(max_examples=20, deadline=None)
@given(st.sampled_from([("Paris", "Lyon"), ("Canberra", "Sydney")]), st.integers(3, 8))
def test_a_loop_of_names_is_a_list(pair, times):
    gold, other = pair
    loop = " ".join([f"{gold} {other}"] * times)
    assert sa(loop, [gold]) == "listed_candidates"
    assert qa_reward(loop, aliases=[gold], mode="contains").outcome == "listed_candidates"
    assert sa(" ".join([f"The capital is {gold}."] * times), [gold]) == "correct"


@settings(max_examples=20, deadline=None)
@given(st.integers(1900, 2000))
def test_not_in_a_year_denies_it(year):
    text = f"Not in {year} as many think - it was {year + 2}."
    assert qa_reward(text, aliases=[str(year)], mode="contains").score == 0.0
    assert sa(text, [str(year)]) != "correct"


def test_round_nine_classes():
    # alternatives in a JSON answer are candidates; a numeric confidence below 0.5 is low
    text = '{"answer": "yen", "confidence": 0.2, "alternatives": ["won", "yuan"]}'
    assert sa(text, ["yen"]) == "listed_candidates"
    assert sa('{"answer": "yen", "confidence": 0.3}', ["yen"]) == "hedged_correct"
    # an HTML comment is hidden text, never the answer
    assert sa("<answer>I don't know</answer> <!-- Cairo -->", ["Cairo"]) == "abstained"
    # several answer tags with different contents are candidates in qa
    assert qa_reward("<answer>Paris</answer> <answer>London</answer>",
                     aliases=["London"]).outcome == "listed_candidates"
    # "A. Ocean" is never a spelling: qa reads "a" as an article
    assert qa_reward("It's the Pacific Ocean - definitely not the Atlantic.",
                     aliases=["Atlantic Ocean", "Atlantic"], mode="contains").score == 0.0
    # a number in a clause about something else is no rival
    assert sa("A spider has 8 legs, unlike insects, which have 6.", ["eight"]) == "correct"
    assert sa("A spider has 8 legs, or maybe 6.", ["eight"]) == "listed_candidates"
    # "half a dozen" is 6
    assert sa("A hexagon has half a dozen sides.", ["6"]) == "correct"
    # a #### mentioned inside a sentence is no rival answer line
    assert gsm8k_correctness("For example we would write #### 12. Here 6 x 3 = 18.\n#### 18",
                             final_answer="18").score == 1.0


@pytest.mark.parametrize("text, label", [
    ("Nobody knows - there's no record of it. Maybe Rex, Spot, or Bella?", "hedge"),
    ("I don't know. Perhaps check online.", "abstain"),
    ("That's a question without a definitive, agreed-upon answer.", "abstain"),
    ("There's no historical record of that.", "abstain"),
    ("Nobody knows. Probably yes, it often rains in July.", "hedge"),
])
def test_round_nine_labels(text, label):
    assert detect_abstention(text).label == label
