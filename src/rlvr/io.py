"""Small I/O helpers: JSONL reading with line numbers, atomic writes, and the one bounded
network probe (is the Hugging Face Hub reachable?) that data and model checks share."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Iterable, Iterator

from rlvr.errors import ConfigError, DataError

TRUE_VALUES = {"1", "ON", "YES", "TRUE"}  # huggingface_hub's ENV_VARS_TRUE_VALUES


def iter_jsonl(path: str | Path, tolerant: bool = False) -> Iterator[tuple[int, Any]]:
    """Yield `(line_number, parsed_object)` for each non-blank line of a JSONL file.

    Args:
        tolerant: when True, an unparsable line yields a `DataError` object in place of
            the parsed object (so callers can count and skip it) instead of raising.
    Raises:
        DataError: the file is missing, or (unless tolerant) a line is not UTF-8 or not
            valid JSON; the message names the file and line.
    """
    path = Path(path)
    if not path.is_file():
        raise DataError("is a folder, not a JSONL file; name a file inside it" if path.is_dir()
                        else "file not found; check the path", str(path))
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                error = DataError(f"not UTF-8 text (byte {exc.start + 1} of the line); save "
                                  "the file as UTF-8", str(path), number)
                if not tolerant:
                    raise error from None
                yield number, error
                continue
            if not line.strip():
                continue
            try:
                yield number, json.loads(line)
            except (json.JSONDecodeError, RecursionError) as exc:
                reason = (f"{exc.msg} at column {exc.colno}" if isinstance(exc, json.JSONDecodeError)
                          else "nested too deeply")
                error = DataError(f"invalid JSON ({reason}); each line must be one JSON object",
                                  str(path), number)
                if not tolerant:
                    raise error from None
                yield number, error


def umask_mode(directory: bool = False) -> int:
    """The permission bits a plain `open()`/`mkdir()` would give under the current umask
    (mkstemp/mkdtemp create 0600/0700 entries; atomic writes reset them to this)."""
    mask = os.umask(0)
    os.umask(mask)
    return (0o777 if directory else 0o666) & ~mask


def write_folder(target: str | Path, fill) -> Path:
    """Write a folder atomically: `fill(tmp)` writes the files into a temporary sibling
    folder, which then replaces `target` (an older `target` is removed first), so readers
    never see a half-written folder. Returns `target`; a failing `fill` leaves `target`
    as it was and removes the temporary folder."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        fill(tmp)
        os.chmod(tmp, umask_mode(directory=True))
        if target.exists():
            shutil.rmtree(target)
        os.replace(tmp, target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return target


def _atomic_write(path: Path, write, binary: bool = False) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with (os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8")) as handle:
            write(handle)
        os.chmod(tmp, umask_mode())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


def write_jsonl(path: str | Path, rows: Iterable[dict[str, Any]]) -> Path:
    """Write rows as JSONL atomically (temp file in the same folder, then rename)."""
    def write(handle):
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    return _atomic_write(Path(path), write)


def write_json(path: str | Path, obj: Any) -> Path:
    """Write `obj` as indented JSON atomically."""
    return _atomic_write(Path(path), lambda h: (json.dump(obj, h, indent=2, ensure_ascii=False),
                                                h.write("\n")))


def write_text(path: str | Path, text: str) -> Path:
    """Write text atomically."""
    return _atomic_write(Path(path), lambda h: h.write(text))


def write_bytes(path: str | Path, data: bytes) -> Path:
    """Write bytes atomically (for images and other binary outputs)."""
    return _atomic_write(Path(path), lambda h: h.write(data), binary=True)


def read_jsonl(path: str | Path) -> list[Any]:
    """Return all objects of a JSONL file (see `iter_jsonl` for errors)."""
    return [obj for _, obj in iter_jsonl(path)]


def hf_home() -> Path:
    """`$HF_HOME`, default `$XDG_CACHE_HOME/huggingface` (~/.cache/huggingface)."""
    default = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "huggingface"
    return Path(os.environ.get("HF_HOME", default)).expanduser()


def endpoint_unreachable(timeout_s: float = 3.0) -> str | None:
    """Send one HEAD request to the hub endpoint's root; return None when it answers
    within `timeout_s` with a success, a redirect, 401, 403 or 405, else the reason (one
    line). Never waits longer than `timeout_s`: the request runs in a daemon thread that
    is abandoned at the deadline."""
    endpoint = os.environ.get("HF_ENDPOINT", "https://huggingface.co").rstrip("/")
    outcome: dict[str, str | None] = {}

    def probe() -> None:
        try:
            urllib.request.urlopen(urllib.request.Request(endpoint, method="HEAD"),
                                   timeout=timeout_s).close()
            outcome["error"] = None
        except urllib.error.HTTPError as exc:  # 401/403/405: a server that refuses HEAD or
            # anonymous access is still the hub; a 404 or 5xx at its root is not (an
            # intercepting proxy, a captive portal, an outage)
            outcome["error"] = None if exc.code in (401, 403, 405) else f"HTTP {exc.code}"
        except Exception as exc:  # URLError, socket.timeout, ssl errors: not reachable
            outcome["error"] = str(getattr(exc, "reason", exc) or type(exc).__name__)

    thread = threading.Thread(target=probe, name="rlvr-hub-probe", daemon=True)
    thread.start()
    thread.join(timeout_s)
    if "error" not in outcome:
        return f"{endpoint} did not answer within {timeout_s:g} s"
    return None if outcome["error"] is None else f"{endpoint} not reachable ({outcome['error']})"


def check_output_dir(run_dir: str | Path) -> None:
    """Create `run_dir` and check that files can be written there.

    Raises:
        ConfigError: naming the folder when it cannot be created or written.
    """
    run_dir = Path(run_dir)
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=run_dir, prefix=".write-test."):
            pass
    except OSError as exc:
        raise ConfigError(f"output_dir {str(run_dir)!r} is not writable ({exc.strerror or exc}); "
                          "choose another with --output-dir") from None
