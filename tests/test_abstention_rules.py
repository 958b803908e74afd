"""Rules of the robust abstention detector that read the text around a phrase
(`rlvr.rewards.abstention_detection.rules`):

* `off_question`: ignorance of something the question does not ask ("Mars has two moons.
  Nobody knows for sure how they formed.") is a side issue: the response is an answer;
  the same ignorance of what the question asks declines it (a property);
* clauses: a number with thousands commas ("$200,000") is one clause, never cut at its
  comma, so a disclaimer and the number it gives stay together (rows).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import FEW
from rlvr.rewards.abstention_detection import detect_abstention


@FEW
@given(st.sampled_from(["how they formed", "why the name stuck", "who first saw them",
                        "whether they will last"]))
def test_ignorance_of_something_the_question_does_not_ask_is_a_side_issue(clause):
    text = f"Mars has two moons, Phobos and Deimos. Nobody knows for sure {clause}."
    assert detect_abstention(text, question="How many moons does Mars have?").label == "answer"
    # the same ignorance of what the question asks declines it
    asked = "Nobody knows for sure how many moons Mars had a billion years ago."
    assert detect_abstention(asked, question="How many moons did Mars have a billion years "
                                             "ago?").label == "abstain"


@pytest.mark.parametrize("text,label", [
    # a number with thousands commas is one clause: these were hedges only by the accident
    # of a clause cut inside "200,000"
    ("It's impossible to know for sure, but it could reach $200,000.", "hedge"),
    ("Nobody can predict this precisely.\n\n**Answer: $1,000,000**", "hedge"),
    ("I'm not sure I understand the question, but light travels at about 300,000 km per "
     "second.", "answer"),
    ("Mount Kilimanjaro, at 5,895 m.\n\n*Disclaimer: As an AI, I can make mistakes. Please "
     "double-check important information.*", "answer"),
])
def test_a_number_with_thousands_commas_is_one_clause(text, label):
    assert detect_abstention(text).label == label
