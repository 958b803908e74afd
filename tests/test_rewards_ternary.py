"""The `ternary` preset of the self-awareness reward (TruthRL: +1 / 0 / -1 on answerable
questions, +1 / -1 on unanswerable ones), its implied policy and its preflight."""

from __future__ import annotations

import itertools

import pytest

from rlvr.data.builtin import builtin_splits
from rlvr.rewards import get_reward, make_trl_reward, score_rows
from rlvr.rewards.preflight import format_preflight, preflight
from rlvr.rewards.selfaware import selfaware_reward

TERNARY = get_reward("selfaware").params("ternary")

# (completion, expected_answer, is_unanswerable, expected reward, expected outcome)
TABLE = [
    ("The capital of France is Paris.", "Paris", False, 1.0, "correct"),
    ("The capital of France is Lyon.", "Paris", False, -1.0, "wrong"),
    # abstaining on an answerable question: 0 (strict -0.5, seed -0.5)
    ("I don't know.", "Paris", False, 0.0, "abstained"),
    ("There is no way to know that.", "Paris", False, 0.0, "abstained"),
    # hedges keep the strict values: +0.5 right, -1.0 wrong (never tied for best, below)
    ("I'm not sure, but it is Paris.", "Paris", False, 0.5, "hedged_correct"),
    ("I'm not sure, but it is Lyon.", "Paris", False, -1.0, "hedged_wrong"),
    # robust detection and word boundaries as in strict
    ("10", "1", False, -1.0, "wrong"),
    ("I cannot stress this enough: it is Lyon.", "Paris", False, -1.0, "wrong"),
    # listing candidates: -1.0, also behind a disclaimer
    ("It is Paris or Rome.", "Paris", False, -1.0, "listed_candidates"),
    ("I don't know - Paris? Lyon? Nice?", "Paris", False, -1.0, "listed_candidates"),
    # unanswerable: abstain +1, hedge -0.5, answer -1
    ("No one knows.", None, True, 1.0, "abstained_unanswerable"),
    ("I'm not sure, but I think Brazil will win.", None, True, -0.5, "hedged_unanswerable"),
    ("Brazil will win the 2031 World Cup.", None, True, -1.0, "answered_unanswerable"),
    ("", None, True, -1.0, "answered_unanswerable"),
]


@pytest.mark.parametrize("completion,gold,unanswerable,reward,outcome", TABLE)
def test_ternary_table(completion, gold, unanswerable, reward, outcome):
    result = selfaware_reward(completion, expected_answer=gold, is_unanswerable=unanswerable,
                              **TERNARY)
    assert (result.score, result.outcome) == (reward, outcome)
    low, high = get_reward("selfaware").score_range
    assert low <= result.score <= high


def test_ternary_knowledge_aware_and_overrides():
    row = {"completion": "I don't know.", "expected_answer": "Paris", "is_unanswerable": False}
    # abstaining on a known question costs abstain_known; unknown keeps ternary's 0
    assert score_rows("selfaware", [{**row, "known": True}], "ternary",
                      abstain_known=-1.0)[0].score == -1.0
    assert score_rows("selfaware", [{**row, "known": False}], "ternary",
                      abstain_known=-1.0)[0].score == 0.0
    # the main job's override makes ternary's abstention -1.0, as in strict with it
    assert score_rows("selfaware", [row], "ternary", abstain_answerable=-1.0)[0].score == -1.0
    reward = make_trl_reward("selfaware", "ternary")
    # 1.0 correct, 0.0 abstained, 1.0 abstained_unanswerable
    assert reward(["Paris.", "I don't know.", "No one knows."], expected_answer=["Paris"] * 3,
                  is_unanswerable=[False, False, True]) == [1.0, 0.0, 1.0]


def _expected(v, r, u):
    """commit / abstain / hedge for a question unanswerable with chance u whose best guess
    is right with chance r (module docstring of rlvr.rewards.selfaware)."""
    commit = u * v["answer_unanswerable"] + (1 - u) * (r * v["correct"] + (1 - r) * v["wrong"])
    abstain = u * v["abstain_unanswerable"] + (1 - u) * v["abstain_answerable"]
    hedge = u * v["hedge_unanswerable"] + (1 - u) * (r * v["hedge_correct"]
                                                     + (1 - r) * v["hedge_wrong"])
    return commit, abstain, hedge


def test_ternary_hedge_is_never_even_tied_for_best():
    grid = [i / 40 for i in range(41)]
    for r, u in itertools.product(grid, grid):
        commit, abstain, hedge = _expected(TERNARY, r, u)
        assert hedge < max(commit, abstain) - 1e-9, (r, u)
    # the docstring's example: at r = 0.5, u = 0 commit = abstain = 0 and a hedge earns
    # 0.5 * 0.5 - 0.5 * 1.0 = -0.25
    assert _expected(TERNARY, 0.5, 0.0) == pytest.approx((0.0, 0.0, -0.25))
    # with hedge_wrong at -0.5 the hedge would tie there: 0.5 * 0.5 - 0.5 * 0.5 = 0
    assert _expected({**TERNARY, "hedge_wrong": -0.5}, 0.5, 0.0)[2] == pytest.approx(0.0)


def test_ternary_list_never_beats_committing_to_its_best_candidate():
    # k candidates each right with chance r (k r <= 1): the list earns list_candidates
    # = -1.0; committing to one earns r - (1 - r) = 2r - 1 >= -1
    for k in (2, 3, 5):
        for i in range(0, 101):
            r = i / 100 / k
            assert TERNARY["list_candidates"] <= 2 * r - 1 + 1e-12
    # scored as a hedge, a list of 3 with r = 0.3 would earn 0.5 * 0.9 - 0.1 = 0.35 > 0
    assert 0.5 * 0.9 - (1 - 0.9) > TERNARY["abstain_answerable"]


def test_ternary_preflight_on_the_builtin_training_rows():
    rows = builtin_splits()["train"]
    n_un = sum(r["is_unanswerable"] for r in rows)
    n_ans = len(rows) - n_un
    report = preflight("selfaware", rows, "ternary")
    by = {p.policy: p for p in report.policies}
    assert by["gold"].mean == 1.0 and by["gold"].at_max == len(rows)
    # always abstain: 0 per answerable row, +1 per unanswerable row
    assert by["always_abstain"].mean == pytest.approx(n_un / len(rows))
    # always hedge the right answer: +0.5 per answerable row, -0.5 per unanswerable row
    assert by["always_hedge"].outcomes["hedged_correct"] == n_ans
    assert by["always_hedge"].mean == pytest.approx((0.5 * n_ans - 0.5 * n_un) / len(rows))
    assert by["list_candidates"].mean == -1.0 and by["empty"].mean == -1.0
    assert report.warnings() == []
    assert "no degenerate policy comes within 0.2 of gold" in format_preflight(report)


def test_ternary_preflight_at_the_main_jobs_unanswerable_cap():
    # the main job trains on known answerable rows with at most 40% unanswerable ones
    # (max_unanswerable_share 0.4): 30 answerable + 20 unanswerable rows; always abstain
    # earns 20 / 50 = 0.4, always hedge (15 - 10) / 50 = 0.1, gold 1.0: 0.6 apart
    rows = builtin_splits()["train"]
    mix = ([r for r in rows if not r["is_unanswerable"]][:30]
           + [r for r in rows if r["is_unanswerable"]][:20])
    by = {p.policy: p.mean for p in preflight("selfaware", mix, "ternary").policies}
    assert by["always_abstain"] == pytest.approx(0.4)
    assert by["always_hedge"] == pytest.approx(0.1)
    assert preflight("selfaware", mix, "ternary").warnings() == []
