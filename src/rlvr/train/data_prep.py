"""Training rows for `rlvr train`: resolve the data, cap unanswerable rows, build columns.

`prepare_data(cfg)` resolves the configured data (built-in, messages JSONL, a folder of
splits or SelfAware.json), applies `train_limit`, `mix_builtin`, the system prompt and
exemplars and `eval_limit`, and refuses held-out questions that are also training or
exemplar questions. `cap_unanswerable` and `training_columns` shape the TRL dataset.
"""

from __future__ import annotations

import logging
import random

from rlvr.config import TrainConfig
from rlvr.data.messages import gold_answers
from rlvr.data.resolve import exemplar_turns, resolve_data, with_system_prompt
from rlvr.eval.heldout import check_overlap, normalise_question

logger = logging.getLogger(__name__)


def cap_unanswerable(train: list[dict], share: float, seed: int) -> list[dict]:
    """Subsample unanswerable rows (seeded) so they are at most `share` of the rows.

    With a answerable rows, at most floor(share * a / (1 - share)) unanswerable rows are
    kept; e.g. 64 answerable and share 0.4 keep floor(0.4 * 64 / 0.6) = 42. Row order is
    kept. Reason: trained on mostly unanswerable rows, the strong "I don't know" signal
    spreads to answerable questions (over-abstention), see configs/selfaware_grpo_cpu.yaml.
    """
    answerable = [ex for ex in train if not ex["is_unanswerable"]]
    unanswerable = [i for i, ex in enumerate(train) if ex["is_unanswerable"]]
    limit = int(share * len(answerable) / (1 - share) + 1e-9)
    if len(unanswerable) <= limit:
        return train
    keep = set(random.Random(seed).sample(unanswerable, limit))
    logger.info("max_unanswerable_share=%g: training on %d of %d unanswerable rows next to %d "
                "answerable", share, limit, len(unanswerable), len(answerable))
    return [ex for i, ex in enumerate(train) if not ex["is_unanswerable"] or i in keep]


def training_columns(train: list[dict], with_known: bool = False) -> dict[str, list]:
    """The columns of the TRL training dataset (`datasets.Dataset.from_dict(columns)`).

    Args:
        train: parsed training examples (`prompt`, `is_unanswerable`, `expected_answer`,
            optionally `answers` and `known`).
        with_known: add the reward's optional `known` column (`train_answerable: label`).
    Returns:
        {"prompt", "expected_answer", "is_unanswerable"[, "known"]}: one value per row.
        `expected_answer` is `gold_answers` of each row: a list of every accepted answer,
        or None for an unanswerable row, so the column has one Arrow type (list of
        strings, nullable) even when the data mixes rows with and without `answers`.
    """
    columns = {
        "prompt": [ex["prompt"] for ex in train],
        "expected_answer": [gold_answers(ex) for ex in train],
        "is_unanswerable": [ex["is_unanswerable"] for ex in train],
    }
    if with_known:
        columns["known"] = [ex.get("known") for ex in train]
    return columns


def prepare_data(cfg: TrainConfig):
    """Resolve the data of `cfg` (see the module docstring).

    Returns:
        (data, train, heldout): the `ResolvedData` (source, skipped rows), the training
        examples and the held-out examples, each tagged with its `source`.
    Raises:
        DataError: bad data, or held-out questions that are also training or exemplar
            questions.
    """
    data = resolve_data(cfg.data, cfg.eval_split, cfg.selfaware_variant, cfg.seed,
                        cfg.skip_bad_rows)
    source = "builtin" if cfg.data is None else "selfaware" if str(cfg.data).endswith(".json") \
        else "data"
    train = [{**ex, "source": ex.get("source", source)} for ex in data.train]
    heldout = [{**ex, "source": ex.get("source", source)} for ex in data.heldout]
    if cfg.train_limit is not None and cfg.train_limit < len(train):
        random.Random(cfg.seed).shuffle(train)
        train = train[:cfg.train_limit]
    if cfg.mix_builtin and cfg.data is not None:
        builtin = resolve_data(None)
        train += [{**ex, "source": "builtin"} for ex in builtin.train]
        heldout = [{**ex, "source": "builtin"} for ex in builtin.heldout] + heldout
        random.Random(cfg.seed).shuffle(train)
    if cfg.system_prompt is not None or cfg.prompt_exemplars:
        train = with_system_prompt(train, cfg.system_prompt, cfg.prompt_exemplars)
        heldout = with_system_prompt(heldout, cfg.system_prompt, cfg.prompt_exemplars)
    heldout = heldout[:cfg.eval_limit] if cfg.eval_limit is not None else heldout
    check_overlap(heldout, {normalise_question(ex["question"]) for ex in train}, data.source)
    shown = {normalise_question(t["content"]) for t in exemplar_turns(cfg.prompt_exemplars)
             if t["role"] == "user"}
    check_overlap(heldout, shown, "prompt_exemplars")
    logger.info("data: %s; %d training rows, %d held-out questions%s", data.source, len(train),
                len(heldout), f", {len(data.skipped)} bad rows skipped" if data.skipped else "")
    return data, train, heldout
