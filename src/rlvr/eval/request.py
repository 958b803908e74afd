"""One evaluation request, checked and run the same way by `rlvr eval` and
`rlvr.api.evaluate`.

`check_request` refuses every bad setting with one line naming the flag and the fix, before
a model or a task's data loads; `EvalSettings` itself refuses bad numbers, engines and
dtypes when it is built. `evaluate` then answers `heldout` (a task run's own held-out rows,
`rlvr.eval.run_heldout`) and the registered tasks (`rlvr.eval.runner.run_eval`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

from rlvr.errors import RlvrError
from rlvr.eval.settings import EvalSettings

HELDOUT = "heldout"  # a training run's own held-out rows (`rlvr.eval.run_heldout`)
FEWSHOT_COUNTS = (0, 2, 4, 8)


def task_names(tasks: str | Sequence[str] | None) -> list[str]:
    """Task names from `--tasks a,b` text or a list, stripped, empties dropped."""
    if isinstance(tasks, str) or tasks is None:
        return [t.strip() for t in (tasks or "").split(",") if t.strip()]
    return [str(t).strip() for t in tasks if str(t).strip()]


def check_request(names: Sequence[str], settings: EvalSettings, *, model: str | None = None,
                  adapter: str | Path | None = None, num_fewshot: int | None = None,
                  data_dir: str | None = None,
                  task_paths: Sequence[str] | Mapping[str, str] = (),
                  output_dir: str | Path = "runs/eval") -> dict[str, str]:
    """Check an evaluation request without loading a model or a task's data.

    Args:
        names: task names (`rlvr eval --list`), `heldout` among them or not.
        settings: how to answer (already checked when built).
        task_paths: `TASK=FILE` items (the `--task-path` flag) or a {task: file} mapping.
    Returns:
        {task: file} from `task_paths`.
    Raises:
        RlvrError: one line naming the flag and the fix: no or duplicate task names, an
            unknown task, a few-shot count other than 0/2/4/8, a missing or non-model
            --model path, an --adapter folder without an adapter, `heldout` without a task
            run's adapter or with sampling settings, a self-awareness task on a task run's
            adapter, a --data-dir that is not a folder, a --task-path for an unknown task or
            a missing file, an --output-dir that cannot be written.
    """
    from rlvr.io import check_output_dir
    from rlvr.models import check_model_path
    from rlvr.tasks.registry import get_task

    if not names:
        raise RlvrError("--tasks is required, e.g. --tasks selfaware,gsm8k (see --list)")
    twice = sorted({n for n in names if list(names).count(n) > 1})
    if twice:
        raise RlvrError(f"--tasks names {', '.join(twice)} more than once; name each task once")
    for name in names:
        if name != HELDOUT:
            get_task(name)  # unknown task: refused with the closest name
    if num_fewshot is not None and num_fewshot not in FEWSHOT_COUNTS:
        raise RlvrError(f"--num-fewshot must be 0, 2, 4 or 8, got {num_fewshot}")
    check_model_path(model)
    if settings.endpoint is not None and (adapter or HELDOUT in names):
        raise RlvrError("--endpoint answers with the served model alone: serve the trained "
                        "model (a merged checkpoint: rlvr export --merge) and point "
                        "--endpoint at it, without --adapter or the heldout task")
    if adapter:
        check_adapter(str(adapter))
    items = [f"{k}={v}" for k, v in task_paths.items()] if isinstance(task_paths, Mapping) \
        else list(task_paths)
    _check_run_tasks(adapter, names, items)
    if HELDOUT in names and (settings.num_samples != 1 or settings.temperature != 0.0):
        raise RlvrError("--tasks heldout answers as the run's report did (its "
                        "eval_num_samples, temperature and seed); drop --num-samples and "
                        "--temperature, or evaluate heldout in a call of its own")
    if data_dir is not None and not Path(data_dir).expanduser().is_dir():
        raise RlvrError(f"--data-dir {data_dir} is not a folder; pass the folder that "
                        "holds the task files (gsm8k/test.jsonl, ...; see docs/eval_data.md)")
    paths = {}
    for item in items:
        name, sep, path = item.partition("=")
        if not sep or not name.strip() or not path:
            raise RlvrError(f"--task-path expects TASK=FILE, got {item!r}")
        try:
            get_task(name.strip())
        except RlvrError as exc:
            raise RlvrError(f"--task-path {item}: {exc}") from None
        if not Path(path).expanduser().is_file():
            raise RlvrError(f"--task-path {item}: file not found; check the path")
        paths[name.strip()] = path
    if not str(output_dir).strip():
        raise RlvrError("--output-dir is empty; pass a folder, e.g. --output-dir runs/eval")
    check_output_dir(output_dir)
    return paths


def _check_run_tasks(adapter: str | Path | None, names: Sequence[str],
                     task_paths: Sequence[str]) -> None:
    """`heldout` needs the --adapter of a task run (`rlvr.eval.saved_run.read_run`); a
    task run's adapter is not evaluated as `selfaware` on its own rows (its rewards are not
    the calibration reward). Raises RlvrError naming the fix, before any model loads."""
    from rlvr.eval.saved_run import find_run, read_run, run_entries

    if HELDOUT in names:
        if not adapter:
            raise RlvrError("--tasks heldout needs --adapter RUN/adapter (a training run's "
                            "held-out rows, base vs that adapter)")
        read_run(adapter)
    if adapter and "selfaware" in names and not any(t.startswith("selfaware=")
                                                    for t in task_paths):
        import yaml

        from rlvr.config.reward_setup import CALIBRATION_REWARDS

        run = find_run(adapter)
        if run is None:
            return
        cfg = yaml.safe_load((run.run_dir / "resolved_config.yaml").read_text(
            encoding="utf-8")) or {}
        rewards = [e["name"] for e in run_entries(cfg)]
        if not set(rewards) & set(CALIBRATION_REWARDS):
            raise RlvrError(f"--adapter {adapter} comes from a task run (rewards "
                            f"{', '.join(rewards)}), not a self-awareness run; evaluate its "
                            "held-out rows with --tasks heldout, or give selfaware rows with "
                            "--task-path selfaware=FILE")


def check_adapter(path: str) -> None:
    """Refuse an --adapter folder that holds no PEFT adapter, before the base evaluation.
    Raises: RlvrError naming the folder and the fix."""
    folder = Path(path)
    if not folder.exists():
        raise RlvrError(f"--adapter {path} does not exist; pass the adapter folder a training "
                        "run wrote (RUN_DIR/adapter)")
    if not (folder / "adapter_config.json").is_file():
        raise RlvrError(f"--adapter {path}: no adapter_config.json there; pass the adapter "
                        "folder a training run wrote (RUN_DIR/adapter)")


def evaluate(names: Sequence[str], settings: EvalSettings, *, model: str | None = None,
             adapter: str | Path | None = None, output_dir: str | Path = "runs/eval",
             num_fewshot: int | None = None, data_dir: str | None = None,
             task_paths: Mapping[str, str] | None = None,
             data_source: str = "auto") -> dict[str, Any]:
    """Run a checked request (`check_request` first): `heldout` through
    `rlvr.eval.run_heldout.eval_heldout` (base vs the adapter on the run's own rows), the
    other tasks through `rlvr.eval.runner.run_eval`.

    Returns:
        {"heldout": summary} (when asked) merged with the `run_eval` results dict (its
        `tasks`, `meta`, `skipped`), or only the former when no other task was named.
    Raises:
        RlvrError / DataError: as `run_eval` (every task skipped, an unreadable
            `task_paths` file, a missing model).
    """
    out: dict[str, Any] = {}
    names = list(names)
    if HELDOUT in names:
        from rlvr.eval.run_heldout import eval_heldout

        out[HELDOUT] = eval_heldout(adapter, output_dir, model=model, settings=settings)
        names.remove(HELDOUT)
    if names:
        from rlvr.eval.runner import run_eval

        g = settings
        out.update(run_eval(model, names, adapter=None if adapter is None else str(adapter),
                            output_dir=output_dir, limit=g.limit, num_samples=g.num_samples,
                            temperature=g.temperature, batch_size=g.batch_size,
                            num_fewshot=num_fewshot, data_dir=data_dir,
                            task_paths=dict(task_paths or {}), seed=g.seed,
                            max_new_tokens=g.max_new_tokens, require_tasks=True,
                            data_source=data_source, engine=g.engine, dtype=g.dtype,
                            endpoint=g.endpoint, endpoint_model=g.endpoint_model))
    return out
