"""The `strict` preset of the self-awareness reward: robust labels and hedge values."""

from __future__ import annotations

import itertools

import pytest

from rlvr.rewards import get_reward, make_trl_reward
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
