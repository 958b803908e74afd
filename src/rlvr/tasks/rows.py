"""Training rows for the task rewards: GSM8K, MATH-style, QA, MBPP, HumanEval and TRL's
prompt-only format, next to the messages format of `rlvr.data.messages`.

Every adapter turns one JSON row into a training example with the keys the rest of rlvr
reads (`prompt`, `question`, `expected_answer`, `is_unanswerable`, optionally `id`) plus
`fields`: the row's columns for the rewards (TRL passes every dataset column to the reward
functions as keyword arguments; `rlvr.train.data_prep.training_columns` turns the fields
the configured rewards declare into dataset columns).

| format      | row keys (extra keys are kept as fields)                    | prompt                      | fields for the rewards |
|-------------|-------------------------------------------------------------|-----------------------------|------------------------|
| `messages`  | `messages` (+ `is_unanswerable`, `answers`, any field)      | the system and user turns   | every other key (`final_answer`, `solution`, `aliases`, `test_list`, ...) |
| `prompt`    | `prompt` (text or chat messages), any field (TRL's prompt-only rows) | as given            | every other key |
| `gsm8k`     | `question`, `answer` ending in `#### N` (GSM8K)            | GSM8K system + question     | `final_answer` (N), `solution` (the worked answer) |
| `math`      | `problem`, `solution` (+ `answer`) (MATH, MATH-500)         | MATH system + problem       | `solution`: the `answer` when given, else the full solution (its `\\boxed{}` counts) |
| `qa`        | `question` + `answer` and/or `aliases`; or TriviaQA's `context` "Question: ...\\nAnswer:" | QA system + question | `answer`, `aliases` |
| `mbpp`      | `text`, `test_list` (+ `test_setup_code`, `code`) (MBPP)    | the `mbpp` eval task's prompt | `test_list`, `test_setup_code`, `code` (reference, for the preflight) |
| `humaneval` | `task_id`, `prompt` (the stub), `test`, `entry_point` (+ `canonical_solution`) | the stub as raw text (no chat template), as the `humaneval` eval task | `test`, `entry_point`, `canonical_solution` |

HumanEval rows keep the stub as a plain-text prompt: TRL never passes the `prompt` column
to reward functions, it passes `prompts`, which `rlvr.rewards.registry.make_trl_reward` feeds
to the `code` reward's `prompt` field, so the program is the stub plus the completion.
The formats that belong to an evaluation task (`gsm8k`, `qa` for `triviaqa`, `mbpp`,
`humaneval`) are declared with that task in `rlvr.tasks.registry` (`EvalTask.train_rows`), so one
registry describes a task: its prompt, its scoring and its training rows, and training and
evaluation ask alike. This module keeps the formats of no task (`messages`, `prompt`, `math`)
and the parsers. Format `auto` picks the format from the first row's keys (`detect_format`).
"""

from __future__ import annotations

from typing import Any

from rlvr.errors import DataError
from rlvr.tasks.registry import TASKS
from rlvr.tasks.row_parsers import (GENERIC_FORMATS, RowFormat, gsm8k_example, gsm8k_row,  # noqa: F401
                                    has_qa_keys, humaneval_row, looks_like_gsm8k, mbpp_row, qa_row)


def detect_format(obj: Any) -> str | None:
    """The row format a JSON row looks like (see the module table), or None.

    Formats are tried in `RowFormat.detect_rank` order (lowest first), each with its
    `looks_like` test: `messages` (0); `humaneval` (10: prompt + test + entry_point, before
    `prompt`); `prompt` (20); `gsm8k` (30: question + an answer with `####`, before `qa`);
    `math` (40: problem + solution); `mbpp` (50: text + test_list); `qa` (60: question +
    answer or aliases, or context + answer).
    """
    if not isinstance(obj, dict):
        return None
    for row_format in sorted(row_formats().values(), key=lambda f: f.detect_rank):
        if row_format.looks_like(obj):
            return row_format.name
    return None


def row_formats() -> dict[str, RowFormat]:
    """Every training row format by name: the generic ones (`GENERIC_FORMATS`), then each
    registered task's `train_rows` in registration order (a name already taken keeps its
    first declaration), so a task registered by a user brings its rows with it."""
    found = {f.name: f for f in GENERIC_FORMATS}
    for task in TASKS.values():
        if task.train_rows is not None:
            found.setdefault(task.train_rows.name, task.train_rows)
    return found


def formats() -> tuple[str, ...]:
    """The `data_format` values: "auto" and every row format's name (`row_formats`)."""
    return ("auto", *row_formats())




def has_keys(obj: dict, fmt: str) -> bool:
    """Whether a row has the keys format `fmt` needs (`RowFormat.matches`)."""
    return row_formats()[fmt].matches(obj)


def parse_row(obj: Any, fmt: str, path: str, line: int) -> dict[str, Any]:
    """Turn one JSON row of format `fmt` (not "auto") into a training example.

    Raises:
        DataError: not a JSON object, or a row without its format's keys (names the file,
            line, the format and the keys it needs, and `data_format` as the fix).
    """
    if not isinstance(obj, dict):
        raise DataError(f"expected a JSON object, got {type(obj).__name__}", path, line)
    row_format = row_formats()[fmt]
    if not row_format.matches(obj):
        raise DataError(f"not a {fmt} row (it needs {row_format.needs}; it has "
                        f"{sorted(obj)}); give every row that format, or set data_format "
                        f"to the rows' format (one of {', '.join(formats()[1:])})", path, line)
    return row_format.parse(obj, path, line)


def resolve_format(first: Any, fmt: str, path: str) -> str:
    """`fmt`, or for "auto" the format of the file's first row.

    Raises:
        DataError: unknown format, or "auto" and the first row matches no format.
    """
    if fmt not in formats():
        raise DataError(f"unknown data_format {fmt!r}; use one of {', '.join(formats())}", path)
    if fmt != "auto":
        return fmt
    found = detect_format(first)
    if found is None:
        keys = sorted(first) if isinstance(first, dict) else type(first).__name__
        needs = "; ".join(f"{f.name}: {f.needs}" for f in row_formats().values())
        raise DataError(f"cannot tell the row format from the first row's keys {keys}; "
                        f"rows need the keys of one format ({needs}), or set data_format",
                        path, 1)
    return found


def load_rows(path, fmt: str = "auto", skip_bad_rows: bool = False, report=None) -> list[dict]:
    """Load a JSONL file of training rows in format `fmt` ("auto": the first row's format).

    Messages files go through `rlvr.data.messages.load_messages_jsonl` unchanged.
    Args:
        skip_bad_rows: skip (and count in `report`, a `LoadReport`) malformed rows instead
            of raising.
    Raises:
        DataError: missing or empty file, no recognisable format, or (unless skipping) the
            first bad row, naming file and line.
    """
    from rlvr.data.messages import LoadReport, load_messages_jsonl
    from rlvr.io import iter_jsonl

    path = str(path)
    report = report if report is not None else LoadReport(path)
    rows = list(iter_jsonl(path, tolerant=skip_bad_rows))
    first = next((obj for _, obj in rows if not isinstance(obj, DataError)), None)
    if fmt in ("auto", "messages") and (not isinstance(first, dict)
                                         or detect_format(first) == "messages"):
        return load_messages_jsonl(path, skip_bad_rows, report)
    fmt = resolve_format(first, fmt, path)
    if fmt == "messages":
        return load_messages_jsonl(path, skip_bad_rows, report)
    examples = []
    for line, obj in rows:
        try:
            if isinstance(obj, DataError):
                raise obj
            examples.append({**parse_row(obj, fmt, path, line), "format": fmt})
        except DataError as exc:
            if not skip_bad_rows:
                raise
            report.skipped.append(str(exc))
    report.kept = len(examples)
    if not examples:
        raise DataError(f"no usable {fmt} rows" + (f" (first bad row: {report.skipped[0]})"
                                                   if report.skipped else ""), path)
    return examples
