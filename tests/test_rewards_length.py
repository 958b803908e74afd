"""The length and repetition guards: `soft_overlong`, `repetition_penalty`, `cosine_scaled`."""

from __future__ import annotations

import math

import pytest

from rlvr.config import TrainConfig
from rlvr.errors import RlvrError
from rlvr.rewards import get_reward, make_trl_rewards, score_rows
from rlvr.rewards.length import (
    cosine_scaled,
    cosine_value,
    overlong_penalty,
    repeated_ngram_fraction,
    repetition_penalty,
    soft_overlong,
)

DEFAULT_VALUES = {"min_value_wrong": -1.0, "max_value_wrong": -0.5, "min_value_correct": 0.5,
                  "max_value_correct": 1.0}
COS_45 = math.cos(math.pi / 4)  # 0.70710678...
# The collapse seen in the self-awareness job, cut at 24 tokens.
LOOP = "I don't know, I don't know. I don't know if I don't know, I don't know"


def _in_range(name: str, score: float | None) -> None:
    if score is not None:
        low, high = get_reward(name).score_range
        assert low <= score <= high


# --- pure math --------------------------------------------------------------------------------

# (length, L_max, L_cache, expected): DAPO Eq. (13)
OVERLONG = [
    (90, 100, 20, -0.5),   # TRL's docstring example: (80 - 90) / 20 = -0.5
    (80, 100, 20, 0.0),    # 80 <= 100 - 20: no penalty
    (81, 100, 20, -0.05),  # (80 - 81) / 20 = -0.05
    (100, 100, 20, -1.0),  # (80 - 100) / 20 = -1.0 at L_max
    (101, 100, 20, -1.0),  # past L_max: -1
    (0, 100, 20, 0.0),
    (20, 24, 8, -0.5),     # (16 - 20) / 8 = -0.5
    (12, 12, 0, 0.0),      # no cache: 0 up to L_max ...
    (13, 12, 0, -1.0),     # ... and -1 beyond
    (0, 5, 5, 0.0),        # cache = L_max: 0 - 0 = 0 at length 0
    (5, 5, 5, -1.0),       # (0 - 5) / 5 = -1
]


@pytest.mark.parametrize("length,max_length,cache,expected", OVERLONG)
def test_overlong_penalty(length, max_length, cache, expected):
    assert overlong_penalty(length, max_length, cache) == pytest.approx(expected)


# (sequence, n, expected fraction 1 - unique/total)
FRACTIONS = [
    ([1, 2, 3, 4], 2, 0.0),             # 3 bigrams, all distinct (TRL's example)
    ([5, 5, 5, 5, 5], 2, 0.75),         # 4 bigrams, 1 distinct: 1 - 1/4 (TRL's example)
    ([1, 2, 1, 2, 1, 2], 2, 0.6),       # 12 21 12 21 12: 5 bigrams, 2 distinct: 1 - 2/5
    ([1, 2, 1, 2, 1, 2], 3, 0.5),       # 121 212 121 212: 4 trigrams, 2 distinct: 1 - 2/4
    ([7, 7, 7], 1, 2 / 3),              # 3 unigrams, 1 distinct: 1 - 1/3
    ([1, 2, 3], 3, 0.0),                # one trigram
    ([1, 2], 3, 0.0),                   # no trigram at all
    ([], 1, 0.0),
]


@pytest.mark.parametrize("units,n,expected", FRACTIONS)
def test_repeated_ngram_fraction(units, n, expected):
    assert repeated_ngram_fraction(units, n) == pytest.approx(expected)


# (length, correct, expected) with L_max = 100 and the default values (-1, -0.5, 0.5, 1):
# correct: 0.5 + 0.25 (1 + cos(pi p)); wrong: -0.5 - 0.25 (1 + cos(pi p)), p = min(L/100, 1)
COSINE = [
    (0, True, 1.0),                           # cos 0 = 1: 0.5 + 0.25 * 2
    (25, True, 0.5 + 0.25 * (1 + COS_45)),    # = 0.92677...
    (50, True, 0.75),                         # cos(pi/2) = 0 (TRL's example)
    (100, True, 0.5),                         # cos pi = -1
    (150, True, 0.5),                         # clamped at L_max (open-r1 would give 0.75)
    (0, False, -1.0),                         # -0.5 - 0.25 * 2
    (50, False, -0.75),                       # TRL's example
    (75, False, -0.5 - 0.25 * (1 - COS_45)),  # cos(3pi/4) = -0.7071: -0.57322...
    (100, False, -0.5),
    (1000, False, -0.5),
]


@pytest.mark.parametrize("length,correct,expected", COSINE)
def test_cosine_value(length, correct, expected):
    assert cosine_value(length, 100, correct, **DEFAULT_VALUES) == pytest.approx(expected)


# --- reward tables ----------------------------------------------------------------------------

# (completion, fields, params, expected score, expected outcome)
SOFT_OVERLONG = [
    ("x", {"completion_ids": [1] * 90}, {"max_length": 100, "cache_length": 20}, -0.5,
     "in_cache"),
    # a 6-token abstention (5 tokens + EOS) under a 24-token cap with an 8-token cache
    ("I don't know.", {"completion_ids": [1] * 6}, {"max_length": 24, "cache_length": 8},
     0.0, "short"),
    # cut at the cap: (16 - 24) / 8 = -1
    (LOOP, {"completion_ids": [1] * 24}, {"max_length": 24, "cache_length": 8}, -1.0,
     "in_cache"),
    # an `rlvr eval` record: num_tokens 20 -> (16 - 20) / 8 = -0.5
    (LOOP, {"num_tokens": 20}, {"max_length": 24, "cache_length": 8}, -0.5, "in_cache"),
    # ids win over num_tokens: 10 tokens -> short
    (LOOP, {"completion_ids": [1] * 10, "num_tokens": 99},
     {"max_length": 24, "cache_length": 8}, 0.0, "short"),
    # offline text in words: 4 words > L_max 3
    ("one two three four", {}, {"max_length": 3, "cache_length": 1, "unit": "words"}, -1.0,
     "over_max"),
    # in characters: "abc" is 3 chars: (2 - 3) / 2 = -0.5
    ("abc", {}, {"max_length": 4, "cache_length": 2, "unit": "chars"}, -0.5, "in_cache"),
    # tokens asked for, none given: cannot be scored
    (LOOP, {}, {"max_length": 24, "cache_length": 8}, None, "no_token_ids"),
]


@pytest.mark.parametrize("completion,fields,params,score,outcome", SOFT_OVERLONG)
def test_soft_overlong_table(completion, fields, params, score, outcome):
    result = soft_overlong(completion, **fields, **params)
    assert result.outcome == outcome
    assert result.score == (None if score is None else pytest.approx(score))
    _in_range("soft_overlong", result.score)


REPETITION = [
    # lower-cased words, punctuation kept: i don't know, | i don't know. | i don't know, |
    # i don't know.  -> 12 words, 10 trigrams, 6 distinct: (1 - 6/10) * -1 = -0.4
    ("I don't know, I don't know. I don't know, I don't know.", {}, {}, -0.4, "repeated"),
    # the same with max_penalty -0.5: 0.4 * -0.5 = -0.2
    ("I don't know, I don't know. I don't know, I don't know.", {}, {"max_penalty": -0.5},
     -0.2, "repeated"),
    # case does not matter: 4 words, 2 trigrams, 1 distinct: (1 - 1/2) * -1 = -0.5
    ("Paris paris PARIS paris", {}, {}, -0.5, "repeated"),
    # bigrams of the same: 3 bigrams, 1 distinct: (1 - 1/3) * -1
    ("Paris paris PARIS paris", {}, {"ngram_size": 2}, -2 / 3, "repeated"),
    ("The capital of France is Paris.", {}, {}, 0.0, "no_repeats"),
    ("I don't know.", {}, {}, 0.0, "no_repeats"),   # exactly one trigram
    ("Paris.", {}, {}, 0.0, "too_short"),
    ("", {}, {}, 0.0, "too_short"),
    # token ids (TRL's variant): 5 ids, 3 trigrams, 1 distinct: (1 - 1/3) * -1
    ("ignored", {"completion_ids": [5, 5, 5, 5, 5]}, {"unit": "tokens"}, -2 / 3, "repeated"),
    ("ignored", {"completion_ids": [1, 2, 3, 4]}, {"unit": "tokens"}, 0.0, "no_repeats"),
    ("ignored", {}, {"unit": "tokens"}, None, "no_token_ids"),
]


@pytest.mark.parametrize("completion,fields,params,score,outcome", REPETITION)
def test_repetition_penalty_table(completion, fields, params, score, outcome):
    result = repetition_penalty(completion, **fields, **params)
    assert result.outcome == outcome
    assert result.score == (None if score is None else pytest.approx(score))
    _in_range("repetition_penalty", result.score)


UNANSWERABLE = {"expected_answer": None, "is_unanswerable": True}
CAIRO = {"expected_answer": ["Cairo"], "is_unanswerable": False}
COSINE_ROWS = [
    # a `correct` column and 50 of 100 tokens: 0.75 / -0.75
    ("x", {"correct": True, "completion_ids": [1] * 50}, {"max_length": 100}, 0.75, "correct"),
    ("x", {"correct": False, "completion_ids": [1] * 50}, {"max_length": 100}, -0.75, "wrong"),
    ("x", {"correct": "false", "num_tokens": 100}, {"max_length": 100}, -0.5, "wrong"),
    ("x", {"correct": None, "completion_ids": [1]}, {"max_length": 100}, None, "unscored"),
    # base `math`: right answer at 25 of 100 tokens: 0.5 + 0.25 (1 + cos(pi/4)) = 0.92678
    ("\\boxed{6}", {"solution": "6", "completion_ids": [1] * 25},
     {"max_length": 100, "base": "math"}, 0.5 + 0.25 * (1 + COS_45), "correct"),
    # wrong answer at 75 of 100: -0.5 - 0.25 (1 - cos(pi/4)) = -0.57322
    ("\\boxed{3}", {"solution": "6", "completion_ids": [1] * 75},
     {"max_length": 100, "base": "math"}, -0.5 - 0.25 * (1 - COS_45), "wrong"),
    # an unparseable gold: the base scores None, so does this reward
    ("\\boxed{3}", {"solution": "\\frac{", "completion_ids": [1] * 5},
     {"max_length": 100, "base": "math"}, None, "unscored"),
    # base `selfaware` (strict): a clean abstention on an unanswerable question, 6 of 24
    # tokens: p = 0.25, 0.5 + 0.25 (1 + cos(pi/4))
    ("I don't know.", {**UNANSWERABLE, "completion_ids": [1] * 6},
     {"max_length": 24, "base": "selfaware", "base_preset": "strict"},
     0.5 + 0.25 * (1 + COS_45), "correct"),
    # ... the looping abstention is also correct for selfaware, but at the cap: 0.5
    (LOOP, {**UNANSWERABLE, "completion_ids": [1] * 24},
     {"max_length": 24, "base": "selfaware", "base_preset": "strict"}, 0.5, "correct"),
    # a wrong answer at 12 of 24 tokens: -0.75
    ("Alexandria.", {**CAIRO, "completion_ids": [1] * 12},
     {"max_length": 24, "base": "selfaware", "base_preset": "strict"}, -0.75, "wrong"),
    # a threshold below the maximum: selfaware's hedged_correct (0.5) counts as correct
    ("I'm not sure, but I think it is Cairo.", {**CAIRO, "completion_ids": [1] * 12},
     {"max_length": 24, "base": "selfaware", "base_preset": "strict", "threshold": 0.5},
     0.75, "correct"),
    # words: 2 of 4 words, p = 0.5 -> 0.75
    ("Cairo, Egypt", {"correct": 1}, {"max_length": 4, "unit": "words"}, 0.75, "correct"),
    # the paper's values (-10, 0, 1, 2) divided by 10, at p = 0.5: correct 0.1 + 0.05 = 0.15,
    # wrong 0 + 0.5 * (-1 - 0) * 1 = -0.5
    ("x", {"correct": True, "completion_ids": [1] * 50},
     {"max_length": 100, "min_value_wrong": -1.0, "max_value_wrong": 0.0,
      "min_value_correct": 0.1, "max_value_correct": 0.2}, 0.15, "correct"),
    ("x", {"correct": False, "completion_ids": [1] * 50},
     {"max_length": 100, "min_value_wrong": -1.0, "max_value_wrong": 0.0,
      "min_value_correct": 0.1, "max_value_correct": 0.2}, -0.5, "wrong"),
    ("x", {"correct": True}, {"max_length": 100}, None, "no_token_ids"),
]


@pytest.mark.parametrize("completion,fields,params,score,outcome", COSINE_ROWS)
def test_cosine_scaled_table(completion, fields, params, score, outcome):
    result = cosine_scaled(completion, **fields, **params)
    assert result.outcome == outcome
    assert result.score == (None if score is None else pytest.approx(score))
    _in_range("cosine_scaled", result.score)


# --- errors -----------------------------------------------------------------------------------

@pytest.mark.parametrize("call,message", [
    (lambda: soft_overlong("x", completion_ids=[1]), "max_completion_length"),
    (lambda: soft_overlong("x", max_length=24, completion_ids=[1]), "cache_length"),
    (lambda: soft_overlong("x", max_length=8, cache_length=9, completion_ids=[1]), "exceeds"),
    (lambda: soft_overlong("x", max_length=8, cache_length=2, unit="lines"), "unit"),
    (lambda: repetition_penalty("a b c", max_penalty=0.5), "max_penalty"),
    (lambda: repetition_penalty("a b c", max_penalty=-2.0), "weight"),
    (lambda: repetition_penalty("a b c", ngram_size=0), "ngram_size"),
    (lambda: repetition_penalty("a b c", unit="chars"), "unit"),
    (lambda: cosine_scaled("x", max_length=10, completion_ids=[1]), "correct"),
    (lambda: cosine_scaled("x", max_length=10, base="maths", completion_ids=[1]), "math"),
    (lambda: cosine_scaled("x", max_length=10, base="math", completion_ids=[1]), "solution"),
    (lambda: cosine_scaled("x", max_length=10, correct=True, max_value_correct=2.0),
     "max_value_correct"),
    (lambda: cosine_scaled("x", correct=True, completion_ids=[1]), "max_length"),
    (lambda: cosine_scaled("x", max_length=10, correct="maybe", completion_ids=[1]), "maybe"),
    (lambda: cosine_scaled("x", max_length=10, base="cosine_scaled"), "its own base"),
])
def test_bad_parameters_raise(call, message):
    with pytest.raises(RlvrError, match=message):
        call()


# --- parity with TRL 1.16's implementations ---------------------------------------------------

def test_soft_overlong_matches_trl():
    from trl.rewards import get_soft_overlong_punishment

    for max_length, cache in ((24, 8), (24, 0), (100, 20), (5, 5)):
        ids = [[1] * n for n in range(0, max_length + 4)]
        theirs = get_soft_overlong_punishment(max_length, cache)(completion_ids=ids)
        ours = [soft_overlong("", max_length=max_length, cache_length=cache,
                              completion_ids=i).score for i in ids]
        assert ours == pytest.approx(theirs)


def test_token_repetition_matches_trl():
    import random

    from trl.rewards import get_repetition_penalty_reward

    rng = random.Random(0)
    ids = [[rng.randrange(6) for _ in range(rng.randrange(0, 30))] for _ in range(200)]
    for n, penalty in ((1, -1.0), (3, -1.0), (4, -0.3)):
        theirs = get_repetition_penalty_reward(ngram_size=n, max_penalty=penalty)(
            completion_ids=ids)
        ours = [repetition_penalty("", ngram_size=n, max_penalty=penalty, unit="tokens",
                                   completion_ids=i).score for i in ids]
        assert ours == pytest.approx(theirs)


def test_cosine_with_math_base_matches_trl():
    from trl.rewards import get_cosine_scaled_reward

    completions = [[{"role": "assistant", "content": c}] for c in
                   ("\\boxed{\\frac{1}{3}}", "\\boxed{\\frac{1}{2}}") * 4]
    solution = ["\\frac{1}{3}"] * 8
    ids = [[1] * n for n in (0, 0, 10, 10, 50, 50, 130, 130)]
    theirs = get_cosine_scaled_reward(max_len=100)(completions, solution, ids)
    (ours,), _ = make_trl_rewards([{"name": "cosine_scaled",
                                    "params": {"base": "math", "max_length": 100}}])
    assert ours(completions=completions, solution=solution, completion_ids=ids) == \
        pytest.approx(theirs)
    assert theirs[4:6] == pytest.approx([0.75, -0.75])  # TRL's own docstring example


# --- through the TRL adapter, with weights ----------------------------------------------------

def test_weighted_guards_through_make_trl_rewards():
    entries = [
        {"name": "selfaware", "preset": "strict", "params": {"abstain_answerable": -1.0}},
        {"name": "soft_overlong", "params": {"max_length": 24, "cache_length": 8}},
        {"name": "repetition_penalty", "weight": 0.5},
        {"name": "cosine_scaled", "weight": 0.5, "log_name": "cosine_selfaware",
         "params": {"base": "selfaware", "base_preset": "strict", "max_length": 24}},
    ]
    funcs, weights = make_trl_rewards(entries)
    assert [f.__name__ for f in funcs] == ["selfaware", "soft_overlong", "repetition_penalty",
                                           "cosine_selfaware"]
    assert weights == [1.0, 1.0, 0.5, 0.5]
    # what GRPOTrainer._calculate_rewards passes: prompts, completions, completion_ids, the
    # dataset columns (one entry per completion) and trainer_state / log_extra / log_metric
    completions = [[{"role": "assistant", "content": text}] for text in
                   ("I don't know.", LOOP, "The capital of Egypt is Cairo.", "Alexandria.")]
    kwargs = {
        "prompts": [[{"role": "user", "content": q}] for q in
                    ("What is my PIN?", "What is my PIN?", "Capital of Egypt?",
                     "Capital of Egypt?")],
        "completions": completions,
        "completion_ids": [[1] * 6, [1] * 24, [1] * 9, [1] * 5],
        "expected_answer": [None, None, ["Cairo"], ["Cairo"]],
        "is_unanswerable": [True, True, False, False],
        "id": ["a", "a", "b", "b"],
        "trainer_state": None,
        "log_extra": lambda *args: None,
        "log_metric": lambda *args: None,
    }
    columns = [f(**kwargs) for f in funcs]
    # selfaware: abstaining on the unanswerable question is +1 whether clean or looping
    assert columns[0] == [1.0, 1.0, 1.0, -1.0]
    # overlong: 6 and 9 and 5 tokens are under 24 - 8 = 16; the loop hits the cap: -1
    assert columns[1] == [0.0, -1.0, 0.0, 0.0]
    # repetition (words, n = 3): the loop's 16 words give 14 trigrams; "i don't know,",
    # "don't know, i", "know, i don't" and "i don't know" come twice, so 10 are distinct:
    # (1 - 10/14) * -1 = -4/14 = -0.2857
    assert columns[2] == pytest.approx([0.0, -4 / 14, 0.0, 0.0])
    # cosine on selfaware: 6/24 -> 0.92678, 24/24 -> 0.5, 9/24 -> 0.5 + 0.25 (1 + cos(3pi/8)),
    # wrong at 5/24 -> -0.5 - 0.25 (1 + cos(5pi/24))
    assert columns[3] == pytest.approx([
        0.5 + 0.25 * (1 + COS_45), 0.5, 0.5 + 0.25 * (1 + math.cos(3 * math.pi / 8)),
        -0.5 - 0.25 * (1 + math.cos(5 * math.pi / 24))])
    totals = [sum(w * c[i] for w, c in zip(weights, columns)) for i in range(4)]
    # the looping abstention now earns less than the clean one and the right answer
    assert totals[1] < totals[0] and totals[1] < totals[2]


def test_offline_rows_and_config():
    # `rlvr score` / eval records: `num_tokens` stands in for the ids
    rows = [{"completion": LOOP, "num_tokens": 24}, {"completion": "Cairo.", "num_tokens": 3}]
    results = score_rows("soft_overlong", rows, max_length=24, cache_length=8)
    assert [r.score for r in results] == [-1.0, 0.0]
    # without any token count, words are the documented fallback
    # (16 words; (12 - 16) / 4 = -1 at L_max 16 with a 4-word cache)
    results = score_rows("soft_overlong", [{"completion": LOOP}], max_length=16,
                         cache_length=4, unit="words")
    assert results[0].score == -1.0 and results[0].details["length"] == 16
    # a training config accepts the guards in reward_funcs
    cfg = TrainConfig(reward_funcs=[
        {"name": "selfaware", "preset": "strict"},
        {"name": "soft_overlong", "params": {"max_length": 24, "cache_length": 8}},
        {"name": "repetition_penalty", "weight": 0.5}])
    assert len(cfg.reward_funcs) == 3
