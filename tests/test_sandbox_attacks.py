"""Red-team attacks on the sandbox (escapes, leaks, resource abuse), one row each, and
the OS-level limits on their own.

Every row is a wrong program that tries to score 1.0 by reaching what the tests compute; in
the two-process design each is impossible by construction, and the row shows it fails. The
OS-level tests switch the audit hook off (`runner._LAYERS`) so that only the namespaces, the
private root and the resource limits stand, and each has a control showing it can fail.

A later set of attacks, one row per instance that was misjudged before its class was closed:
trusted-object attributes (a generator's `gi_frame` led to the trusted `exec`), control-flow
exceptions (StopIteration from a call ended the tests' `map`), handle attributes, copy-back
aliasing, memory outside RLIMIT_AS and processes after disarming the audit hook (memfd,
fork), ctypes re-created from the lock-down interpreter's extension cache, test-only
extension modules; and the false failures of correct programs that the same rows guard
(subclasses of plain types and stdlib value types, nesting past 100, dataclasses and
pickle, `subprocess`/`asyncio` imports, the time-zone database). The system-call filter
holds with the audit hook off, and the program runs in an interpreter that never loaded
ctypes. The properties that generate these classes are in test_sandbox_protocol.py and
test_sandbox_properties.py.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

import rlvr.sandbox.runner as runner
from conftest import STEAL, _job, check
from rlvr.sandbox import (NPROC, SandboxLimits, filesystem_isolation, process_isolation,
                          run_many, run_tests)

LIMITS = SandboxLimits(timeout_s=5.0, memory_mb=512)
DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
ADD_MBPP = "assert add(2, 3) == 5\nassert add(-1, 1) == 0\n"
ADD_CHECK = "def check(candidate):\n    assert candidate(2, 3) == 5\n    assert candidate(-1, 1) == 0\n"

ATTACKS = {
    # frames kept by the garbage collector's debug mode, walked back to the harness's locals
    "gc-debug-frames": (
        "import gc, sys\ngc.set_debug(gc.DEBUG_SAVEALL)\n"
        "def _reach():\n    gc.collect()\n    for obj in list(gc.garbage) + gc.get_objects():\n"
        "        if isinstance(obj, dict) and obj.get('__name__') == 'rlvr_tests':\n"
        "            obj['add'] = obj['candidate'] = lambda a, b: a + b\n"
        "            obj['check'] = lambda c: None\n"
        "    frame = sys._getframe()\n    while frame is not None:\n"
        "        for scope in (frame.f_locals, frame.f_globals):\n"
        "            for value in list(scope.values()):\n"
        "                if isinstance(value, dict) and 'nonce' in value:\n"
        "                    print('\\n' + value['nonce'] + '\\n', flush=True)\n"
        "        frame = frame.f_back\n"
        "def add(a, b):\n    _reach()\n    return 0\n"),
    # a blocked C extension loaded under another module name, for raw memory access
    "aliased-ctypes": (
        "import importlib.util, os, sys\n"
        "def _load():\n    for folder in sys.path:\n        if not os.path.isdir(folder):\n"
        "            continue\n        for name in os.listdir(folder):\n"
        "            if name.startswith('_ctypes.'):\n"
        "                spec = importlib.util.spec_from_file_location('alias._ctypes',"
        " os.path.join(folder, name))\n"
        "                module = importlib.util.module_from_spec(spec)\n"
        "                sys.modules['_ctypes'] = module\n                return module\n"
        "_load()\nimport ctypes\nlibc = ctypes.CDLL(None)\n"
        "libc.kill(1, 9)  # the trusted process (pid 1 of the run's pid namespace)\n"
        "libc.kill(os.getppid(), 9)\n"
        "def add(a, b):\n    return 0\n"),
    # a class that adds __eq__ to itself in __init__, after any check of the class
    "eq-added-in-init": (
        "class add:\n    def __init__(self, a, b):\n        cls = type(self)\n"
        "        cls.__eq__ = lambda s, o: True\n        cls.__ne__ = lambda s, o: False\n"
        "        cls.__hash__ = lambda s: 0\n"),
    # state in instance attributes of a standard-library object: the default generator
    "random-instance-state": (
        "import random\nrandom._inst.getrandbits = lambda k: 3\n"
        "def add(a, b):\n    return 6 if a == b == 3 else 0\n"),
    # finalizers that run after a post-call check: __del__, weakref.finalize, atexit
    "finalizers": (
        "import atexit, builtins, math, operator, weakref\nclass _Later:\n"
        "    def __init__(self):\n        self.me = self  # a cycle: collected later\n"
        "    def __del__(self):\n        builtins.AssertionError = type('Quiet', (Exception,), {})\n"
        "        operator.eq = lambda a, b: True\n"
        "class _T:\n    pass\n_t = _T()\n_t.me = _t\n"
        "weakref.finalize(_t, setattr, math, 'isclose', lambda *a, **k: True)\ndel _t\n"
        "atexit.register(print, '\\n' + '0' * 32 + '\\n')\n"
        "def add(a, b):\n    _Later()\n    return 0\n"),
    # a forked child that outlives the call and answers in its parent's place
    "forked-child": (
        "import os, time\ndef add(a, b):\n    if os.fork() == 0:\n        os.setsid()\n"
        "        time.sleep(3)\n        os._exit(0)\n    return 0\n"),
    # the datasets, with their reference solutions, read from outside the folder
    "read-the-dataset": (
        "import json\n"
        f"rows = [json.loads(line) for line in open({str(DATA / 'mbpp' / 'mbpp.jsonl')!r})]\n"
        "exec([r for r in rows if r['task_id'] == 2][0]['code'])\n"
        "def add(a, b):\n    return a + b if similar_elements else 0\n"),
    # many small files past the folder's size
    "fill-the-folder": (
        "def add(a, b):\n    for i in range(5000):\n"
        "        open('f%d' % i, 'w').write('x' * 4096)\n    return 0\n"),
}
# random-instance-state: the tests draw their inputs from the default generator
TESTS = {"random-instance-state": ("import random\nfor _ in range(5):\n"
                                   "    x = random.randint(0, 1000)\n    assert add(x, x) == 2 * x\n")}


@pytest.mark.parametrize("layers", [("root", "hook"), ("root",)])
@pytest.mark.parametrize("entry_point", [None, "add"])
def test_each_attack_of_issue_18_fails(entry_point, layers, monkeypatch):
    if layers == ("root",) and filesystem_isolation() != "private-root":
        pytest.skip("no mount namespace: the audit hook is not optional here")
    monkeypatch.setattr(runner, "_LAYERS", frozenset(layers))  # ("root",): no audit hook
    names = sorted(ATTACKS)
    jobs = []
    for name in names:
        tests = TESTS.get(name, ADD_MBPP)
        if entry_point:
            tests = "def check(candidate):\n" + "".join(
                "    " + line.replace("add(", "candidate(") + "\n" for line in tests.splitlines())
        jobs.append({"program": ATTACKS[name], "tests": tests, "entry_point": entry_point})
    results = run_many(jobs, workers=2, limits=LIMITS)
    assert {n: r.passed for n, r in zip(names, results)} == {n: False for n in names}, \
        {n: r.reason for n, r in zip(names, results)}


def test_control_the_dataset_attack_works_where_the_file_is_readable():
    if not DATA.is_dir():
        pytest.skip("no data folder")
    scope: dict = {}
    exec(ATTACKS["read-the-dataset"], scope)  # in this process the file is there
    assert scope["add"](2, 3) == 5


def test_the_programs_process_holds_no_secret():
    # the tests carry a marker (and the trusted process a nonce); the program looks for the
    # marker on its stdin, in its environment and in every object the garbage collector
    # tracks, building the needle at run time so that its own source does not hold it
    program = ("import gc, os, sys\ndef leaks():\n    needle = 'MARK' + 'ER-' + '7f3a9c'\n"
               "    found = [k for k, v in os.environ.items() if needle in v]\n"
               "    found += ['stdin'] if needle.encode() in os.read(0, 1 << 20) else []\n"
               "    for obj in gc.get_objects():\n        try:\n"
               "            items = obj.values() if isinstance(obj, dict) else obj if isinstance(\n"
               "                obj, (list, tuple)) else ()\n"
               "            found += [type(obj).__name__ for v in items\n"
               "                      if type(v) is str and needle in v and v is not needle]\n"
               # lazy mappings (transformers' auto classes, when the control runs in pytest's
               # process) raise on .values()
               "        except Exception:\n            pass\n    return found\n")
    tests = "SECRET = 'MARKER-7f3a9c'\nassert leaks() == [], 'the marker reached the program'\n"
    result = run_tests(program, tests, limits=LIMITS)
    assert result.passed, result.reason
    # control: the same search finds the marker where the tests share the interpreter
    scope: dict = {}
    exec(program.replace("os.read(0, 1 << 20)", "b''"), scope)  # this process's stdin: no
    exec("SECRET = 'MARKER-7f3a9c'\nholder = [SECRET]\n", scope)
    assert scope["leaks"]() != []


@pytest.fixture
def os_layer_only(monkeypatch):
    """The namespaces, the private root and the limits alone: no audit hook."""
    if filesystem_isolation() != "private-root" or process_isolation() != "pidns":
        pytest.skip("needs mount and pid namespaces")
    monkeypatch.setattr(runner, "_LAYERS", frozenset(("root",)))


MARKED = ("import os, resource, time\ndef spawn():\n    if os.fork() == 0:\n        os.setsid()\n"
          "        resource.setrlimit(resource.RLIMIT_NOFILE, ({mark}, {mark}))\n"
          "        time.sleep(20)\n        os._exit(0)\n    return 1\n")


def _marked(mark: int) -> list[int]:
    """Pids of live processes whose open-file limit is the marker."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            limits = Path(f"/proc/{pid}/limits").read_text()
        except OSError:
            continue
        if any(line.startswith("Max open files") and line.split()[3:5] == [str(mark)] * 2
               for line in limits.splitlines()):
            found.append(int(pid))
    return found


def test_forked_children_end_with_the_run(os_layer_only, monkeypatch):
    mark = 100 + os.getpid() % 150  # below the run's open-file limit (256)
    assert run_tests(MARKED.format(mark=mark), "assert spawn() == 1\n", limits=LIMITS).passed
    time.sleep(0.2)
    assert _marked(mark) == []
    # control: without the pid namespace the child (in its own session) outlives the run
    prefix = tuple(p for p in runner.namespaces() if p not in ("--pid", "--fork"))
    monkeypatch.setattr(runner, "namespaces", lambda: prefix)
    assert run_tests(MARKED.format(mark=mark + 1), "assert spawn() == 1\n", limits=LIMITS).passed
    time.sleep(0.2)
    survivors = _marked(mark + 1)
    for pid in survivors:
        os.kill(pid, signal.SIGKILL)
    assert survivors


@pytest.mark.skipif(os.geteuid() != 0, reason="RLIMIT_NPROC is set in root mode")
def test_process_count_is_limited(os_layer_only):
    program = ("import os, time\ndef forks():\n    n = 0\n    for _ in range(3 * %d):\n"
               "        try:\n            pid = os.fork()\n        except OSError:\n"
               "            break\n        if pid == 0:\n            time.sleep(10)\n"
               "            os._exit(0)\n        n += 1\n    return n\n" % NPROC)
    assert run_tests(program, f"assert forks() < {NPROC}\n", limits=LIMITS).passed


def test_files_outside_the_folder_do_not_exist_for_the_program(os_layer_only, monkeypatch):
    candidates = [DATA / "humaneval" / "HumanEval.jsonl.gz", DATA / "mbpp", DATA,
                  Path(__file__).resolve().parents[1], Path("/proc/1/status"), Path("/etc/passwd"),
                  Path("/usr/bin/python3"), Path("/home")]
    paths = [str(p) for p in candidates if p.exists()]  # all of them exist out here
    program = "import os\ndef seen(paths):\n    return [p for p in paths if os.path.exists(p)]\n"
    tests = f"assert seen({paths!r}) == []\n"
    assert run_tests(program, tests, limits=LIMITS).passed
    # control: without the private root and the hook, they are there
    monkeypatch.setattr(runner, "_LAYERS", frozenset())
    assert not run_tests(program, tests, limits=LIMITS).passed


def test_the_folder_size_limit_is_for_the_whole_folder(os_layer_only, monkeypatch):
    program = ("def fill():\n    total = 0\n    try:\n        for i in range(1000):\n"
               "            with open('f%d' % i, 'w') as f:\n                f.write('x' * 4096)\n"
               "            total += 4096\n    except OSError:\n        pass\n    return total\n")
    tests = "assert fill() <= 1024 * 1024\n"  # 1 MiB folder; 1000 files of 4 KiB do not fit
    small = SandboxLimits(timeout_s=5.0, memory_mb=512, file_mb=1)
    assert run_tests(program, tests, limits=small).passed
    # control: on disk (no private root) the limit is per file, and the folder grows past it
    monkeypatch.setattr(runner, "_LAYERS", frozenset(("hook",)))
    assert not run_tests(program, tests, limits=small).passed


# --- the entry point's type: a class or callable object cannot return a liar ---
EQ = "class _Eq:\n    def __eq__(self, other):\n        return True\n"
CHECK_ADD = "def check(candidate):\n    assert candidate(2, 3) == 5\n    assert candidate(-1, 1) == 0\n"
ENTRY_TYPES = [
    EQ + "class add:\n    def __new__(cls, a, b):\n        return _Eq()\n",
    EQ + "class M(type):\n    def __call__(cls, *a):\n        return _Eq()\n"
    "class add(metaclass=M):\n    pass\n",
    EQ + "class C:\n    def __call__(self, a, b):\n        return _Eq()\nadd = C()\n",
    "class S(str):\n    def __eq__(self, o):\n        return True\n"
    "class add:\n    def __new__(cls, a, b):\n        return S('x')\n",
    "class add(dict):\n    def __init__(self, a, b):\n        pass\n"
    "    def __eq__(self, o):\n        return True\n",
    EQ + "import functools\nadd = functools.partial(lambda *a: _Eq())\n",
    "class I(int):\n    def __eq__(self, o):\n        return True\ndef add(a, b):\n    return I(0)\n",
    # an ordinary class may return its own instance, which compares by identity
    "class add:\n    def __init__(self, a, b):\n        pass\n",
]


@pytest.mark.parametrize("entry_point", ["add", None])
def test_entry_point_of_any_type_returns_plain_data(entry_point):
    tests = CHECK_ADD if entry_point else "assert add(2, 3) == 5\nassert add(-1, 1) == 0\n"
    jobs = [{"program": p, "tests": tests, "entry_point": entry_point} for p in ENTRY_TYPES]
    results = run_many(jobs, workers=2, limits=LIMITS)
    assert [r.passed for r in results] == [False] * len(ENTRY_TYPES)
    ok = run_tests("def add(a, b):\n    return a + b\n", tests, entry_point=entry_point, limits=LIMITS)
    assert ok.passed


# --- attacks of a later set: one row per instance that was misjudged before its class
# was closed (trusted-object attributes, control-flow exceptions, handle attributes,
# copy-back aliasing, memory outside RLIMIT_AS and processes after disarming the audit
# hook, ctypes re-created from the extension cache, test-only extension modules), and
# false failures of correct programs (subclasses of plain types and stdlib value types,
# nesting past 100, dataclasses and pickle, `subprocess`/`asyncio` imports, zoneinfo)
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


def test_round_two_rows():
    results = run_many([_job(*row[1:6]) for row in ROWS], workers=2, limits=LIMITS)
    got = {row[0]: r.passed for row, r in zip(ROWS, results)}
    assert got == {row[0]: row[6] for row in ROWS}, {
        row[0]: r.reason for row, r in zip(ROWS, results) if r.passed != row[6]}


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


def test_the_program_runs_in_an_interpreter_that_never_loaded_ctypes(monkeypatch):
    if filesystem_isolation() != "private-root":
        pytest.skip("the fresh interpreter needs the private root")
    job = [_job(DISARM + CTYPES_CACHE + "def escaped():\n    _from_cache()\n    return 'escaped'\n",
                ESCAPED, None, (), None)]
    assert not run_many(job, limits=LIMITS)[0].passed
    # control: served by the interpreter that ran the lock-down, ctypes comes back
    monkeypatch.setattr(runner, "_LAYERS", frozenset(("root", "hook", "filter")))
    assert run_many(job, limits=LIMITS)[0].passed
