"""Whole-value number reading (rlvr.rewards.answers.numbers) and the numeric rows of the qa
reward: ranges and "±" offer two candidates, a hedge or comparison symbol ("~5", "< 5") is
kept, Unicode forms and the percent word keep their value."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rlvr.rewards import score_rows
from rlvr.rewards.answers import numbers_equal, numbers_in, read_whole
from rlvr.rewards.gsm8k import gsm8k_correctness
from rlvr.rewards.qa import normalize_answer, qa_reward

# (text, the values read whole, in order)
TOKENS = [
    ("3/4", [Fraction(3, 4)]),
    ("Each friend gets 3/4 of a pizza.", [Fraction(3, 4)]),
    ("1 1/2 cups", [Fraction(3, 2)]),           # mixed number: 1 + 1/2
    ("1.5e3 and -2.5E-4", [Fraction(1500), Fraction(-1, 4000)]),
    ("1,234,567", [Fraction(1234567)]),
    ("-$5 or $-5", [Fraction(-5), Fraction(-5)]),
    ("50%", [Fraction(50)]),
    (".5", [Fraction(1, 2)]),
    ("108.92", [Fraction(10892, 100)]),        # one value, never the 108 inside it
    ("It is 25.", [Fraction(25)]),              # a full stop is not a decimal point
    # runs on into more number-like text: no number at all
    ("1.2.3", []), ("7,0", []), ("3/4/5", []), ("12:00", []), ("3/4x", []), ("12/0", []),
    ("v1.2", []), ("WW2", []),
    ("3-5", [Fraction(3), Fraction(5)]),        # a range is two numbers
    # (red-team inputs modelled on public grader bug reports) fraction words divide, scale
    # words chain, \\frac is a number, thousands groups take decimals; "quarters" is also a
    # coin: no single value
    ("3 halves", [Fraction(3, 2)]), ("2 thirds", [Fraction(2, 3)]), ("1 third", [Fraction(1, 3)]),
    ("5 quarters", []),
    ("5 hundred thousand", [Fraction(500000)]),  # 5 * 100 * 1000
    ("\\frac{3}{4}", [Fraction(3, 4)]), ("1 \\dfrac{1}{2}", [Fraction(3, 2)]),
    ("1,234.56", [Fraction(123456, 100)]),
    ("3 pairs", [Fraction(3)]),                  # a count noun, not a multiplier
]


@pytest.mark.parametrize("text,values", TOKENS)
def test_numbers_are_read_whole(text, values):
    assert numbers_in(text) == values


@pytest.mark.parametrize("text,value", [
    ("18 dollars.", Fraction(18)), ("$5.", Fraction(5)), ("3/4", Fraction(3, 4)),
    ("5 or 6", None), ("2 + 3 = 5", None), ("12:00", None), ("no digits", None),
    # a value named to be retracted or doubted states nothing (a retracted "####" value was
    # paid)
    ("5, no wait", None), ("5 is wrong", None), ("5?", None), ("5 (not 6)", None),
    ("5 which I now see is off", None),          # more than MAX_WORDS (4) words after it
    ("The answer is 5", Fraction(5)),            # four words before it: a lead-in
    ("18 square feet", Fraction(18)),
    ("\\boxed{18}", Fraction(18)),
])
def test_read_whole_needs_exactly_one_number(text, value):
    assert read_whole(text) == value


@pytest.mark.parametrize("a,b,equal", [
    (0.5, Fraction(1, 2), True),           # same value, two spellings
    (18, Fraction(1800, 100), True),       # 18 == 18.00
    (1e-8, 2e-8, False),                   # a factor of two apart, however small
    (3.0e-10, 3.1e-10, False),             # relative gap 0.1/3.1 = 3.2% > 1e-6
    (Fraction(1, 3), 0.3333333, True),     # |1/3 - 0.3333333| / (1/3) = 1e-7 <= 1e-6
    (10000001, 10000000, False),           # integers compare exactly (relative 1e-7)
    (0, 1e-300, False),                    # zero equals only zero
    # an integer compares exactly, whatever the other side's decimals (a decimal point on
    # one side used to make it a tolerance comparison)
    (Fraction(5000002, 5), 1000000, False),  # 1000000.4 is not 1000000 (relative 4e-7)
    (1000000.0, 1000000, True),
    (4.9999999, 5, False),
    (Fraction(1, 3), 0.33333333, True),     # two non-integers keep the tolerance
])
def test_numbers_equal_is_relative(a, b, equal):
    assert numbers_equal(a, b) is equal


def test_normalize_keeps_decimal_points_and_drops_thousands_commas():
    assert normalize_answer("2.5") == "2.5"       # SQuAD's script would give "25"
    assert normalize_answer("3.14") == "3.14"
    assert normalize_answer("1,000 dollars") == "1000 dollars"
    assert normalize_answer("U.S.A.") == "usa"    # a point between letters still goes


# (completion, aliases, mode, expected score)
QA_NUMERIC = [
    ("<answer>25</answer>", ["2.5"], "exact", 0.0),     # 25 is not 2.5, 314 not 3.14: both
    ("314", ["3.14"], "exact", 0.0),                    # paid once normalisation dropped "."
    ("<answer>2.50</answer>", ["2.5"], "exact", 1.0),   # 2.50 = 2.5
    ("5/2", ["2.5"], "exact", 1.0),                     # 5/2 = 2.5
    ("1,000", ["1000"], "exact", 1.0),
    ("3.14", ["3.14"], "exact", 1.0),
    ("It is 108.92, I think", ["108"], "contains", 0.0),  # 108 is not inside 108.92
    ("It is 108, I think", ["108"], "contains", 1.0),
    ("not 108", ["108"], "contains", 0.0),                # negated
    ("about 2.5 metres", ["25"], "contains", 0.0),
    # red-team rows: signs, leading points and punctuation between digits keep their meaning
    ("<answer>-5</answer>", ["5"], "exact", 0.0),
    ("5", ["-5"], "exact", 0.0),
    ("<answer>.5</answer>", ["5"], "exact", 0.0),
    ("<answer>0.5</answer>", [".5"], "exact", 1.0),
    ("3-4", ["34"], "exact", 0.0),
    ("1:2", ["12"], "exact", 0.0),
    ("2^10", ["210"], "exact", 0.0),
    ("It is -5 degrees.", ["5"], "contains", 0.0),
    ("It is 1,5 metres.", ["15"], "contains", 0.0),
    # (red-team inputs modelled on public grader bug reports) thousands groups with
    # decimals, a signed currency, fraction words
    ("1,234.56", ["1234.56"], "exact", 1.0),    # was "1 234.56": two numbers
    ("<answer>-$1</answer>", ["-1"], "exact", 1.0),  # property finding: the sign was lost
    ("<answer>-$1</answer>", ["1"], "exact", 0.0),
    ("3 halves", ["1.5"], "exact", 1.0),
    # a numeric alias offered beside another number is a list of candidates
    ("It is 4 or 5.", ["5"], "contains", 0.0),
    ("It is either 5 or maybe 6.", ["5"], "contains", 0.0),
    ("He was 41 in 1876.", ["41"], "contains", 1.0),    # two numbers, no disjunction
]


@pytest.mark.parametrize("completion,aliases,mode,score", QA_NUMERIC)
def test_qa_numeric_rows(completion, aliases, mode, score):
    assert qa_reward(completion, aliases=aliases, mode=mode).score == score


@pytest.mark.parametrize("completion,gold,fallback,outcome", [
    ("#### 5 million", "5", False, "wrong"),            # 5 million is 5000000
    ("#### 5 million", "5000000", False, "correct"),
    ("#### 5 dozen", "60", False, "correct"),
    ("#### 2 and a half", "2.5", False, "correct"),
    ("#### minus 5", "5", False, "wrong"),               # -5
    ("#### negative 5", "-5", False, "correct"),
    ("#### 5 or maybe six", "5", False, "no_answer"),   # a spelled-out second number
    ("#### 5 is not the answer", "5", False, "no_answer"),
    ("#### between five and 6", "6", False, "no_answer"),
    ("answer: 5 or 6", "5", "explicit", "no_answer"),
    ("the answer is approximately 5", "5", "explicit", "correct_fallback"),
    ("#### \\$5", "5", False, "correct"),              # LaTeX-escaped dollar
    ("#### 1e100000000", "5", False, "no_answer"),       # not read: no hang
    ("#### " + "9" * 5000, "5", False, "no_answer"),     # not read: no int() limit error
    # a value named only to be retracted is no answer, whichever it is (a red-team row paid
    # the retracted value)
    ("#### 5, no wait, 6", "6", False, "no_answer"),
    ("#### 5, no wait, 6", "5", False, "no_answer"),
    ("#### 5 (not 6)", "5", False, "no_answer"),
    ("#### 5 is wrong", "5", False, "no_answer"),
    ("#### 5\nActually, no: 6", "5", False, "no_answer"),  # taken back on the next line
    ("#### 5\n", "5", False, "correct"),
    ("the answer is 5, no wait, 6", "5", "explicit", "no_answer"),
    ("The answer is 5. Or maybe 6.", "5", "explicit", "no_answer"),
    ("The answer is 5, since 2 + 3 = 5.", "5", "explicit", "correct_fallback"),
    # plural fraction words, thousands with decimals, count words
    ("#### 3 halves", "1.5", False, "correct"),
    ("#### 2 thirds", "2/3", False, "correct"),
    ("#### 5 quarters", "5", False, "no_answer"),       # a coin count or 5/4: no value
    ("#### 1,234.56", "1234.56", False, "correct"),
    ("#### 5 dozen", "60", False, "correct"),
    ("#### 3 pairs", "3", False, "correct"),            # pairs are counted, not doubled
    ("#### a couple", "2", False, "no_answer"),         # no digit, no number
    # an integer gold compares exactly
    ("#### 1000000.4", "1000000", False, "wrong"),
    ("#### 1000000.0", "1000000", False, "correct"),
    ("#### \\frac{3}{4}", "0.75", False, "correct"),
    ("#### \\boxed{18}", "18", False, "correct"),
])
def test_gsm8k_red_team_rows(completion, gold, fallback, outcome):
    assert gsm8k_correctness(completion, final_answer=gold, fallback=fallback).outcome == outcome


def test_score_rows_reads_the_issue_rows():
    rows = [{"completion": "Each friend gets 3/4 of a pizza.\n#### 3/4", "final_answer": "3"},
            {"completion": "#### 1/2", "final_answer": "0.5"}]
    assert [r.score for r in score_rows("gsm8k_correctness", rows)] == [0.0, 1.0]


# ---------------------------------------------------------------- qa: ranges, hedge symbols, Unicode
# (completion, aliases, mode, outcome)
QA = [
    # a range as the whole answer offers its ends; inside a sentence it is paid (EVOUNA's
    # people judged every such answer it used to refuse right); "4 or 5" is a list
    ("It was between 1990 and 2000.", ["2000"], "contains", "listed_candidates"),
    ("It was 1990-2000.", ["2000"], "contains", "listed_candidates"),
    ("It was 1990\u20132000.", ["1990"], "contains", "listed_candidates"),
    ("The tower was built between 1990 and 2000 by the city.", ["2000"], "contains",
     "correct"),
    ("It was 1990 or 2000.", ["1990"], "contains", "listed_candidates"),
    ("The answer is 4 \u00b1 1.", ["4"], "contains", "correct"),
    ("Chapter 5, verse 6.", ["5"], "contains", "correct"),  # two numbers, no range
    # a hedge or comparison symbol is kept by normalisation
    ("<answer>~5</answer>", ["5"], "exact", "wrong"),
    ("<answer>< 5</answer>", ["5"], "exact", "wrong"),
    ("It is ~5 km.", ["5"], "contains", "wrong"),
    # Unicode forms and the percent word
    ("<answer>1\u2009000\u2009000</answer>", ["1000000"], "exact", "correct"),
    ("<answer>\u00bd</answer>", ["0.5"], "exact", "correct"),
    ("<answer>-\uff15</answer>", ["-5"], "exact", "correct"),  # the sign survived NFKC-less
    ("<answer>\u22125</answer>", ["5"], "exact", "wrong"),
    ("<answer>50 percent</answer>", ["50%"], "exact", "correct"),
]


@pytest.mark.parametrize("completion,aliases,mode,outcome", QA)
def test_qa_red_team_rows(completion, aliases, mode, outcome):
    result = qa_reward(completion, aliases=aliases, mode=mode)
    assert result.outcome == outcome, result.details
