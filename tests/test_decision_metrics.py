"""The decision rule a reward table implies (`rlvr.metrics.decision`), hand-computed."""

from __future__ import annotations

import itertools

import pytest

from rlvr.metrics.decision import (ABSTAIN, ANSWER, EITHER, action_of, answer_threshold,
                                   decision_summary, expected_rewards, paired_decisions,
                                   preferred_action, question_decision, reward_values,
                                   threshold_table)
from rlvr.rewards import get_reward

STRICT = reward_values("strict")
TERNARY = reward_values("ternary")


def test_reward_values_come_from_the_presets_and_the_defaults():
    assert STRICT == {"correct": 1.0, "wrong": -1.0, "abstain_answerable": -0.5,
                      "abstain_unanswerable": 1.0, "answer_unanswerable": -1.0,
                      "abstain_known": None}
    assert TERNARY["abstain_answerable"] == 0.0
    # the overrides of configs/selfaware_grpo_cpu.yaml reach the table
    main_job = reward_values("strict", {"abstain_answerable": -1.0, "wrong": -0.5})
    assert (main_job["abstain_answerable"], main_job["wrong"]) == (-1.0, -0.5)
    with pytest.raises(ValueError, match="selfaware table"):
        reward_values(None, None, reward="qa")


@pytest.mark.parametrize("preset,params,p_star", [
    ("strict", None, 0.25),                            # (-0.5 - -1) / (1 - -1) = 0.5 / 2
    ("strict", {"abstain_answerable": -1.0}, 0.0),     # (-1 - -1) / 2 = 0
    # configs/selfaware_grpo_cpu.yaml: (-1 - -0.5) / (1 - -0.5) = -0.5 / 1.5: answer always
    ("strict", {"abstain_answerable": -1.0, "wrong": -0.5}, -1 / 3),
    ("ternary", None, 0.5),                            # (0 - -1) / 2 = 0.5
    ("seed", None, 0.25),                              # the seed values are strict's
    ("strict", {"correct": 0.5}, 1 / 3),               # (-0.5 - -1) / (0.5 - -1) = 0.5 / 1.5
    ("ternary", {"abstain_answerable": 0.5}, 0.75),    # (0.5 - -1) / 2 = 0.75
])
def test_answer_threshold(preset, params, p_star):
    assert answer_threshold(reward_values(preset, params)) == pytest.approx(p_star)


def test_answer_threshold_degenerate_and_known():
    assert answer_threshold({**STRICT, "correct": -1.0}) is None  # correct == wrong
    values = reward_values("strict", {"abstain_known": -1.0})
    # known questions: (-1 - -1) / 2 = 0; others keep 0.25
    assert answer_threshold(values, known=True) == 0.0
    assert answer_threshold(values) == 0.25


def test_threshold_table_lists_every_preset():
    table = threshold_table({"abstain_answerable": -1.0})
    assert [r["preset"] for r in table] == list(get_reward("selfaware").presets)
    by = {r["preset"]: r for r in table}
    # the override applies to every preset: (-1 - -1) / 2 = 0 everywhere
    assert {r["p_star"] for r in table} == {0.0}
    assert all(r["unanswerable"] == ABSTAIN and r["p_star_known"] is None for r in table)
    assert {r["preset"]: r["p_star"] for r in threshold_table()}["ternary"] == 0.5
    assert by["strict"]["values"]["abstain_answerable"] == -1.0


@pytest.mark.parametrize("p,unanswerable,values,expected", [
    (0.3, False, STRICT, ANSWER),    # 0.3 - 0.7 = -0.4 > -0.5
    (0.2, False, STRICT, ABSTAIN),   # 0.2 - 0.8 = -0.6 < -0.5
    (0.25, False, STRICT, EITHER),   # 0.25 - 0.75 = -0.5 = -0.5 (1 of 4 samples)
    (0.5, False, TERNARY, EITHER),   # 0.5 - 0.5 = 0 = 0
    (0.4, False, TERNARY, ABSTAIN),  # 0.4 - 0.6 = -0.2 < 0
    (0.6, False, TERNARY, ANSWER),   # 0.6 - 0.4 = 0.2 > 0
    (1.0, True, TERNARY, ABSTAIN),   # unanswerable: +1 > -1 whatever p
    (0.0, True, {**STRICT, "answer_unanswerable": 1.0}, EITHER),
])
def test_preferred_action(p, unanswerable, values, expected):
    assert preferred_action(p, unanswerable, values) == expected


def test_expected_rewards_and_errors():
    # 0.75 * 1 + 0.25 * -1 = 0.5 answering; -0.5 abstaining
    assert expected_rewards(0.75, False, STRICT) == {ANSWER: 0.5, ABSTAIN: -0.5}
    assert expected_rewards(0.75, True, STRICT) == {ANSWER: -1.0, ABSTAIN: 1.0}
    known = reward_values("strict", {"abstain_known": -1.0})
    assert expected_rewards(0.0, False, known, known=True)[ABSTAIN] == -1.0
    for bad in (-0.1, 1.5, float("nan")):
        with pytest.raises(ValueError, match="p_correct"):
            expected_rewards(bad, False, STRICT)
    with pytest.raises(ValueError, match="action"):
        question_decision("hedge", 0.5, False, STRICT)


@pytest.mark.parametrize("outcome,action", [
    ("abstained", ABSTAIN), ("abstained_unanswerable", ABSTAIN), ("correct", ANSWER),
    ("wrong", ANSWER), ("hedged_correct", ANSWER), ("hedged_unanswerable", ANSWER),
    ("listed_candidates", ANSWER), ("answered_unanswerable", ANSWER), ("no_answer", ANSWER),
    ("no_gold", None), ("reward_error", None), (None, None),
])
def test_action_of(outcome, action):
    assert action_of(outcome) == action


QUESTIONS = [
    {"action": ANSWER, "p_correct": 0.75, "is_unanswerable": False},
    {"action": ANSWER, "p_correct": 0.25, "is_unanswerable": False},
    {"action": ABSTAIN, "p_correct": 0.5, "is_unanswerable": False},
    {"action": ANSWER, "p_correct": 0.0, "is_unanswerable": True},
    {"action": ABSTAIN, "p_correct": 0.0, "is_unanswerable": True},
    {"action": None, "p_correct": 0.9, "is_unanswerable": False},  # unscored: skipped
]


def test_decision_summary_ternary():
    s = decision_summary(QUESTIONS, TERNARY)
    # EV(answer) / EV(abstain) per question under ternary:
    # 1: 0.75 - 0.25 = 0.5 vs 0 -> answer preferred; answered: agrees, regret 0
    # 2: 0.25 - 0.75 = -0.5 vs 0 -> abstain preferred; answered: regret 0 - -0.5 = 0.5
    # 3: 0.5 - 0.5 = 0 vs 0 -> either; abstained: agrees, regret 0
    # 4: -1 vs +1 -> abstain; answered: regret 2
    # 5: abstained: agrees, regret 0
    assert s["n"] == 5 and s["agree"] == 3 and s["agreement"] == pytest.approx(0.6)
    assert s["regret"] == pytest.approx((0 + 0.5 + 0 + 2 + 0) / 5)  # 0.5
    assert s["preferred"] == {ANSWER: 1, ABSTAIN: 3, EITHER: 1}
    # Wilson 3/5: centre (0.6 + 1.96^2/10) / (1 + 1.96^2/5) = 0.98415 / 1.76829 = 0.5566,
    # half 1.96 * sqrt(0.24/5 + 3.8415/100) / 1.76829 = 0.3258 -> [0.2307, 0.8824]
    assert s["agreement_ci"] == pytest.approx((0.2307, 0.8824), abs=1e-3)
    # regrets 0, .5, 0, 2, 0: sample var (0.25 + 0 + 0.25 + 2.25 + 0.25) / 4 = 0.75,
    # half 1.96 * sqrt(0.75 / 5) = 0.7591 -> [-0.2591, 1.2591], clipped at 0 (no regret is
    # negative)
    assert s["regret_ci"] == pytest.approx((0.0, 1.2591), abs=1e-3)
    assert [d["regret"] for d in s["per_question"]] == pytest.approx([0, 0.5, 0, 2, 0])


def test_decision_summary_strict_judges_other_questions():
    s = decision_summary(QUESTIONS, STRICT)
    # strict (p* = 0.25): question 2 is a tie (agrees, regret 0); question 3 should have
    # answered: EV 0.5 - 0.5 = 0 vs -0.5, regret 0.5; question 4 regret 2 as before
    assert [d["agrees"] for d in s["per_question"]] == [True, True, False, False, True]
    assert s["regret"] == pytest.approx((0 + 0 + 0.5 + 2 + 0) / 5)
    assert decision_summary([], STRICT)["agreement"] is None


def test_regret_is_zero_exactly_when_the_action_agrees():
    grid = [i / 8 for i in range(9)]
    for values, p, unanswerable, action in itertools.product(
            (STRICT, TERNARY, reward_values("strict", {"abstain_answerable": -1.0})), grid,
            (False, True), (ANSWER, ABSTAIN)):
        d = question_decision(action, p, unanswerable, values)
        assert d["regret"] >= 0
        assert d["agrees"] == (d["regret"] <= 1e-12), (values, p, unanswerable, action)


def test_paired_decisions():
    base = decision_summary(QUESTIONS, TERNARY)["per_question"]
    trained = decision_summary([{**q, "action": ABSTAIN if i in (1, 3) else q["action"]}
                                for i, q in enumerate(QUESTIONS)], TERNARY)["per_question"]
    paired = paired_decisions(base, trained, samples=500, seed=1)
    # trained abstains on questions 2 and 4: agreement 3/5 -> 5/5 (+0.4); regret
    # 0.5 -> 0 (-0.5)
    assert paired["agreement"]["mean_difference"] == pytest.approx(0.4)
    assert paired["regret"]["mean_difference"] == pytest.approx(-0.5)
    assert paired["agreement"]["ci_low"] <= 0.4 <= paired["agreement"]["ci_high"]
    # identical decisions: every resample differs by exactly 0
    same = paired_decisions(base, base)
    assert (same["regret"]["ci_low"], same["regret"]["ci_high"]) == (0.0, 0.0)
    assert paired_decisions([], []) == {"agreement": None, "regret": None}
    with pytest.raises(ValueError, match="length"):
        paired_decisions(base, trained[:2])
