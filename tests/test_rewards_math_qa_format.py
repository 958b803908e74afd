"""The `qa` (normalised alias match) and `think_format` rewards (`math`: test_rewards_math.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rlvr.rewards import get_reward, make_trl_reward
from rlvr.rewards.qa import normalize_answer, qa_reward
from rlvr.rewards.think_format import think_format

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"

# (completion, aliases, answer, mode, expected score, expected outcome)
QA = [
    # SQuAD normalisation: case, punctuation, articles: "The Mark Twain!" -> "mark twain"
    ("The Mark Twain!", ["Mark Twain", "Samuel Clemens"], None, "exact", 1.0, "correct"),
    ("Samuel Clemens", ["Mark Twain", "Samuel Clemens"], None, "exact", 1.0, "correct"),
    # a negated alias is not the answer, in either mode
    ("not Mark Twain", ["Mark Twain", "Samuel Clemens"], None, "exact", 0.0, "wrong"),
    ("not Mark Twain", ["Mark Twain", "Samuel Clemens"], None, "contains", 0.0, "wrong"),
    # "10" is not "1", and does not contain it on word boundaries
    ("10", ["1"], None, "exact", 0.0, "wrong"),
    ("10", ["1"], None, "contains", 0.0, "wrong"),
    # contains mode: the alias inside a sentence, on word boundaries
    ("It was written by Mark Twain in 1876.", ["Mark Twain"], None, "contains", 1.0, "correct"),
    ("It was written by Mark Twain in 1876.", ["Mark Twain"], None, "exact", 0.0, "wrong"),
    # an empty answer tag is an empty answer against any gold (no fallback to the text)
    ("<answer></answer>", ["Mark Twain"], None, "exact", 0.0, "empty_answer"),
    ("<answer></answer>", None, "answer", "contains", 0.0, "empty_answer"),
    # the last answer tag's content is what counts
    ("<think>Twain?</think><answer>Mark Twain</answer>", ["Mark Twain"], None, "exact", 1.0,
     "correct"),
    # a single `answer` string works like a one-alias list
    ("onion", None, "Onion", "exact", 1.0, "correct"),
    # no usable gold: None
    ("anything", [], None, "exact", None, "no_gold"),
]


@pytest.mark.parametrize("completion,aliases,answer,mode,score,outcome", QA)
def test_qa_table(completion, aliases, answer, mode, score, outcome):
    result = qa_reward(completion, aliases=aliases, answer=answer, mode=mode)
    assert (result.score, result.outcome) == (score, outcome)
    if score is not None:
        low, high = get_reward("qa").score_range
        assert low <= result.score <= high


def test_normalize_answer():
    # lower-case, punctuation (also curly quotes), articles and extra spaces removed
    assert normalize_answer("  The  \u201cBig\u201d Apple, an orchard! ") == "big apple orchard"


def test_qa_on_triviaqa_rows_and_adapter():
    rows = [json.loads(line) for line in
            (SHARED_DATA / "triviaqa" / "triviaqa_sm_sub.jsonl").open()][:50]
    reward = make_trl_reward("qa")
    # each row's own answer matches its aliases; an answer from another row does not
    assert reward([r["answer"] for r in rows], aliases=[r["aliases"] for r in rows]) == [1.0] * 50
    shifted = [rows[(i + 1) % 50]["answer"] for i in range(50)]
    assert sum(reward(shifted, aliases=[r["aliases"] for r in rows])) == 0.0


THINK = "<think>\nStep 1: 3 * 3.\nStep 2: that is 9.\n</think>\n<answer>9</answer>"

# (completion, prompt_opens_think, expected score, expected outcome)
FORMAT = [
    # a multi-line think block, then the answer: full reward
    (THINK, False, 1.0, "formatted"),
    # the template opened <think> in the prompt: the response starts inside it
    ("Step 1: 3 * 3 = 9.\n</think>\n<answer>9</answer>", True, 1.0, "formatted"),
    # ... and then an opening <think> in the response is one too many
    (THINK, True, 0.0, "tag_count"),
    # empty blocks
    ("<think></think><answer></answer>", False, 0.0, "empty_think"),
    ("<think>x</think><answer> </answer>", False, 0.0, "empty_answer"),
    # two answers, or an answer first, or text outside the blocks
    ("<think>x</think><answer>9</answer><answer>8</answer>", False, 0.0, "tag_count"),
    ("<answer>9</answer><think>x</think>", False, 0.0, "misplaced"),
    ("Sure! <think>x</think><answer>9</answer>", False, 0.0, "misplaced"),
    ("9", False, 0.0, "tag_count"),
]


@pytest.mark.parametrize("completion,opened,score,outcome", FORMAT)
def test_think_format_table(completion, opened, score, outcome):
    result = think_format(completion, prompt_opens_think=opened)
    assert (result.score, result.outcome) == (score, outcome)
    low, high = get_reward("think_format").score_range
    assert low <= result.score <= high
