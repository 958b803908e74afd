"""The recorded collapsed real-data run must be flagged as collapsed.

Fixture: tests/fixtures/collapsed_run, recorded by benchmarks/record_collapsed_fixture.py
from `rlvr train --config configs/selfaware_grpo_cpu.yaml --data SelfAware.json` at commit
141091d (seed preset, 50 steps, v3 split): the adapter learned to say "I don't know" to
everything, while its mean reward rose with a CI far from zero. Per question it keeps the
id, the flag, the model's completion and the recorded reward and outcome.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rlvr.eval.knowledge import knowledge_labels, knowledge_report
from rlvr.eval.honesty_report import build_report, write_report

FIXTURE = Path(__file__).parent / "fixtures" / "collapsed_run"


def _load(name: str) -> list[dict]:
    return [json.loads(x) for x in (FIXTURE / f"{name}.jsonl").read_text().splitlines()]


def test_fixture_is_the_collapsed_run():
    meta = json.loads((FIXTURE / "meta.json").read_text())
    trained = meta["trained"]
    # what the collapsed run showed: abstention on answerable questions 0.980, recall 1.000,
    # and a mean-reward improvement whose CI is far from zero
    assert trained["answerable_abstention_rate"] > 0.9
    assert trained["unanswerable_abstention_recall"] == 1.0
    assert meta["difference"]["mean_reward"]["ci_low"] > 1.0
    assert len(_load("base")) == len(_load("trained")) == 337


def test_recorded_outcomes_are_flagged_collapsed(tmp_path):
    base, trained = _load("base"), _load("trained")
    labels = knowledge_labels(base, threshold=0.5)  # greedy base answers: K = 1
    report = knowledge_report(labels, base, trained, samples=1000, seed=0)
    assert report["verdict"]["verdict"] == "collapsed" and report["verdict"]["collapsed"]
    assert report["policies"]["trained"]["over_conservativeness"] >= 0.5
    # the same through the run report: the verdict is in the first lines of report.md
    full = build_report(base, trained, {"data": "fixture"}, 500, 0, labels)
    write_report(tmp_path, full, base, trained)
    head = (tmp_path / "report.md").read_text().splitlines()[:3]
    assert any("COLLAPSED" in line for line in head)


def test_rescored_with_todays_default_preset_is_still_collapsed(selfaware_json):
    """Join the gold answers from the shared data by id and rescore with `strict`."""
    from rlvr.tasks.resolve import resolve_data
    from rlvr.rewards import score_rows

    heldout = {ex["id"]: ex for ex in resolve_data(str(selfaware_json), "test", "v3", 42).heldout}
    scored = {}
    for name in ("base", "trained"):
        rows = _load(name)
        assert all(r["id"] in heldout for r in rows)
        full = [{**r, "expected_answer": heldout[r["id"]]["expected_answer"],
                 "prompt": heldout[r["id"]]["question"]} for r in rows]
        results = score_rows("selfaware", full, "strict")
        scored[name] = [{**r, "outcome": res.outcome, "reward": res.score}
                        for r, res in zip(full, results)]
    labels = knowledge_labels(scored["base"])
    report = knowledge_report(labels, scored["base"], scored["trained"], samples=1000, seed=0)
    assert report["verdict"]["collapsed"], report["verdict"]


@pytest.mark.parametrize("threshold", [0.5, 1.0])
def test_verdict_does_not_depend_on_the_threshold_with_one_sample(threshold):
    base, trained = _load("base"), _load("trained")
    report = knowledge_report(knowledge_labels(base, threshold), base, trained, 300, 1)
    assert report["verdict"]["collapsed"]
