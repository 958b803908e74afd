"""Loaders for the evaluation datasets (standard library only).

Each loader takes a path and returns rows with an `id`, the text the prompt is built
from, and the fields the task's reward reads. Errors name the file, the line (or row)
and what to fix.
"""

from __future__ import annotations

import csv
import gzip
import json
from pathlib import Path
from typing import Any

from rlvr.errors import DataError
from rlvr.io import iter_jsonl


def _require_file(path: Path, option: str) -> None:
    if not path.is_file():
        raise DataError(f"dataset file not found; set {option} to its path", str(path))


def _json_lines(path: Path):
    """`(line, object)` for each non-blank line of a JSONL file; `.gz` files are read
    through gzip (the packaged subsets). Errors name the file and line."""
    if path.suffix != ".gz":
        yield from iter_jsonl(path)
        return
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line, text in enumerate(handle, start=1):
            if not text.strip():
                continue
            try:
                yield line, json.loads(text)
            except json.JSONDecodeError as exc:
                raise DataError(f"invalid JSON ({exc.msg})", str(path), line) from None


def _stem(path: Path) -> str:
    """File name without `.gz` and its last suffix: test.jsonl(.gz) -> test."""
    return Path(path.name[:-3] if path.name.endswith(".gz") else path.name).stem


def _need(obj: Any, keys: tuple[str, ...], path: Path, line: int) -> dict:
    if not isinstance(obj, dict):
        raise DataError("expected a JSON object", str(path), line)
    missing = [k for k in keys if k not in obj]
    if missing:
        raise DataError(f"missing field(s) {missing}", str(path), line)
    return obj


def gsm8k_final_answer(answer: str) -> str:
    """Return the text after the last `####` of a GSM8K solution (the gold number).

    Raises:
        ValueError: the solution has no `####` line.
    """
    if "####" not in answer:
        raise ValueError("GSM8K answer has no '#### N' line")
    return answer.rsplit("####", 1)[1].strip()


def gsm8k_row(question: str, answer: str, row_id: str) -> dict[str, Any]:
    """One GSM8K row: `id`, `question`, `solution` (the worked answer) and `final_answer`.

    Raises:
        ValueError: the answer has no `#### N` line.
    """
    return {"id": row_id, "question": question, "solution": answer,
            "final_answer": gsm8k_final_answer(answer)}


def load_gsm8k(path: str | Path) -> list[dict[str, Any]]:
    """GSM8K JSONL or .jsonl.gz (`question`, `answer` ending in `#### N`) -> rows from
    `gsm8k_row`; `id` is the row's own `id` when it has one (the packaged subset keeps
    the upstream line there), else "<file stem>-<line>" (e.g. "test-1")."""
    path = Path(path)
    _require_file(path, "--data-dir or --task-path gsm8k=FILE")
    rows = []
    for line, obj in _json_lines(path):
        obj = _need(obj, ("question", "answer"), path, line)
        try:
            rows.append(gsm8k_row(obj["question"], obj["answer"],
                                  obj.get("id") or f"{_stem(path)}-{line}"))
        except ValueError as exc:
            raise DataError(str(exc), str(path), line) from None
    return rows


def load_triviaqa(path: str | Path) -> list[dict[str, Any]]:
    """TriviaQA subset JSONL or .jsonl.gz (`context` "Question: ...\\nAnswer:", `answer`,
    `aliases`) -> rows with `id` (the row's own `id`, else "triviaqa-<line>"), `question`
    (the text after "Question:"), `answer`, `aliases`."""
    path = Path(path)
    _require_file(path, "--data-dir or --task-path triviaqa=FILE")
    rows = []
    for line, obj in _json_lines(path):
        obj = _need(obj, ("context", "answer"), path, line)
        question = obj["context"].strip()
        if question.startswith("Question:"):
            question = question[len("Question:"):]
        if question.rstrip().endswith("Answer:"):
            question = question.rstrip()[:-len("Answer:")]
        aliases = obj.get("aliases") or [obj["answer"]]
        rows.append({"id": obj.get("id") or f"triviaqa-{line}", "question": question.strip(),
                     "answer": obj["answer"], "aliases": list(aliases)})
    return rows


def load_humaneval(path: str | Path) -> list[dict[str, Any]]:
    """HumanEval JSONL or .jsonl.gz -> rows with `id` (task_id), `prompt` (the
    function signature and docstring), `test`, `entry_point` and, when the file has it,
    `canonical_solution` (the reference body; `rlvr.eval.cross_check` scores its
    likelihood)."""
    path = Path(path)
    _require_file(path, "--data-dir or --task-path humaneval=FILE")
    rows = []
    for line, obj in _json_lines(path):
        obj = _need(obj, ("task_id", "prompt", "test", "entry_point"), path, line)
        rows.append({"id": obj["task_id"], "prompt": obj["prompt"],
                     "test": obj["test"], "entry_point": obj["entry_point"]})
        if obj.get("canonical_solution"):
            rows[-1]["canonical_solution"] = obj["canonical_solution"]
    return rows


MBPP_TEST_IDS = range(11, 511)  # the MBPP paper's test split: task ids 11-510


def load_mbpp(path: str | Path, task_ids: range | None = MBPP_TEST_IDS) -> list[dict[str, Any]]:
    """MBPP JSONL or .jsonl.gz (`task_id`, `text`, `test_list`, `test_setup_code`) -> rows
    with `id`, `text` (the task), `test_list`, `test_setup_code` and, when the file has
    it, `code` (the reference program); only `task_ids` (default 11-510)."""
    path = Path(path)
    _require_file(path, "--data-dir or --task-path mbpp=FILE")
    rows = []
    for line, obj in _json_lines(path):
        obj = _need(obj, ("task_id", "text", "test_list"), path, line)
        if task_ids is not None and obj["task_id"] not in task_ids:
            continue
        rows.append({"id": obj["task_id"], "text": obj["text"], "test_list": obj["test_list"],
                     "test_setup_code": obj.get("test_setup_code", "")})
        if obj.get("code"):
            rows[-1]["code"] = obj["code"]
    return rows


EXPLORETOM_COLUMNS = ("infilled_story", "question", "expected_answer")


def load_exploretom(path: str | Path | None) -> list[dict[str, Any]]:
    """ExploreToM CSV (the published columns; `infilled_story`, `question` and
    `expected_answer` are required, others kept) -> rows with `id`, `story`, `question`,
    `answer`, `aliases`.

    Raises:
        DataError: no path given (the data is not bundled), missing file, missing columns
            or an empty question/answer (names the CSV line).
    """
    if path is None:
        raise DataError("the exploretom task needs its CSV: ExploreToM is not bundled; "
                        "download it yourself and pass --task-path exploretom=FILE.csv")
    path = Path(path)
    _require_file(path, "--task-path exploretom=FILE.csv")
    rows = []
    try:
        with path.open(newline="", encoding="utf-8") as handle:
            reader = csv.DictReader(handle)
            missing = [c for c in EXPLORETOM_COLUMNS if c not in (reader.fieldnames or [])]
            if missing:
                raise DataError(f"missing column(s) {missing}; ExploreToM CSVs have "
                                f"{list(EXPLORETOM_COLUMNS)} among others", str(path), 1)
            end = reader.line_num  # a quoted story may span several lines: count lines
            for rec in reader:
                line, end = end + 1, reader.line_num  # the record's first line
                question = (rec["question"] or "").strip()
                answer = (rec["expected_answer"] or "").strip()
                if not question or not answer:
                    raise DataError("empty question or expected_answer", str(path), line)
                rows.append({"id": f"exploretom-{line}",
                             "story": (rec["infilled_story"] or "").strip(),
                             "question": question, "answer": answer, "aliases": [answer]})
    except UnicodeDecodeError:
        raise DataError("not UTF-8 text; save the CSV as UTF-8", str(path)) from None
    return rows


def load_selfaware_heldout(path: str | Path, variant: str = "v3", seed: int = 42) -> list[dict[str, Any]]:
    """Held-out SelfAware questions: the test split of `variant` built from SelfAware.json
    (the same split `rlvr train --data SelfAware.json` holds out), as rows with `id`,
    `question`, `expected_answer` and `is_unanswerable`.

    `expected_answer` is every answer the file lists for the question (a list; None when
    unanswerable), taken through the same parser and `gold_answers` as training rows, so
    a response giving any listed answer is scored correct.
    Raises:
        DataError: missing file or a bad SelfAware row (see `load_selfaware_json`).
    """
    from rlvr.data.messages import gold_answers, parse_messages_row
    from rlvr.data.selfaware import build_selfaware_splits, load_selfaware_json

    path = Path(path)
    _require_file(path, "--data-dir or --task-path selfaware=SelfAware.json")
    test = build_selfaware_splits(load_selfaware_json(path), variant, seed)["test"]
    examples = [parse_messages_row(r, f"{path}:test", i) for i, r in enumerate(test, start=1)]
    return [{"id": ex["id"], "question": ex["question"], "expected_answer": gold_answers(ex),
             "is_unanswerable": ex["is_unanswerable"]} for ex in examples]
