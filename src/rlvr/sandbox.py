"""Run untrusted Python (model-generated code) against tests, outside the main process.

Each program runs in a fresh `python -I -S -B` subprocess driven by a small harness
(`HARNESS`, the text of `sandbox_harness.py`) that reads the program, the tests, the task's
prompt and a random nonce from its stdin:

* Process: its own session and process group (`start_new_session`); the whole group is
  killed with SIGKILL when the run ends, whatever happened. A wall-clock timeout
  (`timeout_s`) ends hanging programs; one hanging program costs its timeout only.
* Limits (set by the harness with `resource.setrlimit` before the program runs): address
  space (`memory_mb`), CPU seconds (`cpu_s`, default ceil(timeout_s) + 1), size of files
  written (`file_mb`), no core files.
* Network: when `unshare` can create a network namespace on this machine, the process
  starts in a new one (no interfaces but a down loopback) - `network_isolation()` says
  "netns" (root) or "userns+netns" (unprivileged user namespace); otherwise the audit
  hook below, which blocks socket creation and name lookups, is the only barrier
  ("socket-block").
* Files: a fresh temporary directory (the "folder") is working directory, HOME and
  TMPDIR, deleted afterwards; stdout and stderr go to files in a second directory. What
  keeps writes inside the folder, by case (`filesystem_isolation()` tells which applies):
  - "readonly-mounts" (a mount namespace could be made, checked once by a probe run):
    the process starts in a private mount namespace (`unshare --mount`; when rlvr is not
    root, inside a user namespace, `unshare --user --map-root-user`). Before the program
    runs, the harness remounts every mount read-only except a bind mount of the folder
    (itself noexec, nosuid, nodev: nothing written there can be run or loaded as native
    code) and puts an empty read-only tmpfs over /proc. Then, as root, it drops to
    `nobody`; as a user, it enters a child user namespace, after which the program has no
    right to change those mounts. Writes elsewhere fail with EROFS, whatever the path.
  - in every case, the audit hook refuses, outside the folder: opening for writing,
    mkdir, rmdir, remove, rename (both ends), chmod, chown, utime, truncate, xattrs and
    sqlite files; everywhere: chdir, symlink and hard-link creation, fd-based chmod /
    chown / utime, directory fds outside the folder and `..` in `os.open` (so an fd-relative
    path stays inside), and path-like objects for these calls. Paths are resolved (`..`,
    symlinks) before they are compared. `mkfifo` and `mknod` have no audit event.
  - "audit-hook" (no namespace): the hook above, plus, when rlvr runs as root, the
    `nobody` user (world-writable places such as /tmp are then kept only by the hook);
    as a user, the hook and that user's own permissions.
  When rlvr runs as root and `nobody` cannot read the standard library (e.g. a Python
  installed under /root), the modules in `PRELOAD` are imported first and are the only
  ones a program can import besides those the harness and the tests use.
* Other blocks in the hook: fork/exec/subprocess (and `_posixsubprocess`, whose
  `fork_exec` raises no audit event), signals to other processes, ctypes, /proc (after
  resolving symlinks such as /dev/fd), frame and garbage-collector introspection,
  tracing, code-object forging (marshal; imports therefore compile from source, with
  `sys.pycache_prefix` pointing nowhere), setting `__code__` or `__class__` on any object
  and `__defaults__` / `__kwdefaults__` on functions that existed before the program.
  `_imp.create_builtin` / `create_dynamic` (which load modules without an audit event)
  refuse the blocked modules and `_thread`. When the harness does not drop to `nobody`, it
  makes itself non-dumpable, so a process it might start cannot ptrace it or read it.
* Verdict: the harness prints the nonce only after every test passed, and the parent
  checks for it; exit codes are ignored, so `sys.exit(0)` or `os._exit(0)` before the
  tests fail. What the tests read is kept out of the program's reach:
  - the program and the tests run in a worker thread, so the program cannot install a
    signal handler (which would be handed the tests' frames);
  - the task's prompt (`reference`, trusted) runs before the program in its own
    namespace, and the tests see the prompt's definitions (its helpers, imports,
    constants), not those of the response, which may redefine them; the entry point is
    the response's;
  - every module loaded before the program - the harness's, PRELOAD, and every module
    the tests and the prompt import (found with `ast` here and imported first) - is
    snapshotted: module attributes, the attributes of its classes, sys.modules entries,
    copy's dispatch tables; the snapshot is compared by identity after the program,
    after every call from the tests into program code, and after the tests, as are the
    tests' own namespace and builtins (during each call), the prompt's namespace, left
    running threads (counted by a wrapper around `_thread.start_new_thread`, as the
    interpreter's own count lags) and gc callbacks; class-level plain data and a few
    globals the standard library sets lazily (`tempfile.tempdir`, ...) are not compared;
  - the tests get their own copy of the builtins; names the tests use without importing
    that are standard modules (MBPP's `sys`) are the real modules;
  - every function, class or callable object the program defines reaches the tests
    through a guard whose results must be plain data (int, float, str, bool, None,
    bytes, complex and lists, tuples, sets, dicts, deques, Counters, OrderedDicts and
    defaultdicts of them, exact types only), so an object whose `__eq__` always returns
    True fails, and so does a class whose `__new__` returns one. The one exception: a
    class the tests call may return an instance of exactly itself when it is an ordinary
    class (metaclass `type`, no builtin base, no comparison, hash, truth, attribute-hook,
    `__new__`, `__del__` or `__class__` override), as MBPP tests that build the
    solution's objects need; the entry point is always held to plain results.

Threat model: this stops programs that game the reward by accident or by the usual
tricks and bounds the damage of harmful ones; it is not a hardened jail. In "audit-hook"
mode a native extension the program writes and imports escapes the Python-level checks
(in "readonly-mounts" mode the folder is noexec). Not covered:
a CPython memory-corruption bug (it could break out of the Python-level checks, but not
out of the OS-level limits, the namespaces or the unprivileged user); state deeper than
one attribute level inside standard modules (e.g. a cache's contents); methods of
instances the tests build from the program's classes (their results are not checked);
program finalizers that run while test code (not a program call) is running.
"""

from __future__ import annotations

import ast
import concurrent.futures
import functools
import json
import math
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

# The harness source lives in its own file so it reads as Python; it is passed to the child
# interpreter with -c and is never imported into this process.
HARNESS = (Path(__file__).with_name("sandbox_harness.py")).read_text(encoding="utf-8")


@dataclass(frozen=True)
class SandboxLimits:
    """Resource limits of one sandboxed run.

    Attributes:
        timeout_s: wall-clock seconds before the process group is killed.
        cpu_s: CPU seconds (RLIMIT_CPU); None means ceil(timeout_s) + 1.
        memory_mb: address-space limit (RLIMIT_AS), in MiB.
        file_mb: largest file the program may write (RLIMIT_FSIZE), in MiB; also caps
            its stdout and stderr.
        output_chars: characters of stdout/stderr kept in the result (the tail).
    """

    timeout_s: float = 5.0
    cpu_s: int | None = None
    memory_mb: int = 1024
    file_mb: int = 16
    output_chars: int = 2000


@dataclass(frozen=True)
class SandboxResult:
    """The outcome of one run.

    Attributes:
        passed: True only when the harness printed the nonce (all tests passed).
        status: "passed", "failed", "timeout" (killed at the wall-clock limit) or
            "error" (the sandbox itself could not run the program).
        duration_s: wall-clock seconds from start to the end of the process group.
        reason: the harness's note on a failure (untrusted: the program can write the
            same text), or the sandbox error.
        stdout, stderr: the tails of the program's output.
    """

    passed: bool
    status: str
    duration_s: float
    reason: str = ""
    stdout: str = ""
    stderr: str = ""


# Imported before the harness drops to `nobody` when that user cannot read the standard
# library (e.g. a Python installed under /root): programs can import these and no others.
PRELOAD = ("abc", "array", "calendar", "cmath", "collections.abc", "dataclasses", "datetime",
           "decimal", "enum", "fractions", "hashlib", "json", "numbers", "queue", "random",
           "socket", "statistics", "struct", "textwrap", "time", "typing", "unicodedata")


@functools.lru_cache(maxsize=1)
def _stdlib_readable_by_others() -> bool:
    """True when every directory from / down to the standard library is world-searchable."""
    path = Path(os.__file__).resolve().parent
    for part in [path, *path.parents]:
        try:
            if not part.stat().st_mode & 0o001:
                return False
        except OSError:
            return False
    return True


# The file-system layers in force ("mount", "hook"); tests switch one off to check the
# other alone. Not a setting: both are always on in normal use.
_FS_LAYERS = frozenset(("mount", "hook"))


def _probe(*args: str) -> bool:
    try:
        return subprocess.run(list(args), capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@functools.lru_cache(maxsize=1)
def _namespaces() -> tuple[str, ...]:
    """The `unshare` prefix (network and mount namespaces if possible) that works here."""
    unshare = shutil.which("unshare")
    if not unshare:
        return ()
    base = [unshare] if os.geteuid() == 0 else [unshare, "--user", "--map-root-user"]
    for extra in (["--net", "--mount"], ["--net"], ["--mount"]):
        if _probe(*base, *extra, "true"):
            return (*base, *extra, "--")
    return ()


@functools.lru_cache(maxsize=1)
def network_isolation() -> str:
    """How sandboxed runs are cut off from the network on this machine.

    Returns "netns" (root: `unshare --net`), "userns+netns" (unprivileged user and
    network namespaces) or "socket-block" (no namespace possible; the harness's audit
    hook, which is active in every mode, is then the only barrier). Probed once.
    """
    if "--net" not in _namespaces():
        return "socket-block"
    return "netns" if os.geteuid() == 0 else "userns+netns"


@functools.lru_cache(maxsize=1)
def filesystem_isolation() -> str:
    """What keeps a program's writes inside its folder on this machine (see the module doc).

    Returns "readonly-mounts" (a mount namespace with everything read-only but the
    folder, plus the audit hook) or "audit-hook" (the hook, and the permissions of
    `nobody` or of the current user). Probed once, by running one program with the
    mounts locked: if the harness cannot lock them here, every run goes without.
    """
    if "--mount" in _namespaces():
        probe = _run("pass\n", "pass\n", None, None, SandboxLimits(timeout_s=20), lock=True)
        if probe.passed:
            return "readonly-mounts"
    return "audit-hook"


def _analyse(tests: str, reference: str | None) -> tuple[list[str], list[str]]:
    """Modules the tests and the prompt import, and standard-module names the tests use
    without importing them (MBPP's `sys`); both are imported before the program runs."""
    imports, free = set(), set()
    for source, is_test in ((tests, True), (reference or "", False)):
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError):
            continue  # the harness reports it
        bound, loaded = set(), set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                imports.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                imports.add(node.module)
                imports.update(f"{node.module}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.Name):
                (loaded if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        if is_test:
            free |= {n for n in loaded - bound if n in sys.stdlib_module_names}
    return sorted(imports | free), sorted(free)


def _nobody() -> tuple[int, int]:
    try:
        import pwd

        entry = pwd.getpwnam("nobody")
        return entry.pw_uid, entry.pw_gid
    except (ImportError, KeyError):
        return 65534, 65534


def _tail(path: Path, chars: int) -> tuple[bytes, str]:
    data = path.read_bytes() if path.exists() else b""
    return data, data[-4 * chars:].decode("utf-8", "replace")[-chars:]


def run_tests(program: str, tests: str, *, entry_point: str | None = None,
              reference: str | None = None,
              limits: SandboxLimits = SandboxLimits()) -> SandboxResult:
    """Run `program`, then `tests` against it, in a sandboxed subprocess.

    Args:
        program: Python source from the model (plus any prompt it completes).
        tests: test source; it runs after the program in its own namespace that holds
            the program's names (guarded, see the module docstring).
        entry_point: when given, the tests must define `check(candidate)` and the harness
            calls `check(<entry_point>)` (the HumanEval convention). Without it, the
            tests are plain statements such as MBPP's asserts.
        reference: the task's own code that the program completes (HumanEval's prompt,
            made to compile); trusted. It runs first, in its own namespace, and the tests
            see its definitions other than the entry point instead of the program's.
        limits: see `SandboxLimits`.
    Returns:
        a `SandboxResult`; `passed` is True only if every test passed within the limits.
    """
    lock = "mount" in _FS_LAYERS and filesystem_isolation() == "readonly-mounts"
    return _run(program, tests, entry_point, reference, limits, lock=lock)


def _run(program: str, tests: str, entry_point: str | None, reference: str | None,
         limits: SandboxLimits, *, lock: bool) -> SandboxResult:
    nonce = secrets.token_hex(16)
    work = Path(tempfile.mkdtemp(prefix="rlvr-sandbox-")).resolve()
    private = Path(tempfile.mkdtemp(prefix="rlvr-sandbox-out-"))
    drop_to = None
    if os.geteuid() == 0:
        drop_to = _nobody()
        os.chown(work, *drop_to)
    imports, free = _analyse(tests, reference)
    payload = json.dumps({
        "nonce": nonce, "program": program, "tests": tests, "entry_point": entry_point,
        "reference": reference, "imports": imports, "test_modules": free,
        "memory_mb": int(limits.memory_mb), "file_mb": int(limits.file_mb),
        "cpu_s": int(limits.cpu_s or math.ceil(limits.timeout_s) + 1), "drop_to": drop_to,
        "preload": list(PRELOAD) if drop_to and not _stdlib_readable_by_others() else [],
        "work": str(work), "fs_lock": lock, "fs_hook": "hook" in _FS_LAYERS,
    }).encode("utf-8")
    prefix = [part for part in _namespaces() if lock or part != "--mount"]
    if "--net" not in prefix and "--mount" not in prefix:
        prefix = []
    command = [*prefix, sys.executable, "-I", "-S", "-B", "-c", HARNESS]
    env = {"PATH": "/usr/bin:/bin", "HOME": str(work), "TMPDIR": str(work), "LANG": "C.UTF-8"}
    out_path, err_path = private / "stdout", private / "stderr"
    start = time.monotonic()
    status = "failed"
    try:
        with out_path.open("wb") as out, err_path.open("wb") as err:
            try:
                proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=out, stderr=err,
                                        cwd=work, env=env, start_new_session=True, close_fds=True)
            except OSError as exc:
                return SandboxResult(False, "error", time.monotonic() - start,
                                     f"cannot start: {exc}")
            try:
                try:
                    proc.stdin.write(payload)
                    proc.stdin.close()
                except OSError:
                    pass  # the harness died before reading; no nonce, so a failure
                proc.wait(timeout=max(limits.timeout_s - (time.monotonic() - start), 0.001))
            except subprocess.TimeoutExpired:
                status = "timeout"
            finally:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)  # the whole group, before reaping
                except (ProcessLookupError, PermissionError):
                    pass
                proc.wait()
        duration = time.monotonic() - start
        raw, stdout = _tail(out_path, limits.output_chars)
        _, stderr = _tail(err_path, limits.output_chars)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(private, ignore_errors=True)
    passed = status != "timeout" and f"\n{nonce}\n".encode("ascii") in raw
    notes = [line for line in stderr.splitlines() if line.startswith("rlvr-harness: ")]
    reason = notes[-1][len("rlvr-harness: "):] if notes else ""
    if status == "timeout":
        reason = f"wall-clock timeout after {limits.timeout_s:g} s"
    elif not passed and not reason:
        reason = f"no verdict from the harness (exit code {proc.returncode})"
    stdout = stdout.replace(nonce, "<nonce>")
    return SandboxResult(passed, "passed" if passed else status, duration, reason, stdout, stderr)


def run_many(jobs: Sequence[dict], *, workers: int | None = None,
             limits: SandboxLimits = SandboxLimits()) -> list[SandboxResult]:
    """Run several `run_tests` jobs in parallel, keeping their order.

    Args:
        jobs: dicts with `program`, `tests` and optional `entry_point` and `reference`.
        workers: parallel subprocesses (threads each waiting on one); default: the
            number of CPUs. A hanging job occupies one worker for its timeout.
        limits: applied to every job.
    """
    if not jobs:
        return []
    workers = max(1, min(workers or os.cpu_count() or 1, len(jobs)))

    def one(job: dict) -> SandboxResult:
        return run_tests(job["program"], job["tests"], entry_point=job.get("entry_point"),
                         reference=job.get("reference"), limits=limits)

    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(one, jobs))
