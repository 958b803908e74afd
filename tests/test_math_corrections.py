"""An answer corrected later in the work is taken back, and the corrected one is read (`rlvr.rewards.answers.math_retraction.taken_back`):
a correction of the work after the answer ("that double-counts", "scrap that", "I ignored
the restriction") followed by a different final number states no answer; a check that
restates the answer, or work with other numbers and no correction, keeps it; "the correct
answer is" between two boxes withdraws the first, and so does a box corrected as "counted
twice". Rows, then properties over answers, replacements, correction phrases and check
sentences."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("math_verify")

from conftest import FEW  # noqa: E402
from rlvr.rewards.math import math_reward  # noqa: E402

ROWS = [
    # (completion, gold, outcome)
    ("Adding the rows gives $\\boxed{12}$.\n\nHmm, that double-counts the corner tile. "
     "Subtracting it, the count is 11.", "12", "wrong"),  # its answer is 11 now
    ("$\\boxed{12}$\n\nScrap that; with distinct digits only 10 remain.", "12", "wrong"),
    ("The final answer is 12. Hmm, I ignored the restriction that digits are distinct; "
     "with it, we get 10.", "12", "wrong"),
    ("$\\boxed{12}$. I forgot the last row, so the total is 15.", "12", "wrong"),
    ("$\\boxed{12}$. I forgot the last row, so the total is 15.", "15", "correct"),
    # a check restating the answer, or other numbers without a correction: kept
    ("$\\boxed{12}$. Check: no mistake, 4 x 3 = 12.", "12", "correct"),
    ("$\\boxed{12}$. Check: 12 + 3 = 15 is the total with the extra box.", "12", "correct"),
    ("$\\boxed{12}$. Wait, let me check: 4 x 3 = 12.", "12", "correct"),
    ("$\\boxed{12}$. Wait, I miscounted: 4 x 3 is not 12.", "12", "no_answer"),
    ("$\\boxed{12}$. I almost made a mistake by counting 13, but 12 is right.", "12",
     "correct"),
]


@pytest.mark.parametrize("completion,gold,outcome", ROWS)
def test_rows(completion, gold, outcome):
    assert math_reward(completion, solution=gold).outcome == outcome


CORRECTIONS = [
    "Hmm, that double-counts the shared corner. The count is {m}.",
    "Scrap that: the right total is {m}.",
    "Oops, I ignored the discount; with it, we get {m}.",
    "I overlooked the last term, which makes it {m}.",
    "That was a miscalculation; redoing it gives {m}.",
    "On reflection I forgot to subtract the tax, so {m} remain.",
    "My earlier sum was wrong. It should be {m}.",
]
CHECKS = [
    "Check: {a} + {b} = {c}.",
    "As a check, {a} times {b} is {c}, as expected.",
    "There are {a} rows and {b} columns in the table.",
]
OPENERS = ["The answer is $\\boxed{{{n}}}$.", "So the total is {n}.", "The final answer is {n}."]
# unstructured text is read at its last number anyway: the checks follow a marked answer
MARKED = [o for o in OPENERS if "total" not in o]


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 999), delta=st.integers(1, 50), opener=st.sampled_from(OPENERS),
       correction=st.sampled_from(CORRECTIONS))
def test_a_correction_then_another_number_takes_the_answer_back(n, delta, opener, correction):
    completion = opener.format(n=n) + " " + correction.format(m=n + delta)
    assert math_reward(completion, solution=str(n)).outcome != "correct", completion


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 999), opener=st.sampled_from(OPENERS),
       correction=st.sampled_from(CORRECTIONS))
def test_a_correction_that_ends_on_the_answer_keeps_it(n, opener, correction):
    completion = opener.format(n=n) + " " + correction.format(m=n)
    assert math_reward(completion, solution=str(n)).outcome == "correct", completion


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 999), a=st.integers(1, 99), b=st.integers(1, 99),
       opener=st.sampled_from(MARKED), check=st.sampled_from(CHECKS))
def test_work_with_other_numbers_and_no_correction_keeps_the_answer(n, a, b, opener, check):
    completion = opener.format(n=n) + " " + check.format(a=a, b=b, c=a + b)
    assert math_reward(completion, solution=str(n)).outcome == "correct", completion


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 300), wrong=st.integers(1, 50), form=st.sampled_from([
    "Final answer: $\\boxed{{{w}}}$.\n\nWait, I made an arithmetic error: it is {n}, not {w}. "
    "Corrected final answer: $\\boxed{{{n}}}$.",
    "$\\boxed{{{w}}}$. Oops, I forgot a term. So the answer is $\\boxed{{{n}}}$."]))
def test_a_box_withdrawn_before_the_corrected_box_is_no_rival(n, wrong, form):
    if wrong == n:
        wrong = n + 1
    text = form.format(w=wrong, n=n)
    assert math_reward(text, solution=str(n)).outcome == "correct", text
    assert math_reward(text, solution=str(wrong)).outcome != "correct", text


@settings(max_examples=60, deadline=None)
@given(x=st.integers(1, 50), a=st.integers(2, 9), b=st.integers(1, 20), check=st.sampled_from([
    "Check: ${a}({x}) + {b} = {c}$. ✓", "Verify: ${a} \\cdot {x} + {b} = {c}$.",
    "Checking: {a} * {x} + {b} = {c}."]), lead=st.sampled_from([
    "So $x = {x}$.", "The answer is {x}.", "Thus x = {x}."]))
def test_a_check_sentence_after_the_answer_is_not_the_answer(x, a, b, check, lead):
    text = lead.format(x=x) + " " + check.format(a=a, x=x, b=b, c=a * x + b)
    assert math_reward(text, solution=str(x)).outcome == "correct", text


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 500), other=st.integers(501, 900), gap=st.sampled_from(["\n", "\n\n"]),
       tail=st.sampled_from(["Hmm, actually that's wrong: it comes to {o} dollars.",
                             "Oops, I double-counted; the total is {o}."]))
def test_gsm8k_takes_a_corrected_hash_answer_back(n, other, gap, tail):
    from rlvr.rewards.gsm8k import gsm8k_correctness
    text = f"#### {n}{gap}{tail.format(o=other)}"
    assert gsm8k_correctness(text, final_answer=n).score == 0.0, text
    # a check in a paragraph of its own keeps the answer (in the same paragraph, another
    # value after the #### line states no answer: gsm8k's own rule)
    assert gsm8k_correctness(f"#### {n}\n\nCheck: {n} - 1 + 1 = {n}.",
                             final_answer=n).score == 1.0


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 99), other=st.integers(100, 200), form=st.sampled_from([
    "Is the answer {n}? I'm not sure how to finish this problem.",
    "I'd guess $\\boxed{{{n}}}$, but I'm not confident; it may be {o}."]))
def test_an_asked_or_doubted_math_answer_is_not_paid(n, other, form):
    text = form.format(n=n, o=other)
    assert math_reward(text, solution=str(n)).outcome != "correct", text


@pytest.mark.parametrize("text,gold", [("The answer is twelve.", "12"),
                                       ("The total is twenty-one.", "21"),
                                       ("So the result is seven.", "7")])
def test_an_answer_in_number_words_after_a_marker_is_read(text, gold):
    assert math_reward(text, solution=gold).outcome == "correct"
    assert math_reward(text, solution=str(int(gold) + 1)).outcome == "wrong"


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 99), m=st.integers(100, 200), form=st.sampled_from([
    "The final answer is {n}. Actually, no: it's {m}.", "$\\boxed{{{n}}}$. Wait, no wait: $\\boxed{{{m}}}$",
    "So {n}. Oops, wrong: the answer is {m}."]))
def test_the_answer_after_a_retraction_is_read(n, m, form):
    text = form.format(n=n, m=m)
    assert math_reward(text, solution=str(m)).outcome == "correct", text
    assert math_reward(text, solution=str(n)).outcome != "correct", text


@pytest.mark.parametrize("text", ["Let me compute. First, 3 * 4 =", "The total is 5 + 7 ="])
def test_an_unfinished_expression_is_no_answer(text):
    assert math_reward(text, solution="12").outcome == "partial_parse"


@pytest.mark.parametrize("text,gold,score", [("#### twelve", 12, 1.0), ("#### Twenty-one.", 21, 1.0),
                                             ("#### twelve or thirteen", 12, 0.0)])
def test_gsm8k_reads_a_hash_line_in_number_words(text, gold, score):
    from rlvr.rewards.gsm8k import gsm8k_correctness
    assert gsm8k_correctness(text, final_answer=gold).score == score


@pytest.mark.parametrize("text", ["$\\boxed{5}$. Hmm, actually, 6.", "$\\boxed{5}$. Well, no: 6.",
                                  "#### 5\nHmm, wait, it is 6."])
def test_an_interjection_before_a_retracting_word_still_retracts(text):
    """"Hmm," before "actually" hid the retraction (the interjection pattern held a stray
    control character and never matched)."""
    from rlvr.rewards.gsm8k import gsm8k_correctness
    if text.startswith("####"):
        assert gsm8k_correctness(text, final_answer=5).score == 0.0
    else:
        assert math_reward(text, solution="5").outcome != "correct"


@FEW
@given(st.integers(1, 50), st.integers(51, 99))
def test_the_correct_answer_after_an_earlier_box_is_the_answer(wrong, right):
    text = (f"Many get $\\boxed{{{wrong}}}$ here, but that forgets a case; the correct answer "
            f"is $\\boxed{{{right}}}$.")
    assert math_reward(text, solution=str(right)).outcome == "correct"
    assert math_reward(text, solution=str(wrong)).outcome == "wrong"


def test_a_box_withdrawn_by_counting_twice():
    text = (r"12 x 11 = \boxed{132} ordered pairs. Each handshake is counted twice, so the "
            r"number of handshakes is 132 / 2 = \boxed{66}.")
    assert math_reward(text, solution="66").outcome == "correct"
    assert math_reward(text, solution="132").outcome == "wrong"
