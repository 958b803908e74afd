"""Run untrusted Python (model-generated code) against tests, outside the main process.

Each program runs in a fresh `python -I -S -B` subprocess driven by a small harness
(`HARNESS`, below) that reads the program, the tests and a random nonce from its stdin:

* Process: its own session and process group (`start_new_session`); the whole group is
  killed with SIGKILL when the run ends, whatever happened. A wall-clock timeout
  (`timeout_s`) ends hanging programs; one hanging program costs its timeout only.
* Limits (set by the harness with `resource.setrlimit` before the program runs): address
  space (`memory_mb`), CPU seconds (`cpu_s`, default ceil(timeout_s) + 1), size of files
  written (`file_mb`), no core files.
* Files: a fresh temporary directory as working directory and HOME, deleted afterwards;
  stdout and stderr go to files in a second directory the program cannot open. When
  rlvr runs as root, the harness drops to the `nobody` user before the program runs
  (if `nobody` cannot read the standard library, the modules in `PRELOAD` are imported
  first and are the only ones a program can import besides those the harness uses).
* Network: when `unshare` can create a network namespace on this machine, the process
  starts in a new one (no interfaces but a down loopback) - `network_isolation()` says
  "netns" (root) or "userns+netns" (unprivileged user namespace). In every case the
  harness also installs a Python audit hook before the program runs that blocks socket
  creation and name lookups ("socket-block" is the only protection when no namespace
  can be made), as well as fork/exec/subprocess, signals to other processes, ctypes,
  /proc, frame and garbage-collector introspection, tracing, and code-object forging.
* Verdict: the harness prints the nonce only after every test passed, and the parent
  checks for it; exit codes are ignored, so `sys.exit(0)` or `os._exit(0)` before the
  tests fail. The tests are compiled before the program runs and execute in their own
  namespace with a copy of the builtins taken before the program ran; standard modules
  the tests use (math, re, collections, ...) are checked for monkeypatching; and every
  function the program defines returns through a guard that only lets plain data
  through (int, float, str, bool, None, bytes, complex and lists, tuples, sets, dicts,
  deques, Counters, OrderedDicts and defaultdicts of them, exact types only), so an
  object whose `__eq__` always returns True fails.

Threat model: this stops programs that game the reward by accident or by the usual
tricks and bounds the damage of harmful ones; it is not a hardened jail (a CPython
memory-corruption bug could break out of the Python-level checks, but not out of the
OS-level limits, the namespace or the unprivileged user).
"""

from __future__ import annotations

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


@functools.lru_cache(maxsize=1)
def network_isolation() -> str:
    """How sandboxed runs are cut off from the network on this machine.

    Returns "netns" (root: `unshare --net`), "userns+netns" (unprivileged user and
    network namespaces) or "socket-block" (no namespace possible; the harness's audit
    hook, which is active in every mode, is then the only barrier). Probed once.
    """
    unshare = shutil.which("unshare")
    if unshare:
        root = os.geteuid() == 0
        probe = [unshare, "--net", "true"] if root else [unshare, "--user", "--map-root-user",
                                                         "--net", "true"]
        try:
            ok = subprocess.run(probe, capture_output=True, timeout=10).returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            ok = False
        if ok:
            return "netns" if root else "userns+netns"
    return "socket-block"


def _command() -> list[str]:
    python = [sys.executable, "-I", "-S", "-B", "-c", HARNESS]
    mode = network_isolation()
    if mode == "netns":
        return [shutil.which("unshare") or "unshare", "--net", "--", *python]
    if mode == "userns+netns":
        return [shutil.which("unshare") or "unshare", "--user", "--map-root-user", "--net", "--",
                *python]
    return python


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
              limits: SandboxLimits = SandboxLimits()) -> SandboxResult:
    """Run `program`, then `tests` against it, in a sandboxed subprocess.

    Args:
        program: Python source from the model (plus any prompt it completes).
        tests: test source; it runs after the program in its own namespace that holds
            the program's names (functions guarded, see the module docstring).
        entry_point: when given, the tests must define `check(candidate)` and the harness
            calls `check(<entry_point>)` (the HumanEval convention). Without it, the
            tests are plain statements such as MBPP's asserts.
        limits: see `SandboxLimits`.
    Returns:
        a `SandboxResult`; `passed` is True only if every test passed within the limits.
    """
    nonce = secrets.token_hex(16)
    work = Path(tempfile.mkdtemp(prefix="rlvr-sandbox-"))
    private = Path(tempfile.mkdtemp(prefix="rlvr-sandbox-out-"))
    drop_to = None
    if os.geteuid() == 0:
        drop_to = _nobody()
        os.chown(work, *drop_to)
    payload = json.dumps({
        "nonce": nonce, "program": program, "tests": tests, "entry_point": entry_point,
        "memory_mb": int(limits.memory_mb), "file_mb": int(limits.file_mb),
        "cpu_s": int(limits.cpu_s or math.ceil(limits.timeout_s) + 1), "drop_to": drop_to,
        "preload": list(PRELOAD) if drop_to and not _stdlib_readable_by_others() else [],
    }).encode("utf-8")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(work), "TMPDIR": str(work), "LANG": "C.UTF-8"}
    out_path, err_path = private / "stdout", private / "stderr"
    start = time.monotonic()
    status = "failed"
    try:
        with out_path.open("wb") as out, err_path.open("wb") as err:
            try:
                proc = subprocess.Popen(_command(), stdin=subprocess.PIPE, stdout=out, stderr=err,
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
        jobs: dicts with `program`, `tests` and optional `entry_point`.
        workers: parallel subprocesses (threads each waiting on one); default: the
            number of CPUs. A hanging job occupies one worker for its timeout.
        limits: applied to every job.
    """
    if not jobs:
        return []
    workers = max(1, min(workers or os.cpu_count() or 1, len(jobs)))

    def one(job: dict) -> SandboxResult:
        return run_tests(job["program"], job["tests"], entry_point=job.get("entry_point"),
                         limits=limits)

    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(one, jobs))
