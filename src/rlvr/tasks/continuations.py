"""The gold continuation of each task the likelihood cross-check can score.

The cross-check (`rlvr.eval.cross_check`) measures how likely a model finds a task's gold
answer written out as text: for GSM8K the worked solution, for TriviaQA the first gold
answer, for HumanEval the canonical function body, for MBPP the reference program. Which
tasks have one, and how a row becomes its text, is a fact of the task, so it lives here,
where the config checks can read it before any model loads.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Sequence

from rlvr.errors import DataError, RlvrError
from rlvr.tasks.registry import get_task

CALCULATOR = re.compile(r"<<[^<>]*>>")


def gsm8k_continuation(row: dict[str, Any]) -> str:
    """The worked solution without GSM8K's calculator annotations (`<<48/2=24>>`: tool
    calls for the dataset's calculator, not text a model writes), ending with the
    '#### N' line the task's system prompt asks for."""
    return CALCULATOR.sub("", row["solution"])


def mbpp_continuation(row: dict[str, Any]) -> str:
    """The reference program with Windows line ends made plain (`\\r\\n` -> `\\n`)."""
    return row["code"].replace("\r\n", "\n")


# task -> (gold continuation of a row, what it is)
CONTINUATIONS: dict[str, tuple[Callable[[dict[str, Any]], str], str]] = {
    "gsm8k": (gsm8k_continuation, "the gold worked solution (calculator annotations removed)"),
    "triviaqa": (lambda row: row["answer"], "the first gold answer"),
    "humaneval": (lambda row: row["canonical_solution"], "the canonical solution (function body)"),
    "mbpp": (mbpp_continuation, "the reference program"),
}


def check_cross_check_tasks(names: Sequence[str]) -> None:
    """Raise RlvrError (one line, the usable names) for a task without a gold continuation."""
    for name in names:
        if name not in CONTINUATIONS:
            get_task(name)  # an unknown name: the registry's error, with the closest match
            raise RlvrError(f"task {name!r} has no gold continuation to score; use some of "
                            f"{', '.join(CONTINUATIONS)}")


def gold_continuation(name: str, row: dict[str, Any]) -> str:
    """A row's gold continuation (`CONTINUATIONS`).

    Raises:
        DataError: the row lacks the field it needs (e.g. a HumanEval file without
            `canonical_solution`), naming the field.
    """
    try:
        return CONTINUATIONS[name][0](row)
    except KeyError as exc:
        raise DataError(f"{name} rows have no {exc.args[0]!r} field (the gold continuation); "
                        "use a file that has it, e.g. the packaged subset") from None
