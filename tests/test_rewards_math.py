"""The `math` reward (math-verify plus guards against partial readings).

Tables of rows, the last one modelled on public reports against math-verify, MATH answer
extraction and other graders: several final answers of different values, an `=` or
`\\approx` chain whose sides differ, a relation with nothing on its left or a struck-out
part, one-variable relations against intervals, Unicode and presentation forms, repeating
decimals, the percent word and the imaginary unit. The properties that generate these
classes are in test_math_properties.py.
"""

from __future__ import annotations

import threading

import pytest

from rlvr.rewards import get_reward
import rlvr.rewards.math as math_module
from rlvr.rewards.math import math_reward

# (completion, solution, expected score, expected outcome)
MATH = [
    # a fine gold 6 against a boxed 3: not equivalent
    ("So the answer is \\boxed{3}.", "6", 0.0, "wrong"),
    # the same gold against a boxed 6
    ("So the answer is \\boxed{6}.", "6", 1.0, "correct"),
    # \text{13} and 13 are the same number (bare LaTeX is parsed inside $...$)
    ("\\text{13}", "13", 1.0, "correct"),
    ("13", "\\text{13}", 1.0, "correct"),
    # symbolic equivalence: (x+1)^2 = x^2 + 2x + 1; 1/2 = 0.5
    ("\\boxed{x^2+2x+1}", "$(x+1)^2$", 1.0, "correct"),
    ("0.5", "\\frac12", 1.0, "correct"),
    # an unparseable gold gives None, never 1.0
    ("\\boxed{3}", "\\frac{", None, "bad_gold"),
    ("\\boxed{3}", "hello world", None, "bad_gold"),
    ("\\boxed{3}", "", None, "bad_gold"),
    # a response with nothing to parse is no_answer (0.0), not an error
    ("I don't know.", "6", 0.0, "no_answer"),
]

# Fault 1: a reading that dropped part of the answer is not trusted.
PARTIAL = [
    # plain-text equations were read as their right side 0 (scored 1.0): now compared as
    # equations, so another line is wrong and the same line (any multiple) is right
    ("So the line is x - 3y + 5 = 0.", "2x + y - 7 = 0", 0.0, "wrong"),
    ("So the line is 4x + 2y - 14 = 0.", "2x + y - 7 = 0", 1.0, "correct"),
    ("So the line is y = 7 - 2x.", "2x + y - 7 = 0", 1.0, "correct"),
    # an equation is not the value of its right side, in text or LaTeX
    ("x - 3y + 5 = 0", "0", 0.0, "wrong"),
    ("$x - 3y + 5 = 0$", "0", 0.0, "wrong"),
    ("$2x = 10$", "10", 0.0, "wrong"),
    # ... but an assignment, a numeric chain or a labelled value gives its value
    ("x = 5", "5", 1.0, "correct"),
    ("$x = 5$", "5", 1.0, "correct"),
    ("48/2 = 24", "24", 1.0, "correct"),
    ("$2 + 3 = 5$", "5", 1.0, "correct"),
    ("$P(A) = \\frac{1}{2}$", "0.5", 1.0, "correct"),
    ("$\\text{Total} = 5 \\times 3 = 15$", "15", 1.0, "correct"),
    # plain-text terms and factors were dropped (5x and x + 5 read as 5)
    ("The answer is 5x.", "5", 0.0, "wrong"),
    ("So x + 5", "5", 0.0, "wrong"),
    # a truncated formula does not give its inner number
    ("So x = (5 + 3", "3", 0.0, "partial_parse"),
    # the unit rule stripped variable letters (c, h, ab): they count again
    ("$\\frac{a}{b}c$", "$\\frac{a}{b}$", 0.0, "wrong"),
    ("$\\frac{a}{b}c$", "$\\frac{ac}{b}$", 1.0, "correct"),
    ("$\\frac{1}{3}\\pi r^2 h$", "$\\frac{1}{3}\\pi r^2$", 0.0, "wrong"),
    ("$\\frac12 ab$", "$\\frac{1}{2}$", 0.0, "wrong"),
    # ... while a unit after a bare number stays a unit
    ("$5 m$", "5", 1.0, "correct"),
    ("$5\\text{ cm}$", "5", 1.0, "correct"),
    # math-verify's fallback to the last side of an unparseable = chain
    ("$a = 3 \\Rightarrow = 5$", "5", 0.0, "partial_parse"),
    ("\\boxed{5}", "$a = 3 \\Rightarrow = 5$", None, "bad_gold"),
]

# Fault 2: golds math-verify reads as undefined, and a:b forms.
COLON_AND_UNDEFINED = [
    # $12:00$ was 12/0 = zoo, so even the identical response scored 0.0
    ("$12:00$", "$12:00$", 1.0, "correct"),
    ("The meeting starts at 12:00.", "$12:00$", 1.0, "correct"),
    ("\\boxed{12:00}", "12:00", 1.0, "correct"),
    ("12:00", "12", 0.0, "wrong"),
    # $3:30$ was 1/10, so the time 1:10 matched it
    ("3:30", "$3:30$", 1.0, "correct"),
    ("$1:10$", "$3:30$", 0.0, "wrong"),
    # a ratio is compared as written
    ("$2:3$", "$2:3$", 1.0, "correct"),
    ("$4:6$", "$2:3$", 0.0, "wrong"),
    ("$\\frac{2}{3}$", "$2:3$", 0.0, "wrong"),
    # a division by zero is no gold
    ("\\boxed{5}", "1/0", None, "bad_gold"),
    ("\\boxed{5}", "$\\frac{1}{0}$", None, "bad_gold"),
    ("\\frac{1}{0}", "\\frac{1}{0}", None, "bad_gold"),
    # infinity is a normal answer
    ("$\\infty$", "$\\infty$", 1.0, "correct"),
    ("$(-\\infty, 3]$", "$(-\\infty,3]$", 1.0, "correct"),
]

# Fault 3: numbers compare at every scale.
NUMBERS = [
    ("1e-8", "2e-8", 0.0, "wrong"),
    ("1e-8", "1e-9", 0.0, "wrong"),  # both were read as 1
    ("1e-8", "$10^{-8}$", 1.0, "correct"),
    ("0.00000001", "0.00000002", 0.0, "wrong"),  # both were 0 after rounding to 6 decimals
    ("3.0e-10", "3.1e-10", 0.0, "wrong"),
    ("$3.0\\times10^{-10}$", "$3.1\\times 10^{-10}$", 0.0, "wrong"),
    ("$3.0\\times10^{-10}$", "3e-10", 1.0, "correct"),
    ("$\\frac{\\sqrt{3}}{10^{20}}$", "$\\frac{\\sqrt{2}}{10^{20}}$", 0.0, "wrong"),
    ("$\\{10^{-8}\\}$", "$\\{2 \\cdot 10^{-8}\\}$", 0.0, "wrong"),
    # integers are exact; a decimal is within 1e-6 relative
    ("100000000000000000001", "100000000000000000000", 0.0, "wrong"),
    ("1000001", "1000000", 0.0, "wrong"),
    # an integer gold compares exactly, even against a decimal (a decimal point used to turn
    # it into a tolerance comparison): 1.0e20 is
    # 100000000000000000000, one less than the gold; 1.000001 is not 1
    ("1.0e20", "100000000000000000001", 0.0, "wrong"),
    ("1.0e20", "100000000000000000000", 1.0, "correct"),
    ("1.000001", "1", 0.0, "wrong"),
    ("1.000002", "1", 0.0, "wrong"),
    ("1.000001", "1.0", 0.0, "wrong"),  # 1.0 is an integer too, however it is written
    # ... while a non-integer gold keeps the relative tolerance: 1e-7 / 2.5000001 < 1e-6
    ("2.5000001", "2.5", 1.0, "correct"),
    ("3", "3.14159", 0.0, "wrong"),     # an integer response against a decimal: exact
    ("0.3333333", "$\\frac13$", 1.0, "correct"),
    ("0.3333", "$\\frac13$", 0.0, "wrong"),
    ("3.4641016", "$2\\sqrt{3}$", 1.0, "correct"),
    # forms of one value stay equal
    ("$\\frac{1}{2}$", "0.5", 1.0, "correct"),
    ("18.00", "18", 1.0, "correct"),
    ("$\\sqrt{12}$", "$2\\sqrt{3}$", 1.0, "correct"),
    ("0.1", "$10\\%$", 1.0, "correct"),
]

# A reading that drops a token keeps its value or is partial (math-verify's partial readings
# were trusted and paid wrong answers: red-team inputs from public reports); kinds compare only
# with their own kind; candidates and retractions; golds are read as LaTeX, whole.
DROPPED = [
    # \mathrm{e} and \text{i} are constants, never units: 2\mathrm{e} was read as 2
    ("$\\boxed{2\\mathrm{e}}$", "2", 0.0, "wrong"),
    ("$\\boxed{2\\mathrm{e}}$", "$2e$", 1.0, "correct"),
    ("$\\boxed{3\\mathrm{i}}$", "3", 0.0, "wrong"),
    ("$\\mathrm{e}^2$", "$e^2$", 1.0, "correct"),
    # a scale word multiplies (it was dropped: 5 million matched 5)
    ("\\boxed{5\\text{ million}}", "5", 0.0, "wrong"),
    ("\\boxed{5\\text{ million}}", "5000000", 1.0, "correct"),
    ("The answer is 5 million.", "5", 0.0, "wrong"),
    ("$5$ million", "5", 0.0, "wrong"),
    # plain numbers are read with their words, as in rlvr.rewards.answers.numbers (the words
    # were dropped: each of these matched the bare number)
    ("The answer is 3 halves.", "3", 0.0, "wrong"),
    ("The answer is 3 halves.", "1.5", 1.0, "correct"),
    ("The answer is minus 5.", "5", 0.0, "wrong"),
    ("The answer is 2 and a half.", "2.5", 1.0, "correct"),
    ("The answer is 5 hundred.", "5", 0.0, "wrong"),
    ("The answer is 5 dozen.", "60", 1.0, "correct"),
    ("The answer is 5 quarters.", "5", 0.0, "partial_parse"),  # coins or 5/4: no value
    ("The answer is 12 apples.", "12", 1.0, "correct"),
    # a base subscript is the value in that base: 101_2 is 5, never 101
    ("\\boxed{101_2}", "101", 0.0, "wrong"),
    ("\\boxed{101_2}", "5", 1.0, "correct"),
    ("\\boxed{101_2}", "101_2", 1.0, "correct"),
    ("\\boxed{101}", "101_2", 1.0, "correct"),      # the gold's digits, its base stated
    ("\\boxed{129_2}", "5", 0.0, "partial_parse"),  # 9 is not a base-2 digit
    # a trailing \text{} is dropped only when it is a unit after a number
    ("\\boxed{5\\text{ (not 6)}}", "5", 0.0, "partial_parse"),
    ("\\boxed{\\frac{1}{2}\\text{ squared}}", "\\frac{1}{2}", 0.0, "partial_parse"),
    ("\\boxed{2\\text{ dollars}}", "2", 1.0, "correct"),
    ("\\boxed{5\\,\\mathrm{cm}}", "5", 1.0, "correct"),
    ("\\boxed{5\\text{th}}", "5", 1.0, "correct"),          # an ordinal suffix
    ("\\boxed{5\\, \\text{million}}", "5000000", 1.0, "correct"),
    ("$\\boxed{2\\,\\mathrm{e}}$", "2", 0.0, "wrong"),
    ("$\\boxed{2{\\rm e}}$", "2", 0.0, "wrong"),
    # the variable of an equation counts when both sides name one
    ("\\boxed{y = 5}", "x = 5", 0.0, "wrong"),
    ("\\boxed{x = 5}", "x = 5", 1.0, "correct"),
    ("\\boxed{5}", "x = 5", 1.0, "correct"),
    # thousands groups keep their value, also before a percent sign (property finding:
    # `1,000\%` was the set {1, 0%})
    ("\\boxed{1,000\\%}", "1000\\%", 1.0, "correct"),
    # a group that opens with 0 is no thousands group (Math-Verify's own case: the gold
    # "0,111" is 0.111 written with a decimal comma, and 111 was paid for it)
    ("\\boxed{111}", "0,111", 0.0, "wrong"),
    ("\\boxed{10,080}", "10,080", 1.0, "correct"),
    ("\\boxed{080}", "10,080", 0.0, "wrong"),
    ("\\boxed{(1,100)}", "(1, 100)", 1.0, "correct"),  # inside brackets: a pair
    # a response's percent sign is never dropped: 50% is 1/2 (it matched 50); a gold's
    # percent accepts its number of percent, its value, or the percent
    ("\\boxed{50\\%}", "50", 0.0, "wrong"),
    ("The answer is 50%.", "50", 0.0, "wrong"),
    ("\\boxed{5\\%}", "5", 0.0, "wrong"),
    ("\\boxed{50\\%}", "0.5", 1.0, "correct"),
    ("\\boxed{500\\%}", "5", 1.0, "correct"),
    ("\\boxed{50}", "50\\%", 1.0, "correct"),
    ("\\boxed{0.5}", "50\\%", 1.0, "correct"),
    ("\\boxed{50\\%}", "50\\%", 1.0, "correct"),
    # an integer gold compares exactly: a decimal point is no tolerance
    ("\\boxed{1000000.4}", "1000000", 0.0, "wrong"),
    ("\\boxed{1000000.0}", "1000000", 1.0, "correct"),
]
KINDS = [
    # an interval is not the set of its endpoints, either way round
    ("$\\{1, 3\\}$", "$(1, 3)$", 0.0, "wrong"),
    ("$(1,3)$", "$\\{1, 3\\}$", 0.0, "wrong"),
    ("$x \\geq 2$", "$x > 2$", 0.0, "wrong"),
    # a relation in one variable and an interval compare as the sets of reals they name,
    # either way round (math-verify allowed it one way round only); never with a pair
    ("$[2, \\infty)$", "$x \\geq 2$", 1.0, "correct"),
    ("$x \\geq 2$", "$[2, \\infty)$", 1.0, "correct"),
    ("$(2, \\infty)$", "$x \\geq 2$", 0.0, "wrong"),
    ("$1 < x < 3$", "$(1, 3)$", 0.0, "wrong"),  # (1, 3) may be a point
    ("$2 \\leq x$", "$x \\geq 2$", 1.0, "correct"),
    # a component of a tuple, list, interval, \pm or matrix gold is never the answer
    ("\\boxed{3}", "(1, 3)", 0.0, "wrong"),
    ("\\boxed{3}", "1, 3", 0.0, "wrong"),
    ("\\boxed{3}", "\\pm 3", 0.0, "wrong"),
    ("\\boxed{2}", "\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}", 0.0, "wrong"),
    ("\\boxed{4}", "x \\in [1, 4]", 0.0, "wrong"),
    # ... and the whole answer is (these golds were read as their last number)
    ("\\boxed{(1, 3)}", "(1, 3)", 1.0, "correct"),
    ("\\boxed{1, 3}", "1, 3", 1.0, "correct"),
    ("\\boxed{3, 1}", "1, 3", 1.0, "correct"),      # a list of solutions has no order
    ("\\boxed{\\pm 3}", "\\pm 3", 1.0, "correct"),
    ("\\boxed{-3, 3}", "\\pm 3", 1.0, "correct"),
    ("\\boxed{\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}}",
     "\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}", 1.0, "correct"),
    ("\\boxed{11\\sqrt2}", "11\\sqrt2", 1.0, "correct"),    # the gold was read as 11
    ("\\boxed{27000}", "27,\\!000", 1.0, "correct"),       # the gold was read as 27
    ("\\boxed{\\{3\\}}", "3", 1.0, "correct"),            # a one-element set is its element
    ("\\boxed{(4, 5)}", "4, 5", 0.0, "wrong"),              # a pair is not a list
    # plain-text mixed numbers are one value; a number beside a formula is not dropped
    ("The answer is 1 1/2.", "\\frac32", 1.0, "correct"),  # was 1/2: the 1 was dropped
    ("The answer is 2 3.", "3", 0.0, "partial_parse"),
    ("The answer is 2 3.", "2", 0.0, "partial_parse"),
    ("\\boxed{2 3}", "5", 0.0, "partial_parse"),        # LaTeX read 2 3 as 2 + 3
    ("\\boxed{1 1/2}", "1.5", 1.0, "correct"),          # property finding: was 1
    ("\\boxed{10\\,000}", "10000", 1.0, "correct"),      # thin-space thousands
]
CANDIDATES = [
    # two different values offered in one sentence: listed_candidates
    ("It is 4 or 5.", "5", 0.0, "listed_candidates"),
    ("either 3 or 7", "7", 0.0, "listed_candidates"),
    ("x=2, or maybe x=3", "3", 0.0, "listed_candidates"),
    ("The answer is \\boxed{4} or \\boxed{5}.", "5", 0.0, "listed_candidates"),
    # the same value twice is one answer; "or" without a second value is no list
    ("The answer is 4, or equivalently $\\frac{8}{2}$.", "4", 1.0, "correct"),
    ("Using 2 or more terms, the sum is 10.", "10", 1.0, "correct"),
    ("Since x = 2 or x = -3 and x must be positive, x = 2.", "2", 1.0, "correct"),
    # ... but "x = 2 or x = 3" is the list the gold "2, 3" asks for
    ("The answer is 2 or 3.", "2, 3", 1.0, "correct"),
    ("x = 2 or x = 3", "\\{2, 3\\}", 1.0, "correct"),
    ("The answer is 2 or 5.", "2, 3", 0.0, "wrong"),
    # an answer taken back states none
    ("\\boxed{5}. Actually, no: it is 6.", "5", 0.0, "wrong"),  # the answer read is 6
    ("\\boxed{5}. Actually, no: it is 6.", "6", 1.0, "correct"),
    ("The answer is \\boxed{5}, no wait.", "5", 0.0, "no_answer"),
    # ... and so does a denied one
    ("The answer is not $\\boxed{5}$.", "5", 0.0, "no_answer"),
    ("It is not 5.", "5", 0.0, "no_answer"),
    ("x is not negative, so x = 5", "5", 1.0, "correct"),  # the negation is not next to it
]
GOLDS = [
    # a gold is LaTeX read whole: prose and text around math are no gold
    ("\\boxed{10}", "\\$10", 1.0, "correct"),
    ("\\boxed{5}", "The answer is $5$.", None, "bad_gold"),
    ("\\boxed{5}", "five apples", None, "bad_gold"),
    ("\\boxed{3}", "The answer is $\\boxed{3}$.", 1.0, "correct"),  # a boxed solution
]


@pytest.mark.parametrize("completion,solution,score,outcome",
                         MATH + PARTIAL + COLON_AND_UNDEFINED + NUMBERS + DROPPED + KINDS
                         + CANDIDATES + GOLDS)
def test_math_table(completion, solution, score, outcome):
    result = math_reward(completion, solution=solution)
    assert (result.score, result.outcome) == (score, outcome), result.details
    if score is not None:
        low, high = get_reward("math").score_range
        assert low <= result.score <= high


def test_math_relative_tolerance_is_documented():
    assert math_module.REL_TOL == 1e-6
    assert "REL_TOL = 1e-6" in math_module.__doc__


def test_math_gold_and_prediction_order(monkeypatch):
    # math-verify documents verify(gold, target): check we call it that way round
    # (single numbers are compared without it, so use expressions)
    calls = []
    import math_verify

    real = math_verify.verify

    def spy(gold, target, **kwargs):
        calls.append((gold, target))
        return real(gold, target, **kwargs)

    monkeypatch.setattr(math_verify, "verify", spy)
    math_reward("\\boxed{x+7}", solution="$x+5$")
    assert [str(x) for x in calls[0][0]] == ["x + 5"]
    assert [str(x) for x in calls[0][1]] == ["x + 7"]


def test_math_timeouts_are_handled(monkeypatch):
    from math_verify.errors import TimeoutException

    def slow_read(text, *args, **kwargs):
        if "slow" in text:
            raise TimeoutException("took too long")
        return real(text, *args, **kwargs)

    real = math_module._read
    monkeypatch.setattr(math_module, "_read", slow_read)
    math_module._parse_gold.cache_clear()
    # a response whose parsing times out scores 0.0 (unverifiable), labelled timeout
    r = math_reward("slow \\boxed{6}", solution="6")
    assert (r.score, r.outcome) == (0.0, "timeout")
    # a gold whose parsing times out cannot be scored
    r = math_reward("\\boxed{6}", solution="slow \\boxed{6}")
    assert (r.score, r.outcome) == (None, "bad_gold") and "timed out" in r.details["error"]
    math_module._parse_gold.cache_clear()


def test_math_real_alarm_interrupts_a_slow_comparison(monkeypatch):
    import time

    def slow_same(gold, pred):
        time.sleep(3)
        return True, None

    monkeypatch.setattr(math_module, "_same", slow_same)
    r = math_reward("\\boxed{6}", solution="6", timeout_s=1)
    assert (r.score, r.outcome) == (0.0, "timeout")


def test_math_outside_the_main_thread_runs_without_alarm():
    out = []
    worker = threading.Thread(target=lambda: out.append(
        math_reward("So the line is x - 3y + 5 = 0.", solution="2x + y - 7 = 0")))
    worker.start()
    worker.join()
    assert (out[0].score, out[0].outcome) == (0.0, "wrong")
    assert out[0].details["note"] == "timeout off outside the main thread"


# ---------------------------------------------------------------- red-team rows
# New inputs modelled on public reports against math-verify, lm-evaluation-harness MATH
# extraction, Qwen2.5-Math and open-r1/verl graders, and on what a GRPO policy drifts
# into; each row is one instance of a class closed by design (docs/rewards_math.md),
# whose property is in tests/test_math_properties.py.
# (completion, gold, outcome)
MATH_RED_TEAM = [
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


@pytest.mark.parametrize("completion,gold,outcome", MATH_RED_TEAM)
def test_math_red_team_rows(completion, gold, outcome):
    result = math_reward(completion, solution=gold)
    assert result.outcome == outcome, result.details
