"""Where an alias occurs as a word of its own (`rlvr.rewards.answers.words`), through `qa`
(contains mode) and the strict `selfaware` matcher: in scripts written without spaces
between words (Chinese, Japanese, Korean) the characters around an answer are no part of
it, so the gold written against them is found.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from conftest import FAST, contains, selfaware


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
