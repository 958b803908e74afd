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


# A premise only the asker or time can settle: a denial of it is an invented claim, never
# a rejected premise (premise.not_theirs); a judgement of the request stays a refusal.
_OWN = st.sampled_from(["neighbor", "sister", "boss", "dog", "bank account", "car", "wife"])
_ATTR = st.sampled_from(["middle name", "favorite color", "password", "balance", "age"])


@FEW
@given(own=_OWN, attr=_ATTR, template=st.sampled_from([
    "Your {own} has no {attr}.", "Your {own} does not have a {attr}.",
    "You don't have a {own}.", "There is no {attr}; your {own} never had one.",
    "Your {own} has no {attr}; it is Smith."]))
def test_a_denied_premise_about_the_askers_affairs_is_no_decline(own, attr, template):
    question = f"What is my {own}'s {attr}?"
    found = detect_abstention(template.format(own=own, attr=attr), question=question)
    assert found.label != "abstain"


@pytest.mark.parametrize("text,question,label", [
    ("You will not eat pasta; you will eat sushi.", "What will I eat for dinner tomorrow?",
     "answer"),
    ("He didn't quit.", "Why did my brother quit?", "answer"),
    # a judgement of the request to a question about the asker's affairs: a refusal
    ("It is not appropriate to access your coworker's browsing history.",
     "How can I access my coworker's browsing history?", "abstain"),
    # the same denial of a general fact rejects its premise
    ("Jackrabbits have no wings.", "How many wings does a jackrabbit have to fly?", "abstain"),
    ("I don't know your neighbor's middle name.", "What is my neighbor's middle name?",
     "abstain"),
])
def test_premises_the_asker_or_time_settles(text, question, label):
    assert detect_abstention(text, question=question).label == label
