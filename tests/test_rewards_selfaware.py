"""The self-awareness calibration reward: the full table, seed patterns, TRL adapter.

Rows in the seed, strict and reference presets for inputs that fooled the matcher and the
detector, with siblings per class: typographic quotes and compatibility forms (folded in
every preset but the reference one), negated and rhetorical uncertainty, numbers inside
numbers and several numeric results, lists of candidates (ranges, bullets, lines, other
separators) against answers that stay answers, denied answers, scale words, every gold
alias, a gold that is itself an uncertainty word, uncertainty about a side issue, and the
rows as first tried through `score_rows`.
"""

from __future__ import annotations

import json

import pytest

from rlvr.cli import main
from rlvr.errors import RlvrError
from rlvr.rewards import get_reward, make_trl_reward, score_rows
from rlvr.rewards.abstention_detection import SEED_PATTERNS, is_abstention
from rlvr.rewards.selfaware import selfaware_reward

# (completion, expected_answer, is_unanswerable, expected reward, expected outcome)
TABLE = [
    # answerable, contains the answer (lower-cased substring): +1.0
    ("The capital of France is Paris.", "Paris", False, 1.0, "correct"),
    ("PARIS", "paris", False, 1.0, "correct"),
    # correctness is checked before abstention: +1.0, not -0.5
    ("I'm not sure, but I think it is Paris.", "Paris", False, 1.0, "correct"),
    # answerable, abstains: -0.5
    ("I don't know.", "Paris", False, -0.5, "abstained"),
    ("Honestly, that is beyond my knowledge.", "Paris", False, -0.5, "abstained"),
    # answerable, anything else: -1.0
    ("The capital of France is Lyon.", "Paris", False, -1.0, "wrong"),
    ("", "Paris", False, -1.0, "wrong"),
    # unanswerable, abstains: +1.0
    ("I don't know who will win.", None, True, 1.0, "abstained_unanswerable"),
    ("  I AM UNSURE.  ", "I don't know.", True, 1.0, "abstained_unanswerable"),
    # unanswerable, anything else: -1.0 (even when it contains the "expected" IDK text's words)
    ("Brazil will win the 2031 World Cup.", None, True, -1.0, "answered_unanswerable"),
    ("", None, True, -1.0, "answered_unanswerable"),
    # the seed rule is a plain substring test: these quirks are the reference behaviour
    ("I cannot stress this enough: it is Lyon.", "Paris", False, -0.5, "abstained"),
    ("No one knows.", None, True, -1.0, "answered_unanswerable"),
    # a typographic apostrophe is folded to "'" before matching (it once scored -1 on the
    # preset the main job trains with), so this is an
    # abstention (+1); the `reference` preset keeps the old -1 (see test_reference_preset)
    ("I don\u2019t know.", None, True, 1.0, "abstained_unanswerable"),
    ("Sorry, I don\u2019t know.", None, True, 1.0, "abstained_unanswerable"),
    ("\uff29 \uff44\uff4f\uff4e't know.", None, True, 1.0, "abstained_unanswerable"),  # full-width
    # any alias of a list matches
    ("It is the Big Apple.", ["New York", "big apple"], False, 1.0, "correct"),
]


@pytest.mark.parametrize("completion,gold,unanswerable,reward,outcome", TABLE)
def test_table(completion, gold, unanswerable, reward, outcome):
    result = selfaware_reward(completion, expected_answer=gold, is_unanswerable=unanswerable)
    assert result.score == reward
    assert result.outcome == outcome
    low, high = get_reward("selfaware").score_range
    assert low <= result.score <= high


@pytest.mark.parametrize("pattern", SEED_PATTERNS)
def test_each_seed_pattern_abstains(pattern):
    assert len(SEED_PATTERNS) == 19
    assert is_abstention(f"Well, {pattern.upper()} about that.")
    assert selfaware_reward(pattern, expected_answer=None, is_unanswerable=True).score == 1.0


def test_values_are_configurable():
    r = selfaware_reward("I don't know.", expected_answer="Paris", is_unanswerable=False,
                         abstain_answerable=0.25)
    assert r.score == 0.25
    r = selfaware_reward("Lyon", expected_answer="Paris", is_unanswerable=False, wrong=-2.0)
    assert r.score == -2.0


def test_empty_gold_for_answerable_is_unscorable():
    r = selfaware_reward("anything", expected_answer="  ", is_unanswerable=False)
    assert r.score is None and r.outcome == "no_gold"


def test_trl_adapter_plain_and_conversational():
    reward = make_trl_reward("selfaware")
    assert reward.__name__ == "selfaware"
    plain = ["Paris.", "I don't know.", "Lyon", "I do not know."]
    conversational = [[{"role": "assistant", "content": c}] for c in plain]
    kwargs = {"expected_answer": ["Paris", "Paris", "Paris", "I don't know."],
              "is_unanswerable": [False, False, False, True], "prompts": ["q"] * 4}
    expected = [1.0, -0.5, -1.0, 1.0]
    assert reward(plain, **kwargs) == expected
    assert reward(conversational, **kwargs) == expected


def test_trl_adapter_missing_column():
    reward = make_trl_reward("selfaware")
    with pytest.raises(RlvrError, match="is_unanswerable"):
        reward(["x"], expected_answer=["x"])


def test_unknown_reward_lists_known():
    with pytest.raises(RlvrError, match="known rewards: .*selfaware.*Did you mean 'selfaware'"):
        get_reward("selfawre")


def test_score_rows_needs_fields():
    with pytest.raises(RlvrError, match="row 1 lacks"):
        score_rows("selfaware", [{"completion": "x"}])


def test_score_cli(tmp_path, capsys):
    rows = [{"completion": "Paris", "expected_answer": "Paris", "is_unanswerable": False},
            {"completion": "I don't know", "expected_answer": None, "is_unanswerable": True},
            {"completion": "42", "expected_answer": None, "is_unanswerable": True}]
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "out.jsonl"
    assert main(["score", "--reward", "selfaware", "--input", str(src), "--output", str(out)]) == 0
    scored = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["reward"] for r in scored] == [1.0, 1.0, -1.0]
    assert [r["outcome"] for r in scored] == ["correct", "abstained_unanswerable",
                                              "answered_unanswerable"]
    text = capsys.readouterr().out
    # mean of [1, 1, -1] = 1/3
    assert "3 rows scored" in text and "+0.3333" in text


def test_score_cli_bad_line_names_file_and_line(tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    src.write_text('{"completion": "a", "expected_answer": "a", "is_unanswerable": false}\n'
                   '{"completion": "b"}\n')
    assert main(["score", "--reward", "selfaware", "--input", str(src)]) == 2
    err = capsys.readouterr().err
    assert f"{src}:2:" in err and "expected_answer" in err


def test_score_cli_does_not_import_torch(tmp_path):
    import subprocess
    import sys

    src = tmp_path / "in.jsonl"
    src.write_text('{"completion": "a", "expected_answer": "a", "is_unanswerable": false}\n')
    code = ("import sys; from rlvr.cli import main; main(['score','--reward','selfaware',"
            f"'--input',{str(src)!r}]); assert 'torch' not in sys.modules, 'torch imported'")
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


@pytest.mark.parametrize("preset", ["seed", "strict"])
@pytest.mark.parametrize("known, abstain_known, expected", [
    (True, -1.0, -1.0),    # abstaining on a question the base model knows: over-conservative
    (False, -1.0, -0.5),   # on one it does not know: the usual abstain_answerable
    (None, -1.0, -0.5),    # no label: the usual value
    (True, None, -0.5),    # no knowledge-aware value configured: the usual value
    ("true", -1.0, -1.0),  # CSV-like strings are read as flags
])
def test_knowledge_aware_abstention_value(preset, known, abstain_known, expected):
    from rlvr.rewards import score_rows

    params = {} if abstain_known is None else {"abstain_known": abstain_known}
    row = {"completion": "I don't know.", "expected_answer": "Paris",
           "is_unanswerable": False, "known": known}
    result = score_rows("selfaware", [row], preset, **params)[0]
    assert (result.score, result.outcome) == (expected, "abstained")
    # answers and unanswerable questions are unaffected by `known`
    right = score_rows("selfaware", [{**row, "completion": "Paris."}], preset, **params)[0]
    assert right.score == 1.0


# ---------------------------------------------------------------- inputs that fooled the graders
# Tried as a new user would, with inputs built from public bug reports against graders
# like these, most were misjudged: a wrong answer paid, or an honest abstention penalised
# (a typographic apostrophe in "I don\u2019t know", a phrase in another language, an
# idiom). Each row holds the right value, in the seed, strict and reference presets.
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
