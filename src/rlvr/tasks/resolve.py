"""Turn the `data` option into training and held-out examples.

Accepted forms:
- None: the built-in dataset (`rlvr.data.builtin`);
- a `.json` file in SelfAware format: split on the fly into the configured variant;
- a folder with `train.jsonl` and `<eval_split>.jsonl` in the messages format (what
  `rlvr data selfaware` writes);
- a single messages `.jsonl` file: a seeded 10% of it is held out for evaluation;
- files in a task format (GSM8K, MATH, QA, MBPP, HumanEval, TRL prompt-only rows; see
  `rlvr.tasks.rows`), as a single file or a folder, detected from the first row or
  named by `data_format`; their reward fields travel with the examples (`fields`);
- the name `gsm8k` (when no such path exists): GSM8K's train split for training and its
  test split held out, from the first source that has them (`rlvr.tasks.sources`: a data
  folder, the Hugging Face Hub, or the subsets packaged with rlvr);
- the name `arithmetic`: generated questions in GSM8K's format (`rlvr.data.arithmetic`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rlvr.data.messages import LoadReport, parse_messages_row
from rlvr.tasks.rows import gsm8k_example, load_rows
from rlvr.errors import DataError


@dataclass
class ResolvedData:
    """Training and held-out examples plus where they came from.

    Attributes:
        train, heldout: examples as produced by `parse_messages_row`.
        source: a human-readable description for logs and reports.
        skipped: bad-row messages skipped (only with skip_bad_rows).
    """

    train: list[dict[str, Any]]
    heldout: list[dict[str, Any]]
    source: str
    skipped: list[str] = field(default_factory=list)


def exemplar_turns(exemplars: list | None) -> list[dict[str, str]]:
    """In-context exemplars as chat turns: [[question, answer], ...] (or {question, answer}
    dicts) -> user/assistant messages.

    Raises:
        DataError: an exemplar that is not a (question, answer) pair of non-empty strings.
    """
    turns = []
    for i, pair in enumerate(exemplars or [], start=1):
        if isinstance(pair, dict):
            pair = [pair.get("question"), pair.get("answer")]
        if not (isinstance(pair, (list, tuple)) and len(pair) == 2
                and all(isinstance(x, str) and x.strip() for x in pair)):
            raise DataError(f"prompt_exemplars entry {i} must be [question, answer] (two "
                            f"non-empty strings), got {pair!r}")
        turns += [{"role": "user", "content": pair[0]}, {"role": "assistant", "content": pair[1]}]
    return turns


def with_system_prompt(examples: list[dict[str, Any]], system_prompt: str | None,
                       exemplars: list | None = None) -> list[dict[str, Any]]:
    """Return copies of `examples` whose prompt starts with `system_prompt` as the system
    message (replacing any system message the data had; None keeps the data's), followed
    by the in-context `exemplars` as user/assistant turns, then the question.

    Args:
        exemplars: [[question, answer], ...] (or {question, answer} dicts) shown before
            every question, in training and evaluation alike.
    Raises:
        DataError: a malformed exemplar (see `exemplar_turns`).
    """
    turns = exemplar_turns(exemplars)
    out = []
    for ex in examples:
        if isinstance(ex["prompt"], str):
            raise DataError("system_prompt and prompt_exemplars apply to chat prompts, but "
                            "these rows have plain-text prompts (HumanEval stubs or TRL "
                            "prompt rows); remove both settings or give the rows chat "
                            "messages")
        system = [m for m in ex["prompt"] if m["role"] == "system"]
        if system_prompt is not None:
            system = [{"role": "system", "content": system_prompt}]
        rest = [m for m in ex["prompt"] if m["role"] != "system"]
        out.append({**ex, "prompt": [*system, *turns, *rest]})
    return out


def _parse_rows(rows: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    return [parse_messages_row(row, name, i) for i, row in enumerate(rows, start=1)]


TASK_DATA = ("gsm8k", "arithmetic")  # `data` names with a train split of their own


def task_data(name: str, data_dir: str | None = None) -> ResolvedData:
    """GSM8K by name: the train split for training, the test split held out, each from
    the first source that has it (`rlvr.tasks.sources.DataResolver`; `data_dir` as
    `rlvr eval --data-dir`, default `$RLVR_DATA_DIR`). Rows are GSM8K examples
    (`rlvr.tasks.rows.gsm8k_example`), tagged with their `id`.

    Raises:
        DataError: no source has the split (the message gives the fix).
    """
    from rlvr.tasks.sources import user_data_dir
    from rlvr.tasks.sources import DataResolver
    from rlvr.tasks.registry import get_task

    if name == "arithmetic":
        return arithmetic_data()
    task = get_task(name)
    resolver = DataResolver(data_dir=data_dir if data_dir is not None else user_data_dir())
    train_data, test_data = resolver.fewshot(task), resolver.rows(task)

    def examples(rows: list[dict], where: str) -> list[dict[str, Any]]:
        return [{**gsm8k_example(r["question"], r["solution"], {"id": r["id"]}, where, i),
                 "format": name} for i, r in enumerate(rows, start=1)]

    return ResolvedData(examples(train_data.rows, train_data.source),
                        examples(test_data.rows, test_data.source),
                        f"{name}: train from {train_data.source}; held out: test from "
                        f"{test_data.source}")


def arithmetic_data(n_train: int = 400, n_test: int = 100) -> ResolvedData:
    """`data: arithmetic`: generated questions in GSM8K's format at the default level
    (`rlvr.data.arithmetic`; other levels and sizes: `rlvr data arithmetic`), as GSM8K
    examples (the GSM8K prompt, `final_answer` and `solution` fields)."""
    from rlvr.data.arithmetic import DEFAULT_LEVEL, arithmetic_splits

    splits = arithmetic_splits(n_train, n_test, DEFAULT_LEVEL)
    return ResolvedData(*(
        [{**gsm8k_example(r["question"], r["answer"], {"id": r["id"]}, f"arithmetic:{split}", i),
          "format": "gsm8k"} for i, r in enumerate(splits[split], start=1)]
        for split in ("train", "test")),
        f"arithmetic: {n_train} train and {n_test} held-out questions generated at level "
        f"{DEFAULT_LEVEL} (rlvr.data.arithmetic)")


def resolve_data(data: str | None, eval_split: str = "test", variant: str = "v3",
                 seed: int = 42, skip_bad_rows: bool = False, data_format: str = "auto",
                 data_dir: str | None = None, heldout_fraction: float = 0.1) -> ResolvedData:
    """Load training and held-out examples for a `data` option (see module docstring).

    Args:
        seed: the split's seed (SelfAware's splits, the 10% held out of a single file):
            `rlvr train` passes `rlvr.data.selfaware.SPLIT_SEED` whatever the run's seed,
            so runs of several seeds share their held-out questions.
        data_format: the row format of JSONL files (`rlvr.tasks.rows.formats()`; "auto"
            detects it from each file's first row).
        data_dir: where `data: gsm8k` looks first (see `task_data`).
        heldout_fraction: share of a single file's rows held out (at least one row), in
            (0, 1); splits of a folder, SelfAware and the built-in set are their own.
    Raises:
        DataError: a path that does not exist, a folder without the expected split
            files, or bad rows (unless skip_bad_rows).
    """
    if data is None:
        from rlvr.data.builtin import builtin_splits

        splits = builtin_splits(seed=0)
        return ResolvedData(_parse_rows(splits["train"], "builtin:train"),
                            _parse_rows(splits["test"], "builtin:test"),
                            "built-in dataset (rlvr.data.builtin)")
    if not str(data).strip():
        raise DataError("data is an empty path; pass --data with a messages JSONL, a folder "
                        "of splits, or SelfAware.json (or omit it for the built-in dataset)")
    path = Path(data).expanduser()
    if not path.exists() and str(data) in TASK_DATA:
        return task_data(str(data), data_dir)
    if not path.exists():
        raise DataError("data path does not exist; pass --data with a JSONL file (messages, "
                        "GSM8K, MATH, QA, MBPP or HumanEval rows), a folder of splits, "
                        "SelfAware.json, gsm8k or arithmetic (or omit it for the built-in dataset)", str(path))
    if path.is_file() and path.suffix == ".json":
        from rlvr.data.selfaware import build_selfaware_splits, load_selfaware_json

        splits = build_selfaware_splits(load_selfaware_json(path), variant, seed)
        if eval_split not in splits:
            raise DataError(f"variant {variant} has no {eval_split!r} split; it has "
                            f"{sorted(splits)}", str(path))
        return ResolvedData(_parse_rows(splits["train"], f"{path}:train"),
                            _parse_rows(splits[eval_split], f"{path}:{eval_split}"),
                            f"{path} (SelfAware {variant}, split seed {seed})")
    report = LoadReport(str(path))
    if path.is_dir():
        train_file, eval_file = path / "train.jsonl", path / f"{eval_split}.jsonl"
        for f in (train_file, eval_file):
            if not f.is_file():
                raise DataError(f"folder has no {f.name}; expected train.jsonl and "
                                f"{eval_split}.jsonl (set eval_split to choose another split)",
                                str(path))
        train = load_rows(train_file, data_format, skip_bad_rows, report)
        heldout_report = LoadReport(str(eval_file))
        heldout = load_rows(eval_file, data_format, skip_bad_rows, heldout_report)
        return ResolvedData(train, heldout, str(path), report.skipped + heldout_report.skipped)
    rows = load_rows(path, data_format, skip_bad_rows, report)
    if len(rows) < 2:
        raise DataError("need at least 2 rows to hold one out for evaluation", str(path))
    order = list(range(len(rows)))
    random.Random(seed).shuffle(order)
    n_heldout = min(len(rows) - 1, max(1, int(len(rows) * heldout_fraction + 1e-9)))
    heldout = [rows[i] for i in sorted(order[:n_heldout])]
    train = [rows[i] for i in sorted(order[n_heldout:])]
    return ResolvedData(train, heldout, f"{path} (seeded {heldout_fraction:.0%} held out)",
                        report.skipped)
