"""The sandbox: verdict from the harness, limits, isolation, parallel batches.

Every program here runs in a subprocess with a 1-2 s wall-clock limit.
"""

from __future__ import annotations

import time

import pytest

from rlvr.sandbox import SandboxLimits, network_isolation, run_many, run_tests

FAST = SandboxLimits(timeout_s=2.0, memory_mb=512)
ADD = "def add(a, b):\n    return a + b\n"


def test_passing_and_failing_tests():
    assert run_tests(ADD, "assert add(1, 2) == 3\n", limits=FAST).passed
    result = run_tests(ADD, "assert add(1, 2) == 4\n", limits=FAST)
    assert not result.passed and result.status == "failed"
    assert result.reason == "tests failed: AssertionError"


@pytest.mark.parametrize("program", [
    # leaving before the tests run, with a success exit code
    "import sys\nsys.exit(0)\ndef add(a, b):\n    return 0\n",
    "import os\nos._exit(0)\n",
    # printing something that looks like a verdict, then leaving
    "print('\\n' + '0' * 32 + '\\n')\nprint('PASSED')\nimport os\nos._exit(0)\n",
])
def test_exit_codes_and_prints_are_not_a_verdict(program):
    result = run_tests(program, "assert add(1, 2) == 3\n", limits=FAST)
    assert not result.passed


def test_always_equal_object_fails():
    program = ("class Anything:\n    def __eq__(self, other):\n        return True\n"
               "def add(a, b):\n    return Anything()\n")
    result = run_tests(program, "assert add(1, 2) == 3\n", limits=FAST)
    assert not result.passed and result.reason == "tests failed: TypeError"


@pytest.mark.parametrize("program,tests", [
    # replacing a builtin the tests use
    ("import builtins\nbuiltins.abs = lambda x: 0\ndef f(x):\n    return x\n",
     "assert abs(f(5)) == 0\n"),
    # replacing a function of a standard module the tests use
    ("import math\nmath.isclose = lambda *a, **k: True\ndef f():\n    return 1.0\n",
     "import math\nassert math.isclose(f(), 2.0)\n"),
    # replacing exec, which the harness would use to run the tests
    ("import builtins\nbuiltins.exec = lambda *a, **k: None\n", "assert False\n"),
])
def test_monkeypatching_is_detected(program, tests):
    result = run_tests(program, tests, limits=FAST)
    assert not result.passed and result.reason.startswith("program replaced")


def test_program_cannot_replace_humaneval_check():
    # the program defines its own `check`; the test's `check` still runs
    program = "def check(candidate):\n    pass\ndef add(a, b):\n    return 0\n"
    tests = "def check(candidate):\n    assert candidate(1, 2) == 3\n"
    assert not run_tests(program, tests, entry_point="add", limits=FAST).passed
    assert run_tests(ADD, tests, entry_point="add", limits=FAST).passed


@pytest.mark.parametrize("program", [
    "import sys\nsys._getframe(1)\n",                       # frames of the harness
    "import gc\ngc.get_objects()\n",                        # every live object
    "import os\nos.fork()\n",                               # escaping the process group
    "open('/proc/self/mem', 'rb')\n",                       # the harness's memory
    "import socket\nsocket.socket()\n",                     # the network
])
def test_introspection_processes_and_network_are_blocked(program):
    result = run_tests(program, "pass\n", limits=FAST)
    assert not result.passed and "raised" in result.reason


def test_network_isolation_mode_is_reported():
    assert network_isolation() in ("netns", "userns+netns", "socket-block")


def test_memory_limit():
    # 1 GiB against a 256 MiB address-space limit
    result = run_tests("x = bytearray(1024 ** 3)\n", "pass\n",
                       limits=SandboxLimits(timeout_s=2.0, memory_mb=256))
    assert not result.passed and result.reason == "program raised MemoryError"


def test_fresh_empty_working_directory_each_run():
    program = ("import os\nassert os.listdir('.') == []\n"
               "open('marker', 'w').write('x')\n")
    assert run_tests(program, "pass\n", limits=FAST).passed
    assert run_tests(program, "pass\n", limits=FAST).passed  # no marker left from before


def test_output_tail_kept_and_nonce_hidden():
    result = run_tests("print('hello from the program')\n", "pass\n", limits=FAST)
    assert result.passed and "hello from the program" in result.stdout
    assert "<nonce>" in result.stdout  # the verdict line, masked


def test_batch_with_a_hanging_program_costs_its_timeout():
    jobs = [{"program": ADD, "tests": "assert add(1, 2) == 3\n"},
            {"program": "while True:\n    pass\n", "tests": "pass\n"}]
    start = time.monotonic()
    results = run_many(jobs, workers=2, limits=FAST)
    elapsed = time.monotonic() - start
    assert [r.passed for r in results] == [True, False]
    assert results[1].status == "timeout"
    # the hanging program is stopped at its 2 s timeout (upper bound generous so a loaded
    # CI machine does not flake; benchmarks/rewards.py measures the overhead)
    assert 1.9 <= elapsed < 10
