"""The escape watch of the red-team rounds' code cases: listeners and canary files that
record whatever a sandboxed program manages to reach outside its sandbox.

A code case may hold placeholders (`PLACEHOLDERS`: a marker file, a TCP or UDP port, an
abstract socket, a harness folder); `EscapeWatch` fills them in, runs beside the grading
and reports what reached it. `redteam_runner.grade_round` uses it for rounds that need it
(`needs_watch`).
"""

from __future__ import annotations

import os
import selectors
import socket
import tempfile
import threading
import time

PLACEHOLDERS = ("@MARK@", "@PORT@", "@UPORT@", "@ABSTRACT@", "@HARNESS@")


class _Listeners:
    """TCP, UDP and abstract AF_UNIX listeners that record whatever reaches them."""

    def __init__(self) -> None:
        self.events: list[tuple[str, bytes]] = []
        self.tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.tcp.bind(("127.0.0.1", 0))
        self.tcp.listen(16)
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", 0))
        self.abstract = "redteam-code-" + os.urandom(6).hex()
        self.unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.unix.bind("\0" + self.abstract)
        self.unix.listen(16)
        self.sel = selectors.DefaultSelector()
        for s in (self.tcp, self.udp, self.unix):
            s.setblocking(False)
            self.sel.register(s, selectors.EVENT_READ)
        self._stop = threading.Event()
        threading.Thread(target=self._loop, daemon=True).start()

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                ready = self.sel.select(timeout=0.5)
            except (OSError, ValueError):  # closed by `close`
                return
            for key, _ in ready:
                s = key.fileobj
                try:
                    if s is self.udp:
                        data, _addr = s.recvfrom(4096)
                        self.events.append(("udp", data[:40]))
                    else:
                        conn, _ = s.accept()
                        conn.settimeout(0.5)
                        try:
                            data = conn.recv(4096)
                        except OSError:
                            data = b""
                        conn.close()
                        self.events.append(("tcp" if s is self.tcp else "unix", data[:40]))
                except OSError:
                    pass

    def close(self) -> None:
        """Stop listening and close the three sockets. Raises nothing."""
        self._stop.set()
        for s in (self.tcp, self.udp, self.unix):
            self.sel.unregister(s)
            s.close()


def _leftover_processes(harness: str, tokens=("987.654", "987.655")) -> list[str]:
    """Processes (not this one) running this process's harness file or carrying a token."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        if harness in cmd or any(t in cmd for t in tokens):
            found.append(f"{pid}: {cmd[:120]}")
    return found


class EscapeWatch:
    """Watches the sandbox while code cases run: a program that wrote outside its sandbox
    (marker files in a fresh temp folder of this machine that the programs try to create,
    and the trusted harness file's mtime), reached the network (a TCP and a UDP listener on
    127.0.0.1 and an abstract AF_UNIX listener that the programs try to reach), or outlived
    its call (processes still alive a second after the call returned that run this
    process's harness file or carry a token the programs use; they are killed; marker
    files written late by a lingering thread or child, checked again at the end).

    Use as a context manager; `fill` a completion's `PLACEHOLDERS` before grading it, and
    call `check` after. Raises OSError when a listener cannot be opened.
    """

    def __enter__(self) -> "EscapeWatch":
        from rlvr.sandbox.runner import _compiled

        self.started = time.monotonic()
        self.harness = _compiled()
        self.harness_stat = os.stat(self.harness).st_mtime_ns
        self.harness_hash = _sha256(self.harness)
        self.mark = tempfile.mkdtemp(prefix="redteam-code-mark-")
        os.chmod(self.mark, 0o777)  # a program under another user id could write here
        self.net = _Listeners()
        self.fills = {"@MARK@": self.mark, "@PORT@": str(self.net.tcp.getsockname()[1]),
                      "@UPORT@": str(self.net.udp.getsockname()[1]),
                      "@ABSTRACT@": self.net.abstract, "@HARNESS@": self.harness}
        self._files: set[str] = set()
        self._events = 0
        return self

    def fill(self, completion: str) -> str:
        """The completion with its placeholders filled in (this watch's paths and ports).

        Args:
            completion: a code case's completion. Returns: the filled text. Raises nothing.
        """
        for key, value in self.fills.items():
            completion = completion.replace(key, value)
        return completion

    def before(self) -> None:
        """Note the marker files and network events seen so far (call before a case)."""
        self._files, self._events = set(os.listdir(self.mark)), len(self.net.events)

    def check(self) -> list[str]:
        """What the case graded since `before` did outside its sandbox.

        Returns:
            Notes ("wrote outside: [...]", "network: [...]", "outlived the call: [...]",
            "harness file touched"); empty when nothing escaped. Leftover processes are
            killed. Raises nothing.
        """
        time.sleep(0.2)  # let a listener record a late packet
        notes = []
        new_files = sorted(set(os.listdir(self.mark)) - self._files)
        if new_files:
            notes.append(f"wrote outside: {new_files}")
        if self.net.events[self._events:]:
            notes.append(f"network: {self.net.events[self._events:]}")
        procs = _leftover_processes(self.harness)
        if procs:
            time.sleep(1.0)  # the kernel ends a pid namespace's processes asynchronously
            procs = _leftover_processes(self.harness)
            if procs:
                notes.append(f"outlived the call: {procs}")
                for line in procs:  # do not leave them to the next case or the machine
                    try:
                        os.kill(int(line.split(":")[0]), 9)
                    except OSError:
                        pass
        if os.stat(self.harness).st_mtime_ns != self.harness_stat:
            notes.append("harness file touched")
            self.harness_stat = os.stat(self.harness).st_mtime_ns
        return notes

    def finish(self) -> list[str]:
        """The end-of-round lines: late marker files, leftover processes, the harness's
        content, the sandbox's isolation layers and the wall time. Raises nothing."""
        from rlvr.sandbox import filesystem_isolation, network_isolation, process_isolation

        time.sleep(4.0)  # late markers from a lingering thread or child
        late = sorted(os.listdir(self.mark))
        late_procs = _leftover_processes(self.harness)
        changed = _sha256(self.harness) != self.harness_hash
        return [f"end of round: marker files={late} leftover processes={late_procs} "
                f"harness content changed={changed}",
                f"isolation: filesystem={filesystem_isolation()} network={network_isolation()} "
                f"process={process_isolation()} uid={os.geteuid()}",
                f"wall time: {time.monotonic() - self.started:.1f} s"]

    def __exit__(self, *exc) -> None:
        import shutil

        self.net.close()
        shutil.rmtree(self.mark, ignore_errors=True)


def _sha256(path: str) -> str:
    import hashlib

    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def needs_watch(cases: list[tuple]) -> bool:
    """Whether a round's code cases use a placeholder only an `EscapeWatch` fills.

    Args:
        cases: six-field case tuples. Returns: True when one does. Raises nothing.
    """
    return any(c[0] == "code" and isinstance(c[1], str) and any(p in c[1] for p in PLACEHOLDERS)
               for c in cases)
