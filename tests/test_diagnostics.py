"""Live calibration diagnostics and alarms (rlvr.train.diagnostics)."""

from __future__ import annotations

import pytest

from rlvr.rewards import make_trl_reward
from rlvr.train.diagnostics import (AlarmMonitor, AlarmSettings, CalibrationObserver,
                                    batch_diagnostics, make_alarm_callback)


def test_batch_diagnostics_hand_computed():
    # two groups of G=4: group 1 answerable, group 2 unanswerable
    outcomes = ["correct", "abstained", "wrong", "hedged_wrong",
                "abstained_unanswerable"] * 1 + ["abstained_unanswerable"] * 3
    scores = [1.0, -0.5, -1.0, -1.0, 1.0, 1.0, 1.0, 1.0]
    lengths = [4, 6, 10, 20, 5, 5, 5, 5]
    truncated = [False, False, False, True, False, False, False, False]
    d = batch_diagnostics(outcomes, scores, lengths, truncated, num_generations=4)
    assert d["n_correct"] == 1 and d["n_abstained"] == 1 and d["n_wrong"] == 1
    assert d["n_hedged_wrong"] == 1 and d["n_hedged"] == 1
    assert d["n_abstained_unanswerable"] == 4 and d["n_answered_unanswerable"] == 0
    assert d["over_abstention"] == 0.25           # 1 abstained of 4 answerable
    assert d["hedge_rate"] == 1 / 8               # 1 hedge of 8 scored
    assert d["zero_std_group_share"] == 0.5       # group 2 all +1
    assert d["zero_std_token_share"] == 20 / 60   # (5*4) of (4+6+10+20+20) tokens
    assert d["completion_length"] == 7.5          # 60 / 8
    assert d["truncation_rate"] == 1 / 8


def test_batch_diagnostics_rejects_bad_shapes():
    with pytest.raises(ValueError, match="num_generations"):
        batch_diagnostics(["correct"] * 3, [1.0] * 3, [1] * 3, [False] * 3, num_generations=2)
    with pytest.raises(ValueError, match="same length"):
        batch_diagnostics(["correct"] * 2, [1.0], [1] * 2, [False] * 2, num_generations=2)


def test_unscored_samples_do_not_break_groups():
    # None scores are left out of the spread: a group of (1.0, None) counts as zero-spread
    d = batch_diagnostics(["correct", None], [1.0, None], [3, 3], [False, False], 2)
    assert d["zero_std_group_share"] == 1.0 and "over_abstention" in d


def test_observer_reads_outcomes_from_the_trl_reward_without_rescoring():
    logged = []
    observer = CalibrationObserver(num_generations=2, max_completion_length=4,
                                   end_token_ids=[0])
    reward = make_trl_reward("selfaware", "strict", observer=observer)
    scores = reward(["Paris.", "I don't know.", "I don't know.", "It will be Brazil."],
                    expected_answer=["Paris", "Paris", None, None],
                    is_unanswerable=[False, False, True, True],
                    completion_ids=[[5, 0], [7, 7, 7, 7], [1, 0], [2, 0]],
                    log_metric=lambda name, value: logged.append((name, value)))
    assert scores == [1.0, -0.5, 1.0, -1.0]
    got = dict(logged)
    assert got["calibration/n_correct"] == 1 and got["calibration/n_abstained"] == 1
    assert got["calibration/n_answered_unanswerable"] == 1
    assert got["calibration/over_abstention"] == 0.5
    assert got["calibration/truncation_rate"] == 0.25  # [7,7,7,7] hit the cap without EOS
    assert got["calibration/zero_std_group_share"] == 0.0
    assert observer.last["completion_length"] == 2.5   # (2 + 4 + 2 + 2) / 4


def test_alarm_fires_after_patience_and_once_per_streak():
    monitor = AlarmMonitor(AlarmSettings(over_abstention=0.8, patience=2))
    high, low = {"calibration/over_abstention": 0.9}, {"calibration/over_abstention": 0.1}
    assert monitor.update(high, 1) == []
    fired = monitor.update(high, 2)
    assert [a["alarm"] for a in fired] == ["collapse"] and fired[0]["step"] == 2
    assert monitor.update(high, 3) == []           # still the same streak
    assert monitor.update(low, 4) == []
    monitor.update(high, 5)
    assert [a["alarm"] for a in monitor.update(high, 6)] == ["collapse"]
    assert len(monitor.fired) == 2
    # steps without the metric neither extend nor break a streak
    assert monitor.update({"loss": 1.0}, 7) == []


@pytest.mark.parametrize("metric, value, alarm", [
    ("hedge_rate", 0.6, "hedging"), ("zero_std_group_share", 1.0, "saturation"),
    ("truncation_rate", 0.95, "length"),
])
def test_each_alarm(metric, value, alarm):
    monitor = AlarmMonitor(AlarmSettings(patience=1))
    assert [a["alarm"] for a in monitor.update({f"calibration/{metric}": value}, 1)] == [alarm]


def test_callback_stops_training_and_marks_the_log():
    pytest.importorskip("transformers")
    from transformers import TrainerControl, TrainerState

    callback = make_alarm_callback(AlarmMonitor(AlarmSettings(patience=1, stop_on_alarm=True)))
    state, control = TrainerState(), TrainerControl()
    state.global_step = 3
    state.log_history = [{"calibration/over_abstention": 1.0, "step": 3}]
    control = callback.on_log(None, state, control, logs=dict(state.log_history[-1]))
    assert control.should_training_stop is True
    assert state.log_history[-1]["alarms"] == ["collapse"]
    # without stop_on_alarm the alarm is recorded but training goes on
    callback = make_alarm_callback(AlarmMonitor(AlarmSettings(patience=1)))
    control = callback.on_log(None, state, TrainerControl(), logs={"calibration/hedge_rate": 0.9})
    assert control.should_training_stop is False and callback.monitor.fired
