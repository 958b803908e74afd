"""Check that two runs of `rlvr train` with the same config and seed wrote the same results:
every value in report.json outside timings equal, and the adapters bit-identical.

    python scripts/same_report.py RUN_BEFORE RUN_AFTER

Used when code is moved without meaning to change behaviour: run the same command on the
old and on the new code, into two folders, then compare them. Paths that name the run
folder itself are compared with the folder name replaced; `timings`, `seconds` and
`*_s` keys (wall-clock figures) and `run_name` (it ends with the start time) are left out. Prints each difference and exits 1 if any.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any, Iterator

# wall-clock figures, and `run_name`, which ends with the run's start time
SKIPPED_KEYS = {"timings", "timings_s", "seconds", "seconds_per_step", "rlvr_version",
                "run_name"}


def _strip(value: Any, run_dir: str) -> Any:
    """`value` with wall-clock keys dropped and the run folder's path replaced by RUN."""
    if isinstance(value, dict):
        return {k: _strip(v, run_dir) for k, v in value.items()
                if k not in SKIPPED_KEYS and not k.endswith("_s")}
    if isinstance(value, list):
        return [_strip(v, run_dir) for v in value]
    if isinstance(value, str):
        return value.replace(run_dir, "RUN")
    return value


def differences(a: Any, b: Any, where: str = "") -> Iterator[str]:
    """Every path at which `a` and `b` differ, with both values."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                yield f"{where}.{key}: only in {'after' if key in b else 'before'}"
            else:
                yield from differences(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            yield from differences(x, y, f"{where}[{i}]")
    elif a != b:
        yield f"{where}: {a!r} != {b!r}"


def sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main(before: str, after: str) -> int:
    """Compare two run folders; returns the exit status (0 = the same)."""
    runs = [Path(before).resolve(), Path(after).resolve()]
    reports = [_strip(json.loads((r / "report.json").read_text(encoding="utf-8")), str(r))
               for r in runs]
    found = list(differences(*reports))
    adapters = [r / "adapter" / "adapter_model.safetensors" for r in runs]
    digests = [sha256(p) if p.is_file() else None for p in adapters]
    if digests[0] != digests[1] or digests[0] is None:
        found.append(f"adapter: {digests[0]} != {digests[1]}")
    for name in ("generations_base.jsonl", "generations_trained.jsonl"):
        files = [r / name for r in runs]
        if all(f.is_file() for f in files) and sha256(files[0]) != sha256(files[1]):
            found.append(f"{name} differs")
    for line in found:
        print(line)
    print(f"{len(found)} differences; adapter sha256 {digests[0]}" if not found else
          f"{len(found)} differences")
    return 1 if found else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
