"""The `strict` preset of the self-awareness reward: robust labels and hedge values.

End to end, one row per instance (`score_rows` with the strict preset, and the `abstention`
reward's label of the same text in the same answer format): an answer taken back, only
asked, attributed to others or supposed, then contradicted; distinct answer fields and
nested boxes as candidates; look-alike letters; a guess in a clause of its own after a
disclaimer, or before it ("1850, I think, but I'm really not sure"); "I can't" idioms and
side issues before an answer; a sentence that explains the missing answer; accents,
hyphens and number words in the gold; LaTeX, full-width and date forms of a field; declines
without their subject or apostrophe ("Don't know.", "idk"); a refusal to say the gold;
"else" and a spaced slash as alternatives; `&` and `\\` inside a box; a denial linked to
the gold by a bracket or "which"; and the guards that keep their value.
"""

from __future__ import annotations

import itertools

import pytest

from rlvr.rewards import get_reward, make_trl_reward, score_rows
from rlvr.rewards.selfaware import (
    ANSWERABLE_OUTCOMES,
    STRICT_PRESET,
    UNANSWERABLE_OUTCOMES,
    selfaware_reward,
)

STRICT = get_reward("selfaware").params("strict")

# (completion, expected_answer, is_unanswerable, expected reward, expected outcome)
TABLE = [
    # committed and right: +1.0 (as in seed)
    ("The capital of France is Paris.", "Paris", False, 1.0, "correct"),
    # hedged and right: +0.5 (seed gives +1.0: correctness first)
    ("I'm not sure, but it is Paris.", "Paris", False, 0.5, "hedged_correct"),
    # hedged and wrong: -1.0 (seed gives -0.5: it counts as an abstention)
    ("I'm not sure, but it is Lyon.", "Paris", False, -1.0, "hedged_wrong"),
    # names candidates behind the disclaimer: "Paris?" asks nothing, it is a guess, and
    # the gold among guesses is a list, -1.0 (seed: +1.0; before a red-team round found it this
    # was read as an abstention, -0.5, and on an unanswerable question +1.0)
    ("I don't know - Paris? Lyon? Nice?", "Paris", False, -1.0, "listed_candidates"),
    ("I don't know - 1850? 1860?", None, True, -0.5, "hedged_unanswerable"),
    # a paraphrase the seed list misses is an abstention: -0.5 (seed: -1.0 wrong)
    ("There is no way to know that.", "Paris", False, -0.5, "abstained"),
    # committed and wrong: -1.0
    ("The capital of France is Lyon.", "Paris", False, -1.0, "wrong"),
    # word-boundary match: "10" does not contain the answer "1" -> wrong (seed: correct)
    ("10", "1", False, -1.0, "wrong"),
    # the idiom is not an abstention, so this is a committed wrong answer (seed: -0.5)
    ("I cannot stress this enough: it is Lyon.", "Paris", False, -1.0, "wrong"),
    # any alias counts
    ("It is the Big Apple.", ["New York", "big apple"], False, 1.0, "correct"),
    # listing candidates never pays: the answer among alternatives is -1.0 (was +1.0)
    ("Paris, Rome, Berlin or Madrid.", "Paris", False, -1.0, "listed_candidates"),
    ("It is Paris or Rome.", "Paris", False, -1.0, "listed_candidates"),
    ("Either Rome or Paris.", "Paris", False, -1.0, "listed_candidates"),
    ("Rome, Paris, Berlin", "Paris", False, -1.0, "listed_candidates"),
    ("Paris? Rome? Berlin?", "Paris", False, -1.0, "listed_candidates"),
    ("I think it could be Paris, Rome or Berlin.", "Paris", False, -1.0, "listed_candidates"),
    ("Shakespeare/Marlowe", "Shakespeare", False, -1.0, "listed_candidates"),
    # ... but ordinary sentences with commas or "and" are answers, not lists
    ("London, England.", "London", False, 1.0, "correct"),
    ("Paris, France, which is a city in Europe.", "Paris", False, 1.0, "correct"),
    ("The capital of France, a country in Europe, is Paris.", "Paris", False, 1.0, "correct"),
    ("The capital of France is Paris, not Rome.", "Paris", False, 1.0, "correct"),
    ("Romeo and Juliet was written by William Shakespeare.", "Shakespeare", False, 1.0,
     "correct"),
    ("The answer is 37, because 17 + 20 = 37.", "37", False, 1.0, "correct"),
    ("24 / 2 = 12", "12", False, 1.0, "correct"),
    ("The capital of France is Paris. Rome is the capital of Italy.", "Paris", False, 1.0,
     "correct"),
    # unanswerable: abstaining +1.0, hedging -0.5, answering -1.0
    ("No one knows.", None, True, 1.0, "abstained_unanswerable"),
    ("I don\u2019t know.", None, True, 1.0, "abstained_unanswerable"),
    ("I'm not sure, but I think Brazil will win.", None, True, -0.5, "hedged_unanswerable"),
    ("Brazil will win the 2031 World Cup.", None, True, -1.0, "answered_unanswerable"),
    ("", None, True, -1.0, "answered_unanswerable"),
]


@pytest.mark.parametrize("completion,gold,unanswerable,reward,outcome", TABLE)
def test_strict_table(completion, gold, unanswerable, reward, outcome):
    result = selfaware_reward(completion, expected_answer=gold, is_unanswerable=unanswerable,
                              **STRICT)
    assert (result.score, result.outcome) == (reward, outcome)
    low, high = get_reward("selfaware").score_range
    assert low <= result.score <= high
    assert outcome in ANSWERABLE_OUTCOMES + UNANSWERABLE_OUTCOMES


def test_default_is_strict_everywhere_and_seed_stays_the_reference():
    """One default: a reward named without a preset (`rlvr score`, `make_trl_reward`) scores
    as training does (`reward_preset: strict`); the reference table is `seed`."""
    from rlvr.config import TrainConfig
    from rlvr.rewards.registry import make_trl_reward, score_rows

    spec = get_reward("selfaware")
    assert spec.params() == spec.params("strict") == STRICT
    assert TrainConfig().reward_preset == "strict"
    assert spec.params("seed") == {}
    hedge = {"completion": "I'm not sure, but it is Paris.", "expected_answer": "Paris",
             "is_unanswerable": False}
    # strict pays a hedge +0.5; the seed table pays it fully (correctness first)
    assert score_rows("selfaware", [hedge])[0].score == 0.5
    assert make_trl_reward("selfaware")([hedge["completion"]], expected_answer=["Paris"],
                                        is_unanswerable=[False]) == [0.5]
    assert score_rows("selfaware", [hedge], "seed")[0].score == 1.0
    r = selfaware_reward(hedge["completion"], expected_answer="Paris", is_unanswerable=False)
    assert (r.score, r.outcome) == (1.0, "correct")


def _expected(values, r, u):
    """Expected rewards of commit / abstain / hedge for a question that is unanswerable
    with probability u and whose best guess is right with probability r."""
    commit = u * values["answer_unanswerable"] + (1 - u) * (r * values["correct"]
                                                            + (1 - r) * values["wrong"])
    abstain = u * values["abstain_unanswerable"] + (1 - u) * values["abstain_answerable"]
    hedge = u * values["hedge_unanswerable"] + (1 - u) * (r * values["hedge_correct"]
                                                          + (1 - r) * values["hedge_wrong"])
    return commit, abstain, hedge


def test_strict_hedge_is_never_best():
    # the docstring's argument, checked on a grid: for every chance r of a right guess and
    # u of an unanswerable question, hedging scores strictly below the better of
    # committing and abstaining
    values = {"correct": 1.0, "wrong": -1.0, "abstain_answerable": -0.5,
              "abstain_unanswerable": 1.0, "answer_unanswerable": -1.0,
              **{k: v for k, v in STRICT_PRESET.items() if k.startswith("hedge_")}}
    grid = [i / 40 for i in range(41)]
    for r, u in itertools.product(grid, grid):
        commit, abstain, hedge = _expected(values, r, u)
        assert hedge < max(commit, abstain) - 1e-9, (r, u)
    # the seed table, where a hedge is scored as its answer or as an abstention, fails it:
    # at r = u = 0.5, hedge = 0.5 * 1.0 + 0.5 * (0.5 * 1.0 + 0.5 * -0.5) = 0.625 beats
    # abstain = 0.5 * 1.0 + 0.5 * -0.5 = 0.25 and commit = 0.5 * -1.0 + 0.5 * 0.0 = -0.5
    seed = {**values, "hedge_correct": 1.0, "hedge_wrong": -0.5, "hedge_unanswerable": 1.0}
    assert _expected(seed, 0.5, 0.5)[2] > max(_expected(seed, 0.5, 0.5)[:2])


def test_strict_through_trl_adapter():
    reward = make_trl_reward("selfaware", "strict")
    completions = [[{"role": "assistant", "content": c}] for c in
                   ("Paris.", "I'm not sure, but it is Paris.", "No one knows.")]
    kwargs = {"expected_answer": ["Paris", "Paris", None],
              "is_unanswerable": [False, False, True]}
    # 1.0 correct, 0.5 hedged_correct, 1.0 abstained_unanswerable
    assert reward(completions, **kwargs) == [1.0, 0.5, 1.0]


@pytest.mark.parametrize("completion,gold,unanswerable,reward,outcome", TABLE)
def test_ternary_is_strict_but_abstaining_costs_nothing(completion, gold, unanswerable, reward,
                                                        outcome):
    # the `ternary` preset (TruthRL) scores every strict row the same, except an abstention
    # on an answerable question: 0.0 instead of -0.5
    ternary = get_reward("selfaware").params("ternary")
    result = selfaware_reward(completion, expected_answer=gold, is_unanswerable=unanswerable,
                              **ternary)
    assert result.outcome == outcome
    assert result.score == (0.0 if outcome == "abstained" else reward)


# ---------------------------------------------------------------- strict, end to end
# Inputs nobody had shown the graders, written as a new user and as a GRPO policy would
# write them (public reports against refusal detectors and answer graders:
# lm-evaluation-harness, TruthRL/R-Tuning refusal matching, HELM, SimpleQA grading), first
# found by red-team rounds; each row was misjudged before its class was fixed, or is a
# guard that stayed right. Each class has a design-level fix (named on its header) and a
# property in tests/test_abstention_properties.py; two classes are decided rules
# (docs/rewards.md: outside_box, instruction_echo).
#
# Each row: (answer_format, completion, gold, unanswerable, strict selfaware score, its
# outcome, the `abstention` reward's outcome in the same format).
U, A = True, False

ROWS = [
    # --- retraction: the gold taken back after it is said (answer_forms.retracted)
    ('free', "Paris. Wait, no - actually it's Lyon.", 'Paris', A, -1.0, 'wrong', 'answer'),
    ('free', "The answer is Paris... scratch that, it's Lyon.",
     'Paris', A, -1.0, 'wrong', 'answer'),
    ('free', 'Paris? No. Lyon.', 'Paris', A, -1.0, 'wrong', 'answer'),
    ('free', "Paris. Just kidding, it's Lyon.", 'Paris', A, -1.0, 'wrong', 'answer'),
    ('free', "I'd say Paris, but on second thought, Lyon.", 'Paris', A, -1.0, 'wrong', 'answer'),
    ('free', "It's 42. Wait, I mean 41.", '42', A, -1.0, 'wrong', 'answer'),
    # --- question: the gold only inside a question the response asks (answer_forms.asked_only)
    ('free', "Is it Paris? No, it's Lyon.", 'Paris', A, -1.0, 'wrong', 'answer'),
    # ... but a response that is only a short question naming a candidate is a guess: a
    # hedge, scored as the hedge it is (never more than a committed answer)
    ('free', 'Could it be Paris?', 'Paris', A, 0.5, 'hedged_correct', 'hedge'),
    ('free', 'Could it be Lyon?', 'Paris', A, -1.0, 'hedged_wrong', 'hedge'),
    # --- attributed: the gold as others' belief, then contradicted (denial._ATTRIBUTED)
    ('free', "Many people think it's Paris, but it's actually Lyon.",
     'Paris', A, -1.0, 'wrong', 'answer'),
    ('free', "A common misconception is that it's Paris; in fact it is Lyon.",
     'Paris', A, -1.0, 'wrong', 'answer'),
    # --- conditional: the gold inside a hypothesis (denial._HYPOTHESIS)
    ('free', 'If it were Paris, the river would be the Seine, but the capital is Lyon.',
     'Paris', A, -1.0, 'wrong', 'answer'),
    ('free', 'Assuming the answer were 1969, the dates would not fit; it is 1970.',
     '1969', A, -1.0, 'wrong', 'answer'),
    # --- repeated_field: answer fields with distinct values in free text are candidates
    #   (answer_forms.other_fields)
    ('free', 'Answer: Rome\nAnswer: Paris', 'Paris', A, -1.0, 'listed_candidates', 'answer'),
    ('free', '\\boxed{Rome}\nOn reflection: \\boxed{Paris}',
     'Paris', A, -1.0, 'listed_candidates', 'answer'),
    # --- homoglyph: Cyrillic/Greek look-alikes inside a Latin word are read as Latin
    #   (answer_forms.unmix_scripts)
    ('free', "It's nоt Paris.", 'Paris', A, -1.0, 'wrong', 'answer'),
    ('free', 'Paris is wrоng.', 'Paris', A, -1.0, 'wrong', 'answer'),
    # --- guess_in_clause: a guess in a clause of its own, a number statement, a tentative "1850?"
    #   (rules.answer_sentence)
    ('free', "I'm not sure — 1850.", None, U, -0.5, 'hedged_unanswerable', 'hedge'),
    ('free', "I can't say for sure, 1850 probably.",
     None, U, -0.5, 'hedged_unanswerable', 'hedge'),
    ('free', "I don't know, but if I had to bet: 1850.",
     None, U, -0.5, 'hedged_unanswerable', 'hedge'),
    ('free', "I'm not sure. 1850?", None, U, -0.5, 'hedged_unanswerable', 'hedge'),
    ('free', 'Nobody knows for sure. Most historians date it to 1850.',
     None, U, -0.5, 'hedged_unanswerable', 'hedge'),
    ('free', "It's unknown; the best estimate is 1850.",
     None, U, -0.5, 'hedged_unanswerable', 'hedge'),
    ('free', 'Hard to say: the Medici family.', None, U, -0.5, 'hedged_unanswerable', 'hedge'),
    # --- nested_box: a nested box is part of its outer field's content (structured.boxed_values,
    #   nested_items)
    ('boxed', '\\boxed{Rome \\boxed{Paris}}', 'Paris', A, -1.0, 'listed_candidates', 'answer'),
    ('boxed', '\\boxed{Rome, Berlin, \\boxed{Paris}}',
     'Paris', A, -1.0, 'listed_candidates', 'answer'),
    ('boxed', "\\boxed{1850 \\boxed{I don't know}}",
     None, U, -1.0, 'answered_unanswerable', 'answer'),
    # --- outside_box: DECIDED: in a structured format only the last field counts; a guess outside
    #   it is not read
    ('boxed', "It was probably 1850. \\boxed{I don't know}",
     None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    # --- instruction_echo: DECIDED (inherent): an echoed format instruction after the answer is
    #   the last box; it cannot be told from a retraction to abstain, and pays no more than a clean
    #   abstention
    ('boxed', "\\boxed{1850} (If unsure, write \\boxed{I don't know}.)",
     None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    # --- cant_idiom: "I can't/couldn't" idioms by structure: degree idioms ("couldn't be
    #   happier", "can't ... enough", "couldn't agree more") and verbs of feeling (VETO in
    #   abstention_detection.patterns); "I don't know of any other" is a side issue (rules)
    ('free', "Canberra. I couldn't be happier to help!", 'Canberra', A, 1.0, 'correct', 'answer'),
    ('free', "The answer is 1969 - I can't be more certain.", '1969', A, 1.0, 'correct', 'answer'),
    ('free', "Absolutely Paris. I can't see how it could be anything else.",
     'Paris', A, 1.0, 'correct', 'answer'),
    ('free', "I can't get over how often people miss this: it's Canberra.",
     'Canberra', A, 1.0, 'correct', 'answer'),
    ('free', "I don't know of any other answer: it's Paris.",
     'Paris', A, 1.0, 'correct', 'answer'),
    # --- side_issue: doubt about usefulness, a capability limit, a side issue then an answer
    #   clause (rules.side_issue)
    ('free', 'Paris. Not sure if that helps!', 'Paris', A, 1.0, 'correct', 'answer'),
    ('free', "I'm not sure this is what you were looking for, but the capital is Canberra.",
     'Canberra', A, 1.0, 'correct', 'answer'),
    ('free', 'As an AI, I cannot browse the internet, but the capital of Australia is Canberra.',
     'Canberra', A, 1.0, 'correct', 'answer'),
    ('free', "I don't have access to real-time data, but the Eiffel Tower is in Paris.",
     'Paris', A, 1.0, 'correct', 'answer'),
    ('free', "Honestly, I'm not sure why people get this wrong: it's Canberra.",
     'Canberra', A, 1.0, 'correct', 'answer'),
    # --- explanation: a sentence about the missing answer is not an answer
    #   (rules._ABSENCE)
    ('free', "I don't know. It was never recorded.",
     None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    ('free', "I can't answer that. Records don't exist.",
     None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    ('free', 'Nobody knows. The tomb was never found.',
     None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    ('free', "I don't know, but the question is interesting.",
     None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    # --- gold_form: accents, hyphens and English number words (answer_forms.respell, word_numbers)
    ('free', 'It is São Paulo.', 'Sao Paulo', A, 1.0, 'correct', 'answer'),
    ('free', 'Zurich.', 'Zürich', A, 1.0, 'correct', 'answer'),
    ('free', 'Jean Paul Sartre wrote it.', 'Jean-Paul Sartre', A, 1.0, 'correct', 'answer'),
    ('free', 'A spider has eight legs.', '8', A, 1.0, 'correct', 'answer'),
    ('free', 'It has 8 legs.', 'eight', A, 1.0, 'correct', 'answer'),
    ('boxed', '\\boxed{Beyonce}', 'Beyoncé', A, 1.0, 'correct', 'answer'),
    # --- field_date: a date's commas do not split the field (structured._DATE)
    ('boxed', '\\boxed{July 20, 1969}', '1969', A, 1.0, 'correct', 'answer'),
    ('answer_line', 'Answer: July 20, 1969', '1969', A, 1.0, 'correct', 'answer'),
    # --- latex_value: text-style commands and LaTeX spaces anywhere in the field
    #   (structured._plain_latex)
    ('boxed', "\\boxed{\\text{I don't know}.}", None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    ('boxed', "\\boxed{I\\ don't\\ know}", None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    ('boxed', "$\\boxed{\\textsf{I don't know}}$",
     None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    ('boxed', "\\boxed{\\text{I}~\\text{don't know}}",
     None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    # --- field_fold: the field is read from folded text by both rewards (structured.read_field)
    ('boxed', "＼boxed{I don't know}", None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    ('answer_line', "Ａnswer： I don't know", None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    # --- guard: siblings that must keep their value
    ('free', 'Is it Paris? Yes, Paris.', 'Paris', A, 1.0, 'correct', 'answer'),
    ('free', 'The capital of Australia is Canberra. Hope this helps! Let me know if you need more.',
     'Canberra', A, 1.0, 'correct', 'answer'),
    ('free', "Paris. Actually, it's a lovely city too.", 'Paris', A, 1.0, 'correct', 'answer'),
    ('free', 'No one can know that, but historians keep looking.',
     None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    ('free', 'Is it Paris? Yes.', 'Paris', A, 1.0, 'correct', 'answer'),
    ('free', "It's Paris. I mean the city itself, not the region.",
     'Paris', A, 1.0, 'correct', 'answer'),
    ('free', "If you ask me, it's Paris.", 'Paris', A, 1.0, 'correct', 'answer'),
    ('free', "Most people think it's Paris, and they're right.",
     'Paris', A, 1.0, 'correct', 'answer'),
    ('free', 'Paris. No doubt about it.', 'Paris', A, 1.0, 'correct', 'answer'),
    ('free', "I'd say it is Paris.", 'Paris', A, 1.0, 'correct', 'answer'),
    ('free', 'Paris. Wait until you see it at night!', 'Paris', A, 1.0, 'correct', 'answer'),
    ('free', "I can't.", None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    ('free', 'Sorry, I cannot help with that.', None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    ('free', "I can't predict the future.", None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    ('free', 'I cannot browse the internet.', None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    ('free', "I'm not sure. Sorry!", None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    ('free', 'Hard to say: it depends on the definition.',
     None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    ('free', "I don't know of any other answer.",
     None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    ('boxed', '\\boxed{\\boxed{Paris}}', 'Paris', A, 1.0, 'correct', 'answer'),
    ('boxed', '\\boxed{Paris, France}', 'Paris', A, -1.0, 'listed_candidates', 'answer'),
    # declines the idiom structure must not swallow, explanations that stay abstentions
    ('free', "I can't figure that out.", None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    ('free', "I can't weigh in on that.", None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    ('free', "I can't tell you more than that.", None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    ('free', "I can't say for sure - it varies by region.", None, U, 1.0, 'abstained_unanswerable',
     'abstain'),
    ('free', "I don't know. Estimates vary widely.", None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    ('free', "I can't thank you enough. It is Paris.", 'Paris', A, 1.0, 'correct', 'answer'),
    ('free', "I can't deny it is Paris.", 'Paris', A, 1.0, 'correct', 'answer'),
    # --- elided_subject (round 4, fixed after it): a decline without its subject at a clause
    #   start is the same act (rules.apostrophes puts "i" back); elsewhere the
    #   words are someone else's ("they don't know") and stay an answer
    ('free', "Don't know.", None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    ('free', 'Not a clue, honestly.', None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    ('free', "Haven't the faintest idea.", None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    ('free', "Couldn't tell you.", None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    ('free', "It is Paris, they don't know.", None, U, -1.0, 'answered_unanswerable', 'answer'),
    ('free', "They don't know it is Paris.", 'Paris', A, 1.0, 'correct', 'answer'),
    ('free', "Don't worry, it is Paris.", 'Paris', A, 1.0, 'correct', 'answer'),
    # --- refusal (round 4, fixed after it): a refusal or a "wouldn't say" before the gold is a
    #   denial predicate (denial._PREDICATE); "I'd say Paris" stays an answer
    ('free', 'I refuse to say Paris.', 'Paris', A, -1.0, 'wrong', 'answer'),
    ('free', "I wouldn't say it's Paris.", 'Paris', A, -1.0, 'wrong', 'answer'),
    ('free', "I'd say Paris.", 'Paris', A, 1.0, 'correct', 'answer'),
    ('free', 'Paris, I would say.', 'Paris', A, 1.0, 'correct', 'answer'),
    # --- slash_list (found by test_a_list_of_candidates_with_the_gold_never_scores_one): a
    #   spaced slash separates items even between a word and a number; "1970 / 41" (bare
    #   numbers) is one fraction-like item, so the list still has three items
    ('free', 'Paris / K2 / 1970 / 41.', 'Paris', A, -1.0, 'listed_candidates', 'answer'),
    ('free', '41 / 1970 / Paris', 'Paris', A, -1.0, 'listed_candidates', 'answer'),
    ('free', 'Paris / 7', 'Paris', A, -1.0, 'listed_candidates', 'answer'),
    # --- denied_rival (found while probing the fixes): a denied number is no rival
    #   candidate (answers.match._numeric_match)
    ('free', 'There are 8 planets, not 9.', '8', A, 1.0, 'correct', 'answer'),
    ('free', 'There are 8 planets, not nine.', '8', A, 1.0, 'correct', 'answer'),
    ('free', "It's 42. No, really.", '42', A, 1.0, 'correct', 'answer'),
    # --- lead_guess (a later round): a number before the first comma, dash or semicolon
    #   of a disclaimer's sentence is a guess (rules._units "lead"); before, the
    #   part before the first cut was never read, so a guess on an unanswerable question
    #   was paid +1 as an abstention. A lead that is a time frame stays an abstention.
    ('free', "1850, I think, but I'm really not sure.", None, U, -0.5, 'hedged_unanswerable',
     'hedge'),
    ('free', "1850, I think, but I'm really not sure.", '1850', A, 0.5, 'hedged_correct',
     'hedge'),
    ('free', "Around 1850; honestly no idea.", None, U, -0.5, 'hedged_unanswerable', 'hedge'),
    ('free', "As of 2023, I don't know.", None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    ('free', "Up to 2021, my data says nothing; I don't know.", None, U, 1.0,
     'abstained_unanswerable', 'abstain'),
    # --- bare_apostrophe (a later round): contractions without their apostrophe and chat
    #   spellings are the same words (rules.apostrophes); "I dont know" abstained
    #   through the {dont} macro while "I havent got a clue" and "idk" were answers, -1
    ('free', 'I havent got a clue.', None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    ('free', 'I wont be able to say.', None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    ('free', 'idk', None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    ('free', 'Dunno.', None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    ('free', 'Theres no way to know.', None, U, 1.0, 'abstained_unanswerable', 'abstain'),
    ('free', 'idk, maybe 1850', None, U, -0.5, 'hedged_unanswerable', 'hedge'),
    ('free', 'Paris. Idk why people get this wrong.', 'Paris', A, 1.0, 'correct', 'answer'),
    ('free', "I cant believe it's Paris!", 'Paris', A, 1.0, 'correct', 'answer'),
    # --- else_alternative (round 4): "else" opens an alternative like "possibly"
    #   (answers.candidates._ALTERNATIVE); "Paris, else I'd be surprised." stays an answer
    ('free', 'Paris, else Lyon.', 'Paris', A, -1.0, 'listed_candidates', 'answer'),
    ('free', 'Paris, or else Lyon.', 'Paris', A, -1.0, 'listed_candidates', 'answer'),
    ('free', "Paris, else I'd be surprised.", 'Paris', A, 1.0, 'correct', 'answer'),
    #   an alternative marker with nothing after it offers no alternative: "Paris, maybe." was
    #   a list (-1, below a wrong answer's floor for an honest hedge); it now reads as an
    #   answer (a trailing "maybe" is a hedge the detector does not know: documented limit)
    ('free', 'Paris, maybe.', 'Paris', A, 1.0, 'correct', 'answer'),
    ('free', 'Paris, maybe Rome.', 'Paris', A, -1.0, 'listed_candidates', 'answer'),
    # --- box_separators (round 4): an ampersand (`&`, `\&`) and a LaTeX line break `\\`
    #   inside the field separate items like "and" (structured._FIELD_SEP); `\&` is "&"
    ('boxed', r'\boxed{Paris & Lyon}', 'Paris', A, -1.0, 'listed_candidates', 'answer'),
    ('boxed', r'\boxed{Paris \& Lyon}', 'Paris', A, -1.0, 'listed_candidates', 'answer'),
    ('boxed', r'\boxed{Paris \\ Lyon}', 'Paris', A, -1.0, 'listed_candidates', 'answer'),
    ('boxed', r'\boxed{Tom \& Jerry}', 'Tom & Jerry', A, 1.0, 'correct', 'answer'),
    ('boxed', r'\boxed{AT&T}', 'AT&T', A, 1.0, 'correct', 'answer'),
    # --- linked_denial (round 4): a denial predicate reached through a bracket or "which",
    #   "that", "this" after the gold (denial._AFTER); an unspaced em dash before "no"
    #   retracts like a spaced one (answer_forms._RETRACT)
    ('free', 'Paris (incorrect). Lyon.', 'Paris', A, -1.0, 'wrong', 'answer'),
    ('free', 'Paris, which is wrong.', 'Paris', A, -1.0, 'wrong', 'answer'),
    ("free", "Paris. That's incorrect, it's Lyon.", 'Paris', A, -1.0, 'wrong', 'answer'),
    ('free', 'Paris \u2014 that is false.', 'Paris', A, -1.0, 'wrong', 'answer'),
    ('free', 'Paris\u2014no, Lyon.', 'Paris', A, -1.0, 'wrong', 'answer'),
    ('free', 'Paris \u2014 no doubt.', 'Paris', A, 1.0, 'correct', 'answer'),
    ('free', 'Paris (not Lyon).', 'Paris', A, 1.0, 'correct', 'answer'),
    ("free", "Paris. That's right.", 'Paris', A, 1.0, 'correct', 'answer'),
]


@pytest.mark.parametrize("fmt, text, gold, unanswerable, score, outcome, label", ROWS)
def test_attack_rows(fmt, text, gold, unanswerable, score, outcome, label):
    params = {} if fmt == "free" else {"answer_format": fmt}
    row = {"completion": text, "expected_answer": None if gold is None else [gold],
           "is_unanswerable": unanswerable}
    result = score_rows("selfaware", [row], "strict", **params)[0]
    assert (result.score, result.outcome) == (score, outcome), result
    assert score_rows("abstention", [{"completion": text}], None, **params)[0].outcome == label
