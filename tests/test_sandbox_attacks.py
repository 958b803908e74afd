"""Red-team attacks on the sandbox (escapes, leaks, resource abuse), one row each, and
the OS-level limits on their own.

Every row is a wrong program that tries to score 1.0 by reaching what the tests compute; in
the two-process design each is impossible by construction, and the row shows it fails. The
OS-level tests switch the audit hook off (`runner._LAYERS`) so that only the namespaces, the
private root and the resource limits stand, and each has a control showing it can fail.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

import rlvr.sandbox.runner as runner
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
