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
# the training rows a run labels (`label_pool`): LABEL_MARGIN x the prompts it can draw, and
# never fewer than LABEL_FLOOR kept rows; a pool is used only when the answerable rows are
# more than POOL_WORTH x the pool (else labelling them all, in one call, costs little more)
LABEL_MARGIN = 2
LABEL_FLOOR = 64
POOL_WORTH = 2
LABEL_CHUNK = 128  # answerable rows labelled per call when the pool is smaller than the data
POOL_SEED = 0  # one walk order for every seed and arm, so they share labels and the cache


def label_pool(draws: int | None, margin: int = LABEL_MARGIN, floor: int = LABEL_FLOOR
               ) -> int | None:
    """Training rows a run should keep after labelling: `margin` x `draws` (the prompts its
    steps can draw: max_steps x prompts per step), at least `floor`; None (label every row)
    when `draws` is unknown (an epoch-based run, a curriculum).

    Why a margin and a floor: the run samples its prompts from the kept rows, so a pool of
    twice its draws leaves it a random choice as the full data would, and the floor keeps a
    very short run on varied rows. `known_training_rows` uses the pool only when the
    answerable rows are more than `POOL_WORTH` x the pool (the main job: 389 answerable rows,
    a pool of 2 x 160 = 320, so it labels every row in one call, as before).
    """
    return None if draws is None else max(margin * draws, floor)


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
                        reuse: bool = False, generator=None,
                        pool: int | None = None) -> tuple[list[dict], dict[str, int]]:
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
    `generator` (default: `model`) generates the answers, e.g. the run's vLLM engine
    (`rlvr.eval.run_engine`); `model`'s weights key the label cache.

    `pool` (`label_pool`): label only until `pool` rows would be kept. The rows are walked in
    one fixed random order (`POOL_SEED`, the same for every seed and arm), answerable rows
    labelled `LABEL_CHUNK` at a time (each chunk its own label-cache entry), unanswerable
    rows kept as met; the walk stops once the kept rows reach `pool`, and rows not reached
    are left out of the run. Walking in a random order keeps the known / unanswerable mix of
    the whole data. None, or a pool of at least 1 / `POOL_WORTH` of the answerable rows
    (labelling them all costs at most that factor more), labels every row in one call, in
    the data's order, as without a pool.
    Sampled labels (K > 1) are drawn with one seed, `POOL_SEED`, not the run's: the base
    model's knowledge is one estimate per model, prompt and sampling setting, so every seed
    and arm trains on the same known rows and shares one label-cache entry.
    Returns:
        (kept rows, in the data's order; counts {"answerable", "known", "unanswerable",
        and "labelled" / "left_out" when the pool left rows out}).
    """
    generation = generation.replace(seed=POOL_SEED)
    if pool is not None:
        answerable_rows = sum(1 for ex in train if not ex["is_unanswerable"])
        if answerable_rows > POOL_WORTH * pool:
            return _pooled_rows(model, tokenizer, task, train, knowledge, generation,
                                train_answerable, run_dir, reuse, generator, pool)
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
    if records is None:
        records = _label_rows(model, tokenizer, task, rows, knowledge, generation, generator)
        write_jsonl(path, records)
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


def _label_rows(model, tokenizer, task, rows: Sequence[dict], knowledge: KnowledgeSettings,
                generation: EvalSettings, generator) -> list[dict[str, Any]]:
    """K scored answers per row: from the label cache when it holds them (with
    `knowledge.cache`), else generated (and cached)."""
    key = None
    if knowledge.cache:
        records, key = _from_label_cache(model, tokenizer, task, rows, knowledge, generation)
        if records is not None:
            return records
    records = _knowledge_samples(generator or model, tokenizer, task, rows, knowledge,
                                 generation, "train knowledge")
    if key is not None:
        from rlvr.eval.label_cache import save_answers

        save_answers(key, records)
    return records


def _pooled_rows(model, tokenizer, task, train: Sequence[dict], knowledge: KnowledgeSettings,
                 generation: EvalSettings, train_answerable: str, run_dir: Path, reuse: bool,
                 generator, pool: int) -> tuple[list[dict], dict[str, int]]:
    """`known_training_rows` with a pool (its docstring): walk, label by chunks, stop at
    `pool` kept rows; `train_knowledge.jsonl` holds the labelled rows' answers."""
    import random

    from rlvr.tasks.heldout import heldout_rows

    path = run_dir / TRAIN_LABELS_FILE
    order = list(range(len(train)))
    random.Random(POOL_SEED).shuffle(order)
    saved: dict[Any, list[dict]] = {}
    if reuse and path.is_file():
        for rec in read_jsonl(path):
            saved.setdefault(rec["id"], []).append(rec)
    labelled: dict[int, bool] = {}  # answerable row index -> known
    records_out: list[dict] = []
    reached, kept, position = set(), 0, 0
    while position < len(order) and kept < pool:
        chunk, unanswerable = [], []
        while position < len(order) and len(chunk) < LABEL_CHUNK and \
                kept + len(unanswerable) < pool:
            i = order[position]
            position += 1
            (unanswerable if train[i]["is_unanswerable"] else chunk).append(i)
        reached.update(unanswerable)
        kept += len(unanswerable)
        if not chunk:
            continue
        rows = heldout_rows([{**train[i], "id": i} for i in chunk])
        if all(len(saved.get(i, ())) == knowledge.samples for i in chunk):
            records = [rec for i in chunk for rec in saved[i]]
        else:
            records = _label_rows(model, tokenizer, task, rows, knowledge, generation,
                                  generator)
        labels = knowledge_labels(records, knowledge.threshold)
        for i in chunk:
            labelled[i] = bool(labels[i]["known"])
        reached.update(chunk)
        records_out += records
        kept += sum(labelled[i] for i in chunk) if train_answerable == "known" else len(chunk)
    write_jsonl(path, records_out)
    kept_rows = []
    for i in sorted(reached):
        ex = train[i]
        if ex["is_unanswerable"]:
            kept_rows.append(ex)
        elif train_answerable == "label":
            kept_rows.append({**ex, "known": labelled[i]})
        elif labelled[i]:
            kept_rows.append({**ex, "known": True})
    answerable = sum(1 for ex in train if not ex["is_unanswerable"])
    counts = {"answerable": answerable, "known": sum(labelled.values()),
              "unanswerable": len(train) - answerable, "labelled": len(labelled),
              "left_out": len(train) - len(reached)}
    logger.info("train_answerable=%s: labelled %d of %d answerable training questions (a "
                "pool of %d rows for this run's steps), %d known; %d rows left out",
                train_answerable, counts["labelled"], answerable, pool, counts["known"],
                counts["left_out"])
    return kept_rows, counts
