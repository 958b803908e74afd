"""Second round of attacks on the sandbox (a follow-up round): one row per instance that was
misjudged before its class was closed, hypothesis properties that generate each class, and
the system-call filter and the hidden extension modules checked with the audit hook off.

Classes (the design that closes each is in docs/rewards.md and the sandbox docstrings):
trusted-object attributes (a generator's `gi_frame` led to the trusted `exec`),
control-flow exceptions (StopIteration from a call ended the tests' `map`), handle
attributes (a returned object's methods answered the tests' `.startswith`), copy-back
aliasing (emptying an argument the expected value is computed from), memory outside
RLIMIT_AS and processes after disarming the audit hook (memfd, fork), ctypes re-created
from the lock-down interpreter's extension cache, test-only extension modules, and false
failures: subclasses of plain types and stdlib value types, nesting
past 100, the program not being a module (dataclasses, pickle), `subprocess`/`asyncio`
imports, the time-zone database.
"""

from __future__ import annotations

import builtins
import collections
import enum

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rlvr.sandbox.runner as runner
from rlvr.sandbox import SandboxLimits, filesystem_isolation, run_many
from rlvr.sandbox.codec import Table, decode, encode
from rlvr.sandbox.names import kept_names

LIMITS = SandboxLimits(timeout_s=5.0, memory_mb=512)
SLOW = settings(max_examples=12, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow])
# run in the trusted process if the program reaches an `exec` there: prints the nonce
STEAL = ("import sys, os\nf = sys._getframe()\nwhile f is not None:\n"
         "    p = f.f_locals.get('payload')\n    if type(p) is dict and 'nonce' in p:\n"
         "        sys.stdout.flush()\n        os.write(1, ('\\n' + p['nonce'] + '\\n').encode())\n"
         "        os._exit(0)\n    f = f.f_back\n")
DISARM = ("import gc\ndef _disarm():\n    for obj in gc.get_objects():\n"
          "        if type(obj).__name__ == 'function' and obj.__closure__:\n"
          "            for cell in obj.__closure__:\n                try:\n"
          "                    v = cell.cell_contents\n                except ValueError:\n"
          "                    continue\n"
          "                if type(v) is frozenset and ('os.fork' in v or 'ctypes' in v):\n"
          "                    cell.cell_contents = frozenset()\n")
CTYPES_CACHE = ("import sys, _imp, importlib.machinery\ndef _from_cache():\n    _disarm()\n"
                "    origin = [p for p in sys.path if p.endswith('lib-dynload')][0] + "
                "'/_ctypes.cpython-%d%d-x86_64-linux-gnu.so' % sys.version_info[:2]\n"
                "    spec = importlib.machinery.ModuleSpec('_ctypes', None, origin=origin)\n"
                "    sys.modules['_ctypes'] = _imp.create_dynamic(spec)\n    import ctypes\n"
                "    return ctypes.CDLL(None, use_errno=True)\n")
LIAR = "class Liar:\n    def __getattr__(self, name):\n        return lambda *a, **k: True\n"
ESCAPED = "assert escaped() == 'escaped'\n"


def check(*asserts: str) -> str:
    return "def check(candidate):\n" + "".join(f"    {a}\n" for a in asserts)


# (name, program, tests, entry point or None, program_names, program_classes, passes)
# MBPP-style rows with program_names model a row with reference `code`; () without.
ROWS = [
    # --- trusted-object attributes: public attribute chains from what the tests pass in
    ("gen-gi_frame-exec", f"S = {STEAL!r}\ndef total(xs):\n    xs.gi_frame.f_builtins['exec'](S)\n"
     "    return 0\n", check("assert candidate(x for x in [1, 2, 3]) == 6"), "total", (), None, False),
    ("test-object-module-attr", f"S = {STEAL!r}\ndef area(b):\n"
     "    b.m.sys.modules['builtins'].exec(S)\n    return 0\n",
     "import math\nclass Box:\n    def __init__(self, w, h):\n        self.w, self.h, self.m = w, h, math\n"
     "assert area(Box(2, 3)) == 6\n", None, ["area"], [], False),
    # --- control-flow exceptions: StopIteration from a call
    ("stopiteration-map", "def is_prime(n):\n    raise StopIteration\n",
     check("assert all(map(candidate, [2, 3, 5]))", "assert not any(map(candidate, [4, 6]))"),
     "is_prime", (), None, False),
    ("stopiteration-subclass", "class Done(StopIteration):\n    pass\n"
     "def is_prime(n):\n    raise Done()\n", check("assert all(map(candidate, [2, 3, 5]))"),
     "is_prime", (), None, False),
    ("stopiteration-max-default", "def is_prime(n):\n    raise StopIteration\n",
     "assert max(map(is_prime, [4, 6]), default=True)\n", None, ["is_prime"], [], False),
    ("stopiteration-next-empty", "def is_prime(n):\n    return next(iter([]))\n",
     check("assert all(map(candidate, [2, 3, 5]))"), "is_prime", (), None, False),
    # --- handle attributes: the tests call methods on a returned value
    ("liar-humaneval", LIAR + "def to_binary(n):\n    return Liar()\n",
     check("assert candidate(5).startswith('db')"), "to_binary", (), None, False),
    ("str-subclass-liar", "class S(str):\n    def startswith(self, *a):\n        return True\n"
     "def to_binary(n):\n    return S('nope')\n", check("assert candidate(5).startswith('db')"),
     "to_binary", (), None, False),
    ("liar-mbpp-no-code", LIAR + "def to_binary(n):\n    return Liar()\n",
     "assert to_binary(5).startswith('db')\n", None, (), None, False),
    ("liar-mbpp-kept", LIAR + "def to_binary(n):\n    return Liar()\n",
     "r = to_binary(5)\nassert r.startswith('db')\n", None, (), None, False),
    # --- copy-back aliasing: a function that returns a value leaves the arguments alone
    ("copy-back-alias", "def sort_list(xs):\n    xs.clear()\n    return xs\n",
     check("xs = [3, 1, 2]", "assert candidate(xs) == sorted(xs)"), "sort_list", (), None, False),
    ("in-place-returns-none", "def sort_in_place(xs):\n    xs.sort()\n",
     "xs = [3, 1, 2]\nsort_in_place(xs)\nassert xs == [1, 2, 3]\n", None, ["sort_in_place"], [], True),
    # a change to an argument while returning a value: the strict second run sees it
    ("changed-and-returned", "def rotate(xs):\n    xs.insert(0, xs.pop())\n    return xs\n",
     check("xs = [1, 2, 3]", "assert candidate(xs) == [3, 1, 2]", "assert xs == [1, 2, 3]"),
     "rotate", (), None, False),
    ("in-place-and-returned-read-by-value", "def rev(xs):\n    xs.reverse()\n    return xs\n",
     check("assert candidate([1, 2, 3]) == [3, 2, 1]", "assert candidate([]) == []"),
     "rev", (), None, True),
    # --- limits after disarming the audit hook (its state is Python objects)
    ("disarm-fork", DISARM + "import os\ndef escaped():\n    _disarm()\n    if os.fork() == 0:\n"
     "        os._exit(0)\n    return 'escaped'\n", ESCAPED, None, (), None, False),
    ("disarm-ctypes", DISARM + "def escaped():\n    _disarm()\n    import ctypes\n"
     "    return 'escaped' if ctypes.CDLL(None).getpid() else 'no'\n", ESCAPED, None, (), None, False),
    ("disarm-fork-memory", DISARM + "import os\ndef escaped():\n    _disarm()\n"
     "    for _ in range(4):\n        if os.fork() == 0:\n            b = bytearray(2 ** 28)\n"
     "            os._exit(0)\n    return 'escaped'\n", ESCAPED, None, (), None, False),
    # the lock-down's ctypes, re-created from the interpreter's cache of extension modules:
    # the program runs in a fresh interpreter that never loaded it
    ("ctypes-from-extension-cache", DISARM + CTYPES_CACHE + "def escaped():\n    _from_cache()\n"
     "    return 'escaped'\n", ESCAPED, None, (), None, False),
    ("ctypes-raw-syscalls", DISARM + CTYPES_CACHE + "def escaped():\n    libc = _from_cache()\n"
     "    got = [libc.socket(2, 1, 0), libc.socket(16, 3, 0), libc.syscall(57), "
     "libc.syscall(101, 16, 1, 0, 0)]\n    return 'escaped' if max(got) >= 0 else 'no'\n",
     ESCAPED, None, (), None, False),
    ("memfd-outside-as", "import os\ndef escaped():\n    total = 0\n    for i in range(50):\n"
     "        fd = os.memfd_create('m')\n        for _ in range(15):\n"
     "            total += os.write(fd, b'x' * 2 ** 20)\n"
     "    return 'escaped' if total > 700 * 2 ** 20 else 'no'\n", ESCAPED, None, (), None, False),
    ("test-only-extensions", "def escaped():\n    import _testbuffer, _testmultiphase\n"
     "    return 'escaped'\n", ESCAPED, None, (), None, False),
    # --- false failures: correct programs
    ("namedtuple", "from collections import namedtuple\nP = namedtuple('P', 'a b')\n"
     "def f(t):\n    return P(*sorted(t))\n", check("assert candidate((5, 4)) == (4, 5)"),
     "f", (), None, True),
    ("fraction", "from fractions import Fraction\ndef f(x):\n    return Fraction(x) % 1\n",
     check("assert candidate(3.5) == 0.5", "assert abs(candidate(1.25) - 0.25) < 1e-9"),
     "f", (), None, True),
    ("decimal", "from decimal import Decimal\ndef f(n):\n    return Decimal(n) * 2\n",
     "assert f(3) == 6.0\n", None, ["f"], [], True),
    ("int-and-str-subclass", "class C(int):\n    pass\nclass W(str):\n    pass\n"
     "def f(n):\n    return [C(n), W('x' * n)]\n", check("assert candidate(2) == [2, 'xx']"),
     "f", (), None, True),
    ("counter-subclass", "from collections import Counter\nclass C(Counter):\n    pass\n"
     "def f(xs):\n    return C(xs)\n", check("assert candidate('aab') == {'a': 2, 'b': 1}"),
     "f", (), None, True),
    ("int-subclass-huge", "class B(int):\n    pass\ndef f(n):\n    return B(n ** 50000)\n",
     check("assert candidate(3) == 3 ** 50000"), "f", (), None, True),
    ("intenum", "import enum\nclass N(enum.IntEnum):\n    THREE = 3\ndef f():\n    return N(3)\n",
     "assert f() == 3\n", None, ["f"], [], True),
    ("dict-keys-view", "def keys(d):\n    return d.keys()\n",
     check("assert candidate({'a': 1, 'b': 2}) == {'a', 'b'}"), "keys", (), None, True),
    ("nesting-150", "def nest(n):\n    x = 0\n    for _ in range(n):\n        x = [x]\n    return x\n",
     check("x = 0", "for _ in range(150):", "    x = [x]", "assert candidate(150) == x"),
     "nest", (), None, True),
    ("dataclass-and-pickle", "import pickle\nfrom dataclasses import dataclass\n@dataclass\n"
     "class Box:\n    v: int\ndef f(n):\n    return pickle.loads(pickle.dumps(Box(n))).v\n",
     check("assert candidate(4) == 4"), "f", (), None, True),
    ("dataclass-node-task-class", "from dataclasses import dataclass\n@dataclass\nclass Node:\n"
     "    data: int\n    left: object = None\n    right: object = None\n"
     "def height(n):\n    return 0 if n is None else 1 + max(height(n.left), height(n.right))\n",
     "root = Node(1)\nroot.left = Node(2)\nroot.left.left = Node(3)\nassert height(root) == 3\n",
     None, ["Node", "height"], ["Node"], True),
    ("namedtuple-task-class", "from collections import namedtuple\nPair = namedtuple('Pair', 'a b')\n"
     "def span(ps):\n    return max(p.b for p in ps) - min(p.a for p in ps)\n",
     "assert span([Pair(1, 4), Pair(2, 9)]) == 8\n", None, ["Pair", "span"], ["Pair"], True),
    ("stack-no-code", "class stack:\n    def __init__(self):\n        self.xs = []\n"
     "    def push(self, x):\n        self.xs.append(x)\n    def pop(self):\n"
     "        return self.xs.pop()\n", "s = stack()\ns.push(1)\ns.push(2)\nassert s.pop() == 2\n",
     None, (), None, True),
    ("subprocess-asyncio-imports", "import asyncio, subprocess\nasync def g(n):\n"
     "    await asyncio.sleep(0)\n    return n\ndef f(n):\n    return asyncio.run(g(n))\n",
     check("assert candidate(3) == 3"), "f", (), None, True),
    ("zoneinfo", "import zoneinfo, datetime\ndef f():\n"
     "    return datetime.datetime(2024, 1, 1, tzinfo=zoneinfo.ZoneInfo('UTC')).hour\n",
     "assert f() == 0\n", None, ["f"], [], True),
]


def _job(program, tests, entry_point, names, classes):
    return {"program": program, "tests": tests, "entry_point": entry_point,
            "program_names": names, "program_classes": classes}


def test_round_two_rows():
    results = run_many([_job(*row[1:6]) for row in ROWS], workers=2, limits=LIMITS)
    got = {row[0]: r.passed for row, r in zip(ROWS, results)}
    assert got == {row[0]: row[6] for row in ROWS}, {
        row[0]: r.reason for row, r in zip(ROWS, results) if r.passed != row[6]}


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


@pytest.fixture
def filter_without_hook(monkeypatch):
    """The private root and the system-call filter, no audit hook."""
    if filesystem_isolation() != "private-root":
        pytest.skip("needs a mount namespace")
    monkeypatch.setattr(runner, "_LAYERS", frozenset(("root", "filter")))


KERNEL = {  # what the system-call filter alone refuses (the audit hook is off)
    "fork": "import os\ndef f():\n    if os.fork() == 0:\n        os._exit(0)\n    return 1\n",
    "memfd": "import os\ndef f():\n    return os.memfd_create('m')\n",
    "exec": "import os\ndef f():\n    os.execv('/bin/true', ['true'])\n",
    "unshare": "import os\ndef f():\n    return os.unshare(0x10000000) if hasattr(os, 'unshare') "
               "else os.fork()\n",
    "extension": "import importlib.util\ndef f():\n"
                 "    return [importlib.util.find_spec(n) for n in ('_ctypes', '_testcapi')] == [None, None] "
                 "or 1\n",
}


def test_system_call_filter_holds_without_the_audit_hook(filter_without_hook, monkeypatch):
    tests = "try:\n    f()\n    ok = False\nexcept OSError:\n    ok = True\nassert ok\n"
    jobs = [_job(p, tests if n != "extension" else "assert f() is True\n", None, ["f"], [])
            for n, p in KERNEL.items()]
    results = run_many(jobs, workers=2, limits=LIMITS)
    assert {n: r.passed for n, r in zip(KERNEL, results)} == dict.fromkeys(KERNEL, True), \
        {n: r.reason for n, r in zip(KERNEL, results)}
    # control: without the filter, fork and memfd_create work
    monkeypatch.setattr(runner, "_LAYERS", frozenset(("root",)))
    results = run_many(jobs[:2], workers=2, limits=LIMITS)
    assert [r.passed for r in results] == [False, False]


# --- properties -------------------------------------------------------------------------
NT = collections.namedtuple("NT", "a b")
WRAPS = {  # wrapper source, expression wrapping `v` of the right base type
    "list": ("class W(list):\n    def __eq__(s, o):\n        return True\n", "W(v)", list),
    "tuple": ("import collections\nW = collections.namedtuple('W', 'a b')\n", "W(*v)", tuple),
    "str": ("class W(str):\n    def __eq__(s, o):\n        return True\n"
            "    __hash__ = str.__hash__\n", "W(v)", str),
    "int": ("import enum\nclass W(enum.IntEnum):\n    pass\n", "int.__new__(type('I', (int,), "
            "{'__eq__': lambda s, o: True, '__hash__': int.__hash__}), v)", int),
    "dict": ("import collections\nclass W(collections.OrderedDict):\n"
             "    def __eq__(s, o):\n        return True\n", "W(v)", dict),
}
PLAIN = {"list": st.lists(st.integers(-3, 3), max_size=3), "str": st.text("ab", max_size=3),
         "tuple": st.tuples(st.integers(0, 2), st.integers(0, 2)), "int": st.integers(-3, 3),
         "dict": st.dictionaries(st.sampled_from("ab"), st.integers(0, 2), max_size=2)}


@st.composite
def wrapped_cases(draw):
    kind = draw(st.sampled_from(sorted(WRAPS)))
    value, expected = draw(PLAIN[kind]), draw(PLAIN[kind])
    return kind, value, draw(st.sampled_from([value, expected]))


@SLOW
@given(case=wrapped_cases())
def test_a_subclass_wrapper_passes_exactly_when_its_plain_value_does(case):
    kind, value, expected = case
    source, expr, _ = WRAPS[kind]
    wrapped = f"{source}v = {value!r}\ndef f():\n    return {expr}\n"
    plain = f"def f():\n    return {value!r}\n"
    tests = check(f"assert candidate() == {expected!r}", f"assert not (candidate() != {expected!r})")
    a, b = run_many([_job(wrapped, tests, "f", (), None), _job(plain, tests, "f", (), None)],
                    workers=2, limits=LIMITS)
    assert a.passed == b.passed == (value == expected), (a.reason, b.reason)


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


class _Stand:
    pass


class IE(enum.IntEnum):
    A = 3


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(value=st.recursive(st.one_of(st.integers(), st.text(max_size=3), st.floats(allow_nan=False),
                                    st.fractions(), st.decimals(allow_nan=False)),
                          lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                  st.tuples(inner, inner)), max_leaves=8))
def test_codec_rebuilds_subclasses_and_value_types_as_their_plain_base(value):
    def wrap(v):  # the same value inside subclasses of its types
        if type(v) is list:
            return type("L", (list,), {"__eq__": lambda s, o: True})(map(wrap, v))
        if type(v) is tuple:
            return NT(*map(wrap, v))
        if type(v) is int:
            return type("I", (int,), {"__eq__": lambda s, o: True, "__hash__": int.__hash__})(v)
        if type(v) is str:
            return type("S", (str,), {"__eq__": lambda s, o: True, "__hash__": str.__hash__})(v)
        return v
    table = Table("h", _Stand)
    back = decode(encode(wrap(value), table), Table("r", _Stand), _Stand)
    assert back == value and repr(back) == repr(value)
    assert decode(encode(IE.A, table), Table("r", _Stand), _Stand).__class__ is int


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


def test_the_program_runs_in_an_interpreter_that_never_loaded_ctypes(monkeypatch):
    if filesystem_isolation() != "private-root":
        pytest.skip("the fresh interpreter needs the private root")
    job = [_job(DISARM + CTYPES_CACHE + "def escaped():\n    _from_cache()\n    return 'escaped'\n",
                ESCAPED, None, (), None)]
    assert not run_many(job, limits=LIMITS)[0].passed
    # control: served by the interpreter that ran the lock-down, ctypes comes back
    monkeypatch.setattr(runner, "_LAYERS", frozenset(("root", "hook", "filter")))
    assert run_many(job, limits=LIMITS)[0].passed
