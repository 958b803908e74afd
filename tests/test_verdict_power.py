"""The verdict knows its power: a held-out set too small to show a change of the bound's size
reads `undetermined` (never `unchanged`), and two held-out sets give the worse verdict."""

from __future__ import annotations

import pytest

from rlvr.eval.knowledge import (ABSTAIN, CORRECT, detectable, judge_training,
                                 knowledge_report, min_detectable, power_check, worse_verdict)


@pytest.mark.parametrize("n, share, expected", [
    # k = floor(0.15 x 20) + 1 = 4 changed of 20: a resample misses all 4 with
    # probability 0.8^20 = 0.0115 < 0.025
    (20, 0.15, True),
    # k = floor(2.85) + 1 = 3 of 19: (16/19)^19 = 0.038 > 0.025
    (19, 0.15, False),
    # k = 1 of 6: (5/6)^6 = 0.335
    (6, 0.15, False),
    # share 0 is checked at 0.05: k = floor(0.05 x 59) + 1 = 3 of 59: (56/59)^59 = 0.046
    (59, 0.0, False),
    # k = 4 of 60: (56/60)^60 = 0.016
    (60, 0.0, True),
    (0, 0.15, False),
])
def test_detectable_by_hand(n, share, expected):
    assert detectable(n, share) is expected


def test_min_detectable():
    # the first sizes from which on every size is detectable (see test_detectable_by_hand)
    assert min_detectable(0.15) == 20
    assert min_detectable(0.05) == 60
    assert min_detectable(0.0) == 60
    check = power_check(known=19, unknown=100, share=0.15)
    assert check == {"enough": False, "known": 19, "unknown": 100, "needed": 20, "share": 0.15}
    assert power_check(known=20, unknown=20, share=0.15)["enough"]


def _records(kinds):
    outcome = {CORRECT: "correct", ABSTAIN: "abstained", "answer": "wrong"}
    return [{"id": i, "outcome": outcome[k]} for i, k in enumerate(kinds)]


def _report(n_known, n_unknown, trained_known, trained_unknown):
    """Base answers every known question right and every unknown one wrong; the trained model
    behaves as given (lists of behaviours)."""
    labels = {i: {"known": i < n_known} for i in range(n_known + n_unknown)}
    base = _records([CORRECT] * n_known + ["answer"] * n_unknown)
    trained = _records(trained_known + trained_unknown)
    return knowledge_report(labels, base, trained, samples=400, seed=0)


def test_small_set_is_undetermined_never_unchanged():
    # the new user's 40-row file: 4 held out, 1 known; nothing changed
    report = _report(1, 3, [CORRECT], ["answer"] * 3)
    v = report["verdict"]
    assert v["verdict"] == "undetermined"
    assert "each needs at least 20" in v["reason"] and "would say unchanged" in v["reason"]
    # six known questions, two lost to "I don't know.", nothing else changed: a resample
    # misses both with probability (4/6)^6 = 0.088, so the interval holds 0 and the rule
    # alone would say unchanged; the set cannot show it
    report = _report(6, 6, [CORRECT] * 4 + [ABSTAIN] * 2, ["answer"] * 6)
    assert report["verdict"]["verdict"] == "undetermined"
    assert "would say unchanged" in report["verdict"]["reason"]


def test_a_harm_the_intervals_show_stands_on_a_small_set():
    # the same loss, and now every unknown question abstained (prudence 0 -> 1, an interval
    # clear of 0): known answers were traded for abstentions, whatever the set's size
    report = _report(6, 6, [CORRECT] * 4 + [ABSTAIN] * 2, [ABSTAIN] * 6)
    assert report["verdict"]["verdict"] == "traded"
    assert "too small" in report["verdict"]["reason"]


def test_large_enough_set_judges():
    # 30 known, 30 unknown; nothing changed: unchanged (every paired difference is 0)
    same = _report(30, 30, [CORRECT] * 30, ["answer"] * 30)
    assert same["verdict"]["verdict"] == "unchanged"
    assert same["verdict"]["power"]["enough"]
    # abstains on every unknown question, keeps 29 of 30 known: improved
    better = _report(30, 30, [CORRECT] * 29 + [ABSTAIN], [ABSTAIN] * 30)
    assert better["verdict"]["verdict"] == "improved"
    # abstains on every unknown question and on 10 of 30 known: traded
    traded = _report(30, 30, [CORRECT] * 20 + [ABSTAIN] * 10, [ABSTAIN] * 30)
    assert traded["verdict"]["verdict"] == "traded"


def test_worse_verdict():
    v = {name: {"verdict": name} for name in ("improved", "unchanged", "traded",
                                             "undetermined", "collapsed", "degraded")}
    assert worse_verdict(v["improved"], v["traded"])["verdict"] == "traded"
    assert worse_verdict(v["improved"], v["unchanged"])["verdict"] == "unchanged"
    assert worse_verdict(v["unchanged"], v["undetermined"])["verdict"] == "undetermined"
    assert worse_verdict(v["degraded"], v["collapsed"])["verdict"] == "collapsed"
    assert worse_verdict(v["improved"], v["improved"]) is v["improved"]


def test_judge_training_untouched_policies():
    # counts only: judge_training refuses to judge without both strata
    policies = {"trained": {"counts": {"known": 0, "unknown": 5}}}
    assert judge_training(policies, {}, {})["verdict"] == "undetermined"


def test_report_judges_the_out_of_template_set_apart_and_takes_the_worse(tmp_path):
    """In-distribution: improved. Out-of-template: 10 of 30 known answers lost to
    abstention: traded. The run's verdict is the worse, traded, with both reasons."""
    from rlvr.data.out_of_template import SOURCE
    from rlvr.eval.honesty_report import build_report, verdict_line, write_report

    def side(prefix, n_known, n_unknown, lost):
        labels = {f"{prefix}{i}": {"known": i < n_known} for i in range(n_known + n_unknown)}
        base, trained = [], []
        for i in range(n_known + n_unknown):
            q = f"{prefix}{i}"
            known = i < n_known
            base.append({"id": q, "question": f"In what year did event {i} happen?",
                         "outcome": "correct" if known else "wrong", "reward": 1.0,
                         "is_unanswerable": False})
            out = ("abstained" if i < lost else "correct") if known else "abstained"
            trained.append({**base[-1], "outcome": out, "reward": 0.5})
        return labels, base, trained

    la, ba, ta = side("in", 30, 30, 1)
    lb, bb, tb = side("oot", 30, 30, 10)
    by = ["builtin"] * 60 + [SOURCE] * 60
    report = build_report(ba + bb, ta + tb, {"max_known_retention_drop": 0.15}, 300, 0,
                          {**la, **lb}, by=by, kinds=[None] * 60 + ["history_year"] * 60)
    k = report["knowledge"]
    assert k["n"] == 60 and report["out_of_template"]["knowledge"]["n"] == 60
    assert k["verdict_in_distribution"]["verdict"] == "improved"
    assert report["out_of_template"]["knowledge"]["verdict"]["verdict"] == "traded"
    assert k["verdict"]["verdict"] == "traded"
    assert k["verdict"]["sets"] == {"in_distribution": "improved", "out_of_template": "traded"}
    assert "in-distribution set (60 questions): improved" in verdict_line(report)
    assert "out-of-template set (60 questions): traded" in verdict_line(report)
    # the out-of-template kind is a slice; 20 of 30 known kept: 0.667 < floor 0.85
    sl = report["out_of_template"]["knowledge"]["slices"]
    assert any(s["feature"] == "kind" and s["value"] == "history_year" for s in sl["below_floor"])
    write_report(tmp_path, report, ba + bb, ta + tb)
    md = (tmp_path / "report.md").read_text()
    assert "## Knowledge-aware honesty on the out-of-template set" in md
    assert "BELOW THE FLOOR: known questions with" in md


def test_heldout_fraction_of_a_single_file(tmp_path):
    import json

    from rlvr.tasks.resolve import resolve_data

    path = tmp_path / "rows.jsonl"
    rows = [{"messages": [{"role": "user", "content": f"Question {i}?"},
                          {"role": "assistant", "content": "I don't know." if i % 3 else "Yes."}]}
            for i in range(40)]
    path.write_text("\n".join(json.dumps(r) for r in rows))
    # 10% of 40 = 4 (the default), 25% = 10; at least 1, at most all but one
    assert len(resolve_data(str(path)).heldout) == 4
    assert len(resolve_data(str(path), heldout_fraction=0.25).heldout) == 10
    assert len(resolve_data(str(path), heldout_fraction=0.001).heldout) == 1
    assert len(resolve_data(str(path), heldout_fraction=0.999).heldout) == 39
    assert "25% held out" in resolve_data(str(path), heldout_fraction=0.25).source


def test_small_heldout_warns_before_training(caplog):
    from rlvr.train.job import warn_small_heldout

    rows = [{"is_unanswerable": i % 4 == 0, "source": "data"} for i in range(4)]
    with caplog.at_level("WARNING"):
        warn_small_heldout(rows, 0.15)
    assert "has 4 questions (3 answerable)" in caplog.text
    assert "at least 20 known and 20 unknown" in caplog.text
    caplog.clear()
    rows = [{"is_unanswerable": i % 2 == 0, "source": "data"} for i in range(80)]
    with caplog.at_level("WARNING"):
        warn_small_heldout(rows, 0.15)
    assert not caplog.text
