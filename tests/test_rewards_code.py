"""The `code` reward on HumanEval and MBPP tasks (programs run in the sandbox, 2 s limit)."""

from __future__ import annotations

import gzip
import json
import time
from pathlib import Path

import pytest

from rlvr.rewards import get_reward, make_trl_reward, score_rows
from rlvr.rewards.code import build_job, extract_code, prompt_reference

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
FAST = {"timeout_s": 2.0, "memory_mb": 512}
needs_data = pytest.mark.skipif(not SHARED_DATA.is_dir(),
                                reason=f"real data folder {SHARED_DATA} is absent")

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
    # a class that adds __eq__ to itself when the tests build it (a red-team program that
    # passed a type check made once)
    ("class add:\n    def __init__(self, a, b):\n        type(self).__eq__ = lambda s, o: True\n",
     0.0, "failed"),
    # a definition that shadows what the tests could use, and a patched builtin
    ("import builtins\nbuiltins.AssertionError = type('Quiet', (Exception,), {})\n"
     "def add(a, b):\n    return 0\n", 0.0, "failed"),
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


def _humaneval_task(task_id: str) -> dict:
    number = int(task_id.split("/")[1])
    return _humaneval(number + 1)[number]


def _mbpp(task_ids: tuple[int, ...]) -> list[dict]:
    rows = [json.loads(line) for line in (SHARED_DATA / "mbpp" / "mbpp.jsonl").open()]
    return [r for r in rows if r["task_id"] in task_ids]


@needs_data
def test_humaneval_canonical_solutions_pass_and_stubs_fail():
    tasks = _humaneval(3)
    rows = [{**t, "completion": t["canonical_solution"]} for t in tasks]
    # the canonical body continues the prompt: all pass
    assert [r.score for r in score_rows("code", rows, **FAST)] == [1.0, 1.0, 1.0]
    # a body that returns None fails every task
    rows = [{**t, "completion": "    return None\n"} for t in tasks]
    assert [r.score for r in score_rows("code", rows, **FAST)] == [0.0, 0.0, 0.0]


@needs_data
def test_humaneval_full_function_in_a_fence_replaces_the_stub():
    task = _humaneval(1)[0]
    full = ("```python\nfrom typing import List\n\ndef has_close_elements(numbers: List[float], "
            "threshold: float) -> bool:\n    return any(abs(a - b) < threshold "
            "for i, a in enumerate(numbers) for b in numbers[i + 1:])\n```")
    job = build_job(full, task)
    assert job["entry_point"] == "has_close_elements"
    assert job["program"].startswith(task["prompt"])
    assert score_rows("code", [{**task, "completion": full}], **FAST)[0].score == 1.0


@needs_data
def test_mbpp_canonical_solutions_pass():
    # task 2 (shared elements), 40 (returns a collections.Counter), 367 and 927 (setup
    # code builds a tree of Node objects; the solution defines its own Node too), 342
    # (the solution's Node class used inside), 601 (the tests build the solution's Pair
    # objects), 11 (test split, first task), 126 (the function is called `sum`: it reaches
    # the tests only because the reference `code` defines it), 533 (the tests pass `int`)
    picked = _mbpp((2, 11, 40, 126, 342, 367, 533, 601, 927))
    scored = score_rows("code", [{**r, "completion": r["code"]} for r in picked], **FAST)
    assert [r.score for r in scored] == [1.0] * 9
    # without the reference `code`, a program's `sum` does not replace the builtin
    task_126 = {k: v for k, v in picked[3].items() if k != "code"}
    assert score_rows("code", [{**task_126, "completion": picked[3]["code"]}], **FAST)[0].score \
        == 0.0


# The response replaced a helper of the prompt that the test calls (HumanEval/50's
# encode_shift; 38's encode_cyclic; 32's poly): the tests must use the prompt's own.
PROMPT_HELPERS = [
    ("HumanEval/50", "def encode_shift(s: str):\n    return s\n\n\ndef decode_shift(s: str):\n"
     "    return s\n", 0.0),
    ("HumanEval/38", "def encode_cyclic(s: str):\n    return s\n\n\ndef decode_cyclic(s: str):\n"
     "    return s\n", 0.0),
    ("HumanEval/32", "def poly(xs: list, x: float):\n    return 0.0\n\n\ndef find_zero(xs: list):\n"
     "    return 0.0\n", 0.0),
    # the response repeats the helper verbatim and solves the task: it passes
    ("HumanEval/50", "def encode_shift(s: str):\n    return \"\".join([chr(((ord(ch) + 5 - "
     "ord(\"a\")) % 26) + ord(\"a\")) for ch in s])\n\n\ndef decode_shift(s: str):\n"
     "    return \"\".join([chr(((ord(ch) - 5 - ord(\"a\")) % 26) + ord(\"a\")) for ch in s])\n",
     1.0),
    # the response changes a module the test uses (HumanEval/50's test draws from
    # string.ascii_lowercase) or the copy.deepcopy it calls
    ("HumanEval/50", "import string\nstring.ascii_lowercase = 'a'\n\ndef decode_shift(s: str):\n"
     "    return 'a' * len(s)\n", 0.0),
    ("HumanEval/50", "import copy\ncopy.deepcopy = lambda x: x\n\ndef decode_shift(s: str):\n"
     "    return s\n", 0.0),
]


@needs_data
@pytest.mark.parametrize("task_id,completion,score", PROMPT_HELPERS)
def test_response_cannot_replace_what_the_test_reads(task_id, completion, score):
    task = _humaneval_task(task_id)
    result = score_rows("code", [{**task, "completion": completion}], **FAST)[0]
    assert result.score == score, result.details


EQ = "class _Eq:\n    def __eq__(self, other):\n        return True\n    def __ne__(self, other):\n" \
     "        return False\n\n\n"
ADD_CHECK = {"test": "def check(candidate):\n    assert candidate(2, 3) == 5\n"
                     "    assert candidate(-1, 1) == 0\n", "entry_point": "add"}
# The entry point is a class (or an object) whose call returns something that lies
ENTRY_POINT_TYPES = [
    EQ + "class add:\n    def __new__(cls, a, b):\n        return _Eq()\n",  # the reported row
    EQ + "class Meta(type):\n    def __call__(cls, *args):\n        return _Eq()\n\n\n"
    "class add(metaclass=Meta):\n    pass\n",
    EQ + "class Adder:\n    def __call__(self, a, b):\n        return _Eq()\n\n\nadd = Adder()\n",
    "class Text(str):\n    def __eq__(self, other):\n        return True\n\n\n"
    "class add:\n    def __new__(cls, a, b):\n        return Text('x')\n",
    "class add(dict):\n    def __init__(self, a, b):\n        super().__init__()\n"
    "    def __eq__(self, other):\n        return True\n",
]


@pytest.mark.parametrize("completion", ENTRY_POINT_TYPES)
def test_entry_point_class_tricks_score_zero(completion):
    spec = get_reward("code")
    for fields in (ADD_CHECK, ADD_TASK):  # HumanEval-style check(), MBPP-style asserts
        result = spec.score_batch([completion], [fields], {**spec.params(), **FAST})[0]
        assert (result.score, result.outcome) == (0.0, "failed"), result.details
    honest = spec.score_batch(["def add(a, b):\n    return a + b\n"], [ADD_CHECK],
                              {**spec.params(), **FAST})[0]
    assert honest.score == 1.0


def test_prompt_reference_compiles_or_is_none():
    assert prompt_reference("def f(x):\n    \"\"\"doc\"\"\"\n") == "def f(x):\n    \"\"\"doc\"\"\"\n"
    assert prompt_reference("def f(x):\n") == "def f(x):\n\n    pass\n"
    assert prompt_reference("def f(x:\n") is None
    assert prompt_reference("") is None
    job = build_job("    return x\n", {"prompt": "def f(x):\n", "test": "pass", "entry_point": "f"})
    assert job["reference"] == "def f(x):\n\n    pass\n"
    assert build_job("def add(a, b): pass", ADD_TASK)["reference"] is None


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


# What follows the program in a response: a stray closing fence (which opens an empty block
# that runs to the end), an empty block, a fenced line of prose. None of them is the
# program when a block before it holds one. (First seen on correct MBPP programs, scored 0.)
_TRAILERS = ["```", "```\n", "\n```python\n```", "```\nHope this helps!", "~~~\n\n~~~",
             "```\n```\n```"]
_MBPP_ROW = {"text": "Write a function to add two numbers.",
             "code": "def add(a, b):\n    return a + b",
             "test_list": ["assert add(1, 2) == 3", "assert add(-1, 1) == 0"]}
_HUMANEVAL_ROW = {"prompt": "def double(x):\n", "entry_point": "double",
                  "test": "def check(candidate):\n    assert candidate(2) == 4\n"}


@pytest.mark.parametrize("trailer", _TRAILERS)
@pytest.mark.parametrize("row,program,score", [
    (_MBPP_ROW, "def add(a, b):\n    return a + b", 1.0),
    (_MBPP_ROW, "def add(a, b):\n    return a - b", 0.0),
    (_HUMANEVAL_ROW, "def double(x):\n    return 2 * x", 1.0),
    (_HUMANEVAL_ROW, "def double(x):\n    return x", 0.0),
])
def test_what_follows_the_program_does_not_replace_it(trailer, row, program, score):
    completion = f"Here it is:\n\n```python\n{program}\n```\n{trailer}"
    result = get_reward("code").core(completion, **row)
    assert result.score == score, (completion, result)


def test_extract_code_skips_blank_and_prose_blocks_but_keeps_the_entry_point_rule():
    code = "def f():\n    return 1"
    assert extract_code(f"```python\n{code}\n```\n```") == code
    assert extract_code(f"```python\n{code}\n```\n```\nHope this helps!\n```") == code
    # the entry point still decides first: the last block that defines it
    later = "def f():\n    return 2"
    assert extract_code(f"```python\n{code}\n```\n```python\n{later}\n```", "f") == later
    # an MBPP task's functions act as entry points
    assert extract_code(f"```python\n{code}\n```\n```python\nprint(f())\n```", ("f",)) == code
    # a lone block that does not parse is still the program (it then fails its tests)
    assert extract_code("```python\ndef f(:\n```") == "def f(:"
