"""Training rows for `rlvr train`: resolve the data, cap unanswerable rows, build columns.

`prepare_data(cfg)` resolves the configured data (built-in, messages or task-format
JSONL, a folder of splits, SelfAware.json or `gsm8k`; `rlvr.tasks.resolve`), applies `train_limit`, `mix_builtin`, the system prompt and
exemplars and `eval_limit`, and refuses held-out questions that are also training or
exemplar questions. `cap_unanswerable` and `training_columns` shape the TRL dataset.
"""

from __future__ import annotations

import logging
import random
from typing import Any

from rlvr.config import TrainConfig
from rlvr.data.messages import gold_answers
from rlvr.data.selfaware import SPLIT_SEED
from rlvr.tasks.resolve import exemplar_turns, resolve_data, with_system_prompt
from rlvr.errors import DataError
from rlvr.tasks.heldout import check_overlap, normalise_question

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


# columns TRL never passes to reward functions (`GRPOTrainer._calculate_rewards`) or that
# rlvr builds itself; `prompt` reaches rewards through TRL's `prompts` argument
NOT_DATA_COLUMNS = ("prompt", "completion", "completion_ids", "expected_answer",
                    "is_unanswerable", "known")


def reward_columns(entries: list[dict[str, Any]] | None = None) -> list[str]:
    """Every dataset field the rewards of `entries` read (required, optional and
    alternatives; for `cosine_scaled` with a `base`, the base reward's too), in
    declaration order; `entries=None` means every registered reward."""
    from rlvr.rewards import REWARDS, get_reward

    specs = ([get_reward(e["name"]) for e in entries] if entries is not None
             else list(REWARDS.values()))
    for entry in entries or []:
        base = (entry.get("params") or {}).get("base")
        if entry["name"] == "cosine_scaled" and isinstance(base, str):
            specs.append(get_reward(base))
    names: dict[str, None] = {}
    for spec in specs:
        names.update(dict.fromkeys(spec.fields + spec.optional_fields + spec.required_any))
    return [n for n in names if n not in NOT_DATA_COLUMNS]


def column_values(name: str, values: list[Any]) -> list[Any]:
    """One column's values with one Arrow type: numbers mixed with text become text, a
    text among lists becomes a one-item list, list items become text; None stays None.

    Raises:
        DataError: objects (dicts) or lists mixed with other kinds the rule cannot join.
    """
    present = [v for v in values if v is not None]
    if all(isinstance(v, bool) for v in present):
        return values
    if any(isinstance(v, dict) for v in present) or (
            any(isinstance(v, list) for v in present)
            and not all(isinstance(v, (list, str)) for v in present)):
        kinds = sorted({type(v).__name__ for v in present})
        raise DataError(f"training field {name!r} holds {' and '.join(kinds)} values; give it "
                        "one kind in every row (text, a number or a list of text)")
    if any(isinstance(v, list) for v in present):
        out = []
        for v in values:
            items = [v] if isinstance(v, str) else v
            if items is not None and any(isinstance(i, (list, dict)) for i in items):
                raise DataError(f"training field {name!r} holds nested lists; give it a list "
                                "of text in every row")
            out.append(None if items is None else [str(i) for i in items])
        return out
    if all(isinstance(v, str) for v in present) or all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        return values
    return [None if v is None else str(v) for v in values]


def training_columns(train: list[dict], with_known: bool = False,
                     entries: list[dict[str, Any]] | None = None) -> dict[str, list]:
    """The columns of the TRL training dataset (`datasets.Dataset.from_dict(columns)`).

    TRL passes every column but `prompt` to the reward functions as keyword arguments, so
    every field a reward reads must be a column (`rlvr.train.checks.check_reward_fields`
    refuses a run whose rewards lack one before any model loads).
    Args:
        train: parsed training examples (`prompt`, `is_unanswerable`, `expected_answer`,
            optionally `answers`, `known` and `fields`, the row's other keys:
            `rlvr.tasks.rows`).
        with_known: add the reward's optional `known` column (`train_answerable: label`).
        entries: the run's reward entries (`rlvr.train.checks.reward_entries`); the fields
            they read (`reward_columns`) that any row has become columns (every field of
            the rows when a user function takes `**fields`). None = the fields of every
            registered reward.
    Returns:
        {"prompt", "expected_answer", "is_unanswerable"[, "known"], <reward fields>}: one
        value per row (None where a row lacks a field), each column of one Arrow type
        (`column_values`). `expected_answer` is `gold_answers` of each row: a list of
        every accepted answer, or None for an unanswerable row.
    Raises:
        DataError: prompts mixing plain text and chat messages, or a field whose values
            cannot share one type.
    """
    prompts = [ex["prompt"] for ex in train]
    if len({isinstance(p, str) for p in prompts}) > 1:
        raise DataError("the training rows mix plain-text and chat prompts; TRL needs one "
                        "kind: give every row chat messages, or every row a text prompt")
    columns = {
        "prompt": prompts,
        "expected_answer": [gold_answers(ex) for ex in train],
        "is_unanswerable": [ex["is_unanswerable"] for ex in train],
    }
    if with_known:
        columns["known"] = [ex.get("known") for ex in train]
    from rlvr.rewards import get_reward

    names = reward_columns(entries)
    if any(get_reward(e["name"]).all_fields for e in entries or []):  # a user's `**fields`
        names += [k for k in dict.fromkeys(k for ex in train for k in ex.get("fields") or {})
                  if k not in names and k not in NOT_DATA_COLUMNS]
    for name in names:
        values = [(ex.get("fields") or {}).get(name) for ex in train]
        if any(v is not None for v in values):
            columns[name] = column_values(name, values)
    return columns


def out_of_template_split(cfg: TrainConfig) -> str | None:
    """The split of the out-of-template set a run evaluates on (`out_of_template`), or None:
    `auto` is `test` for a calibration run on the built-in data, else None."""
    from rlvr.config.reward_setup import is_task_run

    if cfg.out_of_template == "none":
        return None
    if cfg.out_of_template == "auto":
        return "test" if cfg.data is None and not is_task_run(cfg) else None
    return cfg.out_of_template


def out_of_template_rows(split: str) -> list[dict[str, Any]]:
    """The out-of-template rows of `split` as held-out examples, tagged with their source
    (`rlvr.data.out_of_template.SOURCE`) and `kind` (in `fields`)."""
    from rlvr.data.messages import parse_messages_row
    from rlvr.data.out_of_template import SOURCE, out_of_template_splits

    rows = out_of_template_splits()[split]
    return [{**parse_messages_row(row, f"{SOURCE}:{split}", i), "source": SOURCE}
            for i, row in enumerate(rows, start=1)]


def prepare_data(cfg: TrainConfig):
    """Resolve the data of `cfg` (see the module docstring).

    Returns:
        (data, train, heldout): the `ResolvedData` (source, skipped rows), the training
        examples and the held-out examples, each tagged with its `source`.
    Raises:
        DataError: bad data, or held-out questions that are also training or exemplar
            questions.
    """
    # the split is the data's, whatever the run's seed: every seed has the same held-out rows
    data = resolve_data(cfg.data, cfg.eval_split, cfg.selfaware_variant, SPLIT_SEED,
                        cfg.skip_bad_rows, cfg.data_format, cfg.eval_data_dir,
                        cfg.heldout_fraction)
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
    heldout = heldout[:cfg.eval_limit] if cfg.eval_limit is not None else heldout
    split = out_of_template_split(cfg)
    if split is not None:  # eval_limit limits each held-out set
        heldout += out_of_template_rows(split)[:cfg.eval_limit]
    if cfg.system_prompt is not None or cfg.prompt_exemplars:
        train = with_system_prompt(train, cfg.system_prompt, cfg.prompt_exemplars)
        heldout = with_system_prompt(heldout, cfg.system_prompt, cfg.prompt_exemplars)
    check_overlap(heldout, {normalise_question(ex["question"]) for ex in train}, data.source,
                  "the data repeats questions, and the train/held-out split put copies of one "
                  "question on both sides; remove the duplicate rows from the data")
    shown = {normalise_question(t["content"]) for t in exemplar_turns(cfg.prompt_exemplars)
             if t["role"] == "user"}
    check_overlap(heldout, shown, "prompt_exemplars",
                  "choose prompt_exemplars whose questions are not in the data")
    logger.info("data: %s; %d training rows, %d held-out questions%s", data.source, len(train),
                len(heldout), f", {len(data.skipped)} bad rows skipped" if data.skipped else "")
    return data, train, heldout
