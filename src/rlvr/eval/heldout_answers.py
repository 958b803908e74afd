"""The held-out answers of `rlvr train`: the base and trained models answer the run's
held-out rows on the runner `rlvr eval` uses.

Both models answer through `rlvr.eval.runner.generate_task_records` with the run's
`RunEvaluation.heldout` settings (`rlvr.eval.settings`: greedy for a calibration run,
`eval_num_samples` for a task run), and are scored by the run's reward (a task run: by each
of its reward entries and their weighted sum). The base model's answers are saved with
their settings (`generations_base.jsonl` + `.settings.json`) and reused on `--resume`, or by
`rlvr compare`, only when the questions and settings match. `step_metrics` turns one
evaluation during training into the numbers logged for that step.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any, Mapping, Sequence

from rlvr.eval.settings import EvalSettings, RunEvaluation
from rlvr.io import read_jsonl, write_json, write_jsonl

logger = logging.getLogger(__name__)

BASE_FILE = "generations_base.jsonl"


def evaluate_heldout(model, tokenizer, task, rows: Sequence[dict], settings: EvalSettings,
                     label: str, entries: Sequence[dict] | None = None) -> list[dict[str, Any]]:
    """Answers of `model` to the held-out rows, scored by the task's reward.

    Args:
        model, tokenizer: a loaded model (or engine) and its tokenizer.
        task: the run's held-out task (`rlvr.tasks.heldout.run_task`).
        settings: how to answer (`RunEvaluation.heldout`, or a variant of it).
        label: progress-bar label ("base", "trained", "step 10").
        entries: a task run's reward entries: each scores every record as well
            (`rlvr.eval.task_heldout.score_with_entries`); None for a calibration run.
    Returns:
        one scored record per answer (rows x `settings.num_samples`, row-major).
    """
    from rlvr.eval.runner import generate_task_records

    records = generate_task_records(model, tokenizer, task, list(rows), [],
                                    settings.generation(), label)
    if entries is not None:
        from rlvr.eval.task_heldout import score_with_entries

        score_with_entries(records, list(entries))
    return records


def base_answers(model, tokenizer, task, rows: Sequence[dict], ev: RunEvaluation,
                 run_dir: Path, reuse: bool = False) -> tuple[list[dict[str, Any]], float | None]:
    """The base model's scored answers to the held-out rows (`evaluate_heldout` with
    `ev.heldout`), saved to RUN/generations_base.jsonl with `ev.cache_key`; with `reuse`
    (`--resume`, `rlvr compare`), an earlier file of the same questions and settings is
    rescored with the run's reward(s) instead (cheap: the reward settings may have changed).

    Returns:
        (records, seconds spent generating, or None when reused).
    """
    import time

    base_file = Path(run_dir) / BASE_FILE
    entries = ev.entries if ev.task_run else None
    records = cached_base_records(base_file, rows, ev.cache_key) if reuse else None
    if records is not None:
        from rlvr.eval.runner import rescore_records

        rescore_records(task, records)
        if entries is not None:
            from rlvr.eval.task_heldout import score_with_entries

            score_with_entries(records, list(entries))
    model.eval()
    if records is not None:
        return records, None
    start = time.perf_counter()
    records = evaluate_heldout(model, tokenizer, task, rows, ev.heldout, "base", entries)
    seconds = time.perf_counter() - start
    write_jsonl(base_file, records)
    write_cache_settings(base_file, ev.cache_key)
    return records, seconds


def _settings_file(path: Path) -> Path:
    return path.with_name(path.stem + ".settings.json")


def write_cache_settings(path: Path, settings: Mapping[str, Any]) -> None:
    """Save the settings a generations file was made with next to it
    (`RunEvaluation.cache_key`, or a variant of it)."""
    write_json(_settings_file(path), dict(settings))


def cached_base_records(path: Path, rows: Sequence[dict],
                        settings: Mapping[str, Any] | None = None) -> list[dict] | None:
    """Base generations saved by an earlier attempt, when they answer the same questions in
    order (each row's samples together) and, given `settings`, were made with the same
    ones (saved next to them by `write_cache_settings`; a file without them is not
    reused). None otherwise."""
    if not path.is_file():
        return None
    if settings is not None:
        saved = _settings_file(path)
        if not saved.is_file() or json.loads(saved.read_text(encoding="utf-8")) != \
                json.loads(json.dumps(dict(settings))):
            return None
    cached = read_jsonl(path)
    seen: dict[Any, str | None] = {}
    for r in cached:
        seen.setdefault(r["id"], r.get("question"))
    if list(seen) == [r["id"] for r in rows] and \
            list(seen.values()) == [r["question"] for r in rows]:
        logger.info("reusing base generations from %s", path)
        return cached
    return None


def step_metrics(records: list[dict[str, Any]], labels: dict[Any, dict] | None,
                 entries: Sequence[dict[str, Any]] | None) -> dict[str, float]:
    """The metrics of one evaluation during training (`eval_steps`).

    A calibration run (`labels` given): the knowledge-aware metrics against the base
    model's labels (`rlvr.eval.knowledge.honesty_metrics`: honesty, prudence,
    over_conservativeness, known_retention, answer_rate, selective_accuracy) plus
    `mean_reward`; a task run: the mean over rows of each
    `rlvr.eval.task_heldout.row_values` metric (`reward`, `reward/<name>`,
    `accuracy/<name>`). Values that are None are left out.
    """
    if labels is not None:
        from rlvr.eval.knowledge import behaviour, honesty_metrics

        kept = [r for r in records if r["id"] in labels and behaviour(r.get("outcome"))]
        out = honesty_metrics([bool(labels[r["id"]]["known"]) for r in kept],
                              [behaviour(r.get("outcome")) for r in kept])
        scores = [r["reward"] for r in records if r.get("reward") is not None]
        out = {k: v for k, v in out.items() if isinstance(v, (int, float))}
        if scores:
            out["mean_reward"] = sum(scores) / len(scores)
        return out
    from rlvr.eval.task_heldout import row_values

    return {metric: sum(by_row.values()) / len(by_row)
            for metric, by_row in row_values(records, list(entries or [])).items() if by_row}
