"""Where each evaluation task's rows come from: a local file, the Hugging Face Hub, or the
small subset packaged with rlvr.

Resolution order for one task (`--data-source auto`, the default):

1. `--task-path TASK=FILE`: that file (always wins, in every mode);
2. `--data-dir DIR` / `$RLVR_DATA_DIR` / `data_dir:` in ~/.config/rlvr/config.yaml:
   DIR/<task.data_file> (the layout `gsm8k/test.jsonl`, `mbpp/mbpp.jsonl`, ...), when
   that file exists;
3. the Hugging Face Hub: `datasets.load_dataset` with the task's standard id and config
   (`rlvr.tasks.hub`; skipped at once when offline, see there);
4. the packaged subset (`rlvr/tasks/subsets/<task>/`, built by
   `scripts/build_eval_subsets.py`), with the reason the hub was not used.

`--data-source local|hub|packaged` keeps only step 1 and that one step, and never falls
back (a task it cannot serve is skipped with the reason). Tasks with neither a hub
dataset nor a packaged subset (selfaware, exploretom) read local files in every mode.
A file the user points at (steps 1-2) that fails to load is an error, never replaced.
Few-shot exemplars follow the same order from the train side: DIR/<fewshot_file>, the
hub's few-shot split, the packaged train rows.
"""

from __future__ import annotations

import json
import os
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from rlvr.errors import DataError, RlvrError
from rlvr.io import endpoint_unreachable
from rlvr.tasks.hub import hub_unavailable, load_hub_rows

if TYPE_CHECKING:
    from rlvr.tasks.registry import EvalTask

logger = logging.getLogger(__name__)

DATA_SOURCES = ("auto", "local", "hub", "packaged")
SUBSETS_DIR = Path(__file__).resolve().parent / "subsets"
HUB_TIMEOUT_S = 3.0


@dataclass(frozen=True)
class TaskData:
    """Rows of one task and where they came from.

    Attributes:
        rows: the loaded rows (every row of the source; the runner applies `--limit`).
        kind: "file", "hub" or "packaged".
        source: what was read, as results state it: a path, "hub <id>, config <c>, split
            <s>", or "packaged subset (N of M rows of <upstream split>)".
        note: why earlier sources in the order were not used (None when nothing was
            passed over).
    """

    rows: list[dict[str, Any]]
    kind: str
    source: str
    note: str | None = None


def user_data_dir() -> str | None:
    """The data directory from `$RLVR_DATA_DIR` or `data_dir:` in
    `~/.config/rlvr/config.yaml` (None when neither is set)."""
    if os.environ.get("RLVR_DATA_DIR"):
        return os.environ["RLVR_DATA_DIR"]
    config = Path(os.environ.get("XDG_CONFIG_HOME", Path.home() / ".config")) / "rlvr" / "config.yaml"
    if config.is_file():
        import yaml

        value = (yaml.safe_load(config.read_text(encoding="utf-8")) or {}).get("data_dir")
        return str(Path(value).expanduser()) if value else None
    return None


def packaged_manifest(subsets_dir: Path = SUBSETS_DIR) -> dict[str, Any]:
    """The packaged subsets' manifest (`manifest.json`: per task, per role "eval" /
    "fewshot": file, rows, of, split, source sha256); {} when it is missing."""
    path = subsets_dir / "manifest.json"
    if not path.is_file():
        return {}
    return json.loads(path.read_text(encoding="utf-8")).get("tasks", {})


def load_packaged(task: EvalTask, role: str = "eval", subsets_dir: Path = SUBSETS_DIR) -> TaskData:
    """Load a task's packaged subset (`role` "eval" or "fewshot") with its loader.

    Raises:
        DataError: no packaged subset for this task and role (or the file is missing: a
            broken install; reinstall rlvr).
    """
    entry = packaged_manifest(subsets_dir).get(task.name, {}).get(role)
    if not task.packaged or not entry:
        raise DataError(f"task {task.name!r} has no packaged {role} subset")
    path = subsets_dir / entry["file"]
    if not path.is_file():
        raise DataError("packaged subset file missing (a broken install?); reinstall rlvr",
                        str(path))
    rows = task.load(path)
    return TaskData(rows, "packaged", f"packaged subset ({len(rows):,} of {entry['of']:,} rows "
                                      f"of {entry['split']})")


class DataResolver:
    """Finds and loads each task's rows in the order of the module docstring.

    The hub's reachability is checked at most once per resolver (lazily, when the first
    task could use the hub), so a run waits at most `hub_timeout_s` in total.
    """

    def __init__(self, data_source: str = "auto", data_dir: str | None = None,
                 task_paths: dict[str, str] | None = None,
                 hub_timeout_s: float = HUB_TIMEOUT_S,
                 probe: Callable[[float], str | None] | None = None):
        """Args:
            data_source: "auto", "local", "hub" or "packaged" (see module docstring).
            data_dir: the data folder (already resolved from --data-dir / env), or None.
            task_paths: {task: file} from --task-path.
            hub_timeout_s: the reachability check's deadline.
            probe: `(timeout_s) -> reason or None` (default `endpoint_unreachable`).
        Raises:
            RlvrError: unknown data_source.
        """
        if data_source not in DATA_SOURCES:
            raise RlvrError(f"data source must be one of {', '.join(DATA_SOURCES)}, got "
                            f"{data_source!r}")
        self.data_source = data_source
        self.data_dir = data_dir
        self.task_paths = dict(task_paths or {})
        self.hub_timeout_s = hub_timeout_s
        self._probe = probe or endpoint_unreachable
        self._probed: list[str | None] = []  # memo: [] = not probed yet
        self._fewshot: dict[str, TaskData] = {}

    def _uses(self, step: str, task: EvalTask) -> bool:
        """Whether resolution step `step` ("local", "hub", "packaged") applies to `task`."""
        if step == "local" and not (task.hub or task.packaged):
            return True  # selfaware, exploretom: local files only, in every mode
        return self.data_source in ("auto", step)

    def _hub_reason(self, task: EvalTask) -> str | None:
        def probe() -> str | None:
            if not self._probed:
                self._probed.append(self._probe(self.hub_timeout_s))
            return self._probed[0]
        return hub_unavailable(task.hub, probe)

    def rows(self, task: EvalTask) -> TaskData:
        """Load `task`'s evaluation rows from the first source that has them.

        Raises:
            DataError: one line, when no allowed source has the task's data (every
                source's reason), or a user-given file is missing or malformed.
        """
        if task.name in self.task_paths:
            path = Path(self.task_paths[task.name]).expanduser()
            return TaskData(task.load(path), "file", str(path))
        return self._resolve(task, task.data_file, "eval", task.hub.split if task.hub else None)

    def fewshot(self, task: EvalTask) -> TaskData:
        """The pool few-shot exemplars are drawn from (train side only), memoised.

        Raises:
            RlvrError: the task has no few-shot source; DataError: none is available.
        """
        if task.fewshot_file is None or task.fewshot_answer is None:
            raise RlvrError(f"task {task.name!r} has no few-shot exemplars; use --num-fewshot 0")
        if task.name not in self._fewshot:
            split = task.hub.fewshot_split if task.hub else None
            self._fewshot[task.name] = self._resolve(task, task.fewshot_file, "fewshot", split)
        return self._fewshot[task.name]

    def _resolve(self, task: EvalTask, data_file: str | None, role: str,
                 hub_split: str | None) -> TaskData:
        passed: list[str] = []  # why each earlier source was not used
        if data_file is None and role == "eval" and not (task.hub or task.packaged):
            return TaskData(task.load(None), "file", "")  # e.g. exploretom: its loader explains
        if self._uses("local", task):
            if self.data_dir is None:
                if self.data_source == "local" or not (task.hub or task.packaged):
                    passed.append("no --data-dir")  # in auto mode, the usual case: no note
            else:
                path = Path(self.data_dir).expanduser() / data_file
                if path.is_file():
                    return TaskData(task.load(path), "file", str(path))
                passed.append(f"{path} not found")
        if self._uses("hub", task) and task.hub and hub_split:
            reason = self._hub_reason(task)
            if reason is None:
                try:
                    rows = load_hub_rows(task.hub, hub_split)
                    return TaskData(rows, "hub", task.hub.describe(hub_split), _note(passed))
                except DataError as exc:
                    passed.append(str(exc))  # starts with "hub <id>, config ..., split ..."
            else:
                passed.append(f"hub: {reason}")
        if self._uses("packaged", task) and task.packaged:
            data = load_packaged(task, role)
            note = _note(passed)
            if note:
                logger.info("%s: using the %s (%s)", task.name, data.source, note)
            return TaskData(data.rows, data.kind, data.source, note)
        raise DataError(f"task {task.name!r}: no {'few-shot ' if role == 'fewshot' else ''}"
                        f"data ({_note(passed) or 'no source allowed'}); "
                        + _fix(task, data_file, self.data_source))


def _note(passed: list[str]) -> str | None:
    return "; ".join(passed) or None


def _fix(task: EvalTask, data_file: str | None, data_source: str) -> str:
    """The one-line fix for a task no source could serve."""
    if not (task.hub or task.packaged):
        extra = " (SelfAware is CC-BY-SA and not packaged; see docs/eval_data.md)" \
            if task.name == "selfaware" else ""
        return (f"pass --data-dir DIR (the folder holding {data_file}), set RLVR_DATA_DIR, or "
                f"--task-path {task.name}=FILE{extra}")
    if data_source == "hub":
        return "check the network, or use --data-source auto to fall back to the packaged subset"
    return (f"pass --data-dir DIR (holding {data_file}) or --task-path {task.name}=FILE, "
            "or use --data-source auto")
