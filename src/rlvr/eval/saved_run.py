"""A saved training run read back for evaluation: `find_run` (the run an adapter came from:
its task settings, held-out rows and training questions, for `rlvr eval --tasks selfaware`),
`run_entries` (its reward entries, user functions registered again) and `read_run` (all of
it, checked, for `rlvr eval --tasks heldout`, `rlvr.eval.run_heldout`).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from rlvr.config.reward_setup import CALIBRATION_REWARDS
from rlvr.errors import RlvrError
from rlvr.eval.settings import eval_token_cap, run_value
from rlvr.io import read_jsonl
from rlvr.tasks.heldout import HELDOUT_FILE, TRAIN_QUESTIONS_FILE, run_task
from rlvr.tasks.registry import EvalTask


@dataclasses.dataclass
class RunData:
    """What `rlvr eval` needs from a training run: its task settings and its rows."""

    run_dir: Path
    task: EvalTask
    rows: list[dict[str, Any]]
    train_questions: set[str]


def find_run(adapter: str | Path | None) -> RunData | None:
    """The training run an adapter came from (its parent folder), or None.

    A run is recognised by `resolved_config.yaml`, `heldout.jsonl` and
    `train_questions.json` next to the adapter folder.
    """
    if adapter is None:
        return None
    run_dir = Path(adapter).expanduser().resolve().parent
    files = [run_dir / n for n in ("resolved_config.yaml", HELDOUT_FILE, TRAIN_QUESTIONS_FILE)]
    if not all(f.is_file() for f in files):
        return None
    import yaml

    cfg = yaml.safe_load(files[0].read_text(encoding="utf-8")) or {}
    task = run_task(run_value(cfg, "reward"), run_value(cfg, "reward_preset"),
                    run_value(cfg, "reward_params"), eval_token_cap(cfg))
    train_questions = set(json.loads(files[2].read_text(encoding="utf-8")))
    return RunData(run_dir, task, read_jsonl(files[1]), train_questions)


def run_entries(run_cfg: dict[str, Any]) -> list[dict[str, Any]]:
    """A run's reward entries from its resolved config (`reward_funcs`, else `reward`), its
    user functions registered (`rlvr.rewards.register_user_rewards`; the resolved config
    holds their absolute paths).

    Raises:
        RlvrError: a user function that no longer loads (the message names its file).
    """
    from rlvr.rewards import register_user_rewards
    from rlvr.rewards.user import is_function_ref, ref_name

    reward = run_value(run_cfg, "reward")
    entry = {"name": reward, "preset": run_value(run_cfg, "reward_preset"),
             "params": run_value(run_cfg, "reward_params") or {}}
    if is_function_ref(reward):
        entry.update(name=ref_name(reward), function=reward)
    return register_user_rewards(list(run_cfg.get("reward_funcs") or [entry]))


def read_run(adapter: str | Path) -> tuple[Any, dict[str, Any], list[dict[str, Any]]]:
    """(RunData, resolved config dict, reward entries) of the run an adapter came from.

    Raises:
        RlvrError: the adapter is not inside an `rlvr train` run folder, the run trained a
            calibration reward (use `--tasks selfaware`), or its held-out rows lack a field
            a reward reads (a run from before task runs kept them); each names the fix.
    """
    import yaml

    run = find_run(adapter)
    if run is None:
        raise RlvrError(f"--tasks heldout needs an --adapter inside an `rlvr train` run folder "
                        f"(RUN_DIR/adapter, next to heldout.jsonl); {adapter} is not one")
    cfg = yaml.safe_load((run.run_dir / "resolved_config.yaml").read_text(encoding="utf-8"))
    entries = run_entries(cfg or {})
    if any(e["name"] in CALIBRATION_REWARDS for e in entries):
        raise RlvrError(f"{run.run_dir} trained the calibration reward; evaluate it with "
                        "--tasks selfaware (its honesty report), not heldout")
    from rlvr.rewards import get_reward

    for entry in entries:
        for i, row in enumerate(run.rows):
            missing = get_reward(entry["name"]).missing_fields(row)
            if missing:
                raise RlvrError(f"{run.run_dir / 'heldout.jsonl'}:{i + 1}: no {missing} for "
                                f"reward {entry['name']!r} (a run from an older rlvr keeps no "
                                "reward fields there); rerun `rlvr train` to write them")
    return run, cfg or {}, entries
