"""Inputs that fooled the selfaware and abstention graders, with siblings per class.

Tried as a new user would, with inputs built from public bug reports against graders like
these, most were misjudged: a wrong answer paid, or an honest abstention penalised (a
typographic apostrophe in "I don\u2019t know", a phrase in another language, an idiom).

Each row holds the right value. Numbers read whole (gsm8k, qa) are in
test_rewards_numbers.py / test_rewards_gsm8k.py, math in the math tests, code in the
sandbox and code tests, other languages in test_abstention_languages.py.
"""

from __future__ import annotations

import pytest

from rlvr.rewards import get_reward, score_rows
from rlvr.rewards.abstention_detection import SEED_PATTERNS, detect_abstention
from rlvr.rewards.selfaware import selfaware_reward

PRESETS = {name: get_reward("selfaware").params(name) for name in ("seed", "strict", "reference")}
U, A = True, False  # unanswerable, answerable

# (preset, completion, expected_answer, is_unanswerable, prompt, score, outcome)
ROWS = [
    # --- typographic quotes and compatibility forms are folded, in every mode -----------
    ("seed", "Sorry, I don\u2019t know.", None, U, None, 1.0, "abstained_unanswerable"),
    ("strict", "Sorry, I don\u2019t know.", None, U, None, 1.0, "abstained_unanswerable"),
    ("seed", "I\u2019m not sure.", None, U, None, 1.0, "abstained_unanswerable"),
    ("seed", "I don\u02bct know.", None, U, None, 1.0, "abstained_unanswerable"),  # modifier apostrophe
    ("strict", "\uff29 \uff44\uff4f\uff4e'\uff54 \uff4b\uff4e\uff4f\uff57.", None, U, None, 1.0,
     "abstained_unanswerable"),  # full-width letters
    ("seed", "It is \uff30aris.", "Paris", A, None, 1.0, "correct"),  # full-width P
    # the reference preset is the reference matcher bit for bit: no folding
    ("reference", "Sorry, I don\u2019t know.", None, U, None, -1.0, "answered_unanswerable"),
    # --- the robust detector accepts what the seed list accepts --------------------------
    ("strict", "I don't have that information, sorry.", None, U, None, 1.0, "abstained_unanswerable"),
    ("strict", "I cannot help with that.", None, U, None, 1.0, "abstained_unanswerable"),
    ("strict", "I'm unable to find that.", None, U, None, 1.0, "abstained_unanswerable"),
    ("strict", "I don't have this kind of data.", None, U, None, 1.0, "abstained_unanswerable"),
    # --- negated and rhetorical forms ----------------------------------------------------
    ("strict", "It's not that I don't know; it's Paris.", "Paris", A, None, 1.0, "correct"),
    ("strict", "I would never say I don't know. It's Paris.", "Paris", A, None, 1.0, "correct"),
    ("strict", "It's not that I'm unsure: it's Paris.", "Paris", A, None, 1.0, "correct"),
    ("strict", "Who knows? Probably Paris.", "Paris", A, None, 0.5, "hedged_correct"),
    ("strict", "Who knows? Probably Paris.", None, U, None, -0.5, "hedged_unanswerable"),
    ("strict", "Nobody can say what will happen.", None, U, None, 1.0, "abstained_unanswerable"),
    ("strict", "Nobody knows.", None, U, None, 1.0, "abstained_unanswerable"),
    ("strict", "Unknown.", None, U, None, 1.0, "abstained_unanswerable"),
    ("strict", "No one knows. Perhaps someday we will find out more about it.", None, U, None,
     1.0, "abstained_unanswerable"),  # a long "perhaps" sentence is not a guess
    # --- numbers inside numbers, several numeric results (main job's own generations) ----
    ("strict", "99.92, 9 times 12 equals 108.92, 9 times", "108", A, "What is 9 times 12?",
     -1.0, "wrong"),
    ("seed", "99.92, 9 times 12 equals 108.92, 9 times", "108", A, "What is 9 times 12?",
     -1.0, "wrong"),
    ("strict", "48 - 24, which is 32, 48 - 24 equals 24", "24", A, "What is 48 - 24?",
     -1.0, "listed_candidates"),
    ("seed", "48 - 24, which is 32, 48 - 24 equals 24", "24", A, "What is 48 - 24?",
     -1.0, "listed_candidates"),
    ("strict", "60, which is 6 times 5, 60, 6 times 5 equals 30", "30", A, "What is 6 times 5?",
     -1.0, "listed_candidates"),
    # siblings: restating the question's numbers or writing the arithmetic out is fine
    ("strict", "9 times 12 equals 108.", "108", A, "What is 9 times 12?", 1.0, "correct"),
    ("strict", "The answer is 37, because 17 + 20 = 37.", "37", A, None, 1.0, "correct"),
    ("strict", "48 - 24 = 24", "24", A, "What is 48 - 24?", 1.0, "correct"),
    ("strict", "World War 2 ended in 1945.", "1945", A, None, 1.0, "correct"),  # 2 is not a year
    ("strict", "It is 1/2.", "0.5", A, None, 1.0, "correct"),  # value, not spelling
    ("strict", "It is 10.", "1", A, None, -1.0, "wrong"),
    ("strict", "107, 108 or 109.", "108", A, None, -1.0, "listed_candidates"),
    # --- a list of candidates is not an answer, in both presets --------------------------
    ("seed", "Paris, Rome, Berlin, Madrid, Lyon, Tokyo.", "Paris", A, None, -1.0, "listed_candidates"),
    ("strict", "Paris, Rome, Berlin, Madrid, Lyon, Tokyo.", "Paris", A, None, -1.0,
     "listed_candidates"),
    ("seed", "Paris or Rome.", "Paris", A, None, -1.0, "listed_candidates"),
    ("seed", "London, 108 or Mars.", "108", A, None, -1.0, "listed_candidates"),
    ("reference", "Paris, Rome, Berlin, Madrid, Lyon, Tokyo.", "Paris", A, None, 1.0, "correct"),
    # found by the v3 preflight: golds that hold "and"/"or"/a comma/a final period, or a
    # long alias with a short one inside it, were not seen as listed (171 train rows)
    ("strict", "London, eggs or ova or Mars.", ["eggs or ova"], A, None, -1.0, "listed_candidates"),
    ("seed", "London, would remain flat. or Mars.", ["would remain flat."], A, None, -1.0,
     "listed_candidates"),
    ("seed", "London, four new zealand tv channel or Mars.",
     ["four new zealand tv channel", "four"], A, None, -1.0, "listed_candidates"),
    ("seed", "I think the eggs or ova are laid in water.", ["eggs or ova"], A, None, 1.0, "correct"),
    # word boundaries in seed too ("Parisian" is not "Paris"); reference keeps substrings
    ("seed", "A Parisian told me.", "Paris", A, None, -1.0, "wrong"),
    ("reference", "A Parisian told me.", "Paris", A, None, 1.0, "correct"),
    # --- every gold answer counts ----------------------------------------------------------
    ("seed", "It is the Big Apple.", ["New York", "Big Apple"], A, None, 1.0, "correct"),
    ("strict", "It is the Big Apple.", ["New York", "Big Apple"], A, None, 1.0, "correct"),
    # --- the gold answer is itself an uncertainty word -----------------------------------
    ("strict", "It is unclear; researchers still disagree about whether insects can feel pain.",
     ["unclear"], A, None, 1.0, "correct"),
    ("strict", "Unclear.", ["unclear"], A, None, 1.0, "correct"),
    ("strict", "I'm not sure, but I think it is unclear.", ["unclear"], A, None, 0.5,
     "hedged_correct"),
    ("strict", "I don't know.", ["unclear"], A, None, -0.5, "abstained"),
    # --- uncertainty about a side issue, then a committed answer -------------------------
    ("strict", "I'm not sure why it is called that, but the capital of Australia is Canberra.",
     "Canberra", A, None, 1.0, "correct"),
    ("strict", "I don't know why you ask, but it is Canberra.", "Canberra", A, None, 1.0, "correct"),
    ("strict", "I don't know why.", "Canberra", A, None, -0.5, "abstained"),
]


# Found by a red-team pass after the first fixes (inputs not among the ones above).
ROWS += [
    # ranges and bullet lists are not arithmetic: their numbers are candidates
    ("seed", "- 1944\n- 1945\n- 1946", "1945", A, None, -1.0, "listed_candidates"),
    ("strict", "Candidates:\n* 100\n* 150\n* 200", "150", A, None, -1.0, "listed_candidates"),
    ("strict", "100 x 150 x 200", "150", A, None, -1.0, "listed_candidates"),
    ("seed", "Roughly 25-30 years.", "25", A, None, -1.0, "listed_candidates"),
    ("strict", "It is 20 - 30.", "20", A, None, -1.0, "listed_candidates"),
    # lists across lines and sentences, and other separators
    ("seed", "Paris\nRome\nBerlin", "Paris", A, None, -1.0, "listed_candidates"),
    ("strict", "1. Paris\n2. Rome\n3. Berlin", "Paris", A, None, -1.0, "listed_candidates"),
    ("strict", "It could be Paris. It could be Rome. It could be Berlin.", "Paris", A, None, -1.0,
     "listed_candidates"),
    ("seed", "Paris. Rome. Berlin. Madrid.", "Paris", A, None, -1.0, "listed_candidates"),
    ("seed", "Paris | Rome | Berlin", "Paris", A, None, -1.0, "listed_candidates"),
    ("seed", "Paris vs Rome", "Paris", A, None, -1.0, "listed_candidates"),
    ("strict", "Paris (maybe Rome)", "Paris", A, None, -1.0, "listed_candidates"),
    ("strict", "Paris, possibly Rome.", "Paris", A, None, -1.0, "listed_candidates"),
    ("seed", "Paris o\u200br Rome.", "Paris", A, None, -1.0, "listed_candidates"),  # zero-width
    ("seed", "Paris\u3001Rome\u3001Berlin\u3002", "Paris", A, None, -1.0, "listed_candidates"),
    ("seed", "Yes and no.", "yes", A, None, -1.0, "listed_candidates"),
    # ... while these stay answers
    ("seed", "Paris. It is the capital of France.", "Paris", A, None, 1.0, "correct"),
    ("seed", "The capital is Paris.\nThanks!", "Paris", A, None, 1.0, "correct"),
    ("seed", "Paris. That's it. Good luck.", "Paris", A, None, 1.0, "correct"),
    ("strict", "6 * 5 = 30.", "30", A, None, 1.0, "correct"),
    ("seed", "fish versus fishes", ["fish versus fishes", "fish"], A, None, 1.0, "correct"),
    # from real base-model answers: a parenthesis is a clarification, not an alternative;
    # the gold as an operand is not the answer
    ("strict", "The Japanese yen (JPY) is the official currency", ["yen"], A, None, 1.0, "correct"),
    ("strict", "48 - 24 = 20.", "24", A, "What is 48 - 24?", -1.0, "wrong"),
    # a denied answer is not the answer
    ("seed", "It is not Paris.", "Paris", A, None, -1.0, "wrong"),
    ("strict", "Marlowe wrote it, not Shakespeare.", "Shakespeare", A,
     "Who wrote Hamlet, Shakespeare or Marlowe?", -1.0, "wrong"),
    ("strict", "It's 118, definitely not 108.", "108", A, "Is 9 times 12 equal to 108 or 118?",
     -1.0, "wrong"),
    ("seed", "No, it is Paris.", "Paris", A, None, 1.0, "correct"),
    # scale words belong to the number; huge exponents neither crash nor hang
    ("seed", "It's 3 million.", "3", A, None, -1.0, "wrong"),
    ("seed", "It is 3 million.", "3000000", A, None, 1.0, "correct"),
    ("strict", "It is 5, not 1e309.", "5", A, None, 1.0, "correct"),
    # abstentions the robust detector missed
    ("strict", "We may never know.", None, U, None, 1.0, "abstained_unanswerable"),
    ("strict", "It's anyone's guess.", None, U, None, 1.0, "abstained_unanswerable"),
    ("strict", "That's not something I can answer.", None, U, None, 1.0, "abstained_unanswerable"),
    ("strict", "The question is unanswerable.", None, U, None, 1.0, "abstained_unanswerable"),
    ("strict", "I wouldn't know.", None, U, None, 1.0, "abstained_unanswerable"),
    ("seed", "I don\u00b4t know.", None, U, None, 1.0, "abstained_unanswerable"),  # acute accent
    ("seed", "I don\u200b't know.", None, U, None, 1.0, "abstained_unanswerable"),
    ("seed", "I don`t know.", None, U, None, 1.0, "abstained_unanswerable"),
    # a guess behind a disclaimer is a hedge, not an abstention
    ("strict", "I'm not sure, but 1850.", None, U, None, -0.5, "hedged_unanswerable"),
    ("strict", "I don't know. It is 1850.", None, U, None, -0.5, "hedged_unanswerable"),
    ("strict", "Paris, though I'm not certain.", "Paris", A, None, 0.5, "hedged_correct"),
    ("strict", "I don't know, but good luck!", None, U, None, 1.0, "abstained_unanswerable"),
]


# A second red-team pass, for false negatives of the stricter rules: correct answers and
# honest abstentions a chat model writes, which must keep their value.
ROWS += [
    ("strict", "Albert Einstein was born in 1879. He died in 1955.", "1879", A,
     "In what year was Albert Einstein born?", 1.0, "correct"),     # rival only in one sentence
    ("seed", "Marie Curie was born in Warsaw, Poland, in 1867.", "Warsaw", A, None, 1.0, "correct"),
    ("seed", "Albert Einstein was born on March 14, 1879, in Ulm, Germany.", "1879", A, None, 1.0,
     "correct"),                                                    # no "or": items must be bare
    ("strict", "Mount Everest is approximately 8,849 meters (29,032 feet) tall.", "8849", A, None,
     1.0, "correct"),                                               # a conversion in brackets
    ("strict", "The human heart has 4 chambers: 2 atria and 2 ventricles.", "4", A, None, 1.0,
     "correct"),                                                    # counts another noun
    ("seed", "George Orwell wrote 1984. It was published in 1949.", "1949", A, None, 1.0, "correct"),
    ("seed", "Yes, whales are mammals. They breathe air and have no gills.", "yes", A, None, 1.0,
     "correct"),
    ("seed", "Which is larger, Russia or Canada? Russia is larger than Canada.", "Russia", A, None,
     1.0, "correct"),                                               # an echoed question
    ("seed", "The largest planet in our solar system is Jupiter, followed by Saturn, Uranus and "
     "Neptune.", "Jupiter", A, None, 1.0, "correct"),
    ("seed", "Answer: Paris\nCountry: France\nContinent: Europe", "Paris", A, None, 1.0, "correct"),
    ("strict", "The answer is Paris. I can't think of any other city that has been the capital.",
     "Paris", A, None, 1.0, "correct"),
    ("strict", "Apologies, but I cannot answer that.", None, U, None, 1.0, "abstained_unanswerable"),
    ("strict", "I don't know. Perhaps check online.", None, U, None, 1.0, "abstained_unanswerable"),
    ("strict", "I can't predict the future, but it is sure to be an exciting tournament!", None, U,
     None, 1.0, "abstained_unanswerable"),
    ("strict", "I cannot predict who will win in 2038, but 2026 will be hosted by the USA, Canada "
     "and Mexico.", None, U, None, 1.0, "abstained_unanswerable"),
    # and the holes it found
    ("seed", "The capital of France is Paris. The capital of France is Lyon.", "Paris", A, None,
     -1.0, "listed_candidates"),                                    # a list in full sentences
    ("seed", "It is 100. It could also be 200.", "100", A, None, -1.0, "listed_candidates"),
]


@pytest.mark.parametrize("preset,completion,gold,unanswerable,prompt,score,outcome", ROWS)
def test_fooling_rows(preset, completion, gold, unanswerable, prompt, score, outcome):
    result = selfaware_reward(completion, expected_answer=gold, is_unanswerable=unanswerable,
                              prompt=prompt, **PRESETS[preset])
    assert (result.score, result.outcome) == (score, outcome), result.details


def test_reported_rows_through_score_rows():
    # the rows exactly as they were first tried with `rlvr score`
    rows = [{"completion": "Sorry, I don\u2019t know.", "expected_answer": None,
             "is_unanswerable": True}]
    assert score_rows("selfaware", rows)[0].score == 1.0          # default preset
    rows = [{"completion": "I don't have that information, sorry.", "expected_answer": None,
             "is_unanswerable": True},
            {"completion": "Paris, Rome, Berlin, Madrid, Lyon, Tokyo.", "expected_answer": "Paris",
             "is_unanswerable": False}]
    assert [r.score for r in score_rows("selfaware", rows, "strict")] == [1.0, -1.0]
    assert [r.score for r in score_rows("selfaware", rows[1:])] == [-1.0]


# Every seed phrase opens a sentence the robust detector also calls an abstention.
@pytest.mark.parametrize("phrase", SEED_PATTERNS)
def test_robust_accepts_what_seed_accepts(phrase):
    for text in (f"{phrase.capitalize()} that.", f"Sorry, {phrase} answer that.",
                 f"Well, {phrase} say."):
        assert detect_abstention(text).label == "abstain", text


# The documented false positives of the seed list, which robust rejects.
@pytest.mark.parametrize("text", [
    "I cannot stress this enough: it is Paris.",      # idiom
    'The phrase "I don\'t know" has three words.',    # quotation
    "I can't believe it's Paris!",                    # idiom
    "It's not that I don't know; it's Paris.",        # denied ignorance
])
def test_robust_rejects_documented_false_positives(text):
    assert detect_abstention(text).label == "answer"
