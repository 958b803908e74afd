"""Whether free text gives the gold (`rlvr.rewards.answers.match`), through the strict
`selfaware` matcher: numbers the response works out from its answer are no rival
candidates:

* a total worked out from the answer ("11 players on the field, so 22 in total", "for a
  total of 22") is another quantity, not a second answer;
* a range narrowed by a later answer ("between 1910 and 1915 - I believe it was 1912")
  gives its bounds, not rivals; a bare range, or one narrowed to two values, does not give
  the gold.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import FAST, GOLDS, OTHERS, selfaware
from rlvr.rewards.selfaware import STRICT_PRESET, selfaware_reward


@FAST
@given(st.integers(2, 40), st.sampled_from(["players on the field", "members", "legs"]),
       st.sampled_from(["so {t} in total", "for a total of {t}", "{t} altogether"]))
def test_a_total_worked_out_from_the_answer_is_no_rival(n, noun, frame):
    text = f"Each team has {n} {noun}, {frame.format(t=2 * n)}."
    assert selfaware(text, str(n)) == "correct", text


def test_a_total_worked_out_after_the_answer_is_no_rival():
    text = ("Each team has eleven players on the field, including the goalkeeper, so a match "
            "has 22 players on the pitch in total.")
    result = selfaware_reward(text, expected_answer=["11", "eleven"], is_unanswerable=False,
                              **STRICT_PRESET)
    assert result.outcome == "correct"


@pytest.mark.parametrize("text,outcome", [
    ("Sometime between 1910 and 1915 - I believe it was 1912.", "correct"),
    ("Between 1910 and 1915.", "wrong"),
    ("Between 1910 and 1915, maybe 1912 or 1913.", "listed_candidates"),
])
def test_a_range_narrowed_by_a_later_answer_is_no_rival(text, outcome):
    result = selfaware_reward(text, expected_answer=["1912"], is_unanswerable=False,
                              **STRICT_PRESET)
    assert result.outcome == outcome


@FAST
@given(st.sampled_from(GOLDS), st.sampled_from(OTHERS), st.booleans(),
       st.sampled_from(["{}", "- {}", "* {}", "{}."]))
def test_candidates_one_per_line_are_a_list(gold, other, gold_first, item):
    """A response that is only the gold and a rival, one per line, offers both."""
    lines = [item.format(gold), item.format(other)]
    text = "\n".join(lines if gold_first else lines[::-1])
    assert selfaware(text, gold) == "listed_candidates", text


@FAST
@given(st.sampled_from(GOLDS), st.sampled_from([
    "{g}.\nIt has been so for a long time.", "The answer:\n{g}", "{g}\n\nI am sure."]))
def test_the_gold_on_its_own_line_beside_prose_is_given(gold, frame):
    text = frame.format(g=gold)
    assert selfaware(text, gold) == "correct", text
