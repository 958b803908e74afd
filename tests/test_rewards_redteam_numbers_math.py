"""Red-team rows (a second, independent round): new inputs modelled on 2025-2026 public
reports against math-verify, lm-evaluation-harness GSM8K/MATH extraction, Qwen2.5-Math and
open-r1/verl graders, and on what a GRPO policy drifts into. Each row is one instance of a
class closed by design (docs/rewards.md, "Numbers are read whole" and "Math answers");
the properties that guard the classes are in tests/test_math_properties.py and
tests/test_numbers_properties.py.
"""

from __future__ import annotations

import pytest

from rlvr.rewards.gsm8k import gsm8k_correctness
from rlvr.rewards.math import math_reward
from rlvr.rewards.qa import qa_reward
from rlvr.rewards.selfaware import selfaware_reward

# (completion, gold, outcome)
MATH = [
    # --- several final answers of different values: a list (as in selfaware) ---
    (r"First guess \boxed{5}. Second guess \boxed{6}.", "6", "listed_candidates"),
    # a box and a later "final answer is" sentence disagree (math-verify took either)
    (r"So the area is \boxed{12}. Therefore the final answer is 13.", "12",
     "listed_candidates"),
    (r"So the area is \boxed{12}. Therefore the final answer is 13.", "13",
     "listed_candidates"),
    ("\\boxed{5}\n\nFinal answer: 6", "5", "listed_candidates"),
    # ... while the same value twice is one answer, and separate boxes are the list a
    # gold list asks for
    ("\\boxed{840}.\n\nLet me explain.\n\n**Final Answer**\n\\boxed{840}", "840", "correct"),
    ("So \\boxed{004} is right.\n\n**Final Answer**\n\\boxed{004}", "4", "correct"),
    (r"\boxed{x = 3} or \boxed{x = 4}", "3, 4", "correct"),
    (r"\boxed{4}, \boxed{5}, \boxed{6}", "4, 5, 6", "correct"),
    # --- an = chain whose numeric sides differ states two values ---
    (r"$3 \times 4 = 12 = 13$", "13", "listed_candidates"),
    (r"\boxed{12 = 13}", "13", "listed_candidates"),
    (r"So $1 + 1 = 3$.", "3", "listed_candidates"),
    (r"$\text{Total} = 5 \times 3 = 16$", "16", "listed_candidates"),  # the label is no side
    (r"$\frac{22}{7} = 3.14$", "3.14", "correct"),      # a rounded side agrees to its places
    (r"$\frac{1}{3} = 0.34$", "0.34", "listed_candidates"),  # ... a misrounded one does not
    # --- a relation with nothing on its left, or a struck-out part, is not a value ---
    (r"\boxed{\neq 5}", "5", "partial_parse"),          # math-verify read 5 inside the box
    (r"\boxed{> 5}", "5", "partial_parse"),
    ("The answer is > 5.", "5", "partial_parse"),
    (r"\boxed{\cancel{6} 5}", "5", "partial_parse"),   # two answers, one struck out
    # ... which reasoning elsewhere may use freely
    (r"Since $x$ is $> 5$ and $\frac{\cancel{2}x}{\cancel{2}} = x$, we get \boxed{7}.", "7",
     "correct"),
    # --- a one-variable relation and an interval compare as the sets they name ---
    (r"\boxed{[2, \infty)}", r"x \geq 2", "correct"),   # math-verify: correct this way only
    (r"\boxed{x > 2}", r"(2, \infty)", "correct"),
    (r"\boxed{x > 2}", r"[2, \infty)", "wrong"),
    (r"\boxed{1 < x < 3}", r"(1, 3)", "wrong"),         # a pair gold is never an inequality
    (r"\boxed{\{x \mid x > 2\}}", "2", "wrong"),        # set-builder was read as 2
    (r"\boxed{\{x \mid x > 2\}}", "x > 2", "correct"),  # ... it is its condition
    # --- Unicode forms keep their value ---
    (r"\boxed{５}", "5", "correct"),                     # full-width digit (was no_answer)
    (r"\boxed{٥}", "5", "correct"),                      # Arabic-Indic digit
    (r"\boxed{2５}", "2", "wrong"),                      # 25, never 2
    ("\\boxed{10\u2009000}", "10000", "correct"),        # thin-space thousands
    ("\\boxed{10\u2009000}", "10", "wrong"),             # was read as 0 / 10
    ("The answer is 10\u2009000.", "10000", "correct"),  # was read as 10
    ("The answer is 1\u20092.", "1", "partial_parse"),   # two numbers, was read as 1
    ("The answer is 5\u00b2.", "5", "wrong"),            # a superscript is an exponent
    ("\\boxed{5\u00b2}", "25", "correct"),
    ("\\boxed{2\u00bd}", r"\frac52", "correct"),         # a vulgar fraction is its value
    # --- presentation commands carry no value; the value-changing ones are read ---
    (r"\boxed{\color{red}{5}}", "5", "correct"),
    (r"\boxed{\textcolor{red}{5}}", "5", "correct"),
    (r"\boxed{5\phantom{0}}", "5", "correct"),          # invisible: 5, not 50
    (r"\boxed{5\phantom{0}}", "50", "wrong"),
    (r"\boxed{5.}", "5", "correct"),                    # a final point (was no_answer)
    (r"\boxed{0.\overline{3}}", r"\frac{1}{3}", "correct"),  # a repeating decimal
    (r"\boxed{0.1\overline{6}}", r"\frac16", "correct"),
    (r"\boxed{0.\overline{3}}", "0.3", "wrong"),
    (r"\boxed{0.\overline{3}}", "0.333", "wrong"),       # exact 1/3 against a decimal
    (r"\boxed{50 \text{ percent}}", r"50\%", "correct"),  # the word is the sign
    (r"\boxed{50 \text{ percent}}", "50", "wrong"),       # ... and never dropped
    (r"\boxed{\emptyset}", r"\varnothing", "correct"),
    # --- one letter i is one symbol, and the imaginary unit when it is the only one ---
    (r"\boxed{3 + 4\mathrm{i}}", r"3 + 4i", "correct"),  # `4i` and `4{i}` differed
    (r"\boxed{(1+i)^2}", "2i", "correct"),
    (r"\boxed{i^2}", "-1", "correct"),
    (r"\boxed{3 - 4i}", r"3 + 4i", "wrong"),
    # --- public reports that stay closed (math-verify #14, #60; Qwen2.5-Math #29, #50) ---
    (r"$\frac{1}{2^{98}}$", r"\frac{1}{2^{99}}", "wrong"),
    (r"$1 + \frac{1}{\mathrm{e}}$", r"1 - \frac{1}{\mathrm{e}}", "wrong"),
    (r"$n=1, 2, 3$", r"n=2, 3, 4", "wrong"),
    (r"$D = (0, 1.5)$", r"D = (0, 1)", "wrong"),
    (r"\boxed{1,-3}", r"1,-2", "wrong"),
    (r"\boxed{3x - y + 13 = 0}", r"3x + 4y + 14 = 0", "wrong"),
    (r"\boxed{\left( 3, \frac{\pi}{2} \right)}", r"(3, \frac{\pi}{2})", "correct"),
    (r"\boxed{\pi \div 8 + 1 \div 2}", r"0.5 + \frac{\pi}{8}", "correct"),
    # a later red-team round: math-verify read `5 \approx 6` as 5 and dropped the rest; two sides
    # joined by \approx (\simeq, \doteq, U+2248) that differ beyond rounding are two values
    (r"\boxed{5 \approx 6}", "5", "listed_candidates"),
    (r"\boxed{5 \approx 6}", "6", "listed_candidates"),
    (r"$x \approx 5 \approx 7$", "5", "listed_candidates"),
    ("\\boxed{5 \u2248 6}", "5", "listed_candidates"),
    (r"\boxed{5 \simeq 6}", "5", "partial_parse"),
    (r"\boxed{\pi \approx 3.14}", r"\pi", "correct"),
    (r"\boxed{\frac{22}{7} \approx 3.14}", r"\frac{22}{7}", "correct"),
    (r"\boxed{x \approx 5}", "5", "correct"),
    (r"\boxed{\approx 5}", "5", "partial_parse"),
]


@pytest.mark.parametrize("completion,gold,outcome", MATH)
def test_math_red_team_rows(completion, gold, outcome):
    result = math_reward(completion, solution=gold)
    assert result.outcome == outcome, result.details


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


# (completion, aliases, mode, outcome)
QA = [
    # a range offers two candidates
    ("It was between 1990 and 2000.", ["2000"], "contains", "listed_candidates"),
    ("It was 1990-2000.", ["2000"], "contains", "listed_candidates"),
    ("It was 1990\u20132000.", ["1990"], "contains", "listed_candidates"),
    ("Somewhere from 1990 to 2000.", ["1990"], "contains", "listed_candidates"),
    ("The answer is 4 \u00b1 1.", ["4"], "contains", "listed_candidates"),
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


# selfaware folds text with NFKC before reading numbers: superscripts and vulgar fractions
# are spelt first (NFKC made "5\u00b2" into 52 and "2\u00bd" into 21/2)
@pytest.mark.parametrize("completion,gold,outcome", [
    ("The answer is 5\u00b2.", "52", "wrong"),
    ("It is 2\u00bd.", "2.5", "correct"),
    ("It is 2\u00bd.", "10.5", "wrong"),
    ("It is \u00bd.", "0.5", "correct"),
])
def test_selfaware_unicode_number_rows(completion, gold, outcome):
    result = selfaware_reward(completion, expected_answer=[gold], is_unanswerable=False)
    assert result.outcome == outcome, result.details
