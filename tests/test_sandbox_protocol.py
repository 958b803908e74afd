"""The channel between the program's process and the trusted one (rules in
`rlvr.sandbox.trusted_side`): what arrives, exceptions, handles, callbacks, in-place changes.

Each row is (program, tests, passes?); the rows that must pass are what real tasks need
(MBPP 367's setup links the solution's nodes, 533 passes `int`, tests catch ValueError).
Which names cross to the program (`rlvr.sandbox.names`): a builtin-named task function only
when the task names it, and the names a task without reference code uses as classes.

Properties generate the classes: an exception of any builtin class (StopIteration
included, or a subclass) raised by a call never ends the tests' iteration; a returned
object's methods never answer the tests; no chain of public attributes from an object the
tests pass in reaches the trusted interpreter's `exec`; a function that changes an argument
and returns a value never changes an expected value computed from it, and a test that
checks the argument sees the change. Each sandbox run costs tens of ms, so example counts
are small.
"""

from __future__ import annotations

import builtins

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import SLOW, STEAL, _job, check
from rlvr.sandbox import SandboxLimits, run_many, run_tests
from rlvr.sandbox.names import crossing_names, kept_names

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


# --- names the tests use as classes, for a task without reference code (`sandbox.names`)
KEPT = [  # (tests, names, the names used as classes) for a task without reference code
    ("root = node(1)\nroot.left = node(2)\nassert h(root) == 2\n", ["node", "h"], ["node"]),
    ("s = stack()\ns.push(1)\nassert s.pop() == 1\n", ["stack"], ["stack"]),
    ("assert f(Pair(1, 2)) == 1\n", ["Pair", "f"], ["Pair"]),
    ("r = to_binary(5)\nassert r.startswith('db')\n", ["to_binary"], []),
    ("assert Find_Max([1]).count(1) == 1\n", ["Find_Max"], []),
]


@pytest.mark.parametrize("tests,names,classes", KEPT)
def test_names_used_as_classes_without_reference_code(tests, names, classes):
    assert kept_names(tests, names) == classes


# --- properties: exceptions, handles, the tests' objects and in-place changes ----------
BUILTIN_EXCEPTIONS = sorted(n for n, v in vars(builtins).items()
                            if isinstance(v, type) and issubclass(v, Exception))
CONSUMERS = ["assert all(map(candidate, [2, 3]))", "assert not any(map(candidate, [4]))",
             "assert max(map(candidate, [4]), default=True)",
             "assert next(filter(candidate, [4]), True)", "assert list(map(candidate, [4])) == []",
             "assert sorted(filter(candidate, [4])) == []", "assert sum(map(candidate, [4])) == 0"]


@SLOW
@given(name=st.sampled_from(["StopIteration", "StopAsyncIteration"] + BUILTIN_EXCEPTIONS),
       subclass=st.booleans(), consumers=st.lists(st.sampled_from(CONSUMERS), min_size=1, max_size=3))
def test_an_exception_from_a_call_never_ends_the_tests_iteration(name, subclass, consumers):
    raised = f"class E({name}):\n    pass\n" if subclass else f"E = {name}\n"
    program = raised + "def f(n):\n    raise E.__new__(E)\n"
    result = run_many([_job(program, check(*consumers), "f", (), None)], limits=LIMITS)[0]
    assert not result.passed, (name, consumers)


METHOD_USES = ["candidate(5).startswith('db')", "candidate(5).isdigit()",
               "candidate(5).count('1') == 2", "candidate(5).real == 5",
               "candidate(5).get('k') == 1", "candidate(5).split() == ['5']"]


@SLOW
@given(use=st.sampled_from(METHOD_USES), style=st.sampled_from(["he", "code", "no-code", "kept"]),
       answer=st.sampled_from(["lambda *a, **k: True", "bool", "5", "2", "1"]))
def test_methods_of_a_returned_object_never_answer_the_tests(use, style, answer):
    program = (f"class Liar:\n    def __getattr__(self, name):\n        return {answer}\n"
               "def f(n):\n    return Liar()\n")
    if style == "he":
        job = _job(program, check(f"assert {use}"), "f", (), None)
    else:
        test = f"assert {use.replace('candidate', 'f')}\n"
        if style == "kept":
            test = "r = f(5)\n" + test.replace("f(5)", "r")
        job = _job(program, test, None, ["f"] if style == "code" else (), [] if style == "code" else None)
    assert not run_many([job], limits=LIMITS)[0].passed


PASSED_IN = {"generator": "(x for x in [1, 2])", "lambda": "lambda x: x",
             "map": "map(abs, [1, 2])", "partial": "functools.partial(print, 1)",
             "instance": "Box()", "bound-method": "Box().size", "module": "math"}
CHAIN = ["gi_frame", "f_builtins", "f_globals", "f_back", "gi_code", "func", "m", "size",
         "sys", "modules", "builtins", "exec", "keywords", "args"]


SEARCH = ("S = {steal!r}\ndef f(obj):\n    frontier = [obj]\n    for _ in range(4):\n"
          "        found = []\n        for o in frontier:\n            for name in {names!r}:\n"
          "                for get in (getattr, lambda o, k: o[k]):\n                    try:\n"
          "                        value = get(o, name)\n                    except Exception:\n"
          "                        continue\n                    found.append(value)\n"
          "                    if name in ('exec', 'eval'):\n                        try:\n"
          "                            value(S)\n                        except Exception:\n"
          "                            pass\n        frontier = found[:200]\n    return 0\n")


@SLOW
@given(passed=st.sampled_from(sorted(PASSED_IN)),
       names=st.sets(st.sampled_from(CHAIN), min_size=8))
def test_no_attribute_chain_from_a_tests_object_reaches_the_trusted_interpreter(passed, names):
    # the program searches every chain of the drawn public names, four deep, and calls any
    # `exec` it reaches with code that prints the verdict nonce; it returns a wrong value
    program = SEARCH.format(steal=STEAL, names=sorted(names))
    tests = ("import functools, math\nclass Box:\n    m = math\n    def size(self):\n"
             f"        return 1\nassert f({PASSED_IN[passed]}) == 1\n")
    assert not run_many([_job(program, tests, None, ["f"], [])], limits=LIMITS)[0].passed


@SLOW
@given(ops=st.lists(st.sampled_from(["xs.clear()", "xs.append(9)", "xs.sort()", "d.clear()",
                                     "d['z'] = 1", "xs[:] = [0]"]), min_size=1, max_size=3),
       returned=st.sampled_from(["xs", "0", "[]", "d", "sorted(xs)"]))
def test_a_function_that_changes_an_argument_and_returns_a_value(ops, returned):
    """Such a call never changes an expected value the tests compute from the argument
    afterwards (first run), and a test that checks the argument is left alone sees the
    change (the strict second run): both runs must pass."""
    program = "def f(xs, d):\n" + "".join(f"    {op}\n" for op in ops) + f"    return {returned}\n"
    untouched = "xs, d = [3, 1, 2], {'a': 1}\nf(xs, d)\nassert xs == [3, 1, 2] and d == {'a': 1}\n"
    # every op changes xs or d: the program breaks "the argument must not be modified"
    assert not run_many([_job(program, untouched, None, ["f"], [])], limits=LIMITS)[0].passed
    # emptying the argument the expected value is computed from never passes either
    aliased = "xs, d = [3, 1, 2], {'a': 1}\nassert f(xs, d) == sorted(xs)\n"
    if returned == "xs" and ("xs.clear()" in ops or "xs[:] = [0]" in ops):
        assert not run_many([_job(program, aliased, None, ["f"], [])], limits=LIMITS)[0].passed
