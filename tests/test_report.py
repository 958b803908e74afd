"""The before/after report (rlvr.eval.honesty_report): truncated answers and the known questions lost."""

from __future__ import annotations

from rlvr.eval.honesty_report import (build_report, format_table, knowledge_table, truncation_line,
                              truncation_summary, write_report)


def _records():
    """4 questions: 2 known answerable, 1 unknown answerable, 1 unanswerable. The trained
    model keeps known 0, is cut off on known 1, abstains on 2 and 3."""
    base = [{"id": 0, "outcome": "correct", "reward": 1.0, "is_unanswerable": False,
             "truncated": False},
            {"id": 1, "outcome": "correct", "reward": 1.0, "is_unanswerable": False,
             "truncated": False},
            {"id": 2, "outcome": "wrong", "reward": -1.0, "is_unanswerable": False,
             "truncated": True},
            {"id": 3, "outcome": "answered_unanswerable", "reward": -1.0,
             "is_unanswerable": True, "truncated": True}]
    trained = [{**base[0]},
               {**base[1], "outcome": "wrong", "reward": -1.0, "truncated": True},
               {**base[2], "outcome": "abstained", "reward": -0.5, "truncated": False},
               {**base[3], "outcome": "abstained_unanswerable", "reward": 1.0,
                "truncated": False}]
    labels = {0: {"known": True, "is_unanswerable": False},
              1: {"known": True, "is_unanswerable": False},
              2: {"known": False, "is_unanswerable": False},
              3: {"known": False, "is_unanswerable": True}}
    return base, trained, labels


def test_truncation_summary_counts_cut_answers():
    base, trained, _ = _records()
    # base: ids 2 and 3 cut -> 2 of 4 = 0.5, one of them answerable (id 2)
    assert truncation_summary(base) == {"n": 4, "truncated": 2, "share": 0.5, "answerable": 1}
    # trained: id 1 cut -> 1 of 4 = 0.25
    assert truncation_summary(trained)["share"] == 0.25
    # records without the field count as not cut; no records: share undefined
    assert truncation_summary([{"id": 0}])["truncated"] == 0
    assert truncation_summary([])["share"] is None


def test_report_has_truncation_and_lost_known_split(tmp_path):
    base, trained, labels = _records()
    report = build_report(base, trained, {"eval_max_new_tokens": 12}, 200, 0, labels)
    assert report["truncation"]["max_new_tokens"] == 12
    assert report["truncation"]["base"]["truncated"] == 2
    assert report["truncation"]["trained"]["truncated"] == 1
    counts = report["knowledge"]["policies"]["trained"]["counts"]
    # 2 known, 1 kept; the lost one was cut off, not answered wrongly
    assert (counts["wrong_known"], counts["abstained_known"], counts["truncated_known"]) \
        == (0, 0, 1)
    line = truncation_line(report["truncation"])
    assert "12 tokens" in line and "base 2 of 4 (50.0%)" in line \
        and "trained 1 of 4 (25.0%)" in line
    table = knowledge_table(report["knowledge"])
    assert "| cut off at the token budget (truncated) | 0 | 1 |" in table
    assert "| prudence all unknown |" in table
    assert "| n truncated (cut at 12 tokens) | 2 | 1 | -1 |" in format_table(report)
    md = write_report(tmp_path, report, base, trained)["report_md"].read_text()
    assert line in md and "| wrong (answer finished) | 0 | 0 |" in md
