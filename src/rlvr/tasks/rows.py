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
The prompts of `gsm8k`, `qa` and `mbpp` rows are those of the eval tasks of the same name
(`rlvr.tasks.registry`), so training and evaluation ask alike. Format `auto` picks the format
from the first row's keys (`detect_format`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from rlvr.data.messages import extra_fields
from rlvr.errors import DataError

MATH_SYSTEM = "Solve the problem step by step. Put the final answer in \\boxed{}."
def detect_format(obj: Any) -> str | None:
    """The row format a JSON row looks like (see the module table), or None.

    Order: `messages`; `humaneval` (prompt + test + entry_point) before `prompt`; `gsm8k`
    (question + an answer with `####`); `math` (problem + solution); `mbpp` (text +
    test_list); `qa` (question + answer or aliases, or context + answer).
    """
    if not isinstance(obj, dict):
        return None
    keys = set(obj)
    if "messages" in keys:
        return "messages"
    if {"prompt", "test", "entry_point"} <= keys:
        return "humaneval"
    if "prompt" in keys:
        return "prompt"
    if {"question", "answer"} <= keys and "####" in str(obj.get("answer") or ""):
        return "gsm8k"
    if {"problem", "solution"} <= keys:
        return "math"
    if {"text", "test_list"} <= keys:
        return "mbpp"
    if "question" in keys and keys & {"answer", "aliases"} or {"context", "answer"} <= keys:
        return "qa"
    return None


def _text(obj: dict, key: str, path: str, line: int) -> str:
    value = obj.get(key)
    if not isinstance(value, str) or not value.strip():
        raise DataError(f"{key!r} must be non-empty text, got {value!r}", path, line)
    return value


def _example(prompt: Any, question: str, answer: str, obj: dict, fields: dict,
             row_id: Any = None) -> dict[str, Any]:
    flag = obj.get("is_unanswerable", False)
    example = {"prompt": prompt, "question": question.strip(), "expected_answer": answer,
               "is_unanswerable": bool(flag) if isinstance(flag, bool) else False,
               "fields": fields}
    row_id = obj.get("id", row_id)
    if row_id is not None:
        example["id"] = row_id
    return example


def _chat(system: str | None, user: str) -> list[dict[str, str]]:
    return ([{"role": "system", "content": system}] if system else []) + [
        {"role": "user", "content": user}]


def gsm8k_example(question: str, solution: str, obj: dict, path: str, line: int) -> dict:
    """A GSM8K row (`question`, worked `solution` ending in `#### N`) as an example with
    fields `final_answer` (N as text) and `solution`; prompt as the `gsm8k` eval task."""
    from rlvr.data.loaders import gsm8k_final_answer
    from rlvr.tasks.registry import GSM8K_SYSTEM

    try:
        final = gsm8k_final_answer(solution)
    except ValueError as exc:
        raise DataError(f"{exc}; GSM8K answers end with a line '#### N'", path, line) from None
    fields = {**extra_fields(obj, ("answer",)), "final_answer": final, "solution": solution}
    return _example(_chat(GSM8K_SYSTEM, question), question, final, obj, fields)


def _gsm8k(obj: dict, path: str, line: int) -> dict:
    return gsm8k_example(_text(obj, "question", path, line), _text(obj, "answer", path, line),
                         obj, path, line)


def _math(obj: dict, path: str, line: int) -> dict:
    problem = _text(obj, "problem", path, line)
    solution = _text(obj, "solution", path, line)
    answer = obj.get("answer")
    gold = answer if isinstance(answer, str) and answer.strip() else solution
    fields = {**extra_fields(obj), "solution": gold, "reference_solution": solution}
    return _example(_chat(MATH_SYSTEM, problem), problem, gold, obj, fields)


def _qa(obj: dict, path: str, line: int) -> dict:
    from rlvr.tasks.registry import QA_SYSTEM

    question = obj.get("question")
    if question is None and isinstance(obj.get("context"), str):  # TriviaQA subset rows
        question = obj["context"].strip().removeprefix("Question:").strip()
        question = question.removesuffix("Answer:").strip()
    if not isinstance(question, str) or not question.strip():
        raise DataError(f"'question' must be non-empty text, got {question!r}", path, line)
    answer, aliases = obj.get("answer"), obj.get("aliases")
    if aliases is not None and not (isinstance(aliases, list)
                                    and all(isinstance(a, str) for a in aliases)):
        raise DataError(f"'aliases' must be a list of strings, got {aliases!r}", path, line)
    if answer is not None and not isinstance(answer, str):
        answer = str(answer)
    golds = [a for a in [answer, *(aliases or [])] if isinstance(a, str) and a.strip()]
    if not golds:
        raise DataError("a QA row needs a non-empty 'answer' or 'aliases'", path, line)
    fields = extra_fields(obj, ("context",))
    fields.update({k: v for k, v in (("answer", answer), ("aliases", aliases)) if v is not None})
    return _example(_chat(QA_SYSTEM, question), question, golds[0], obj, fields)


def _mbpp(obj: dict, path: str, line: int) -> dict:
    from rlvr.tasks.registry import CODE_SYSTEM, get_task

    text = _text(obj, "text", path, line)
    tests = obj.get("test_list")
    if not (isinstance(tests, list) and tests and all(isinstance(t, str) for t in tests)):
        raise DataError(f"'test_list' must be a non-empty list of assert strings, got "
                        f"{tests!r}", path, line)
    row = {"text": text, "test_list": tests}
    fields = {**extra_fields(obj, ("task_id",)), "test_list": tests,
              "test_setup_code": obj.get("test_setup_code") or ""}
    return _example(_chat(CODE_SYSTEM, get_task("mbpp").render(row)), text,
                    str(obj.get("code") or ""), obj, fields, obj.get("task_id"))


def _humaneval(obj: dict, path: str, line: int) -> dict:
    stub = _text(obj, "prompt", path, line)
    for key in ("test", "entry_point"):
        _text(obj, key, path, line)
    fields = extra_fields(obj, ("task_id",))
    return _example(stub, stub, str(obj.get("canonical_solution") or ""), obj, fields,
                    obj.get("task_id"))


def _prompt(obj: dict, path: str, line: int) -> dict:
    prompt = obj["prompt"]
    if isinstance(prompt, str):
        question = prompt
    elif isinstance(prompt, list) and prompt and all(
            isinstance(m, dict) and isinstance(m.get("role"), str)
            and isinstance(m.get("content"), str) for m in prompt):
        users = [m["content"] for m in prompt if m["role"] == "user"]
        if not users:
            raise DataError("the prompt has no 'user' message", path, line)
        question = users[-1]
        prompt = [{"role": m["role"], "content": m["content"]} for m in prompt]
    else:
        raise DataError("'prompt' must be text or a list of {role, content} messages, got "
                        f"{type(prompt).__name__}", path, line)
    if not question.strip():
        raise DataError("empty prompt (no question text)", path, line)
    fields = extra_fields(obj, ("task_id",))
    gold = next((str(obj[k]) for k in ("expected_answer", "final_answer", "answer", "solution")
                 if obj.get(k) not in (None, "")), "")
    return _example(prompt, question, gold, obj, fields, obj.get("task_id"))


def _messages(obj: dict, path: str, line: int) -> dict:
    from rlvr.data.messages import parse_messages_row

    return parse_messages_row(obj, path, line)


@dataclass(frozen=True)
class RowFormat:
    """One training row format of the module table.

    Attributes:
        name: the `data_format` value.
        needs: the keys a row must have, as a message names them.
        keys: those keys (all required), or None when `has` decides.
        parse: `(row, path, line) -> example`; raises DataError naming file and line.
        has: `(row) -> bool` for a format whose keys are alternatives (`qa`).
    """

    name: str
    needs: str
    keys: tuple[str, ...] | None
    parse: Callable[[dict, str, int], dict]
    has: Callable[[dict], bool] | None = None

    def matches(self, obj: dict) -> bool:
        """Whether `obj` has the keys this format needs (a row may have the keys of several
        formats: a GSM8K row is also a QA row)."""
        return self.has(obj) if self.has is not None else all(k in obj for k in self.keys)


def _has_qa(obj: dict) -> bool:
    return "question" in obj and bool(obj.keys() & {"answer", "aliases"}) or \
        {"context", "answer"} <= obj.keys()


# every row format, in the order `data_format` lists them; one entry per format
ROW_FORMATS: dict[str, RowFormat] = {f.name: f for f in (
    RowFormat("messages", "messages", ("messages",), _messages),
    RowFormat("prompt", "prompt", ("prompt",), _prompt),
    RowFormat("gsm8k", "question, answer ('... #### N')", ("question", "answer"), _gsm8k),
    RowFormat("math", "problem, solution", ("problem", "solution"), _math),
    RowFormat("qa", "question with answer or aliases (or TriviaQA's context, answer)", None,
              _qa, _has_qa),
    RowFormat("mbpp", "text, test_list", ("text", "test_list"), _mbpp),
    RowFormat("humaneval", "prompt, test, entry_point", ("prompt", "test", "entry_point"),
              _humaneval),
)}
FORMATS = ("auto", *ROW_FORMATS)


def has_keys(obj: dict, fmt: str) -> bool:
    """Whether a row has the keys format `fmt` needs (`RowFormat.matches`)."""
    return ROW_FORMATS[fmt].matches(obj)


def parse_row(obj: Any, fmt: str, path: str, line: int) -> dict[str, Any]:
    """Turn one JSON row of format `fmt` (not "auto") into a training example.

    Raises:
        DataError: not a JSON object, or a row without its format's keys (names the file,
            line, the format and the keys it needs, and `data_format` as the fix).
    """
    if not isinstance(obj, dict):
        raise DataError(f"expected a JSON object, got {type(obj).__name__}", path, line)
    row_format = ROW_FORMATS[fmt]
    if not row_format.matches(obj):
        raise DataError(f"not a {fmt} row (it needs {row_format.needs}; it has "
                        f"{sorted(obj)}); give every row that format, or set data_format "
                        f"to the rows' format (one of {', '.join(FORMATS[1:])})", path, line)
    return row_format.parse(obj, path, line)


def resolve_format(first: Any, fmt: str, path: str) -> str:
    """`fmt`, or for "auto" the format of the file's first row.

    Raises:
        DataError: unknown format, or "auto" and the first row matches no format.
    """
    if fmt not in FORMATS:
        raise DataError(f"unknown data_format {fmt!r}; use one of {', '.join(FORMATS)}", path)
    if fmt != "auto":
        return fmt
    found = detect_format(first)
    if found is None:
        keys = sorted(first) if isinstance(first, dict) else type(first).__name__
        raise DataError(f"cannot tell the row format from the first row's keys {keys}; "
                        "rows need messages, prompt, question+answer (GSM8K/QA), "
                        "problem+solution (MATH), text+test_list (MBPP) or "
                        "prompt+test+entry_point (HumanEval), or set data_format", path, 1)
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
