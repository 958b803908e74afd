"""Generated arithmetic questions in GSM8K's format, for a task recipe that a small model
can learn on a CPU (`data: arithmetic`, `rlvr data arithmetic`).

A row is what a GSM8K file holds: `question` ("What is 47 + 38 - 19?") and `answer`, a
worked solution ending in "#### N" (so the GSM8K correctness and format rewards score it,
and `rlvr.tasks.rows` reads it as a GSM8K row). Difficulty is a level: how many operands,
their digits and operators (`LEVELS`). The questions of one split are distinct, and the
test questions never appear in train (one seeded generator; duplicates redrawn). The same
(level, sizes, seed) always gives the same rows.

Why generated: the default model (SmolLM2-135M-Instruct) solves about 1 in 10 GSM8K
questions at best, so most GRPO groups on GSM8K have no reward spread and nothing is
learned on a CPU budget; a level the model solves sometimes gives every group a chance
of spread (measured in `benchmarks/arithmetic_recipe.py`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from rlvr.errors import DataError


@dataclass(frozen=True)
class Level:
    """How questions of one difficulty are drawn.

    Attributes:
        operands: numbers per question (>= 2); digits: (fewest, most) digits of each.
        operators: drawn uniformly per gap ("+", "-", "*"); "*" takes a one-digit right
            operand so products stay small; a "-" never makes a running total negative.
        description: one line for `rlvr data arithmetic --list`.
    """

    operands: int
    digits: tuple[int, int]
    operators: tuple[str, ...]
    description: str


LEVELS: dict[str, Level] = {
    "add2": Level(2, (1, 2), ("+",), "a + b, numbers up to 99"),
    "addsub3": Level(3, (1, 2), ("+", "-"), "a + b - c, numbers up to 99"),
    "mixed3": Level(3, (1, 2), ("+", "-", "*"), "three numbers up to 99 with + - and * by one "
                                                  "digit, e.g. (12 + 30) * 4"),
    "addsub4": Level(4, (2, 2), ("+", "-"), "four two-digit numbers with + and -"),
}
DEFAULT_LEVEL = "add2"


def _number(rng: random.Random, digits: tuple[int, int]) -> int:
    d = rng.randint(*digits)
    return rng.randint(10 ** (d - 1) if d > 1 else 0, 10 ** d - 1)


def make_question(rng: random.Random, level: Level) -> tuple[str, str, int]:
    """(question, worked solution ending in "#### N", N) for one draw: operations in the
    order written (a product of an earlier result is bracketed), one line each
    ("47 + 38 = 85")."""
    total = _number(rng, level.digits)
    text, lines = str(total), []
    for _ in range(level.operands - 1):
        op = rng.choice(level.operators)
        value = rng.randint(2, 9) if op == "*" else _number(rng, level.digits)
        if op == "-" and value > total:
            op = "+"  # keep every running total >= 0
        new = total + value if op == "+" else total - value if op == "-" else total * value
        lines.append(f"{total} {op} {value} = {new}")
        # a product of an earlier sum is bracketed, so the usual precedence gives the gold
        text = f"({text}) * {value}" if op == "*" and " " in text else f"{text} {op} {value}"
        total = new
    return f"What is {text}?", "\n".join(lines + [f"#### {total}"]), total


def arithmetic_splits(n_train: int = 400, n_test: int = 100, level: str = DEFAULT_LEVEL,
                      seed: int = 0) -> dict[str, list[dict[str, Any]]]:
    """Train and test rows (`question`, `answer`, `id` "arithmetic-<level>-<split>-<i>"),
    distinct questions, none shared between splits (module docstring).

    Raises:
        DataError: an unknown level (with the known ones), sizes below 1, or more questions
            than the level has.
    """
    if level not in LEVELS:
        raise DataError(f"unknown arithmetic level {level!r}; levels: {', '.join(LEVELS)}")
    if n_train < 1 or n_test < 1:
        raise DataError(f"arithmetic needs at least 1 train and 1 test question, got "
                        f"{n_train} and {n_test}")
    spec, rng, seen = LEVELS[level], random.Random(f"arithmetic:{level}:{seed}"), set()
    out: dict[str, list[dict[str, Any]]] = {}
    for split, n in (("test", n_test), ("train", n_train)):
        rows, tries = [], 0
        while len(rows) < n:
            tries += 1
            if tries > 50 * (n_train + n_test):
                raise DataError(f"level {level} has too few distinct questions for "
                                f"{n_train} + {n_test}; ask for fewer")
            question, answer, _ = make_question(rng, spec)
            if question in seen:
                continue
            seen.add(question)
            rows.append({"id": f"arithmetic-{level}-{split}-{len(rows) + 1}",
                         "question": question, "answer": answer})
        out[split] = rows
    return {"train": out["train"], "test": out["test"]}
