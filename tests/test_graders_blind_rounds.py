"""Classes found by the tenth to thirteenth blind red-team rounds
(benchmarks/redteam/blind10.jsonl to blind13.jsonl), each guarded by a property that
generates it and a few rows. Tenth: a based gold, assignments for a
tuple, a bracket that restates the value, a later "correct answer", run-on chains,
space-grouped thousands, an explanation after the `####` line, numbers said in parts,
powers of ten, runs of numbers, the gold's other aliases, one-word parallel frames,
fallbacks, a range narrowed by a later answer, an alias named inside a longer one, short
place titles, and the detector's certainty disclaimers, asides and premise explanations.
Eleventh: ignorance of what the question does not ask, exact mode's answer frame and
emphasis, unevaluated arithmetic, hyphenated number words, totals after the answer, and
answer fields beside a decline. Twelfth: declines worded as missing records, figures or
sources, titles with a year, names run together, a unit after a number in exact mode, and
unevaluated factorials. Thirteenth: alternatives offered after the answer, bare lines of
names, a box withdrawn by "counted twice", estimates only for questions that ask a number,
a premise rejected then corrected with facts, a question about what cannot be known, and
disclaimers of memory.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from rlvr.rewards.abstention_detection import detect_abstention
from rlvr.rewards.answers.forms import word_numbers
from rlvr.rewards.answers.numbers import read_whole
from rlvr.rewards.gsm8k import gsm8k_correctness
from rlvr.rewards.math import math_reward
from rlvr.rewards.qa import qa_reward
from rlvr.rewards.selfaware import STRICT_PRESET, selfaware_reward

FEW = settings(max_examples=25, deadline=None)


def _digits(n: int, base: int) -> str:
    out = ""
    while n:
        n, r = divmod(n, base)
        out = str(r) + out
    return out or "0"


# ---------------------------------------------------------------- math
@FEW
@given(st.integers(2, 500), st.integers(2, 9))
def test_a_based_gold_wants_its_digits_not_the_decimal_value(n, base):
    digits = _digits(n, base)
    gold = f"{digits}_{base}"
    assert math_reward(f"$\\boxed{{{digits}}}$", solution=gold).outcome == "correct"
    assert math_reward(f"$\\boxed{{{digits}_{{{base}}}}}$", solution=gold).outcome == "correct"
    if digits != str(n):  # "ten is \boxed{10}" for the gold 1010_2: the decimal, not binary
        assert math_reward(f"$\\boxed{{{n}}}$", solution=gold).outcome == "wrong"


@FEW
@given(st.integers(-20, 20), st.integers(-20, 20))
def test_assignments_to_two_letters_are_the_tuple_in_letter_order(a, b):
    gold = f"({a}, {b})"
    assert math_reward(f"Solving gives x = {a}, y = {b}.", solution=gold).outcome == "correct"
    assert math_reward(f"So $y = {b}$ and $x = {a}$.", solution=gold).outcome == "correct"
    if a != b:
        assert math_reward(f"Solving gives x = {b}, y = {a}.", solution=gold).outcome == "wrong"


@FEW
@given(st.integers(1, 9), st.integers(2, 12))
def test_a_bracket_that_restates_the_value_rounded_is_no_rival(p, q):
    value = Fraction(p, q)
    percent = f"{float(value) * 100:.1f}%"
    gold = f"\\frac{{{p}}}{{{q}}}"
    said = f"The probability is {p}/{q} (about {percent})."
    assert math_reward(said, solution=gold).outcome == "correct"
    off = f"{float(value) * 100 + 7:.1f}%"  # 7 points away: a second value, never paid
    assert math_reward(f"The probability is {p}/{q} (about {off}).", solution=gold).outcome \
        != "correct"


@FEW
@given(st.integers(1, 50), st.integers(51, 99))
def test_the_correct_answer_after_an_earlier_box_is_the_answer(wrong, right):
    text = (f"Many get $\\boxed{{{wrong}}}$ here, but that forgets a case; the correct answer "
            f"is $\\boxed{{{right}}}$.")
    assert math_reward(text, solution=str(right)).outcome == "correct"
    assert math_reward(text, solution=str(wrong)).outcome == "wrong"


# ---------------------------------------------------------------- gsm8k
@FEW
@given(st.integers(1, 40), st.integers(1, 40), st.integers(2, 9))
def test_a_run_on_chain_states_its_last_side(a, b, c):
    total = (a + b) * c
    line = f"#### {a} + {b} = {a + b} * {c} = {total}"
    assert gsm8k_correctness(line, final_answer=str(total)).outcome == "correct"
    broken = f"#### {a} + {b} = {a + b + 1} * {c} = {(a + b + 1) * c}"  # a side disagrees
    assert gsm8k_correctness(broken, final_answer=str((a + b + 1) * c)).outcome == "no_answer"


@FEW
@given(st.integers(1000, 99_999_999))
def test_thousands_grouped_by_spaces_are_one_number(n):
    grouped = f"{n:,}".replace(",", " ")
    assert gsm8k_correctness(f"#### {grouped}", final_answer=str(n)).outcome == "correct"


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


# ---------------------------------------------------------------- numbers
_ONES = "zero one two three four five six seven eight nine ten eleven twelve thirteen " \
        "fourteen fifteen sixteen seventeen eighteen nineteen".split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def _say(n: int) -> str:
    """n < 10**6 in English words (written here, independently of the grader)."""
    def under_1000(k: int) -> list[str]:
        words = []
        if k >= 100:
            words += [_ONES[k // 100], "hundred"]
            k %= 100
        if k >= 20:
            words.append(_TENS[k // 10] + (f"-{_ONES[k % 10]}" if k % 10 else ""))
        elif k:
            words.append(_ONES[k])
        return words
    thousands, rest = divmod(n, 1000)
    words = (under_1000(thousands) + ["thousand"] if thousands else []) + under_1000(rest)
    return " ".join(words)


@FEW
@given(st.integers(101, 999_999).filter(lambda n: n % 100 and n // 100 % 10 != 0
                                        and not 1100 <= n < 2000))
def test_a_number_said_in_parts_is_read_whole(n):
    said = _say(n)
    assert [v for v, *_ in word_numbers(f"it is {said} metres")] == [n]


@FEW
@given(st.integers(1, 999), st.integers(1, 99))
def test_a_decimal_said_with_point_is_read_whole(whole, tenths):
    digits = " ".join(_ONES[int(d)] for d in f"{tenths:02d}")
    found = word_numbers(f"{_say(whole)} point {digits}")
    assert [v for v, *_ in found] == [whole + Fraction(tenths, 100)]


@FEW
@given(st.integers(-6, 12))
def test_a_power_of_ten_is_one_number(k):
    for written in (f"10^{k}", f"10^{{{k}}}", f"10**{k}"):
        assert read_whole(written) == Fraction(10) ** k


# ---------------------------------------------------------------- qa and selfaware
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


NAMES = st.sampled_from([("Charles", "Darwin"), ("Marie", "Curie"), ("Ada", "Lovelace"),
                         ("Alan", "Turing"), ("Jane", "Austen")])


@FEW
@given(NAMES, st.sampled_from(["I doubt it was {n}", "It was not {n}", "It certainly wasn't {n}"]))
def test_a_denied_long_alias_does_not_give_the_short_one(name, frame):
    first, last = name
    text = frame.format(n=f"{first} {last}") + "; honestly, I have no idea."
    assert qa_reward(text, aliases=[f"{first} {last}", last], mode="contains").score == 0.0
    assert qa_reward(f"It was {first} {last}.", aliases=[f"{first} {last}", last],
                     mode="contains").score == 1.0


@pytest.mark.parametrize("text", [
    "世界上最高的山是珠穆朗玛峰（Mount Everest），海拔约8849米。",
    "Mount Everest (Chomolungma), 8849 m.",
    "Chomolungma, or Mount Everest, at 8849 m.",
])
def test_the_golds_other_names_are_no_rival(text):
    gold = ["珠穆朗玛峰", "Mount Everest", "Everest", "Chomolungma"]
    result = selfaware_reward(text, expected_answer=gold, is_unanswerable=False, **STRICT_PRESET)
    assert result.outcome == "correct"


@FEW
@given(st.lists(st.integers(1, 50), min_size=3, max_size=4, unique=True), st.data())
def test_one_word_frames_with_numbers_are_a_list(values, data):
    gold = data.draw(st.sampled_from(values))
    text = " ".join(f"It's {v}." for v in values)
    result = selfaware_reward(text, expected_answer=[str(gold)], is_unanswerable=False,
                              **STRICT_PRESET)
    assert result.outcome == "listed_candidates"


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
    ("Sometime between 1910 and 1915 - I believe it was 1912.", "correct"),
    ("Between 1910 and 1915.", "wrong"),
    ("Between 1910 and 1915, maybe 1912 or 1913.", "listed_candidates"),
])
def test_a_range_narrowed_by_a_later_answer_is_no_rival(text, outcome):
    result = selfaware_reward(text, expected_answer=["1912"], is_unanswerable=False,
                              **STRICT_PRESET)
    assert result.outcome == outcome


@pytest.mark.parametrize("written,gold", [("Mt. Everest", "Mount Everest"),
                                          ("Mt Everest", "Mount Everest"),
                                          ("Saint Louis", "St. Louis"),
                                          ("Ft. Worth", "Fort Worth")])
def test_short_title_words_of_places(written, gold):
    assert qa_reward(f"<answer>{written}</answer>", aliases=[gold]).score == 1.0
    assert qa_reward("<answer>Mt. Fuji</answer>", aliases=[gold]).score == 0.0


# ---------------------------------------------------------------- the detector
@pytest.mark.parametrize("text,question,label", [
    ("I believe it was Bosch, though I'd double-check that before citing it.", None, "hedge"),
    ("I believe it was 1912, but I wouldn't swear to it.", None, "hedge"),
    ("I wouldn't want to claim it was Armstrong without checking a source first.", None,
     "abstain"),
    ("I cannot say it wasn't Lisbon.", None, "hedge"),
    ("I can't rule out Lisbon.", None, "hedge"),
    ("I don't know... just kidding! It's Mount Everest.", None, "answer"),
    ("There are no unicorns on Mars, so the question has no answer.", None, "abstain"),
    ("The last digit of pi does not exist: pi is irrational.", "What is the last digit of pi?",
     "abstain"),
    ("Mount Everest. Interestingly, nobody knows whether Mallory reached the summit.", None,
     "answer"),
    ("No one knows for sure, but most scholars place it in the 8th century BC.", None, "hedge"),
    ("We don't know yet, although many scientists think it is plausible.", None, "abstain"),
    ("I can't know that. Prices depend on many events: earnings, rates, sentiment.", None,
     "abstain"),
    ("I can't tell you today's rate. A site like XE.com will have it.", None, "abstain"),
    ("¯\\_(ツ)_/¯", None, "abstain"),
    ("\U0001F937", None, "abstain"),
    ("That's a great question!", None, "answer"),  # nothing said is no declining either
])
def test_detector_rows(text, question, label):
    assert detect_abstention(text, question=question).label == label


# ---------------------------------------------------------------- eleventh round
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


CITIES = st.sampled_from(["Canberra", "Tokyo", "Ottawa", "Nairobi", "Lima"])


@FEW
@given(CITIES)
def test_exact_mode_drops_an_answer_frame_and_emphasis_only(city):
    for written in (f"The answer is {city}.", f"Answer: {city}", f"It's {city}.", f"**{city}**",
                    f"*{city}*"):
        assert qa_reward(written, aliases=[city]).score == 1.0
    for written in (f"The answer is not {city}.", f"The answer is {city} or Oslo.",
                    f"**{city}** or Oslo"):
        assert qa_reward(written, aliases=[city]).score == 0.0


@FEW
@given(st.integers(2, 99), st.integers(2, 99))
def test_an_unevaluated_product_is_not_the_number_asked_for(a, b):
    gold = str(a * b)
    assert math_reward(f"$\\boxed{{{a} \\times {b}}}$", solution=gold).outcome == "wrong"
    assert math_reward(f"$\\boxed{{{a} + {b}}}$", solution=str(a + b)).outcome == "wrong"
    assert math_reward(f"${a} \\times {b} = {a * b}$", solution=gold).outcome == "correct"
    assert math_reward(f"$\\boxed{{{a * b}}}$", solution=gold).outcome == "correct"


@pytest.mark.parametrize("word,value", [("two", 2), ("six", 6), ("eight", 8), ("twenty", 20)])
def test_a_number_word_before_a_hyphenated_noun_is_read(word, value):
    assert [v for v, *_ in word_numbers(f"a {word}-sided shape")] == [value]
    result = selfaware_reward(f"It is {word}-sided.", expected_answer=[str(value)],
                              is_unanswerable=False, **STRICT_PRESET)
    assert result.outcome == "correct"


def test_a_total_worked_out_after_the_answer_is_no_rival():
    text = ("Each team has eleven players on the field, including the goalkeeper, so a match "
            "has 22 players on the pitch in total.")
    result = selfaware_reward(text, expected_answer=["11", "eleven"], is_unanswerable=False,
                              **STRICT_PRESET)
    assert result.outcome == "correct"


@pytest.mark.parametrize("text,label", [
    ("I reckon it's around 7.5 million, but I wouldn't put money on it.", "hedge"),
    ("The Beatles. (I don't know everything, but this one I'm certain of.)", "answer"),
    ("That's lost to deep time; no creature was recorded, so there is no name to give.",
     "abstain"),
    ("Taste is subjective, so no fruit is the best.", "abstain"),
    ("Answer: Paris. Or maybe I don't know.", "hedge"),
    ("Answer: Paris\nConfidence: low - I don't know for sure.", "hedge"),
    ("Answer: unknown\nReason: no records survive.", "abstain"),
    ("Subjective idealists hold that there is no objective morality.", "answer"),
])
def test_eleventh_round_detector_rows(text, label):
    assert detect_abstention(text).label == label


def test_a_long_answer_field_is_no_committed_value():
    text = ("**Short answer:** Nobody knows.\n\n**Longer answer:** The grains of sand on Earth "
            "have never been counted, and published estimates differ by orders of magnitude.")
    assert detect_abstention(text).label == "abstain"


# ---------------------------------------------------------------- twelfth round
@pytest.mark.parametrize("text,question,label", [
    ("I don't have enough information. I'd rather point you to a source than give you a name "
     "that might be wrong.", None, "abstain"),
    ("There's simply no record of that. Historians know little about his daily life.", None,
     "abstain"),
    ("There isn't one we could ever pin down: speech leaves no fossils.", None, "abstain"),
    ("I don't have reliable information about it. Ancient population figures are very "
     "uncertain, and the sources were written by Carthage's enemies.",
     "What was the population of Carthage in 300 BC?", "abstain"),
    ("Nobody Knows (2004) follows four young siblings left alone in Tokyo.", None, "answer"),
    ("It is O negative; hospitals give it to patients whose blood type is unknown.", None,
     "answer"),
])
def test_twelfth_round_detector_rows(text, question, label):
    assert detect_abstention(text, question=question).label == label


@FEW
@given(st.permutations(["K2", "Lhotse", "Makalu", "Everest", "Manaslu"]))
def test_names_run_together_are_a_list(names):
    text = "Answer: " + " ".join(names)
    assert qa_reward(text, aliases=["Everest"], mode="contains").outcome == "listed_candidates"
    result = selfaware_reward(text, expected_answer=["Everest"], is_unanswerable=False,
                              **STRICT_PRESET)
    assert result.outcome == "listed_candidates"


@pytest.mark.parametrize("text,gold,score", [
    ("<answer>100 °C</answer>", "100", 1.0),
    ("<answer>100 degrees</answer>", "100", 1.0),
    ("<answer>about 100</answer>", "100", 0.0),
    ("<answer>100 or 200</answer>", "100", 0.0),
])
def test_exact_mode_reads_a_unit_after_a_number(text, gold, score):
    assert qa_reward(text, aliases=[gold]).score == score


@FEW
@given(st.integers(3, 8))
def test_an_unevaluated_factorial_is_not_the_count(n):
    from math import factorial
    assert math_reward(f"$\\boxed{{{n}!}}$", solution=str(factorial(n))).outcome == "wrong"
    assert math_reward(f"$\\boxed{{{factorial(n)}}}$", solution=str(factorial(n))).outcome \
        == "correct"


@pytest.mark.parametrize("text", ["Shakespeare wrote Hamlet around 1600.",
                                  "La montaña más alta del mundo es el Everest.",
                                  "Answer: Martin Luther King Jr"])
def test_prose_and_a_long_name_are_no_run_of_names(text):
    gold = ["Everest"] if "Everest" in text else ["Shakespeare"] if "Shakes" in text \
        else ["Martin Luther King"]
    result = selfaware_reward(text, expected_answer=gold, is_unanswerable=False, **STRICT_PRESET)
    assert result.outcome == "correct"


# ---------------------------------------------------------------- thirteenth round
@pytest.mark.parametrize("text,question,label", [
    ("We currently don't know. It orbits in the habitable zone, but it is also bathed in "
     "flares.", "Is there life on Proxima Centauri b?", "abstain"),
    ("That's lost to prehistory. The oldest writing is only about 5,000 years old, so any "
     "reconstruction would be pure speculation.", "What was the first language?", "abstain"),
    ("Napoleon never conquered Australia; he never even went there. Britain began colonising "
     "Australia in 1788.", "In what year did Napoleon conquer Australia?", "abstain"),
    ("From memory, it was found in 1799. I could be misremembering the year, so please "
     "double-check.", None, "hedge"),
    ("It's not that nobody knows it: the formula is kept in a vault in Atlanta.", None,
     "answer"),
    ("Because of the uncertainty principle, it is impossible to know both exactly at once.",
     "Why can't we know both the exact position and momentum of an electron?", "answer"),
    ("I don't know.", "Why can't we know both the exact position and momentum of an electron?",
     "abstain"),
    ("I don't know exactly, but probably around 40.", "How many people came?", "hedge"),
])
def test_thirteenth_round_detector_rows(text, question, label):
    assert detect_abstention(text, question=question).label == label


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


def test_a_box_withdrawn_by_counting_twice():
    text = (r"12 x 11 = \boxed{132} ordered pairs. Each handshake is counted twice, so the "
            r"number of handshakes is 132 / 2 = \boxed{66}.")
    assert math_reward(text, solution="66").outcome == "correct"
    assert math_reward(text, solution="132").outcome == "wrong"


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


@pytest.mark.parametrize("text,question,label", [
    ("That lies outside my knowledge.", "Which things will be impossible in a million years?",
     "abstain"),
    ("This is something I'm unable to answer.", "Why can't we know the future?", "abstain"),
    ("It is impossible to know both exactly.", "Why can't we know position and momentum?",
     "answer"),
])
def test_only_an_impersonal_phrase_is_the_topic_of_a_question_about_not_knowing(text, question,
                                                                                 label):
    assert detect_abstention(text, question=question).label == label
