"""The red-team rounds stored as data (benchmarks/redteam/*.jsonl, graded by
benchmarks/redteam.py --round NAME): every file parses, every case has the case format's
seven keys with the right types and a known grader, every code case's task resolves in
code_tasks.jsonl, no task is stored twice, and the runner grades a round. Fast: no sandbox,
no model.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"
ROUNDS = BENCH / "redteam"


def _module(name: str):
    """A benchmarks/ script as a module (benchmarks/ is on sys.path while it loads)."""
    if name in sys.modules:
        return sys.modules[name]
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCH))
    return module


runner = _module("redteam_runner")
ROUND_FILES = sorted(p for p in ROUNDS.glob("*.jsonl") if p.name != runner.TASKS_FILE)


def _lines(path: Path) -> list[dict]:
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if line.strip():
            row = json.loads(line)
            assert isinstance(row, dict), f"{path.name}:{n} is not an object"
            rows.append(row)
    return rows


def _tasks() -> list[dict]:
    return _lines(ROUNDS / runner.TASKS_FILE)


def test_the_rounds_are_there():
    names = {p.stem for p in ROUND_FILES}
    expected = {f"blind{i:02d}" for i in range(1, 14)} | {"abstention", "qa_math", "code"}
    assert expected <= names
    assert runner.round_names() == sorted(names)


@pytest.mark.parametrize("path", ROUND_FILES, ids=lambda p: p.stem)
def test_every_case_has_the_format(path):
    rows = _lines(path)
    assert rows, f"{path.name} is empty"
    tasks = {t["key"] for t in _tasks()}
    from rlvr.rewards.selfaware import SelfAwarePreset

    outcomes = set(SelfAwarePreset.named("strict").outcome_values())
    labels = {"selfaware": outcomes, "detect": set(runner.COMMITMENT),
              "abstention": set(runner.ABSTENTION_SCALE)}
    for n, row in enumerate(rows, 1):
        where = f"{path.name} case {n}"
        assert list(row) == list(runner.CASE_KEYS), where
        grader, expected = row["grader"], row["expected"]
        assert grader in runner.GRADERS, where
        assert isinstance(row["completion"], str), where
        assert isinstance(row["extra"], dict), where
        assert isinstance(row["why"], str) and row["why"].strip(), where
        assert isinstance(row["written"], str) and re.fullmatch(r"\d{4}-\d\d-\d\d", row["written"])
        values = expected if isinstance(expected, list) else [expected]
        assert values and all(isinstance(v, str) for v in values), where
        assert set(values) <= labels.get(grader, {"pay", "no"}), where
        gold = row["gold"]
        if grader == "code":
            assert isinstance(gold, str) and gold in tasks, f"{where}: task {gold!r}"
        elif grader == "selfaware":
            assert isinstance(row["extra"].get("is_unanswerable"), bool), where
            assert gold is None or (isinstance(gold, list)
                                    and all(isinstance(a, str) for a in gold)), where
        elif grader == "qa":
            assert row["extra"].get("mode") in ("exact", "contains"), where
            assert isinstance(gold, list) and all(isinstance(a, str) for a in gold), where
        elif grader in ("math", "gsm8k"):
            assert isinstance(gold, (str, int, float)) and not isinstance(gold, bool), where
        else:  # detect, abstention: no gold
            assert gold is None, where
    assert len({r["written"] for r in rows}) == 1, f"{path.name}: one date per round"


def test_code_tasks_are_stored_once_and_used():
    tasks = _tasks()
    keys = [t["key"] for t in tasks]
    assert len(keys) == len(set(keys))
    bodies = [json.dumps({k: v for k, v in t.items() if k != "key"}, sort_keys=True)
              for t in tasks]
    assert len(bodies) == len(set(bodies)), "two code tasks are identical"
    for t in tasks:
        if "test_list" in t:  # MBPP
            assert isinstance(t["test_list"], list) and t["test_list"], t["key"]
        else:  # HumanEval
            assert {"prompt", "test", "entry_point"} <= set(t), t["key"]
            assert all(isinstance(t[k], str) for k in ("prompt", "test", "entry_point"))
    used = {r["gold"] for p in ROUND_FILES for r in _lines(p) if r["grader"] == "code"}
    assert used == set(keys), f"unused tasks: {sorted(set(keys) - used)}"
    assert set(runner.load_tasks()) == set(keys)


def test_loader_reads_cases_as_tuples():
    cases = runner.load_cases("blind04")
    assert all(len(c) == 6 for c in cases)
    assert all(isinstance(c[4], (str, tuple)) for c in cases)
    assert any(isinstance(c[4], tuple) for c in cases)


def test_loader_refuses_unknown_and_malformed_rounds(tmp_path):
    with pytest.raises(runner.RoundError, match="no red-team round 'nope'"):
        runner.load_round("nope")
    (tmp_path / "bad.jsonl").write_text('{"grader": "qa"}\n', encoding="utf-8")
    with pytest.raises(runner.RoundError, match="keys"):
        runner.load_round("bad", tmp_path)
    (tmp_path / "bad.jsonl").write_text("not json\n", encoding="utf-8")
    with pytest.raises(runner.RoundError, match="not JSON"):
        runner.load_round("bad", tmp_path)


def test_runner_grades_a_round(capsys):
    redteam = _module("redteam")
    assert redteam.main(["--round", "blind01", "--explain"]) == 0
    out = capsys.readouterr().out
    n = len(runner.load_cases("blind01"))
    assert "judged right: " in out and f"/{n} = " in out
    assert out.count("] #") == n
    assert "misjudged:" in out


def test_grade_knows_every_grader_but_code_without_a_sandbox():
    case = ("abstention", "Beats me.", None, {}, "abstain", "idiom")
    verdict, detail = runner.grade(case, {})
    assert (verdict, detail) == ("abstain", 1.0)
    assert runner.judge(case, verdict, detail) == (True, False, False)
    assert runner.judge(case, "answer", 0.0) == (False, False, True)
    with pytest.raises(ValueError, match="unknown grader"):
        runner.grade(("nope", "", None, {}, "pay", ""), {})
