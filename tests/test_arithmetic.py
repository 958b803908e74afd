"""Generated arithmetic questions (rlvr.data.arithmetic): every gold is the value of its
question under the usual precedence, splits are distinct and disjoint and seeded, and the
rows train and evaluate as GSM8K rows."""

from __future__ import annotations

import ast
import operator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rlvr.data.arithmetic import DEFAULT_LEVEL, LEVELS, arithmetic_splits
from rlvr.errors import DataError
from rlvr.rewards import score_rows

CONFIG = Path(__file__).resolve().parents[1] / "configs" / "arithmetic_grpo_cpu.yaml"

OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul}


def value(expression: str) -> int:
    """The expression's value under Python's (the usual) precedence, without eval()."""
    def walk(node):
        if isinstance(node, ast.BinOp) and type(node.op) in OPS:
            return OPS[type(node.op)](walk(node.left), walk(node.right))
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        raise ValueError(f"unexpected {ast.dump(node)}")
    return walk(ast.parse(expression, mode="eval").body)


@settings(max_examples=30, deadline=None)
@given(level=st.sampled_from(sorted(LEVELS)), seed=st.integers(0, 10_000))
def test_every_gold_is_the_value_of_its_question(level, seed):
    splits = arithmetic_splits(30, 10, level, seed)
    for row in splits["train"] + splits["test"]:
        expression = row["question"].removeprefix("What is ").removesuffix("?")
        gold = int(row["answer"].rsplit("####", 1)[1])
        assert value(expression) == gold, row
        assert gold >= 0
        # each worked line is true arithmetic too
        for line in row["answer"].splitlines()[:-1]:
            left, right = line.split(" = ")
            assert value(left) == int(right), line


def test_splits_are_distinct_disjoint_and_seeded():
    a = arithmetic_splits(200, 50, DEFAULT_LEVEL, seed=3)
    train_q = [r["question"] for r in a["train"]]
    test_q = [r["question"] for r in a["test"]]
    assert len(set(train_q)) == 200 and len(set(test_q)) == 50
    assert not set(train_q) & set(test_q)
    assert a == arithmetic_splits(200, 50, DEFAULT_LEVEL, seed=3)
    assert a != arithmetic_splits(200, 50, DEFAULT_LEVEL, seed=4)
    # the test split does not depend on the train size (more training rows, same test)
    assert arithmetic_splits(10, 50, DEFAULT_LEVEL, seed=3)["test"] == a["test"]


@pytest.mark.parametrize("kwargs, match", [
    ({"level": "hard"}, "unknown arithmetic level 'hard'; levels: add2"),
    ({"n_train": 0}, "at least 1 train"),
    ({"level": "add2", "n_train": 11000, "n_test": 10}, "too few distinct questions"),
])
def test_bad_requests_are_refused(kwargs, match):
    with pytest.raises(DataError, match=match):
        arithmetic_splits(**kwargs)


def test_the_gold_solution_scores_as_correct_and_formatted():
    rows = arithmetic_splits(5, 5)["test"]
    scored = score_rows("gsm8k_correctness", [
        {"completion": r["answer"], "final_answer": r["answer"]} for r in rows])
    assert [s.outcome for s in scored] == ["correct"] * 5
    formatted = score_rows("gsm8k_format", [{"completion": r["answer"]} for r in rows])
    assert all(s.score == 0.5 for s in formatted)


def test_data_arithmetic_resolves_to_gsm8k_examples():
    from rlvr.tasks.resolve import resolve_data

    data = resolve_data("arithmetic")
    assert len(data.train) == 400 and len(data.heldout) == 100
    ex = data.heldout[0]
    assert ex["prompt"][0]["role"] == "system" and "####" in ex["prompt"][0]["content"]
    assert ex["fields"]["final_answer"] == ex["fields"]["solution"].rsplit("#### ", 1)[1]
    assert "arithmetic" in data.source


def test_kshot_uses_the_runs_own_rows_for_gsm8k_format_data(tmp_path):
    from rlvr.config import load_config
    from rlvr.tasks.resolve import resolve_data
    from rlvr.eval.settings import RunEvaluation
    from rlvr.eval.task_run import _kshot_inputs

    cfg = load_config(CONFIG, {"kshot_eval": [0, 2], "kshot_limit": 7})
    data = resolve_data("arithmetic")
    rows, pool, sources = _kshot_inputs(RunEvaluation.from_run(cfg).kshot, data.train,
                                        data.heldout)
    assert sources["data_source"] == "the run's held-out rows" and len(rows) == 7
    assert [r["question"] for r in rows] == [ex["question"] for ex in data.heldout[:7]]
    assert rows[0]["final_answer"] == data.heldout[0]["fields"]["final_answer"]
    assert len(pool) == 400
    # a file written by `rlvr data arithmetic` (another level) is read the same way
    from rlvr.cli import main

    assert main(["data", "arithmetic", "--level", "mixed3", "--output-dir",
                 str(tmp_path / "d"), "--n-train", "30", "--n-test", "10"]) == 0
    files = resolve_data(str(tmp_path / "d"))
    rows, _, sources = _kshot_inputs(RunEvaluation.from_run(cfg).kshot, files.train,
                                     files.heldout)
    assert sources["data_source"] == "the run's held-out rows" and len(rows) == 7
