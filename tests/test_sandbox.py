"""The sandbox: verdict from the trusted process, limits, isolation, parallel batches.

Every program here runs in a subprocess with a 2-5 s wall-clock limit. The attack rounds
(test_sandbox_attacks.py) and the property tests (test_sandbox_properties.py,
test_sandbox_protocol.py) are apart.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

import rlvr.sandbox.runner as sandbox
from rlvr.sandbox import (SandboxLimits, filesystem_isolation, network_isolation, run_many,
                          run_tests)

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
    # it stays in the program's process: the tests hold a handle, equal only to itself
    result = run_tests(program, "assert add(1, 2) == 3\n", limits=FAST)
    assert not result.passed and result.reason == "tests failed: AssertionError"


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
def test_monkeypatching_changes_only_the_programs_interpreter(program, tests):
    result = run_tests(program, tests, limits=FAST)
    assert not result.passed and result.reason == "tests failed: AssertionError"


def test_program_cannot_replace_humaneval_check():
    # the program defines its own `check`; the test's `check` still runs
    program = "def check(candidate):\n    pass\ndef add(a, b):\n    return 0\n"
    tests = "def check(candidate):\n    assert candidate(1, 2) == 3\n"
    assert not run_tests(program, tests, entry_point="add", limits=FAST).passed
    assert run_tests(ADD, tests, entry_point="add", limits=FAST).passed


@pytest.mark.parametrize("program", [
    "import os\nos.fork()\n",                               # escaping the process group
    "open('/proc/self/mem', 'rb')\n",                       # /proc (absent, and hooked)
    "import socket\nsocket.socket()\n",                     # the network
])
def test_processes_proc_and_network_are_blocked(program):
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


def test_output_tail_kept_and_verdict_elsewhere():
    program = "import sys\nprint('hello from the program')\ndef f():\n    print('in f')\n" \
              "    print('to stderr', file=sys.stderr)\n    return 1\n"
    result = run_tests(program, "assert f() == 1\n", limits=FAST)
    assert result.passed and result.stdout == "hello from the program\nin f\n"
    assert result.stderr == "to stderr\n"  # the nonce is only on the trusted process's stdout


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


# --- what the tests read cannot be changed by the program: each row patched the tests'
# interpreter when it was shared (the old reason kept for reference); now none can pass ---
EQ = "class _Eq:\n    def __eq__(self, other):\n        return True\n"
WHAT_TESTS_READ = [
    # a module function patched while the tests call the program, then left
    ("import math\ndef f(x):\n    math.isclose = lambda *a, **k: True\n    return 0.0\n",
     "import math\nassert math.isclose(f(1), 2.0)\n", "program replaced math.isclose"),
    # patched for one call and restored by the next one
    ("import math\n_keep = math.isclose\ndef f(x):\n"
     "    math.isclose = (lambda *a, **k: True) if x == 1 else _keep\n    return 0.0\n",
     "import math\nassert math.isclose(f(1), 2.0)\nassert f(2) == 0.0\n",
     "program replaced math.isclose"),
    # a module the tests import but the harness does not (found in the tests, preloaded)
    ("import random\nrandom.choice = lambda seq: seq[0]\ndef f(xs):\n    return xs[0]\n",
     "import random\nrandom.seed(1)\nxs = list(range(100))\nassert f(xs) == random.choice(xs)\n",
     "program replaced random.choice"),
    # a method of a standard class, and a module swapped in sys.modules
    ("import random\nrandom.Random.randint = lambda self, a, b: a\ndef f():\n    return 1\n",
     "import random\nassert f() == random.Random(0).randint(1, 10 ** 9)\n",
     "program replaced random.Random.randint"),
    ("import sys, types\nfake = types.ModuleType('math')\nfake.isclose = lambda *a, **k: True\n"
     "sys.modules['math'] = fake\ndef f():\n    return 0.0\n",
     "import math\nassert math.isclose(f(), 2.0)\n", "program replaced sys.modules[math]"),
    # a function the tests pass in leads to their namespace and builtins
    ("def apply(fn, x):\n    fn.__globals__['add'] = lambda a, b: a + b\n    return fn(x)\n"
     "def add(a, b):\n    return 0\n",
     "assert apply(lambda v: v + 1, 2) == 3\nassert add(1, 2) == 3\n",
     "program changed the tests' namespace"),
    ("def apply(fn, x):\n    fn.__builtins__['abs'] = lambda v: 7\n    return fn(x)\n",
     "assert apply(lambda v: v + 1, 2) == 3\nassert abs(-1) == 7\n",
     "program changed the tests' namespace"),
    # ... and to the guard wrappers, whose state cannot be read
    ("def apply(fn, x):\n    fn.__globals__['add'].__kwdefaults__\n    return fn(x)\n"
     "def add(a, b):\n    return a + b\n",
     "assert apply(lambda v: v + 1, 2) == 3\n", "tests failed: PermissionError"),
    # code that would run during the tests: a thread left running, a gc callback
    ("import _thread, builtins, time\ndef patch():\n    time.sleep(0.05)\n"
     "    builtins.abs = lambda x: 0\n_thread.start_new_thread(patch, ())\n"
     "def f(x):\n    return x\n",
     "import time\ntime.sleep(0.3)\nassert abs(f(-5)) == 0\n",
     "program replaced threads or gc.callbacks"),
    ("import gc, builtins\ngc.callbacks.append(lambda *a: setattr(builtins, 'abs', lambda x: 0))\n"
     "def f(x):\n    return x\n",
     "import gc\ngc.collect()\nassert abs(f(-5)) == 0\n", "program replaced threads or gc.callbacks"),
    # a signal handler is handed the frame that runs: here the tests', whose namespace it
    # rewrites (this passed before the program and tests ran in a worker thread)
    (EQ + "import _signal as signal\ndef handler(signum, frame):\n    g = frame.f_globals\n"
     "    if g.get('__name__') == 'rlvr_tests':\n        g['add'] = lambda *a: _Eq()\n"
     "        signal.setitimer(signal.ITIMER_REAL, 0)\n"
     "signal.signal(signal.SIGALRM, handler)\nsignal.setitimer(signal.ITIMER_REAL, 2e-4, 2e-4)\n"
     "def add(a, b):\n    return 0\n",
     "data = sorted(range(300000), key=lambda x: -x)\nassert add(1, 2) == 3\n",
     "program raised ValueError"),
    # swapping the class of a standard object, changing a standard function's defaults
    ("import random\nclass R(random.Random):\n    def randrange(self, *a):\n        return 1\n"
     "random._inst.__class__ = R\ndef f():\n    return 1\n",
     "import random\nassert f() == random.randint(1, 10 ** 9)\n", "program raised PermissionError"),
    ("import re\nre.sub.__defaults__ = (1, 0)\ndef f():\n    return 'baa'\n",
     "import re\nassert f() == re.sub('a', 'b', 'aaa')\n", "program raised PermissionError"),
    # MBPP tests use `sys` without importing it: they get the real module
    ("class _S:\n    getsizeof = staticmethod(lambda x: 0)\nsys = _S()\n"
     "def tuple_size(t):\n    return 0\n",
     "assert tuple_size((1, 2)) == sys.getsizeof((1, 2))\n", "tests failed: AssertionError"),
    # /proc through a symlink (/dev/fd -> /proc/self/fd) or a dotted path; a directory fd
    # outside the folder (os.open relative to it could reach anywhere)
    ("open('/dev/fd/../maps').read()\n", "pass\n", "program raised PermissionError"),
    ("open('/./proc/self/maps').read()\n", "pass\n", "program raised PermissionError"),
    ("import os\nos.open('/', os.O_RDONLY)\n", "pass\n", "program raised PermissionError"),
]


def test_what_the_tests_read_cannot_be_changed():
    jobs = [{"program": p, "tests": t} for p, t, _ in WHAT_TESTS_READ]
    results = run_many(jobs, workers=2, limits=SandboxLimits(timeout_s=5.0, memory_mb=512))
    assert [(r.passed, r.status) for r in results] == [(False, "failed")] * len(results), \
        [r.reason for r in results]


def test_tests_may_build_ordinary_objects_of_the_program():
    program = ("class Pair:\n    def __init__(self, a, b):\n        self.a, self.b = a, b\n"
               "def span(pairs):\n    return max(p.b for p in pairs) - min(p.a for p in pairs)\n")
    assert run_tests(program, "assert span([Pair(1, 2), Pair(5, 9)]) == 8\n", limits=FAST).passed


def test_reference_definitions_are_what_the_tests_see():
    reference = "def helper(s):\n    return s + '!'\n\ndef solve(s):\n    '''stub'''\n"
    program = reference + "\ndef helper(s):\n    return s\n\ndef solve(s):\n    return s\n"
    tests = "def check(candidate):\n    assert candidate(helper('a')) == 'a'\n"
    cheat = run_tests(program, tests, entry_point="solve", reference=reference, limits=FAST)
    assert not cheat.passed and cheat.reason == "tests failed: AssertionError"
    honest = reference + "\ndef solve(s):\n    return s[:-1]\n"
    assert run_tests(honest, tests, entry_point="solve", reference=reference, limits=FAST).passed


# --- the file system: writes stay inside the program's own folder ---
def test_isolation_modes_are_reported():
    assert filesystem_isolation() in ("private-root", "audit-hook")
    assert sandbox.process_isolation() in ("pidns", "process-group")


# Programs that try to change `{t}`, a folder outside their own.
ESCAPES = [
    "open({t!r} + '/new', 'w').write('x')\n",
    "import os\nos.mkdir({t!r} + '/newdir')\n",
    "import os\nos.rename({t!r} + '/victim', {t!r} + '/renamed')\n",
    "import os\nos.remove({t!r} + '/victim')\n",
    "import os\nos.chmod({t!r} + '/victim', 0o600)\n",
    "import os\nos.utime({t!r} + '/victim', (0, 0))\n",
    "open({t!r} + '/victim', 'a').write('more')\n",
    "import os\nos.close(os.open({t!r} + '/new', os.O_CREAT | os.O_WRONLY))\n",
    "import os\nopen('inside', 'w').close()\nos.rename('inside', {t!r} + '/moved')\n",
    "import os\nos.symlink({t!r} + '/victim', 'link')\nopen('link', 'w').write('x')\n",
    "open('../{escape}', 'w').write('x')\n",  # the parent of its own folder
]
INSIDE = ("import os\nopen('a', 'w').write('x')\nos.mkdir('d')\nos.rename('a', 'd/b')\n"
          "os.chmod('d/b', 0o600)\nos.utime('d/b', (0, 0))\nos.remove('d/b')\nos.rmdir('d')\n"
          "assert os.listdir('.') == []\n")


def _victim() -> Path:
    """A folder in /tmp that anyone may write: only the sandbox keeps a program out."""
    folder = Path(tempfile.mkdtemp(prefix="rlvr-victim-", dir="/tmp"))
    folder.chmod(0o777)
    (folder / "victim").write_text("v")
    (folder / "victim").chmod(0o666)
    os.utime(folder / "victim", (1_000_000, 1_000_000))
    return folder


def _state(folder: Path) -> tuple:
    victim = (folder / "victim").stat()
    return sorted(os.listdir(folder)), (folder / "victim").read_text(), victim.st_mode, \
        victim.st_mtime


def _escape_jobs(folder: Path, escape: str) -> list[dict]:
    return [{"program": p.format(t=str(folder), escape=escape), "tests": "pass\n"}
            for p in ESCAPES]


@pytest.mark.parametrize("layers", [("root", "hook"), ("hook",), ("root",)])
def test_writes_outside_the_folder_fail_and_leave_nothing(monkeypatch, layers):
    if "root" in layers and "hook" not in layers and filesystem_isolation() != "private-root":
        pytest.skip("no mount namespace on this machine: the audit hook is the only layer")
    monkeypatch.setattr(sandbox, "_LAYERS", frozenset(layers))
    folder, escape = _victim(), f"rlvr-escape-{os.getpid()}-{len(layers)}"
    try:
        before = _state(folder)
        jobs = _escape_jobs(folder, escape)
        for target in (Path.home(), Path(__file__).resolve().parents[1]):  # $HOME, project
            jobs += [{"program": f"open({str(target / escape)!r}, 'w')\n", "tests": "pass\n"},
                     {"program": f"import os\nos.mkdir({str(target / escape)!r})\n",
                      "tests": "pass\n"}]
        jobs.append({"program": INSIDE, "tests": "pass\n"})
        results = run_many(jobs, workers=2, limits=SandboxLimits(timeout_s=5.0, memory_mb=512))
        assert [r.passed for r in results] == [False] * (len(jobs) - 1) + [True]
        assert all(r.reason.startswith("program raised") for r in results[:-1])
        assert _state(folder) == before
        assert not (Path(tempfile.gettempdir()) / escape).exists()
        assert not (Path.home() / escape).exists()
        assert not (Path(__file__).resolve().parents[1] / escape).exists()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.skipif(os.geteuid() != 0, reason="as a user, the tests above take the non-root path")
def test_without_both_layers_the_program_could_write_there(monkeypatch):
    # the control for the test above: the victim folder really is writable by the sandbox
    monkeypatch.setattr(sandbox, "_LAYERS", frozenset())
    folder = _victim()
    try:
        assert run_tests(ESCAPES[0].format(t=str(folder)), "pass\n", limits=FAST).passed
        assert (folder / "new").read_text() == "x"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# Runs as `nobody` with the system Python, on a copy of the package: the non-root path
# (user + mount namespace, no drop of privileges) for real, not simulated.
NONROOT_DRIVER = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import rlvr.sandbox.runner as sb
out = {"fs": sb.filesystem_isolation(), "runs": []}
for layers, program in json.loads(sys.argv[2]):
    sb._LAYERS = frozenset(layers)
    result = sb.run_tests(program, "pass\n", limits=sb.SandboxLimits(timeout_s=5.0))
    out["runs"].append([result.passed, result.reason])
print(json.dumps(out))
"""
SYSTEM_PYTHON = "/usr/bin/python3"


def _nobody_can_run_python() -> bool:
    if os.geteuid() != 0 or not shutil.which("setpriv") or not Path(SYSTEM_PYTHON).exists():
        return False
    probe = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", SYSTEM_PYTHON, "-c",
             "import sys; assert sys.version_info >= (3, 10)"]
    return subprocess.run(probe, capture_output=True, cwd="/").returncode == 0


@pytest.mark.skipif(not _nobody_can_run_python(),
                    reason="needs root, setpriv and a system Python >= 3.10 that nobody can run")
def test_non_root_path_for_real():
    folder, escape = _victim(), f"rlvr-escape-nonroot-{os.getpid()}"
    readable = Path("/nonexistent")
    try:
        before = _state(folder)
        escapes = [p.format(t=str(folder), escape=escape) for p in ESCAPES]
        memory = ("data = open('/dev/fd/../mem', 'rb')\n",)
        inside = INSIDE + ("import tempfile, shutil\nwith tempfile.TemporaryDirectory() as t:\n"
                           "    open(t + '/x', 'w').write('1')\nos.mkdir('e')\n"
                           "open('e/f', 'w').close()\nshutil.rmtree('e')\n")
        cases = [[layers, p] for layers in (["root", "hook"], ["hook"], ["root"])
                 for p in (*escapes, *memory, inside)]
        # a process (`_posixsubprocess` loads: the system-call filter refuses the fork);
        # a test-only extension module (absent from the private root); native code loaded
        # from the folder (mounted noexec)
        cases += [[["root", "hook"], p] for p in (
            "import subprocess\nsubprocess.run(['/bin/true'])\n",
            "import _imp, importlib.util\n"
            "_imp.create_dynamic(importlib.util.find_spec('_testcapi'))\n",
            "import mmap, os\nfd = os.open('lib.so', os.O_CREAT | os.O_RDWR)\n"
            "os.write(fd, bytes(4096))\nmmap.mmap(fd, 4096, prot=mmap.PROT_READ | mmap.PROT_EXEC)\n")]
        cases.append([[], ESCAPES[0].format(t=str(folder))])  # control: nothing stops it
        # `nobody` must read the module wherever the checkout lives (a fresh clone may sit
        # in a 0700 temporary folder): run copies from a world-readable folder
        readable = Path(tempfile.mkdtemp(prefix="rlvr-sandbox-src-"))
        readable.chmod(0o755)
        package = readable / "rlvr" / "sandbox"  # the package alone, not the rest of rlvr
        shutil.copytree(Path(sandbox.__file__).parent, package,
                        ignore=shutil.ignore_patterns("__pycache__"))
        (readable / "rlvr" / "__init__.py").write_text("")
        for path in [readable, *readable.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        run = subprocess.run(
            ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", SYSTEM_PYTHON, "-I",
             "-B", "-c", NONROOT_DRIVER, str(readable), json.dumps(cases)],
            capture_output=True, text=True, cwd="/", timeout=300,
            env={"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "LANG": "C.UTF-8"})
        assert run.returncode == 0, run.stderr[-2000:]
        out = json.loads(run.stdout)
        assert out["fs"] == "private-root"  # unprivileged user namespaces work here
        per_layer = len(escapes) + len(memory) + 1
        for i, (passed, reason) in enumerate(out["runs"][:-1]):
            # only the `inside` program of each layer passes
            want_pass = i < 3 * per_layer and i % per_layer == per_layer - 1
            assert passed == want_pass, (cases[i], reason)
        assert out["runs"][-1][0] is True
        assert sorted(os.listdir(folder)) == sorted(before[0] + ["new"])  # only the control
        (folder / "new").unlink()
        assert _state(folder) == before
        assert not (Path(tempfile.gettempdir()) / escape).exists()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(readable, ignore_errors=True)


ALARM = ("import signal\n"
         "class Timeout(Exception):\n    pass\n"
         "def _raise(signum, frame):\n    raise Timeout()\n"
         "def slow_or_default(n):\n"
         "    signal.signal(signal.SIGALRM, _raise)\n"
         "    signal.setitimer(signal.ITIMER_REAL, 0.2)\n"
         "    try:\n"
         "        while n < 0:\n            pass\n"
         "        return n\n"
         "    except Timeout:\n        return 'timed out'\n"
         "    finally:\n        signal.setitimer(signal.ITIMER_REAL, 0)\n")


@pytest.mark.parametrize("tests", [
    "assert slow_or_default(3) == 3\n",  # the alarm set and cancelled
    "assert slow_or_default(-1) == 'timed out'\n",  # the alarm fires in the program's loop
])
def test_programs_may_use_signal_timeouts(tests):
    """Honest programs that guard themselves with SIGALRM (signal handlers work only in the
    main thread of a process) run as they would at home."""
    result = run_tests(ALARM, tests, limits=FAST)
    assert result.passed, result.reason


def test_an_alarm_left_set_does_not_pass_a_failing_program():
    # the default SIGALRM action ends the program's process in the middle of the tests
    program = "import signal\ndef add(a, b):\n    signal.alarm(1)\n    while True:\n        pass\n"
    result = run_tests(program, "assert add(1, 2) == 3\n", limits=FAST)
    assert not result.passed


def test_deep_recursion_in_the_main_thread():
    program = ("import sys\nsys.setrecursionlimit(60000)\n"
               "def depth(n):\n    return 0 if n == 0 else 1 + depth(n - 1)\n")
    assert run_tests(program, "assert depth(40000) == 40000\n", limits=FAST).passed
