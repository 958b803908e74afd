"""`metrics.jsonl`: every metric of a run, appended as it happens.

One JSON object per line, in the run directory:

* `{"event": "start", "utc": ..., "resume": bool}` when `rlvr train` starts (a resumed run
  appends to the same file, so the history of a crashed and resumed run stays whole);
* `{"event": "log", "step": N, "epoch": ..., <TRL's logs>}` at every logging step: TRL's
  metrics (`reward`, `rewards/<name>/mean`, `kl`, `completions/mean_length`, ...) and
  rlvr's diagnostics (`calibration/*`), written and flushed at once, so a killed run
  keeps what it logged;
* `{"event": "eval", "kind": "calibration" | "task", "task": <the run's task>, ...}` with
  the before/after results when the report is written: `base`, `trained`, `difference`,
  `knowledge` for a calibration run, `heldout`, `kshot` for a task run (runs of rlvr 0.x
  before this wrote a task run's results as `{"event": "kshot", ...}`).

Lines are appended, never rewritten; `read_metrics` skips a last line cut off by a crash.
The same values go to the trackers of `report_to` through TRL.
"""

from __future__ import annotations

import json
import math
import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Any


def _plain(value: Any) -> Any:
    """JSON-safe value: NaN and infinities become None (JSON has no such numbers)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def append_metrics(path: str | Path, record: dict[str, Any]) -> None:
    """Append one record as a JSON line and flush it to disk."""
    line = json.dumps({k: _plain(v) for k, v in record.items()}, ensure_ascii=False,
                      default=str)
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(line + "\n")
        handle.flush()
        os.fsync(handle.fileno())


def start_metrics(path: str | Path, resume: bool) -> None:
    """Record the start of a run (see the module docstring)."""
    append_metrics(path, {"event": "start", "resume": resume,
                          "utc": datetime.now(timezone.utc).isoformat(timespec="seconds")})


def read_metrics(path: str | Path) -> list[dict[str, Any]]:
    """The records of a metrics file; a last line cut off by a crash is skipped."""
    records = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return records
