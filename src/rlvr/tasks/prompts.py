"""The system prompts and prompt renderers the evaluation tasks and their training rows share.

A task's prompt lives here, below both `rlvr.tasks.row_parsers` (training rows) and
`rlvr.tasks.registry` (evaluation), so a model trained on a task's rows sees the same prompt
the task's evaluation shows it.
"""

from __future__ import annotations

from typing import Any

SELFAWARE_SYSTEM = "You are a helpful assistant. Read the following carefully and provide your answer."
GSM8K_SYSTEM = ("Solve the math problem step by step. End with a line '#### N' where N is "
                "the final number.")
QA_SYSTEM = "Answer the question with a short phrase."
CODE_SYSTEM = "You are a Python programmer. Reply with Python code only."


def mbpp_prompt(row: dict[str, Any]) -> str:
    """The user turn of an MBPP problem: its `text` and its first assert from `test_list`
    (the convention of the MBPP paper's prompt, which shows one test). Raises KeyError or
    IndexError for a row without `text` or with an empty `test_list`."""
    return f"{row['text']}\nYour code should pass this test:\n{row['test_list'][0]}"
