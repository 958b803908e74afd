"""Which questions the base model knows: the knowledge labels of the held-out rows and of
the answerable training rows (`train_answerable: known|label`).

The base model's knowledge of each answerable question is estimated from K answers
(`KnowledgeSettings`: `knowledge_samples` at `knowledge_temperature`; K = 1 at temperature
0 reuses its greedy held-out answers), known when the share correct is at least
`knowledge_threshold` (`rlvr.eval.knowledge.knowledge_labels`). The held-out labels go to
`knowledge_labels.json` (plus `knowledge_samples_base.jsonl` when sampled), so the report
can be rebuilt offline (`rlvr.eval.knowledge.knowledge_report`); the training rows' answers
go to `train_knowledge.jsonl`. Both are reused on `--resume` when they match.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Sequence

from rlvr.eval.knowledge import LABELS_FILE, knowledge_labels, read_labels_file
from rlvr.eval.settings import EvalSettings, KnowledgeSettings
from rlvr.io import read_jsonl, write_json, write_jsonl

logger = logging.getLogger(__name__)

SAMPLES_FILE = "knowledge_samples_base.jsonl"
TRAIN_LABELS_FILE = "train_knowledge.jsonl"


def knowledge_for_run(model, tokenizer, task, rows: Sequence[dict],
                      base_records: Sequence[dict], knowledge: KnowledgeSettings,
                      generation: EvalSettings, run_dir: Path,
                      reuse: bool = False) -> dict[Any, dict]:
    """Label each held-out question known / unknown for the base model (module docstring).

    Args:
        model: the base model (before training).
        rows: the held-out rows; base_records: its scored greedy answers to them.
        knowledge: K, temperature and threshold; generation: the held-out settings (batch
            size, seed, token cap) the K answers are sampled with.
        reuse: take `knowledge_labels.json` from an earlier attempt of this run when it
            covers the same questions with the same `knowledge` (for `--resume`).
    Returns:
        `rlvr.eval.knowledge.knowledge_labels` output, keyed by question id.
    """
    labels_file = run_dir / LABELS_FILE
    ids = [r["id"] for r in rows]
    if reuse and labels_file.is_file():
        settings, saved = read_labels_file(labels_file)
        if list(saved) == ids and settings == knowledge.as_dict():
            logger.info("reusing knowledge labels from %s", labels_file)
            return saved
    if knowledge.reuses_greedy:
        samples = list(base_records)
    else:
        answerable = [r for r in rows if not r["is_unanswerable"]]
        samples = _knowledge_samples(model, tokenizer, task, answerable, knowledge,
                                     generation, "knowledge")
        write_jsonl(run_dir / SAMPLES_FILE, samples)
        samples += [{"id": r["id"], "is_unanswerable": True, "outcome": None}
                    for r in rows if r["is_unanswerable"]]
    labels = knowledge_labels(samples, knowledge.threshold)
    write_json(labels_file, {"settings": knowledge.as_dict(),
                             "labels": [{"id": i, **labels[i]} for i in ids if i in labels]})
    return labels


def _knowledge_samples(model, tokenizer, task, rows: Sequence[dict],
                       knowledge: KnowledgeSettings, generation: EvalSettings,
                       label: str) -> list[dict[str, Any]]:
    """K scored answers per row (`knowledge.samples` at `knowledge.temperature`)."""
    from rlvr.eval.runner import generate_task_records

    settings = generation.replace(num_samples=knowledge.samples,
                                  temperature=knowledge.temperature)
    return generate_task_records(model, tokenizer, task, list(rows), [], settings.generation(),
                                 label)


def _from_label_cache(model, tokenizer, task, rows: Sequence[dict],
                      knowledge: KnowledgeSettings, generation: EvalSettings
                      ) -> tuple[list[dict] | None, str]:
    """(the cached answers to `rows`, rescored with the installed grader, or None; the
    cache key) for the labelling call `_knowledge_samples` would make
    (`rlvr.eval.label_cache`)."""
    from rlvr.eval.label_cache import answers_key, cached_answers, weights_digest
    from rlvr.eval.runner import rescore_records

    settings = generation.replace(num_samples=knowledge.samples,
                                  temperature=knowledge.temperature)
    key = answers_key(weights_digest(model), tokenizer, task, rows,
                      {**settings.generation(), "engine": settings.engine,
                       "dtype": settings.dtype})
    records = cached_answers(key, len(rows) * knowledge.samples)
    if records is None:
        return None, key
    logger.info("reusing the base model's %d answers to the training rows from the label "
                "cache (key %s...)", len(records), key[:12])
    return rescore_records(task, records), key


def known_training_rows(model, tokenizer, task, train: Sequence[dict],
                        knowledge: KnowledgeSettings, generation: EvalSettings,
                        train_answerable: str, run_dir: Path,
                        reuse: bool = False) -> tuple[list[dict], dict[str, int]]:
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
    to `train_knowledge.jsonl` (reused on `--resume`); with `knowledge.cache` they are also
    taken from and kept in the label cache across runs (`rlvr.eval.label_cache`).
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
                knowledge.samples)]:
            records = saved
    key = None
    if records is None and knowledge.cache:
        records, key = _from_label_cache(model, tokenizer, task, rows, knowledge, generation)
        if records is not None:
            write_jsonl(path, records)
    if records is None:
        records = _knowledge_samples(model, tokenizer, task, rows, knowledge, generation,
                                     "train knowledge")
        write_jsonl(path, records)
        if key is not None:
            from rlvr.eval.label_cache import save_answers

            save_answers(key, records)
    labels = knowledge_labels(records, knowledge.threshold)
    keep = {i for i, ex in answerable if labels[i]["known"]}
    labelled = [ex if ex["is_unanswerable"] else {**ex, "known": i in keep}
                for i, ex in enumerate(train)]
    if train_answerable == "label":  # keep every row; the reward reads `known`
        kept = labelled
    else:
        kept = [ex for i, ex in enumerate(labelled) if ex["is_unanswerable"] or i in keep]
    counts = {"answerable": len(answerable), "known": len(keep),
              "unanswerable": len(train) - len(answerable)}
    logger.info("train_answerable=%s: %d of %d answerable training questions known to the "
                "base model; %d unanswerable", train_answerable, counts["known"],
                counts["answerable"], counts["unanswerable"])
    return kept, counts
