"""metrics.jsonl: appended records, and a last line cut off by a crash is skipped."""

from __future__ import annotations

from rlvr.metrics.run_log import append_metrics, read_metrics, start_metrics


def test_append_and_read_survive_a_cut_last_line(tmp_path):
    path = tmp_path / "metrics.jsonl"
    start_metrics(path, resume=False)
    append_metrics(path, {"event": "log", "step": 1, "reward": 0.5, "kl": float("nan")})
    with open(path, "a", encoding="utf-8") as handle:
        handle.write('{"event": "log", "step": 2, "rew')  # killed mid-write
    records = read_metrics(path)
    assert [r["event"] for r in records] == ["start", "log"]
    assert records[1] == {"event": "log", "step": 1, "reward": 0.5, "kl": None}  # NaN -> null
