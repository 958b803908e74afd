"""Run untrusted Python (model-generated code) against tests: the parent side.

Two processes per scoring call, started from one harness script (`HARNESS`: the text of
`codec.py`, `lockdown.py`, `program_side.py` and `trusted_side.py`, compiled once per rlvr
process and run with `python -I -S -B`; `rootfs.py` chooses what the private root shows):

* the **trusted process** runs the task's prompt (`reference`), the tests and the verdict.
  It forks the **program's process** before it reads anything (so that one never holds
  the tests, the prompt's code, the expected values or the verdict nonce), then sends it
  the program. No program code ever runs in the trusted process: each program name the
  tests use is a stub that forwards the call; the program's process returns plain data
  (`codec.py`: exact builtin types, JSON with tags, no pickle) or an opaque handle, and
  the trusted process rebuilds it (`trusted_side.py` states the rules: exceptions,
  in-place argument changes, handles). Whatever the program patches, keeps or runs later
  in its own interpreter (builtins, modules, frames, finalizers, native code) changes
  only the data its functions return.
* Verdict: the trusted process writes a random nonce on its own stdout after every test
  passed; the program's output goes to other files, and the parent looks for the nonce
  only in the trusted one. Exit codes are ignored.

Operating-system limits of the program's process (what each fallback keeps is said below):
* Namespaces (`namespaces()`): the whole run starts under `unshare --pid --fork --net
  --mount` (as a user: inside `--user --map-root-user`). The trusted process is pid 1 of
  the pid namespace: when it ends, the kernel kills every process the program started.
  The network namespace has no interface but a down loopback. Without a pid namespace,
  the parent kills the process group, which a program that calls setsid() leaves (then
  only the audit hook, which refuses fork, keeps processes from outliving the call).
  Without a network namespace, only the audit hook refuses sockets and name lookups.
* Files, "private-root" (`filesystem_isolation()`): the program's process makes its own
  mount namespace whose root is a fresh read-only tmpfs holding only the interpreter's
  standard library (site-packages covered), the shared libraries its extension modules
  load (found with `ldd`; copies of just those files) and /dev/null, zero, random,
  urandom, full, and the time-zone database; its extension-module folder shows copies of
  its modules without ctypes and CPython's test-only modules (`rootfs.py`); its
  working folder (HOME, TMPDIR) is a tmpfs of `file_mb` MiB and 10000 files for the whole
  folder, noexec. The old root is detached (`pivot_root`), so the datasets, the project
  and /proc have no path. Fallback "audit-hook" (no mount namespace): a fresh folder on
  disk, the size limit per file only (RLIMIT_FSIZE), and the audit hook alone keeps
  reads and writes to the folder and the standard library.
* Processes: as root, the program's process drops to a user id of its own (`UID_BASE`
  plus a random number: no name, no files, no other process shares it) with RLIMIT_NPROC
  (`NPROC` processes and threads, counted for that id alone) and no_new_privs; as a
  user, it enters a child user namespace (it cannot change its mounts) and the trusted
  process is made non-dumpable (no ptrace). Limits: address space (`memory_mb`), CPU seconds, file size,
  256 open files, no core files; a wall-clock timeout kills the group.
* System calls (`lockdown._syscall_filter`, seccomp, every mode): no new process (clone
  only for threads), no namespaces, mounts, ptrace or other processes' memory, no
  memfd_create (memory outside RLIMIT_AS), sockets only AF_UNIX, no other ABI. It holds
  when the program disarms the audit hook (whose state is Python objects it can reach).
* A fresh interpreter (private root): the lock-down needs ctypes, and an interpreter that
  loaded it keeps it in its cache of extension modules (a program could re-create it from
  there). So the lock-down ends by exec'ing the interpreter again, the one program file
  the private root holds (execve is the one exec the filter lets through); the program
  runs there, where ctypes was never loaded and has no file to load from.
* The audit hook (a second layer, `program_side._make_hook`): processes, sockets, ctypes
  and the blocked native modules under any name, /proc, and file access outside the
  folder and the standard library. Without namespaces and as root, that user id may be
  unable to read the standard library (a Python under /root): the modules in `PRELOAD`
  are then imported first and are the only ones a program can import.

Threat model: a program may do anything inside its own process, native code included;
the verdict does not depend on that process beyond the plain data it sends. Not covered:
a kernel bug; timing or resource side channels; in the fallbacks, what the fallback text
above says is not kept.
"""

from __future__ import annotations

import ast
import atexit
import concurrent.futures
import functools
import json
import math
import os
import re
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

from rlvr.sandbox.names import crossing_names, kept_names
from rlvr.sandbox.rootfs import binds as _binds, data_folders

_HERE = Path(__file__).resolve().parent
HARNESS = "\n\n".join((_HERE / name).read_text(encoding="utf-8")
                      for name in ("codec.py", "lockdown.py", "program_side.py",
                                   "trusted_side.py"))
PRELOAD = ("abc", "array", "bisect", "calendar", "cmath", "collections.abc", "copy",
           "dataclasses", "datetime", "decimal", "enum", "fractions", "functools", "hashlib",
           "heapq", "itertools", "json", "math", "numbers", "operator", "queue", "random",
           "re", "statistics", "string", "struct", "textwrap", "time", "typing",
           "unicodedata")
NPROC = 32  # processes and threads of one run's user id (root mode only)
UID_BASE = 1_500_000_000  # run user ids: UID_BASE + [0, 2**29), unused by any account
# Layers a test may switch off to check the others alone: "root" (the private root), "hook"
# (the audit hook), "filter" (the system-call filter) and "fresh" (the program in a fresh
# interpreter). Not a setting: all are always on in normal use.
_LAYERS = frozenset(("root", "hook", "filter", "fresh"))


@dataclass(frozen=True)
class SandboxLimits:
    """Resource limits of one sandboxed run.

    Attributes:
        timeout_s: wall-clock seconds before the process group is killed.
        cpu_s: CPU seconds (RLIMIT_CPU) per process; None means ceil(timeout_s) + 1.
        memory_mb: address-space limit (RLIMIT_AS) per process, in MiB.
        file_mb: size of the program's whole folder (private root) or of each file it
            writes (fallback), in MiB; also caps its stdout and stderr.
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
        passed: True only when the trusted process wrote the nonce (all tests passed).
        status: "passed", "failed", "timeout" (killed at the wall-clock limit) or
            "error" (the sandbox itself could not run the program).
        duration_s: wall-clock seconds from start to the end of the process group.
        reason: the trusted process's note on a failure ("tests failed: AssertionError",
            "program raised ValueError", ...) or the sandbox error.
        stdout, stderr: the tails of the program's own output.
    """

    passed: bool
    status: str
    duration_s: float
    reason: str = ""
    stdout: str = ""
    stderr: str = ""


def _probe(*args: str) -> bool:
    try:
        return subprocess.run(list(args), capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@functools.lru_cache(maxsize=1)
def namespaces() -> tuple[str, ...]:
    """The `unshare` prefix that works here (pid, network and mount namespaces if possible);
    empty when none does. Probed once."""
    unshare = shutil.which("unshare")
    if not unshare:
        return ()
    base = [unshare] if os.geteuid() == 0 else [unshare, "--user", "--map-root-user"]
    for extra in (["--pid", "--fork", "--net", "--mount"], ["--pid", "--fork", "--mount"],
                  ["--net", "--mount"], ["--net"], ["--mount"]):
        if _probe(*base, *extra, "true"):
            return (*base, *extra, "--")
    return ()


@functools.lru_cache(maxsize=1)
def network_isolation() -> str:
    """"netns" (root), "userns+netns" (unprivileged namespaces) or "socket-block" (only
    the audit hook refuses sockets and name lookups). Probed once."""
    if "--net" not in namespaces():
        return "socket-block"
    return "netns" if os.geteuid() == 0 else "userns+netns"


@functools.lru_cache(maxsize=1)
def process_isolation() -> str:
    """"pidns" (every process of a run ends with it) or "process-group" (killpg only)."""
    return "pidns" if "--pid" in namespaces() else "process-group"


@functools.lru_cache(maxsize=1)
def filesystem_isolation() -> str:
    """"private-root" or "audit-hook" (see the module doc). Probed once by running one
    program with the private root: if it cannot be built here, every run goes without."""
    if "--mount" in namespaces():
        if _run("pass\n", "pass\n", None, None, (), SandboxLimits(timeout_s=20),
                root=True).passed:
            return "private-root"
    return "audit-hook"


@functools.lru_cache(maxsize=1)
def _compiled() -> str:
    """HARNESS compiled once per rlvr process into a private .pyc (saves compiling ~900
    lines per run); the interpreter runs a .pyc file given as its script."""
    import importlib.util
    import marshal

    folder = Path(tempfile.mkdtemp(prefix="rlvr-harness-"))
    folder.chmod(0o755)  # searchable: as a user, a user namespace still reads it
    atexit.register(shutil.rmtree, folder, True)
    path = folder / "harness.pyc"
    code = compile(HARNESS, "<rlvr-harness>", "exec")
    path.write_bytes(importlib.util.MAGIC_NUMBER + b"\0" * 12 + marshal.dumps(code))
    return str(path)


@functools.lru_cache(maxsize=1)
def _stdlib_readable_by_others() -> bool:
    path = Path(os.__file__).resolve().parent
    return all(p.stat().st_mode & 0o001 for p in [path, *path.parents])


def _run_ids() -> tuple[int, int]:
    """A fresh (uid, gid) for one run, so that its process limit and its files are its own."""
    uid = UID_BASE + secrets.randbelow(1 << 29)
    return uid, uid


def _tail(path: Path, chars: int) -> tuple[bytes, str]:
    data = path.read_bytes() if path.exists() else b""
    return data, data[-4 * chars:].decode("utf-8", "replace")[-chars:]


def run_tests(program: str, tests: str, *, entry_point: str | None = None,
              reference: str | None = None, program_names: Sequence[str] = (),
              program_classes: Sequence[str] | None = None,
              limits: SandboxLimits = SandboxLimits()) -> SandboxResult:
    """Run `program` in its own locked-down process and `tests` against it in a trusted one.

    Args:
        program: Python source from the model (plus any prompt it completes).
        tests: test source, run in the trusted process.
        entry_point: when given, the tests must define `check(candidate)` and the trusted
            process calls `check(<stub of entry_point>)` (HumanEval). Without it, the tests
            are plain statements (MBPP's asserts) and every name they read but do not
            define, other than builtins and standard modules, comes from the program.
        reference: the task's own code the program completes (HumanEval's prompt, made to
            compile); trusted: it runs in the trusted process before the tests, so they see
            its helpers, never the program's versions.
        program_names: names the task's tests take from the program even though they are
            builtins or standard modules (a task whose function is called `sum`).
        program_classes: which of the names the tests take from the program are the task's
            classes (MBPP 367's `Node`): only objects the tests build by calling one of
            them (and objects read from their attributes) forward attribute reads and
            writes. None (a task without reference code): the names the tests use as
            classes (`names.kept_names`: CapWords, or objects linked through attributes
            or changed by method statements); HumanEval's entry point never is one.
        limits: see `SandboxLimits`.
    Returns:
        a `SandboxResult`; `passed` is True only if every test passed within the limits.
    """
    root = "root" in _LAYERS and filesystem_isolation() == "private-root"
    classes = () if entry_point else program_classes
    classes = None if classes is None else list(classes)
    result = _run(program, tests, entry_point, reference, program_names, limits, root=root,
                  classes=classes)
    if result.status == "strict":  # a call changed an argument and returned a value
        result = _run(program, tests, entry_point, reference, program_names, limits,
                      root=root, classes=classes, strict=True)
    return result


def _run(program: str, tests: str, entry_point: str | None, reference: str | None,
         program_names: Sequence[str], limits: SandboxLimits, *, root: bool,
         classes: list[str] | None = None, strict: bool = False) -> SandboxResult:
    """One run of the harness; outcome "strict" asks for a second run with `strict`
    (every in-place change copied back: `trusted_side`'s module doc)."""
    nonce = secrets.token_hex(16)
    harness = _compiled()  # one path for the whole run (the cache may be filled concurrently)
    work = Path(tempfile.mkdtemp(prefix="rlvr-sandbox-")).resolve()
    private = Path(tempfile.mkdtemp(prefix="rlvr-sandbox-out-"))
    drop_to = _run_ids() if os.geteuid() == 0 else None
    if drop_to:
        os.chown(work, *drop_to)
    names, modules = crossing_names(tests, entry_point, program_names)
    if classes is None:
        classes = kept_names(tests, names)
    payload = json.dumps({"nonce": nonce, "program": program, "tests": tests,
                          "entry_point": entry_point, "reference": reference, "names": names,
                          "modules": modules, "classes": classes,
                          "strict": strict}).encode("utf-8", "surrogatepass")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(work), "TMPDIR": str(work), "LANG": "C.UTF-8"}
    files = {name: private / name for name in ("stdout", "stderr", "out", "err")}
    start = time.monotonic()
    status = "failed"
    try:
        with files["stdout"].open("wb") as out, files["stderr"].open("wb") as err, \
                files["out"].open("wb") as p_out, files["err"].open("wb") as p_err:
            config = json.dumps({
                "work": str(work), "memory_mb": int(limits.memory_mb),
                "cpu_s": int(limits.cpu_s or math.ceil(limits.timeout_s) + 1),
                "file_mb": int(limits.file_mb), "nproc": NPROC if drop_to else 0,
                "drop_to": drop_to, "root": root, "python": os.path.realpath(sys.executable),
                "harness": harness, "binds": [*_binds(), (harness, harness)] if root else [],
                "hook": "hook" in _LAYERS, "filter": "filter" in _LAYERS, "fresh": "fresh" in _LAYERS,
                "out": p_out.fileno(), "err": p_err.fileno(),
                "data": list(data_folders()),
                "preload": list(PRELOAD) if drop_to and not root and
                not _stdlib_readable_by_others() else []})
            command = [*namespaces(), sys.executable, "-I", "-S", "-B", harness, config]
            try:
                proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=out, stderr=err,
                                        cwd=work, env=env, start_new_session=True,
                                        pass_fds=(p_out.fileno(), p_err.fileno()))
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
        verdict, _ = _tail(files["stdout"], limits.output_chars)
        _, notes = _tail(files["stderr"], limits.output_chars)
        _, stdout = _tail(files["out"], limits.output_chars)
        _, stderr = _tail(files["err"], limits.output_chars)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(private, ignore_errors=True)
    passed = status != "timeout" and f"\n{nonce}\n".encode("ascii") in verdict
    if passed and f"\n{nonce}-strict\n".encode("ascii") in verdict:
        return SandboxResult(False, "strict", duration, "", stdout, stderr)
    lines = [line for line in notes.splitlines() if line.startswith("rlvr-harness: ")]
    reason = lines[-1][len("rlvr-harness: "):] if lines else ""
    if status == "timeout":
        reason = f"wall-clock timeout after {limits.timeout_s:g} s"
    elif not passed and not reason:
        reason = f"no verdict from the harness (exit code {proc.returncode})"
    return SandboxResult(passed, "passed" if passed else status, duration, reason, stdout, stderr)


def run_many(jobs: Sequence[dict], *, workers: int | None = None,
             limits: SandboxLimits = SandboxLimits()) -> list[SandboxResult]:
    """Run several `run_tests` jobs in parallel, keeping their order.

    Args:
        jobs: dicts with `program`, `tests` and optional `entry_point`, `reference`,
            `program_names` and `program_classes`.
        workers: parallel runs (threads each waiting on one); default: the number of
            CPUs. A hanging job occupies one worker for its timeout.
        limits: applied to every job.
    """
    if not jobs:
        return []
    workers = max(1, min(workers or os.cpu_count() or 1, len(jobs)))
    filesystem_isolation()  # probe once, before the workers would each probe at once

    def one(job: dict) -> SandboxResult:
        return run_tests(job["program"], job["tests"], entry_point=job.get("entry_point"),
                         reference=job.get("reference"),
                         program_names=job.get("program_names") or (),
                         program_classes=job.get("program_classes"), limits=limits)

    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(one, jobs))
