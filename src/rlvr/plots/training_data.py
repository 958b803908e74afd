"""The numbers behind `rlvr plot`: per-step training metrics and the before/after results
of a run directory, read without matplotlib (standard library only).

Sources, in order of preference:

* `metrics.jsonl` (`rlvr.metrics.run_log`): `log` records give the steps, the newest
  `eval` record the before/after results; a `start` record after the first marks a resume;
* `train_log.jsonl` (TRL's `log_history`, one JSON object per log with `step`), for runs
  written before metrics.jsonl existed, or when metrics.jsonl holds no log record yet;
* `report.json` for the before/after results when metrics.jsonl has no `eval` record.

A resumed run logs some steps twice; for each step and key the newest value wins (a newest
value of null, i.e. NaN at logging time, removes the older one).
"""

from __future__ import annotations

import json
import logging
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from rlvr.errors import RlvrError
from rlvr.metrics.run_log import read_metrics

logger = logging.getLogger(__name__)

METRICS_FILE = "metrics.jsonl"
TRAIN_LOG_FILE = "train_log.jsonl"
REPORT_FILE = "report.json"
EVAL_KEYS = ("base", "trained", "difference", "knowledge", "cross_eval", "heldout")
_REWARD_MEAN = re.compile(r"^rewards/(.+)/mean$")


@dataclass
class RunMetrics:
    """What a run directory holds for plotting.

    Attributes:
        run_dir: the run directory.
        source: the file the steps came from (`metrics.jsonl` or `train_log.jsonl`).
        steps: step -> {metric key: finite float}, newest value per step and key.
        resumed_at: the first logged step after each resume (metrics.jsonl only).
        evaluation: the before/after results (`base`, `trained`, `difference`,
            `knowledge`, ...) or None.
        eval_source: the file `evaluation` came from, or None.
    """

    run_dir: Path
    source: str
    steps: dict[int, dict[str, float]] = field(default_factory=dict)
    resumed_at: list[int] = field(default_factory=list)
    evaluation: dict[str, Any] | None = None
    eval_source: str | None = None


def _number(value: Any) -> float | None:
    """`value` as a finite float, or None (bools, strings, lists, NaN and inf are None)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def _is_log(record: Any) -> bool:
    """True for a per-step log: a metrics.jsonl `log` record, or a train_log.jsonl line."""
    return (isinstance(record, dict) and record.get("event", "log") == "log"
            and isinstance(record.get("step"), int) and not isinstance(record["step"], bool))


def merge_steps(records: Iterable[Any]) -> dict[int, dict[str, float]]:
    """Merge per-step log records into step -> {key: value}, in file order.

    Args:
        records: parsed lines of metrics.jsonl (only `event: log` records count) or of
            train_log.jsonl (every object with an integer `step` counts).
    Returns:
        The steps in ascending order. For a step logged more than once (a resumed run),
        the newest value of each key wins; a newest value of null or NaN removes the key;
        non-numeric values (alarm lists, strings) and `step` itself are left out.
    """
    steps: dict[int, dict[str, float]] = {}
    for record in records:
        if not _is_log(record):
            continue
        merged = steps.setdefault(record["step"], {})
        for key, value in record.items():
            if key in ("step", "event"):
                continue
            number = _number(value)
            if number is not None:
                merged[key] = number
            elif value is None or isinstance(value, float):
                merged.pop(key, None)
    return dict(sorted(steps.items()))


def series(steps: dict[int, dict[str, float]], key: str) -> tuple[list[int], list[float]]:
    """The steps that have `key`, and its values: `(steps, values)`, both in step order."""
    pairs = [(step, values[key]) for step, values in sorted(steps.items()) if key in values]
    return [p[0] for p in pairs], [p[1] for p in pairs]


def has_any(steps: dict[int, dict[str, float]], keys: Iterable[str]) -> bool:
    """True when at least one step has at least one of `keys`."""
    keys = tuple(keys)
    return any(k in values for values in steps.values() for k in keys)


def reward_names(steps: dict[int, dict[str, float]]) -> list[str]:
    """The `<name>` of every `rewards/<name>/mean` key, in first-seen order."""
    names: list[str] = []
    for values in steps.values():
        for key in values:
            match = _REWARD_MEAN.match(key)
            if match and match.group(1) not in names:
                names.append(match.group(1))
    return names


def resume_steps(records: Iterable[Any]) -> list[int]:
    """The first logged step after each `start` record but the first (a resumed run)."""
    starts, pending, out = 0, False, []
    for record in records:
        if not isinstance(record, dict):
            continue
        if record.get("event") == "start":
            starts += 1
            pending = starts > 1
        elif pending and _is_log(record):
            out.append(record["step"])
            pending = False
    return out


def latest_eval(records: Iterable[Any]) -> dict[str, Any] | None:
    """The newest `event: eval` record (a task run's: `event: kshot`, which holds its
    held-out results) without its `event` key, or None."""
    found = None
    for record in records:
        if isinstance(record, dict) and record.get("event") in ("eval", "kshot"):
            found = {k: v for k, v in record.items() if k != "event"}
    return found


def _read(path: Path) -> list[Any]:
    try:
        return read_metrics(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise RlvrError(f"{path}: cannot read ({exc.__class__.__name__}: {exc}); check the "
                        "file's permissions and that it is UTF-8 JSONL") from None


def _read_report(path: Path) -> dict[str, Any] | None:
    """report.json's before/after sections, or None (a broken file is logged, not raised)."""
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        logger.warning("%s: not readable JSON (%s); before/after plot skipped", path, exc)
        return None
    if not isinstance(report, dict):
        return None
    picked = {k: report[k] for k in EVAL_KEYS if k in report}
    return picked or None


def load_run_metrics(run_dir: str | Path) -> RunMetrics:
    """Read a run directory's per-step metrics and before/after results (see module doc).

    Returns:
        A `RunMetrics`; its `steps` may be empty (a run that logged nothing yet).
    Raises:
        RlvrError: `run_dir` is not a directory, holds neither metrics.jsonl nor
            train_log.jsonl, or one of them cannot be read.
    """
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise RlvrError(f"{run_dir}: no such directory; pass the --output-dir of an "
                        "`rlvr train` run")
    metrics_path, log_path = run_dir / METRICS_FILE, run_dir / TRAIN_LOG_FILE
    if not metrics_path.is_file() and not log_path.is_file():
        raise RlvrError(f"{run_dir}: no {METRICS_FILE} or {TRAIN_LOG_FILE}; pass the "
                        "--output-dir of an `rlvr train` run, which holds its training logs")
    records = _read(metrics_path) if metrics_path.is_file() else []
    run = RunMetrics(run_dir=run_dir, source=METRICS_FILE, steps=merge_steps(records),
                     resumed_at=resume_steps(records))
    if not run.steps and log_path.is_file():
        run.source, run.steps, run.resumed_at = TRAIN_LOG_FILE, merge_steps(_read(log_path)), []
    run.evaluation = latest_eval(records)
    if run.evaluation is not None:
        run.eval_source = METRICS_FILE
    elif (run_dir / REPORT_FILE).is_file():
        run.evaluation = _read_report(run_dir / REPORT_FILE)
        run.eval_source = REPORT_FILE if run.evaluation else None
    return run
