"""Loader for the seed training format: JSONL rows with `messages`.

Each row looks like::

    {"messages": [{"role": "system", "content": "..."},
                  {"role": "user", "content": "What is ...?"},
                  {"role": "assistant", "content": "Paris"}],
     "is_unanswerable": false,          # optional; inferred when absent
     "answers": ["Paris", "paris, france"]}  # optional; every accepted answer

and becomes a training example with `prompt` (the system and user messages), the
`expected_answer` (the assistant text), `is_unanswerable` and `fields`: the row's other keys
(`final_answer`, `solution`, `aliases`, `test_list`, ...), which become training columns
when a configured reward reads them (`rlvr.train.data_prep.training_columns`), as TRL
passes dataset columns to reward functions. `gold_answers` gives the
answers a reward accepts: the whole `answers` list when the row has one (SelfAware rows
carry every answer of the source file), else the assistant text.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rlvr.errors import DataError
from rlvr.io import iter_jsonl
from rlvr.rewards.abstention_detection import is_abstention

logger = logging.getLogger(__name__)


# keys every example has; a row field of the same name is kept only in `fields`
RESERVED = ("prompt", "question", "expected_answer", "is_unanswerable", "id", "source",
            "fields", "answers", "format")


def extra_fields(obj: dict, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """The row's keys that are not rlvr's own (`RESERVED`, `messages`, `skip`)."""
    return {k: v for k, v in obj.items() if k not in RESERVED + skip + ("messages",)}


@dataclass
class LoadReport:
    """What a load did: rows kept and rows skipped (with their reasons)."""

    path: str
    kept: int = 0
    skipped: list[str] = field(default_factory=list)


def bool_field(obj: dict, key: str, path: str, line: int) -> bool | None:
    """A row's flag (`is_unanswerable`): a JSON boolean, or None when absent or null.

    Raises:
        DataError (file, line): any other value, text such as "true" or "yes" included, so
            that a flag written as a string is never read as false.
    """
    flag = obj.get(key)
    if flag is None or isinstance(flag, bool):
        return flag
    raise DataError(f"{key!r} must be true or false (a JSON boolean, no quotes), got "
                    f"{flag!r}", path, line)


def parse_messages_row(obj: Any, path: str, line: int) -> dict[str, Any]:
    """Validate one row and turn it into an example.

    Returns:
        dict with `prompt` (list of system+user messages), `question` (user text),
        `expected_answer` (assistant text), `is_unanswerable` (bool), `fields` (the
        row's keys other than messages, id, answers, is_unanswerable and rlvr's own
        example keys, e.g. `final_answer`) and, when the row has them, `id` and `answers`
        (a list of strings; a single string becomes a one-item list; null counts as
        absent).
    Raises:
        DataError: not an object, no `messages` list, a missing user or assistant turn, an
            empty question, an empty answer, a non-bool `is_unanswerable`, or `answers`
            that is not a list of strings.
    """
    if not isinstance(obj, dict):
        raise DataError(f"expected a JSON object, got {type(obj).__name__}", path, line)
    messages = obj.get("messages")
    if not isinstance(messages, list) or not messages:
        raise DataError("missing 'messages' list (rows need system/user/assistant messages)",
                        path, line)
    by_role: dict[str, str] = {}
    for m in messages:
        if not isinstance(m, dict) or "role" not in m or "content" not in m:
            raise DataError("each message needs 'role' and 'content'", path, line)
        by_role.setdefault(m["role"], m["content"] if isinstance(m["content"], str) else "")
    for role in ("user", "assistant"):
        if role not in by_role:
            raise DataError(f"missing the {role!r} message", path, line)
    question = by_role["user"].strip()
    answer = by_role["assistant"].strip()
    if not question:
        raise DataError("empty question (the user message has no text)", path, line)
    if not answer:
        raise DataError("empty answer (the assistant message has no text)", path, line)
    flag = bool_field(obj, "is_unanswerable", path, line)
    if flag is None:
        flag = is_abstention(answer)
    prompt = [{"role": m["role"], "content": m["content"]} for m in messages
              if m["role"] in ("system", "user")]

    example = {"prompt": prompt, "question": question, "expected_answer": answer,
               "is_unanswerable": flag, "fields": extra_fields(obj)}
    if "id" in obj:
        example["id"] = obj["id"]
    answers = _answers(obj.get("answers"), path, line)
    if answers is not None:
        example["answers"] = answers
    return example


def _answers(value: Any, path: str, line: int) -> list[str] | None:
    """A row's `answers` field as a list of strings (None when absent or null)."""
    if value is None:
        return None
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list) or not all(isinstance(a, str) for a in value):
        raise DataError(f"'answers' must be a list of strings (every accepted answer), got "
                        f"{value!r}; fix the row or drop the field to accept only the "
                        "assistant text", path, line)
    return list(value)


def gold_answers(example: dict[str, Any]) -> list[str] | None:
    """The answers a reward accepts for a parsed example (any match counts).

    Returns:
        None for an unanswerable question; else the example's non-blank `answers` (all of
        them, in order) when it has any, else a one-item list with its `expected_answer`
        (the assistant text, for rows without `answers`). Training rows, held-out rows and
        the `selfaware` eval task all score against this list.
    """
    if example["is_unanswerable"]:
        return None
    aliases = [a for a in example.get("answers") or [] if isinstance(a, str) and a.strip()]
    return aliases or [example["expected_answer"]]


def load_messages_jsonl(path: str | Path, skip_bad_rows: bool = False,
                        report: LoadReport | None = None) -> list[dict[str, Any]]:
    """Load a messages JSONL file as examples (see `parse_messages_row`).

    Args:
        path: the JSONL file.
        skip_bad_rows: when True, bad rows are skipped and counted in `report` (and
            logged) instead of raising.
        report: optional LoadReport filled with counts and skip reasons.
    Raises:
        DataError: file missing, or (unless skipping) the first bad row, naming file and
            line; also when no usable row remains.
    """
    path = str(path)
    report = report if report is not None else LoadReport(path)
    examples = []
    for line, obj in iter_jsonl(path, tolerant=skip_bad_rows):
        try:
            if isinstance(obj, DataError):
                raise obj
            examples.append(parse_messages_row(obj, path, line))
        except DataError as exc:
            if not skip_bad_rows:
                raise
            report.skipped.append(str(exc))
    report.kept = len(examples)
    if report.skipped:
        logger.warning("%s: skipped %d bad row(s); first: %s", path, len(report.skipped),
                       report.skipped[0])
    if not examples:
        if report.skipped:
            raise DataError(f"no usable rows: all {len(report.skipped)} were bad (first: "
                            f"{report.skipped[0]})", path)
        raise DataError("no rows: the file is empty; write one JSON object per line with "
                        "\"messages\" (see docs/task_data.md)", path)
    return examples

