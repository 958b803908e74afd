"""One run per folder: a run folder that already holds a run is refused unless the command
says what to do with it.

A folder holds a run when any of the files a run writes is there (`RUN_FILES`: its saved
config, metrics, rollouts, report, adapter or checkpoints). Writing a second run into it
would mix the two: the new run rewrites the adapter, reports and config, appends a second
start to `metrics.jsonl`, and leaves the old `best_adapter/`, checkpoints and rollouts
beside them. So, before any model loads:

| the folder | no flag | `--resume` | `--overwrite` |
|---|---|---|---|
| absent, empty, or holding no run file | the run starts | refused: nothing to continue | the run starts |
| holding a run with a complete checkpoint | refused | the run continues | emptied, then the run starts |
| holding a run without a complete checkpoint | refused | refused | emptied, then the run starts |

`--resume` and `--overwrite` together are refused. `rlvr compare` reuses a folder on
purpose (it copies the shared base-model files in first) and calls the job without this
check.
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

from rlvr.errors import ConfigError

logger = logging.getLogger(__name__)

RUN_FILES = ("resolved_config.yaml", "metrics.jsonl", "train_log.jsonl", "rollouts.jsonl",
             "rollouts.jsonl.gz", "report.json", "adapter", "best_adapter", "checkpoints")


def run_files(run_dir: str | Path) -> list[str]:
    """The `RUN_FILES` present in `run_dir` (none when it does not exist)."""
    folder = Path(run_dir)
    return [name for name in RUN_FILES if (folder / name).exists()] if folder.is_dir() else []


def check_run_folder(run_dir: str | Path, resume: bool = False, overwrite: bool = False) -> None:
    """Refuse a run folder the command would mix runs in (module docstring's table). Under
    `accelerate launch` only rank 0 checks: the other ranks may start after rank 0 has
    written the run's first files, and follow rank 0 (which exits on a refusal).

    Raises:
        ConfigError: one line naming the folder, what it holds, and the ways on.
    """
    from rlvr.hardware import is_main_process
    from rlvr.train.checkpoints import last_checkpoint

    if not is_main_process():  # rank 0 decides (the others may start after it wrote)
        return
    folder = Path(run_dir)
    if resume and overwrite:
        raise ConfigError("--resume continues the run in the folder and --overwrite empties "
                          "it; pass one of them")
    found = run_files(folder)
    if resume:
        if last_checkpoint(folder / "checkpoints") is None:
            held = (f"it holds {', '.join(found)} but no complete checkpoint" if found
                    else "it holds no run")
            raise ConfigError(f"--resume: nothing to continue in {folder} ({held}); start it "
                              "afresh with --overwrite (empties the folder first) or pick a "
                              "new --output-dir")
        return
    if found and not overwrite:
        raise ConfigError(f"{folder} already holds a run ({', '.join(found)}); continue it "
                          "with --resume, start over with --overwrite (empties the folder "
                          "first), or pick a new --output-dir")


def empty_run_folder(run_dir: str | Path) -> list[str]:
    """Delete everything in `run_dir` when it holds a run (`run_files`); a folder holding no
    run is left as it is (so `--overwrite` never empties a folder of other files); only
    rank 0 empties it. Returns the names removed."""
    from rlvr.hardware import is_main_process

    folder = Path(run_dir)
    if not is_main_process() or not run_files(folder):
        return []
    removed = []
    for entry in sorted(folder.iterdir()):
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()
        removed.append(entry.name)
    logger.info("--overwrite: emptied %s (%d entries)", folder, len(removed))
    return removed
