"""The before/after evaluation of `rlvr train`, on the runner `rlvr eval` uses.

Both models answer the run's held-out rows (greedy, the run's prompts) through
`rlvr.eval.runner.generate_task_records` and are scored by the run's reward. The base
model's knowledge of each answerable question is estimated from K answers
(`knowledge_samples`, `knowledge_temperature`; K = 1 at temperature 0 reuses its greedy
answers) and stored in `knowledge_labels.json` (plus `knowledge_samples_base.jsonl` when
sampled), so the report can be rebuilt offline with `rlvr.eval.knowledge.knowledge_report`.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any, Sequence

from rlvr.config import TrainConfig
from rlvr.eval.knowledge import LABELS_FILE, knowledge_labels, read_labels_file
from rlvr.io import read_jsonl, write_json, write_jsonl

logger = logging.getLogger(__name__)

SAMPLES_FILE = "knowledge_samples_base.jsonl"


def eval_settings(cfg: TrainConfig, num_samples: int = 1, temperature: float = 0.0) -> dict:
    """Runner settings for the run's held-out evaluation (greedy by default)."""
    return {"batch_size": cfg.eval_batch_size, "num_samples": num_samples,
            "temperature": temperature, "seed": cfg.seed,
            "max_new_tokens": cfg.eval_max_new_tokens or cfg.max_completion_length}


def evaluate_heldout(model, tokenizer, task, rows: Sequence[dict], cfg: TrainConfig,
                     label: str, every_reward: bool = False) -> list[dict[str, Any]]:
    """Greedy answers of `model` to the held-out rows, scored by the run's reward; with
    `every_reward` (a task run), `eval_num_samples` answers per row (sampled at
    `temperature` when more than 1), scored by each of its reward entries and their
    weighted sum (`rlvr.eval.task_heldout.score_with_entries`)."""
    from rlvr.eval.runner import generate_task_records

    k = cfg.eval_num_samples if every_reward else 1  # calibration runs: greedy only
    records = generate_task_records(model, tokenizer, task, list(rows), [],
                                    eval_settings(cfg, k, cfg.temperature if k > 1 else 0.0),
                                    label)
    if every_reward:
        from rlvr.eval.task_heldout import score_with_entries
        from rlvr.config.checks import reward_entries

        score_with_entries(records, reward_entries(cfg))
    return records


def knowledge_for_run(model, tokenizer, task, rows: Sequence[dict],
                      base_records: Sequence[dict], cfg: TrainConfig, run_dir: Path,
                      reuse: bool = False) -> dict[Any, dict]:
    """Label each held-out question known / unknown for the base model (see module doc).

    Args:
        model: the base model (before training).
        rows: the held-out rows; base_records: its scored greedy answers to them.
        reuse: take `knowledge_labels.json` from an earlier attempt of this run when it
            covers the same questions (for `--resume`).
    Returns:
        `rlvr.eval.knowledge.knowledge_labels` output, keyed by question id.
    """
    labels_file = run_dir / LABELS_FILE
    ids = [r["id"] for r in rows]
    if reuse and labels_file.is_file():
        settings, saved = read_labels_file(labels_file)
        if list(saved) == ids and settings == _settings(cfg):
            logger.info("reusing knowledge labels from %s", labels_file)
            return saved
    if cfg.knowledge_samples == 1 and cfg.knowledge_temperature == 0:
        samples = list(base_records)
    else:
        answerable = [r for r in rows if not r["is_unanswerable"]]
        samples = _knowledge_samples(model, tokenizer, task, answerable, cfg, "knowledge")
        write_jsonl(run_dir / SAMPLES_FILE, samples)
        samples += [{"id": r["id"], "is_unanswerable": True, "outcome": None}
                    for r in rows if r["is_unanswerable"]]
    labels = knowledge_labels(samples, cfg.knowledge_threshold)
    write_json(labels_file, {"settings": _settings(cfg),
                             "labels": [{"id": i, **labels[i]} for i in ids if i in labels]})
    return labels


def _knowledge_samples(model, tokenizer, task, rows: Sequence[dict], cfg: TrainConfig,
                       label: str) -> list[dict[str, Any]]:
    """K scored answers per row (`knowledge_samples` at `knowledge_temperature`)."""
    from rlvr.eval.runner import generate_task_records

    settings = eval_settings(cfg, cfg.knowledge_samples, cfg.knowledge_temperature)
    return generate_task_records(model, tokenizer, task, list(rows), [], settings, label)


def _settings(cfg: TrainConfig) -> dict[str, Any]:
    return {"knowledge_samples": cfg.knowledge_samples,
            "knowledge_temperature": cfg.knowledge_temperature,
            "knowledge_threshold": cfg.knowledge_threshold}


def eval_cache_settings(cfg: TrainConfig, task, task_run: bool) -> dict[str, Any]:
    """What the base model's held-out answers depend on besides the questions: the model,
    the prompt, the token cap, and for a task run the samples per row (with temperature
    and seed when sampled). Not the reward: reused answers are rescored with the run's."""
    k = cfg.eval_num_samples if task_run else 1
    return {"model": cfg.model, "system_prompt": cfg.system_prompt,
            "prompt_exemplars": cfg.prompt_exemplars,
            "max_new_tokens": cfg.eval_max_new_tokens or cfg.max_completion_length,
            "num_samples": k, "temperature": cfg.temperature if k > 1 else 0.0,
            "seed": cfg.seed if k > 1 else None}


def _settings_file(path: Path) -> Path:
    return path.with_name(path.stem + ".settings.json")


def write_cache_settings(path: Path, settings: dict[str, Any]) -> None:
    """Save `eval_cache_settings` next to the generations file they produced."""
    write_json(_settings_file(path), settings)


def cached_base_records(path: Path, rows: Sequence[dict],
                        settings: dict[str, Any] | None = None) -> list[dict] | None:
    """Base generations saved by an earlier attempt, when they answer the same questions in
    order (each row's samples together) and, given `settings`, were made with the same
    ones (`eval_cache_settings`, saved next to them; a file without them is not reused)."""
    if not path.is_file():
        return None
    if settings is not None:
        saved = _settings_file(path)
        if not saved.is_file() or json.loads(saved.read_text(encoding="utf-8")) != \
                json.loads(json.dumps(settings)):
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


TRAIN_LABELS_FILE = "train_knowledge.jsonl"


def known_training_rows(model, tokenizer, task, train: Sequence[dict], cfg: TrainConfig,
                        run_dir: Path, reuse: bool = False) -> tuple[list[dict], dict[str, int]]:
    """Label answerable training rows `known` (base model correct) and, with
    `train_answerable: known`, keep only those next to the unanswerable rows
    (`train_answerable: label` keeps them all, for the reward's `abstain_known`).

    With `train_answerable: known`, answerable training questions the base model does not
    answer correctly (by the same K-sample rule as the held-out labels) are left out, as
    R-Tuning (Zhang et al., 2024) splits training data into what the model knows and what
    it does not. Reason: a small model gets most hard questions wrong, and under the
    calibration reward abstaining (-0.5) beats a wrong answer (-1.0) there; trained on them,
    the policy learns to abstain on whole kinds of questions, known ones included (seen
    here: over-abstention 0 -> 1.0 within 11 steps). The base model's answers and labels go
    to `train_knowledge.jsonl` (reused on `--resume`).
    Returns:
        (kept rows, counts {"answerable", "known", "unanswerable"}).
    """
    from rlvr.tasks.heldout import heldout_rows

    path = run_dir / TRAIN_LABELS_FILE
    answerable = [(i, ex) for i, ex in enumerate(train) if not ex["is_unanswerable"]]
    rows = heldout_rows([{**ex, "id": i} for i, ex in answerable])
    records = None
    if reuse and path.is_file():
        saved = read_jsonl(path)
        if [r["id"] for r in saved] == [r["id"] for r in rows for _ in range(
                cfg.knowledge_samples)]:
            records = saved
    if records is None:
        records = _knowledge_samples(model, tokenizer, task, rows, cfg, "train knowledge")
        write_jsonl(path, records)
    labels = knowledge_labels(records, cfg.knowledge_threshold)
    keep = {i for i, ex in answerable if labels[i]["known"]}
    labelled = [ex if ex["is_unanswerable"] else {**ex, "known": i in keep}
                for i, ex in enumerate(train)]
    if cfg.train_answerable == "label":  # keep every row; the reward reads `known`
        kept = labelled
    else:
        kept = [ex for i, ex in enumerate(labelled) if ex["is_unanswerable"] or i in keep]
    counts = {"answerable": len(answerable), "known": len(keep),
              "unanswerable": len(train) - len(answerable)}
    logger.info("train_answerable=%s: %d of %d answerable training questions known to the "
                "base model; %d unanswerable", cfg.train_answerable, counts["known"],
                counts["answerable"], counts["unanswerable"])
    return kept, counts
