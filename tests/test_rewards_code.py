"""The `code` reward on HumanEval and MBPP tasks (programs run in the sandbox, 2 s limit)."""

from __future__ import annotations

import gzip
import json
import time
from pathlib import Path

import pytest

from rlvr.rewards import get_reward, make_trl_reward, score_rows
from rlvr.rewards.code import build_job, extract_code

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
FAST = {"timeout_s": 2.0, "memory_mb": 512}

ADD_TASK = {"test_list": ["assert add(1, 2) == 3", "assert add(-1, 1) == 0"], "test_setup_code": ""}

# (completion, expected score, expected outcome) on the MBPP-style `add` task
TABLE = [
    # a correct function
    ("def add(a, b):\n    return a + b\n", 1.0, "passed"),
    # a wrong one
    ("def add(a, b):\n    return a - b\n", 0.0, "failed"),
    # an object whose __eq__ always returns True does not pass for the right answer
    ("class Yes:\n    def __eq__(self, other):\n        return True\n"
     "def add(a, b):\n    return Yes()\n", 0.0, "failed"),
    # leaving before the tests with a success exit code is not a pass
    ("import sys\nsys.exit(0)\n", 0.0, "failed"),
    ("import os\nos._exit(0)\n", 0.0, "failed"),
    # code in a Markdown fence is extracted
    ("Here you go:\n```python\ndef add(a, b):\n    return a + b\n```\nDone.", 1.0, "passed"),
    # an empty response is not run
    ("", 0.0, "no_code"),
]


@pytest.mark.parametrize("completion,score,outcome", TABLE)
def test_code_table(completion, score, outcome):
    spec = get_reward("code")
    result = spec.score_batch([completion], [ADD_TASK], {**spec.params(), **FAST})[0]
    assert (result.score, result.outcome) == (score, outcome)
    low, high = spec.score_range
    assert low <= result.score <= high


def test_batch_correct_and_hanging_in_about_the_timeout():
    reward = make_trl_reward("code", **FAST, workers=2)
    completions = ["def add(a, b):\n    return a + b\n", "def add(a, b):\n    while True:\n"
                   "        pass\n"]
    start = time.monotonic()
    scores = reward(completions, test_list=[ADD_TASK["test_list"]] * 2,
                    test_setup_code=["", ""])
    elapsed = time.monotonic() - start
    # [1, 0]: the hanging program is stopped at its 2 s timeout; the batch does not wait
    # for it beyond that (generous upper bound, so a loaded CI machine does not flake;
    # the throughput figure itself is measured in benchmarks/rewards.py)
    assert scores == [1.0, 0.0]
    assert 1.9 <= elapsed < 10


def _humaneval(n: int) -> list[dict]:
    with gzip.open(SHARED_DATA / "humaneval" / "HumanEval.jsonl.gz", "rt") as handle:
        return [json.loads(line) for _, line in zip(range(n), handle)]


def test_humaneval_canonical_solutions_pass_and_stubs_fail():
    tasks = _humaneval(3)
    rows = [{**t, "completion": t["canonical_solution"]} for t in tasks]
    # the canonical body continues the prompt: all pass
    assert [r.score for r in score_rows("code", rows, **FAST)] == [1.0, 1.0, 1.0]
    # a body that returns None fails every task
    rows = [{**t, "completion": "    return None\n"} for t in tasks]
    assert [r.score for r in score_rows("code", rows, **FAST)] == [0.0, 0.0, 0.0]


def test_humaneval_full_function_in_a_fence_replaces_the_stub():
    task = _humaneval(1)[0]
    full = ("```python\nfrom typing import List\n\ndef has_close_elements(numbers: List[float], "
            "threshold: float) -> bool:\n    return any(abs(a - b) < threshold "
            "for i, a in enumerate(numbers) for b in numbers[i + 1:])\n```")
    job = build_job(full, task)
    assert job["entry_point"] == "has_close_elements"
    assert job["program"].startswith(task["prompt"])
    assert score_rows("code", [{**task, "completion": full}], **FAST)[0].score == 1.0


def test_mbpp_canonical_solutions_pass():
    rows = [json.loads(line) for line in (SHARED_DATA / "mbpp" / "mbpp.jsonl").open()]
    # task 2 (shared elements), 40 (returns a collections.Counter), 367 (setup code builds
    # a tree of Node objects)
    picked = [r for r in rows if r["task_id"] in (2, 40, 367)]
    scored = score_rows("code", [{**r, "completion": r["code"]} for r in picked], **FAST)
    assert [r.score for r in scored] == [1.0, 1.0, 1.0]


def test_extract_code_prefers_the_block_defining_the_entry_point():
    text = "```python\ndef f(x):\n    return 1\n```\n```python\nprint(f(2))\n```"
    assert extract_code(text, "f").startswith("def f")
    assert extract_code(text).startswith("print")
    assert extract_code("def f(): pass") == "def f(): pass"


def test_task_without_tests_is_unscorable():
    spec = get_reward("code")
    assert spec.missing_fields({"prompt": "x"}) == ["test|test_list"]
    result = spec.score_batch(["def f(): pass"], [{"test_list": []}], spec.params())[0]
    assert (result.score, result.outcome) == (None, "bad_task")
