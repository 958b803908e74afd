"""Whether an answer is offered among other candidates (`rlvr.rewards.answers.candidates`),
through `qa` (contains mode) and the strict `selfaware` matcher: properties and rows.

* a run of numbers ("3 7 12 40", "3, 7, 12, 40") and one-word frames with numbers
  ("It's 3. It's 7. It's 12.") list every value: the gold among them is never given;
* names run together on a bare line ("Answer: K2 Lhotse Makalu Everest Manaslu",
  "Mercury Venus Earth Mars Jupiter") are a list; prose and a long name are not;
* a fallback ("if not, Venus", "Otherwise, Venus", "else Venus") or alternatives offered
  after the answer ("Also possible: silver, copper") make a list; parallel sentences
  that describe one answer do not;
* the gold's other names beside it ("珠穆朗玛峰（Mount Everest）") are no rival.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import FEW
from rlvr.rewards.qa import qa_reward
from rlvr.rewards.selfaware import STRICT_PRESET, selfaware_reward


@FEW
@given(st.lists(st.integers(0, 99), min_size=3, max_size=9, unique=True), st.data())
def test_a_run_of_numbers_lists_every_one(values, data):
    gold = data.draw(st.sampled_from(values))
    for sep in (" ", ", "):
        text = sep.join(map(str, values))
        assert qa_reward(text, aliases=[str(gold)], mode="contains").score == 0.0
        result = selfaware_reward(text, expected_answer=[str(gold)], is_unanswerable=False,
                                  **STRICT_PRESET)
        assert result.outcome != "correct"


@FEW
@given(st.lists(st.integers(1, 50), min_size=3, max_size=4, unique=True), st.data())
def test_one_word_frames_with_numbers_are_a_list(values, data):
    gold = data.draw(st.sampled_from(values))
    text = " ".join(f"It's {v}." for v in values)
    result = selfaware_reward(text, expected_answer=[str(gold)], is_unanswerable=False,
                              **STRICT_PRESET)
    assert result.outcome == "listed_candidates"


@FEW
@given(st.permutations(["K2", "Lhotse", "Makalu", "Everest", "Manaslu"]))
def test_names_run_together_are_a_list(names):
    text = "Answer: " + " ".join(names)
    assert qa_reward(text, aliases=["Everest"], mode="contains").outcome == "listed_candidates"
    result = selfaware_reward(text, expected_answer=["Everest"], is_unanswerable=False,
                              **STRICT_PRESET)
    assert result.outcome == "listed_candidates"


@pytest.mark.parametrize("text", ["Shakespeare wrote Hamlet around 1600.",
                                  "La montaña más alta del mundo es el Everest.",
                                  "Answer: Martin Luther King Jr"])
def test_prose_and_a_long_name_are_no_run_of_names(text):
    gold = ["Everest"] if "Everest" in text else ["Shakespeare"] if "Shakes" in text \
        else ["Martin Luther King"]
    result = selfaware_reward(text, expected_answer=gold, is_unanswerable=False, **STRICT_PRESET)
    assert result.outcome == "correct"


@pytest.mark.parametrize("text,outcome", [
    ("Answer: Mercury. (If that's wrong, then Venus.)", "listed_candidates"),
    ("Mercury; if not, Venus.", "listed_candidates"),
    ("Mercury. Otherwise, Venus.", "listed_candidates"),
    ("Mercury, else I'd be surprised.", "correct"),
    ("It's Mercury. It's Venus. It's Mars.", "listed_candidates"),
    ("It's Mercury. It's small.", "correct"),
    ("- **Closest:** Mercury\n- **Hottest:** Venus\n- **Red:** Mars", "correct"),
])
def test_fallbacks_and_parallel_frames(text, outcome):
    result = selfaware_reward(text, expected_answer=["Mercury"], is_unanswerable=False,
                              prompt="Which planet is closest to the Sun?", **STRICT_PRESET)
    assert result.outcome == outcome


@pytest.mark.parametrize("text,outcome", [
    ("Answer: gold. Also possible: silver, copper.", "listed_candidates"),
    ("Mercury Venus Earth Mars Jupiter", "listed_candidates"),
    ("Gold, of course.", "correct"),
])
def test_alternatives_offered_after_the_answer_and_bare_name_lines(text, outcome):
    gold = ["Venus"] if "Venus" in text else ["gold", "Au"]
    result = selfaware_reward(text, expected_answer=gold, is_unanswerable=False,
                              **STRICT_PRESET)
    assert result.outcome == outcome


@pytest.mark.parametrize("text", [
    "世界上最高的山是珠穆朗玛峰（Mount Everest），海拔约8849米。",
    "Mount Everest (Chomolungma), 8849 m.",
    "Chomolungma, or Mount Everest, at 8849 m.",
])
def test_the_golds_other_names_are_no_rival(text):
    gold = ["珠穆朗玛峰", "Mount Everest", "Everest", "Chomolungma"]
    result = selfaware_reward(text, expected_answer=gold, is_unanswerable=False, **STRICT_PRESET)
    assert result.outcome == "correct"
