"""The parsers of training rows and the `RowFormat` that declares one: the formats of no
task (`messages`, `prompt`, `math`, in `GENERIC_FORMATS`) and the parsers the evaluation tasks
name in `rlvr.tasks.registry` (`EvalTask.train_rows`). The table of formats, detection and
file loading are in `rlvr.tasks.rows`, above the registry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from rlvr.data.messages import bool_field, extra_fields
from rlvr.errors import DataError
from rlvr.tasks.prompts import CODE_SYSTEM, GSM8K_SYSTEM, QA_SYSTEM, mbpp_prompt

MATH_SYSTEM = "Solve the problem step by step. Put the final answer in \\boxed{}."


def _text(obj: dict, key: str, path: str, line: int) -> str:
    value = obj.get(key)
    if not isinstance(value, str) or not value.strip():
        raise DataError(f"{key!r} must be non-empty text, got {value!r}", path, line)
    return value


def _example(prompt: Any, question: str, answer: str, obj: dict, fields: dict,
             row_id: Any = None, *, path: str, line: int) -> dict[str, Any]:
    flag = bool_field(obj, "is_unanswerable", path, line)
    example = {"prompt": prompt, "question": question.strip(), "expected_answer": answer,
               "is_unanswerable": bool(flag), "fields": fields}
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

    try:
        final = gsm8k_final_answer(solution)
    except ValueError as exc:
        raise DataError(f"{exc}; GSM8K answers end with a line '#### N'", path, line) from None
    fields = {**extra_fields(obj, ("answer",)), "final_answer": final, "solution": solution}
    return _example(_chat(GSM8K_SYSTEM, question), question, final, obj, fields,
                    path=path, line=line)


def gsm8k_row(obj: dict, path: str, line: int) -> dict:
    """A GSM8K file row (`question`, `answer` ending in `#### N`) as an example
    (`gsm8k_example`). Raises DataError (file, line) for empty text or no `####` line."""
    return gsm8k_example(_text(obj, "question", path, line), _text(obj, "answer", path, line),
                         obj, path, line)


def _math(obj: dict, path: str, line: int) -> dict:
    problem = _text(obj, "problem", path, line)
    solution = _text(obj, "solution", path, line)
    answer = obj.get("answer")
    gold = answer if isinstance(answer, str) and answer.strip() else solution
    fields = {**extra_fields(obj), "solution": gold, "reference_solution": solution}
    return _example(_chat(MATH_SYSTEM, problem), problem, gold, obj, fields,
                    path=path, line=line)


def qa_row(obj: dict, path: str, line: int) -> dict:
    """A QA row (`question` + `answer` and/or `aliases`, or TriviaQA's `context` +
    `answer`) as an example with the QA task's prompt; the gold is the first non-empty
    answer. Raises DataError (file, line) for no question, no answer or bad aliases."""
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
    return _example(_chat(QA_SYSTEM, question), question, golds[0], obj, fields,
                    path=path, line=line)


def mbpp_row(obj: dict, path: str, line: int) -> dict:
    """An MBPP row (`text`, `test_list`) as an example with the `mbpp` task's prompt and
    fields `test_list`, `test_setup_code`. Raises DataError (file, line) for empty text or a
    `test_list` that is not a non-empty list of strings."""
    text = _text(obj, "text", path, line)
    tests = obj.get("test_list")
    if not (isinstance(tests, list) and tests and all(isinstance(t, str) for t in tests)):
        raise DataError(f"'test_list' must be a non-empty list of assert strings, got "
                        f"{tests!r}", path, line)
    row = {"text": text, "test_list": tests}
    fields = {**extra_fields(obj, ("task_id",)), "test_list": tests,
              "test_setup_code": obj.get("test_setup_code") or ""}
    return _example(_chat(CODE_SYSTEM, mbpp_prompt(row)), text,
                    str(obj.get("code") or ""), obj, fields, obj.get("task_id"),
                    path=path, line=line)


def humaneval_row(obj: dict, path: str, line: int) -> dict:
    """A HumanEval row (`prompt` stub, `test`, `entry_point`) as an example whose prompt is
    the stub as raw text. Raises DataError (file, line) when one of the three is empty."""
    stub = _text(obj, "prompt", path, line)
    for key in ("test", "entry_point"):
        _text(obj, key, path, line)
    fields = extra_fields(obj, ("task_id",))
    return _example(stub, stub, str(obj.get("canonical_solution") or ""), obj, fields,
                    obj.get("task_id"), path=path, line=line)


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
    return _example(prompt, question, gold, obj, fields, obj.get("task_id"),
                    path=path, line=line)


def _messages(obj: dict, path: str, line: int) -> dict:
    from rlvr.data.messages import parse_messages_row

    return parse_messages_row(obj, path, line)


@dataclass(frozen=True)
class RowFormat:
    """One training row format (the module table); a task's own format is declared with
    the task (`rlvr.tasks.registry.EvalTask.train_rows`).

    Attributes:
        name: the `data_format` value.
        needs: the keys a row must have, as a message names them.
        keys: those keys (all required), or None when `has` decides.
        parse: `(row, path, line) -> example`; raises DataError naming file and line.
        has: `(row) -> bool` for a format whose keys are alternatives (`qa`).
        detect: `(row) -> bool`, stricter than `matches`, for `data_format: auto`
            (a GSM8K row also has QA's keys; only its `####` line tells them apart);
            None: `matches`.
        detect_rank: the order `detect_format` tries formats in, lowest first.
    """

    name: str
    needs: str
    keys: tuple[str, ...] | None
    parse: Callable[[dict, str, int], dict]
    has: Callable[[dict], bool] | None = None
    detect: Callable[[dict], bool] | None = None
    detect_rank: int = 100

    def matches(self, obj: dict) -> bool:
        """Whether `obj` has the keys this format needs (a row may have the keys of several
        formats: a GSM8K row is also a QA row)."""
        return self.has(obj) if self.has is not None else all(k in obj for k in self.keys)

    def looks_like(self, obj: dict) -> bool:
        """Whether `data_format: auto` should read `obj` as this format (`detect`)."""
        return self.detect(obj) if self.detect is not None else self.matches(obj)


def has_qa_keys(obj: dict) -> bool:
    """Whether a row has QA's keys: `question` with `answer` or `aliases`, or TriviaQA's
    `context` with `answer`."""
    return "question" in obj and bool(obj.keys() & {"answer", "aliases"}) or \
        {"context", "answer"} <= obj.keys()


def looks_like_gsm8k(obj: dict) -> bool:
    """A GSM8K row: `question` and an `answer` with a `####` line."""
    return {"question", "answer"} <= obj.keys() and "####" in str(obj.get("answer") or "")


# the formats that belong to no evaluation task; the others come from the task registry
GENERIC_FORMATS: tuple[RowFormat, ...] = (
    RowFormat("messages", "messages", ("messages",), _messages, detect_rank=0),
    RowFormat("prompt", "prompt", ("prompt",), _prompt, detect_rank=20),
    RowFormat("math", "problem, solution", ("problem", "solution"), _math, detect_rank=40),
)
