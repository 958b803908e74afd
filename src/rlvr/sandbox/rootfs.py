"""What the private root shows the program: the standard library, the shared libraries its
extension modules load, a few /dev nodes, and its extension modules without the ones no
program may load (see `rlvr.sandbox.runner`'s docstring)."""

from __future__ import annotations

import ast
import atexit
import functools
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


@functools.lru_cache(maxsize=1)
def binds() -> tuple[tuple[str, str], ...]:
    """(source, target) pairs the private root shows, read-only: the standard library
    folders on the harness's sys.path, the shared libraries its extension modules need
    (found with `ldd`, copied once per rlvr process into one private folder per library
    folder, so a run binds a few folders and no other library), a few /dev nodes."""
    out = subprocess.run([sys.executable, "-I", "-S", "-c", "import sys; print(sys.path)"],
                         capture_output=True, text=True, timeout=30).stdout
    paths: list[str] = []
    for path in ast.literal_eval(out.strip() or "[]"):
        if os.path.isdir(path) and not any(path.startswith(p + "/") for p in paths):
            paths.append(path)
    python = os.path.realpath(sys.executable)  # the lock-down execs it in the new root
    shared = [python] + [str(f) for p in paths for f in Path(p).rglob("*.so")
                         if "site-packages" not in f.parts]
    libs: set[str] = set()
    if shutil.which("ldd") and shared:
        listing = subprocess.run(["ldd", *shared], capture_output=True, text=True,
                                 timeout=60).stdout
        libs = {p for p in re.findall(r"(?:=>\s*)?(/\S+)\s+\(0x", listing) if os.path.isfile(p)}
    pairs = [(p, p) for p in paths] + [(python, python)]
    if libs:
        cache = Path(tempfile.mkdtemp(prefix="rlvr-libs-"))
        cache.chmod(0o755)
        atexit.register(shutil.rmtree, cache, True)
        for i, folder in enumerate(sorted({os.path.dirname(p) for p in libs})):
            copy = cache / str(i)
            copy.mkdir(mode=0o755)
            names = [os.path.basename(p) for p in libs if os.path.dirname(p) == folder]
            for name in names:
                shutil.copy(os.path.realpath(os.path.join(folder, name)), copy / name)
            if any(p.startswith(folder + "/") for p in paths):  # libpython beside the stdlib:
                pairs += [(str(copy / n), os.path.join(folder, n)) for n in names]  # files
            else:
                pairs.append((str(copy), folder))
    pairs += _extension_folders(paths) + [(p, p) for p in data_folders()]
    nodes = [f"/dev/{n}" for n in ("null", "zero", "random", "urandom", "full")]
    pairs += [(p, p) for p in nodes if os.path.exists(p)]
    return tuple(pairs)


_HIDDEN_EXTENSIONS = re.compile(r"^(_ctypes|_test|_xx|xx)")


@functools.lru_cache(maxsize=1)
def data_folders() -> tuple[str, ...]:
    """Public data the standard library reads, shown read-only: the time-zone database
    folders of `zoneinfo.TZPATH` that exist (public tables, no file of this machine's own)."""
    import zoneinfo
    return tuple(p for p in zoneinfo.TZPATH if os.path.isdir(p) and not os.path.islink(p))


def _extension_folders(paths: list[str]) -> list[tuple[str, str]]:
    """(copy, folder) pairs that show each folder of extension modules (lib-dynload) without
    the modules no program may load: ctypes and the test-only modules of CPython (`_test*`,
    `xx*`: raw memory and interpreter internals). They are absent from the private root,
    not only refused by the audit hook. (`_posixsubprocess` stays: `subprocess` and
    `asyncio` import it; the system-call filter refuses the processes it would start.)"""
    pairs = []
    for folder in {str(p.parent) for root in paths for p in Path(root).rglob("*.so")
                   if "site-packages" not in p.parts}:
        if any(entry.suffix != ".so" for entry in Path(folder).iterdir()):
            continue  # not a folder of extension modules only: the audit hook alone

        copy = Path(tempfile.mkdtemp(prefix="rlvr-ext-"))
        copy.chmod(0o755)
        atexit.register(shutil.rmtree, copy, True)
        for module in Path(folder).iterdir():
            if module.suffix == ".so" and not _HIDDEN_EXTENSIONS.match(module.name):
                shutil.copy(module, copy / module.name)
                (copy / module.name).chmod(0o755)
        pairs.append((str(copy), folder))
    return pairs
