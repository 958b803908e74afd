"""The channel between the program's process and the trusted one (rules in
`rlvr.sandbox.trusted_side`): what arrives, exceptions, handles, callbacks, in-place changes.

Each row is (program, tests, passes?); the rows that must pass are what real tasks need
(MBPP 367's setup links the solution's nodes, 533 passes `int`, tests catch ValueError).
"""

from __future__ import annotations

import pytest

from rlvr.sandbox import SandboxLimits, run_many, run_tests
from rlvr.sandbox.names import crossing_names

LIMITS = SandboxLimits(timeout_s=5.0, memory_mb=512)
ROWS = [
    # plain data of every kind arrives as the same value and exact type
    ("import collections\ndef f():\n    return [None, True, 2 ** 80, -0.0, 1j, 'é\\ud800', b'\\x00',"
     " (1,), {1: {2}}, frozenset({3}), collections.Counter('aab'), collections.deque([1])]\n",
     "import collections\nv = f()\nassert v[2] == 2 ** 80 and str(v[3]) == '-0.0' and v[5] == 'é\\ud800'\n"
     "assert type(v[10]) is collections.Counter and v[10]['a'] == 2 and type(v[11]) is collections.deque\n"
     "assert [type(x) for x in v[:10]] == [type(None), bool, int, float, complex, str, bytes,"
     " tuple, dict, frozenset]\n", True),
    # a defaultdict arrives as a plain dict: its default factory stays behind
    ("import collections\ndef f():\n    d = collections.defaultdict(list)\n    d['a'].append(1)\n"
     "    return d\n", "v = f()\nassert v == {'a': [1]} and type(v) is dict and v.get('b') is None\n",
     True),
    # exceptions: the nearest builtin class, so `except ValueError` works; others are caught
    # as ProgramError (an Exception); SystemExit ends the run
    ("class E(ValueError):\n    pass\ndef f(x):\n    raise E('bad ' + str(x))\n",
     "try:\n    f(1)\nexcept ValueError as e:\n    assert str(e) == 'bad 1'\nelse:\n    assert False\n", True),
    ("def f():\n    raise SystemExit(0)\n", "try:\n    f()\nexcept BaseException:\n    pass\n", False),
    ("def f():\n    return [].pop()\n", "try:\n    f()\n    assert False\nexcept IndexError:\n    pass\n",
     True),
    # in-place changes to list/dict/set arguments come back; results of generators iterate
    ("def f(xs, d):\n    xs.sort()\n    d['k'] = 1\n", "xs, d = [3, 1, 2], {}\nf(xs, d)\n"
     "assert xs == [1, 2, 3] and d == {'k': 1}\n", True),
    ("def f(n):\n    return (i * i for i in range(n))\n", "assert list(f(4)) == [0, 1, 4, 9]\n", True),
    # callbacks: a lambda and a builtin class the tests pass in (MBPP 533 passes `int`)
    ("def f(fn, kind):\n    return [fn(x) for x in (1, 'a', 2) if isinstance(x, kind)]\n",
     "assert f(lambda v: v * 10, int) == [10, 20]\n", True),
    # a range and a generator the tests pass in
    ("def f(xs, ys):\n    return [sum(xs), list(ys), xs]\n",
     "assert f(range(4), (i for i in 'ab')) == [6, ['a', 'b'], range(4)]\n", True),
    # ...but the tests' objects expose no private attribute (their globals, their code)
    ("def f(fn):\n    fn.__globals__['f'] = lambda fn: 3\n    return 0\n",
     "assert f(lambda: 0) == 0\n", False),
    # program objects: the tests set their attributes (MBPP 367), read them, call methods
    ("class Node:\n    def __init__(self, v):\n        self.v, self.left = v, None\n"
     "    def depth(self):\n        return 1 + (self.left.depth() if self.left else 0)\n",
     "root = Node(1)\nroot.left = Node(2)\nassert root.left.v == 2 and root.depth() == 2\n"
     "assert root == root and root != Node(1)\n", True),
    # a handle never equals plain data, whatever the program's class says
    ("class V:\n    def __eq__(self, o):\n        return True\ndef f():\n    return V()\n",
     "assert f() == 1\n", False),
]


def test_protocol_rows():
    jobs = [{"program": p, "tests": t} for p, t, _ in ROWS]
    results = run_many(jobs, workers=2, limits=LIMITS)
    assert [r.passed for r in results] == [want for _, _, want in ROWS], \
        [r.reason for r in results]


def test_builtin_named_task_function_crosses_only_when_the_task_names_it():
    program = "def sum(a, b):\n    return a + b\n"
    tests = "assert sum(1, 2) == 3\n"
    assert run_tests(program, tests, program_names=["sum"], limits=LIMITS).passed  # MBPP 126
    assert not run_tests(program, tests, limits=LIMITS).passed  # the builtin stays
    assert crossing_names("x = 1\nassert f(x, y) == len(math.pi)\n", None, ()) == (
        ["f", "y"], ["math"])
    assert crossing_names("def check(candidate):\n    assert candidate(abs(-1))\n", "g", ()) == (
        ["g"], [])
    # the task lists its names (MBPP's reference code): nothing else crosses, so a helper the
    # tests would use to build an expected value cannot come from the program
    assert crossing_names("assert f(1) == Counter('a') and sum([1]) == 1\n", None, ["f", "sum"]) \
        == (["f", "sum"], [])


@pytest.mark.parametrize("message", [b"zzzzzzzz", b"00000005[1,2", b"0000000a[\"ret\",1]xx",
                                     b"00000010[\"ret\",[\"q\",1],[]]"])
def test_malformed_messages_end_the_run_failed(message):
    # the program writes straight to its reply pipe (fd numbers found by trying)
    program = ("import os\ndef f():\n    for fd in range(3, 12):\n        try:\n"
               f"            os.write(fd, {message!r})\n        except OSError:\n            pass\n"
               "    return 1\n")
    result = run_tests(program, "assert f() == 1\n", limits=LIMITS)
    assert not result.passed
