"""Before/after scoring of a task run's held-out rows (rlvr.eval.task_heldout): every reward
entry, the weighted sum, accuracy, pass@k, paired intervals; values computed by hand."""

from __future__ import annotations

import pytest

from rlvr.errors import RlvrError
from rlvr.eval.task_heldout import (has_accuracy, heldout_summary, heldout_table,
                                    score_with_entries, verdict_line)

ENTRIES = [{"name": "gsm8k_correctness", "weight": 1.0},
           {"name": "gsm8k_format", "weight": 0.5}]


def records(completions, golds, ids=None):
    ids = ids or list(range(len(completions)))
    return [{"id": i, "completion": c, "final_answer": g}
            for i, c, g in zip(ids, completions, golds)]


def test_every_entry_scores_and_the_sum_is_weighted():
    recs = score_with_entries(records(["so 4\n#### 4", "#### 5", "it is 4"], ["4", "4", "4"]),
                              ENTRIES)
    assert [r["rewards"]["gsm8k_correctness"] for r in recs] == [1.0, 0.0, 0.0]
    assert [r["outcomes"]["gsm8k_correctness"] for r in recs] == ["correct", "wrong",
                                                                   "no_answer"]
    # format: reasoning then a '#### N' line pays 0.5; a bare '#### 5' has no reasoning
    assert [r["rewards"]["gsm8k_format"] for r in recs] == [0.5, 0.0, 0.0]
    # weighted sum: 1.0 x correctness + 0.5 x format = 1.0 + 0.25, 0 + 0, 0 + 0
    assert [r["reward"] for r in recs] == [1.25, 0.0, 0.0]
    assert recs[0]["outcome"] == "correct"  # the first entry's outcome


def test_log_names_keep_one_reward_twice_apart():
    entries = [{"name": "gsm8k_correctness", "log_name": "strict"},
               {"name": "gsm8k_correctness", "preset": "fallback", "log_name": "fallback",
                "weight": 2.0}]
    recs = score_with_entries(records(["the answer is 4"], ["4"]), entries)
    assert recs[0]["rewards"] == {"strict": 0.0, "fallback": 1.0}
    assert recs[0]["outcomes"]["fallback"] == "correct_fallback"
    assert recs[0]["reward"] == 2.0  # 0 + 2 x 1


def test_a_row_without_the_field_a_reward_reads_is_refused_with_its_number():
    with pytest.raises(RlvrError, match="row 2"):
        score_with_entries([{"id": 0, "completion": "#### 1", "final_answer": "1"},
                            {"id": 1, "completion": "#### 1"}], ENTRIES[:1])


def test_accuracy_only_for_rewards_with_a_correct_outcome():
    assert has_accuracy({"name": "gsm8k_correctness"}) and has_accuracy({"name": "code"})
    assert not has_accuracy({"name": "gsm8k_format"})
    assert not has_accuracy({"name": "cosine_scaled"})


def test_summary_pairs_rows_and_matches_hand_computed_means():
    entries = ENTRIES[:1]
    base = score_with_entries(records(["#### 1", "#### 0", "#### 0", "#### 0"],
                                      ["1", "2", "3", "4"]), entries)
    trained = score_with_entries(records(["#### 1", "#### 2", "#### 3", "#### 0"],
                                         ["1", "2", "3", "4"]), entries)
    s = heldout_summary(base, trained, entries, bootstrap_samples=200)
    acc = s["metrics"]["accuracy/gsm8k_correctness"]
    # base 1 of 4 correct, trained 3 of 4: +0.5; per-row differences 0, 1, 1, 0
    assert (acc["n"], acc["base"], acc["trained"]) == (4, 0.25, 0.75)
    assert acc["difference"]["mean_difference"] == 0.5
    assert 0.0 <= acc["difference"]["ci_low"] <= 0.5 <= acc["difference"]["ci_high"] <= 1.0
    assert s["outcomes"]["trained"]["gsm8k_correctness"] == {"correct": 3, "wrong": 1}
    table = heldout_table(s)
    assert "| accuracy/gsm8k_correctness | 4 | 0.250 | 0.750 | +0.500 [" in table
    assert "| gsm8k_correctness | correct 1, wrong 3 | correct 3, wrong 1 |" in table
    assert verdict_line(s).startswith("Held-out accuracy/gsm8k_correctness (n=4): base 0.250 "
                                      "-> trained 0.750, +0.500 [")


def test_samples_per_row_give_pass_at_k():
    entries = ENTRIES[:1]
    # row 0: 1 of 2 samples correct; row 1: 0 of 2 (base); trained: 2 of 2, 1 of 2
    base = score_with_entries(records(["#### 1", "#### 9", "#### 9", "#### 9"],
                                      ["1", "1", "2", "2"], [0, 0, 1, 1]), entries)
    trained = score_with_entries(records(["#### 1", "#### 1", "#### 2", "#### 9"],
                                         ["1", "1", "2", "2"], [0, 0, 1, 1]), entries)
    s = heldout_summary(base, trained, entries, num_samples=2, bootstrap_samples=100)
    # accuracy = mean over rows of the correct share: base (0.5 + 0) / 2, trained (1 + 0.5) / 2
    acc = s["metrics"]["accuracy/gsm8k_correctness"]
    assert (acc["base"], acc["trained"], acc["n"]) == (0.25, 0.75, 2)
    # pass@2 with n = 2: 1 when any sample is right: base (1 + 0) / 2, trained (1 + 1) / 2
    p2 = s["metrics"]["pass@2/gsm8k_correctness"]
    assert (p2["base"], p2["trained"]) == (0.5, 1.0)
    assert s["n_rows"] == 2 and "pass@4/gsm8k_correctness" not in s["metrics"]


def test_no_common_row_is_an_error():
    a = score_with_entries(records(["#### 1"], ["1"], [0]), ENTRIES[:1])
    b = score_with_entries(records(["#### 1"], ["1"], [1]), ENTRIES[:1])
    with pytest.raises(ValueError, match="no held-out row"):
        heldout_summary(a, b, ENTRIES[:1])
