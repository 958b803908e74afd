"""Calibration metrics and the paired bootstrap, against hand-computed values."""

from __future__ import annotations

import pytest

from rlvr.metrics.calibration import calibration_metrics, paired_bootstrap


def rec(outcome, reward):
    return {"outcome": outcome, "reward": reward}


def test_calibration_metrics_hand_computed():
    records = [rec("correct", 1.0), rec("correct", 1.0), rec("wrong", -1.0),
               rec("abstained", -0.5), rec("abstained_unanswerable", 1.0),
               rec("abstained_unanswerable", 1.0), rec("answered_unanswerable", -1.0),
               rec("no_gold", None)]
    m = calibration_metrics(records)
    assert m["n"] == 7 and m["n_unscored"] == 1
    # (1 + 1 - 1 - 0.5 + 1 + 1 - 1) / 7 = 1.5 / 7
    assert m["mean_reward"] == pytest.approx(1.5 / 7)
    # answerable: 2 correct, 1 wrong, 1 abstained -> accuracy 2/4, abstention 1/4
    assert m["answerable_accuracy"] == 0.5 and m["answerable_abstention_rate"] == 0.25
    # unanswerable: 2 of 3 abstained -> recall 2/3; abstentions: 2 true of 3 -> precision 2/3
    assert m["unanswerable_abstention_recall"] == pytest.approx(2 / 3)
    assert m["abstention_precision"] == pytest.approx(2 / 3)
    # F1 = 2 * (2/3) * (2/3) / (4/3) = 2/3
    assert m["abstention_f1"] == pytest.approx(2 / 3)
    assert m["counts"]["answerable"] == 4 and m["counts"]["unanswerable"] == 3


def test_metrics_without_abstentions_are_none_not_zero_division():
    m = calibration_metrics([rec("wrong", -1.0), rec("answered_unanswerable", -1.0)])
    assert m["abstention_precision"] is None and m["abstention_f1"] is None
    assert m["unanswerable_abstention_recall"] == 0.0


def test_paired_bootstrap():
    base = [0.0, 0.0, 0.0, 0.0]
    trained = [1.0, 1.0, 1.0, 1.0]
    out = paired_bootstrap(base, trained, samples=200, seed=1)
    # every difference is 1, so every resample mean is 1
    assert (out["mean_difference"], out["ci_low"], out["ci_high"]) == (1.0, 1.0, 1.0)
    mixed = paired_bootstrap([0, 0, 0, 0], [2, 0, 0, 0], samples=500, seed=3)
    assert mixed["mean_difference"] == 0.5  # (2 + 0 + 0 + 0) / 4
    assert 0.0 <= mixed["ci_low"] < 0.5 < mixed["ci_high"] <= 2.0
    assert paired_bootstrap([0, 0, 0, 0], [2, 0, 0, 0], samples=500, seed=3) == mixed
    with pytest.raises(ValueError, match="differ in length"):
        paired_bootstrap([0.0], [0.0, 1.0])


def test_hedges_are_counted_apart_from_abstentions():
    records = [rec("hedged_correct", 0.5), rec("correct", 1.0),
               rec("hedged_unanswerable", -0.5), rec("abstained_unanswerable", 1.0)]
    m = calibration_metrics(records)
    # answerable: 1 correct of 2 (the hedged correct answer is not counted as correct)
    assert m["answerable_accuracy"] == 0.5
    # unanswerable: 1 abstention of 2; the only abstention is on an unanswerable question
    assert m["unanswerable_abstention_recall"] == 0.5 and m["abstention_precision"] == 1.0
    assert m["counts"]["hedged"] == 2
