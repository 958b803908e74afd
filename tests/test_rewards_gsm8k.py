"""GSM8K correctness and format rewards: extraction, normalisation, fallbacks.

The `####` line is read whole: markup around the number, thin-space thousands and vulgar
fractions, a LaTeX operator that changes the value, another value later in the answer's
paragraph (a second candidate) against an explanation after the line that restates the
answer, and an arithmetic chain on the line that states its last side only when every side
agrees (rows, then properties).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import FEW
from rlvr.rewards import get_reward, make_trl_reward
from rlvr.rewards.gsm8k import gsm8k_correctness, gsm8k_format, parse_number

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"

# (completion, final_answer, fallback, expected score, expected outcome)
CORRECTNESS = [
    # thousands comma in a valid group: 70,000 -> 70000 = gold
    ("She earns 70 * 1000 = 70000 dollars.\n#### 70,000", "70000", False, 1.0, "correct"),
    # "$" dropped, 18.00 compares numerically equal to 18
    ("The total is $18.00.\n#### $18.00", "18", False, 1.0, "correct"),
    # no "####": no_answer (not wrong) without the fallback ...
    ("So the meal costs $29.00.", "29", False, 0.0, "no_answer"),
    # ... and 1 with it (last number: "$29.00" -> 29; the final "." is not a decimal point)
    ("So the meal costs $29.00.", "29", True, 1.0, "correct_fallback"),
    # the sign matters: 3 != -3
    ("#### 3", "-3", False, 0.0, "wrong"),
    # -3.0 = -3 numerically
    ("#### -3.0", "-3", False, 1.0, "correct"),
    # a leading "+" is dropped: +7 = 7
    ("#### +7", "7", False, 1.0, "correct"),
    # a worked example's "#### 12" first, then the real answer: the LAST "####" counts
    ("Example: 3 * 4 = 12\n#### 12\nNow our problem: 6 * 7 = 42\n#### 42", "42", False, 1.0,
     "correct"),
    # last-number fallback: "72 clips," -> 72; the comma after "clips" is not a number
    ("The total is 72 clips, altogether.", "72", True, 1.0, "correct_fallback"),
    # ... never a number inside a formula (Math-Verify's case: "\frac{1+\sqrt5}{2}" is
    # no 2)
    ("$\\frac{1+\\sqrt5}{2}$", "2", True, 0.0, "no_answer"),
    ("So 18/2 = 9.", "9", True, 1.0, "correct_fallback"),
    # a percent sign and a trailing unit are dropped
    ("#### 50%", "50", False, 1.0, "correct"),
    ("#### 5 hours", "5", False, 1.0, "correct"),
    # "7,0" is not a valid thousands group, so it is not read as 70 (nor as 7)
    ("#### 7,0", "70", False, 0.0, "wrong"),  # a decimal comma: 7.0, never 70
    # the explicit fallback reads \boxed{} ...
    ("So the result is \\boxed{1,234}.", "1234", "explicit", 1.0, "correct_fallback"),
    # ... and "the answer is N", but not the last number
    ("The answer is 12. Check: 12 + 3 = 15", "12", "explicit", 1.0, "correct_fallback"),
    ("Check: 12 + 3 = 15", "12", "explicit", 0.0, "no_answer"),
    # integers compare exactly: these two differ in the last digit
    ("#### 12345678901234567891", "12345678901234567890", False, 0.0, "wrong"),
    # relative tolerance 1e-6: |0.3334 - 0.3333| / 0.3334 = 3e-4 > 1e-6, so these differ
    # (an absolute 1e-3 used to call them equal) ...
    ("#### 0.3334", "0.3333", False, 0.0, "wrong"),
    ("#### 0.335", "0.333", False, 0.0, "wrong"),
    # ... while a repeating decimal agrees with its fraction: |1/3 - 0.3333333| = 3.3e-8,
    # relative 1e-7 <= 1e-6
    ("#### 0.3333333", "1/3", False, 1.0, "correct"),
    # at every scale: 1e-8 vs 2e-8 differ by a factor of two (relative gap 0.5)
    ("#### 1e-8", "2e-8", False, 0.0, "wrong"),
    ("#### 2.0e-8", "2e-8", False, 1.0, "correct"),
    # a fraction is read whole - 3/4 is 0.75, never the 3 before the slash (the `####`
    # pattern once stopped at "/" and paid "#### 3/4" against the gold 3)
    ("Each friend gets 3/4 of a pizza.\n#### 3/4", "3", False, 0.0, "wrong"),
    ("#### 3/4", "0.75", False, 1.0, "correct"),
    # 1/2 and 0.5 are the same value (once scored 0)
    ("#### 1/2", "0.5", False, 1.0, "correct"),
    # a mixed number: 1 1/2 = 1.5 (not 1, not 1/2)
    ("#### 1 1/2", "1.5", False, 1.0, "correct"),
    ("#### 1 1/2", "1", False, 0.0, "wrong"),
    # scientific notation: 1.5e3 = 1500
    ("#### 1.5e3", "1500", False, 1.0, "correct"),
    # a line with two numbers, a time, or a number glued to letters is not one answer
    ("#### 5 or 6", "5", False, 0.0, "no_answer"),
    ("#### 2 + 3 = 5", "5", False, 1.0, "correct"),  # a chain that holds states its last side
    ("#### 2 + 3 = 6", "6", False, 0.0, "no_answer"),  # one that does not states two values
    ("#### 12:00", "12", False, 0.0, "no_answer"),
    ("#### 3/4x", "3", False, 0.0, "no_answer"),
    ("#### 108.92", "108", False, 0.0, "wrong"),
    # a division by zero is not a number
    ("#### 12/0", "12", False, 0.0, "no_answer"),
    # the explicit fallback reads "the answer is 3/4" whole too
    ("The answer is 3/4 of the cake.", "3", "explicit", 0.0, "wrong_fallback"),
    # the gold may be a full GSM8K answer ending in "#### N"
    ("#### 8", "4 + 4 = <<4+4=8>>8\n#### 8", False, 1.0, "correct"),
    # a gold without a number cannot be scored
    ("#### 8", "eight", False, None, "bad_gold"),
]


@pytest.mark.parametrize("completion,gold,fallback,score,outcome", CORRECTNESS)
def test_correctness_table(completion, gold, fallback, score, outcome):
    result = gsm8k_correctness(completion, final_answer=gold, fallback=fallback)
    assert (result.score, result.outcome) == (score, outcome)
    if score is not None:
        low, high = get_reward("gsm8k_correctness").score_range
        assert low <= result.score <= high


# (completion, expected score, expected outcome)
FORMAT = [
    ("Two pumps take 10 / 2 = 5 hours.\n#### 5", 0.5, "formatted"),
    ("Reasoning.\n#### 1,000.\n\n", 0.5, "formatted"),
    # text after the "####" line: the reasoning does not end with it
    ("Reasoning.\n#### 5\nHope this helps!", 0.0, "unformatted"),
    # a "####" line with no reasoning before it
    ("#### 5", 0.0, "unformatted"),
    # not a number after "####"
    ("Reasoning.\n#### five", 0.0, "unformatted"),
    ("", 0.0, "unformatted"),
]


@pytest.mark.parametrize("completion,score,outcome", FORMAT)
def test_format_table(completion, score, outcome):
    result = gsm8k_format(completion)
    assert (result.score, result.outcome) == (score, outcome)
    low, high = get_reward("gsm8k_format").score_range
    assert low <= result.score <= high


def test_combined_maximum_is_one_and_a_half():
    # the two rewards together, as TRL sums them with weights 1 and 1: 1.0 + 0.5
    text = ["Two pumps take 10 / 2 = 5 hours.\n#### 5"]
    correctness = make_trl_reward("gsm8k_correctness")
    fmt = make_trl_reward("gsm8k_format")
    assert correctness(text, final_answer=["5"])[0] + fmt(text)[0] == 1.5
    highs = [get_reward(n).score_range[1] for n in ("gsm8k_correctness", "gsm8k_format")]
    assert sum(highs) == 1.5


def test_parse_number_keeps_numbers_apart():
    assert parse_number("1,234,567") == 1234567
    assert parse_number("-$5") == -5 and parse_number("$-5") == -5
    assert parse_number("18.50") == 18.5
    assert parse_number("1.2.3") is None and parse_number("no digits") is None


def test_every_gsm8k_test_answer_scores_itself():
    rows = [json.loads(line) for line in (SHARED_DATA / "gsm8k" / "test.jsonl").open()]
    assert len(rows) == 1319
    scores = [gsm8k_correctness(r["answer"], final_answer=r["answer"]).score for r in rows]
    assert scores == [1.0] * len(rows)
    assert all(gsm8k_format(r["answer"]).score == 0.5 for r in rows)


# ---------------------------------------------------------------- the `####` line read whole
# (completion, gold, outcome); gsm8k_correctness without fallback
GSM8K = [
    # markup on the `####` line is punctuation
    ("So the total is 18.\n#### 18</answer>", 18, "correct"),
    ("So the total is 18.\n#### \\(18\\)", 18, "correct"),
    ("So the total is 18.\n#### `18`", 18, "correct"),
    ("So the total is 18.\n#### **18**", 18, "correct"),
    # Unicode forms: thin / narrow no-break space thousands, vulgar fractions
    ("Total.\n#### 1\u2009000", 1000, "correct"),
    ("Total.\n#### 1\u202f000", 1000, "correct"),
    ("Total.\n#### 1\u20092", 12, "no_answer"),          # not a thousands group: two numbers
    ("Half.\n#### \u00bd", 0.5, "correct"),
    ("Two and a half.\n#### 2\u00bd", 2.5, "correct"),
    ("Two and a half.\n#### 2\u00bd", 21, "wrong"),       # never 21/2 or 2
    # another value after the answer, in its paragraph, is a second candidate
    ("#### 5\nAlternatively, it could be 6.", 5, "no_answer"),
    ("#### 5\nHmm, let me recheck: it is 6.", 5, "no_answer"),
    ("#### 5\nThat is 5 apples in total.", 5, "correct"),  # the same value again
    ("#### 5\n\nQuestion: Tom has 3 apples.", 5, "correct"),  # a new paragraph
    # a LaTeX operator changes the value: never dropped as a word
    ("#### \\sqrt{25}", 25, "no_answer"),
    ("#### \\log 100", 100, "no_answer"),
    ("#### \\neq 5", 5, "no_answer"),
    ("#### \\approx 5", 5, "no_answer"),
    ("#### \\textbf{5}", 5, "correct"),                  # presentation commands still are
    ("#### 50 percent", 50, "correct"),
    # decided: "!" after a number is an exclamation mark in prose (the math reward reads
    # `5!` in LaTeX as a factorial)
    ("#### 5!", 5, "correct"),
]


@pytest.mark.parametrize("completion,gold,outcome", GSM8K)
def test_gsm8k_red_team_rows(completion, gold, outcome):
    result = gsm8k_correctness(completion, final_answer=gold)
    assert result.outcome == outcome, result.details


@FEW
@given(st.integers(1, 40), st.integers(1, 40), st.integers(2, 9))
def test_a_run_on_chain_states_its_last_side(a, b, c):
    total = (a + b) * c
    line = f"#### {a} + {b} = {a + b} * {c} = {total}"
    assert gsm8k_correctness(line, final_answer=str(total)).outcome == "correct"
    broken = f"#### {a} + {b} = {a + b + 1} * {c} = {(a + b + 1) * c}"  # a side disagrees
    assert gsm8k_correctness(broken, final_answer=str((a + b + 1) * c)).outcome == "no_answer"


@pytest.mark.parametrize("after,outcome", [
    ("That is 9 eggs at $2 each.", "correct"),
    ("Because 9 x 2 = 18.", "correct"),
    ("That is 20 with tax.", "no_answer"),       # another value as a variant of the answer
    ("That is wrong, it is 20.", "no_answer"),
    ("(20 if you count tax)", "no_answer"),
    ("Alternatively, it could be 20.", "no_answer"),
])
def test_an_explanation_after_the_answer_line_is_no_rival(after, outcome):
    assert gsm8k_correctness(f"#### 18\n{after}", final_answer="18").outcome == outcome
