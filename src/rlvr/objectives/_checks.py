"""Input checks shared by the objectives modules (standard library only).

Every check raises `ValueError` naming the argument, the bad value and what is allowed,
so a caller (or the CLI, which turns it into a user error) can show it as is.
"""

from __future__ import annotations

import math
from typing import Sequence


def real(value: object, name: str) -> float:
    """Return `value` as a float; reject bools, non-numbers, NaN and infinities."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return number


def probability(value: object, name: str) -> float:
    """Return `value` as a float in (0, 1]; 0 has no logarithm, so it is rejected."""
    number = real(value, name)
    if not 0.0 < number <= 1.0:
        raise ValueError(f"{name} must be a probability in (0, 1], got {value!r}")
    return number


def log_probability(value: object, name: str) -> float:
    """Return `value` as a float <= 0 (the natural log of a probability)."""
    number = real(value, name)
    if number > 0.0:
        raise ValueError(f"{name} is a log-probability and must be <= 0, got {value!r}")
    return number


def non_negative(value: object, name: str) -> float:
    """Return `value` as a finite float >= 0."""
    number = real(value, name)
    if number < 0.0:
        raise ValueError(f"{name} must be >= 0, got {value!r}")
    return number


def count(value: object, name: str, minimum: int = 0) -> int:
    """Return `value` as an int >= `minimum` (bools and floats are rejected)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value!r}")
    return value


def lengths_list(lengths: Sequence[int], name: str = "lengths") -> list[int]:
    """Return response lengths (tokens) as a non-empty list of ints >= 0."""
    values = [count(length, f"{name}[{i}]") for i, length in enumerate(lengths)]
    if not values:
        raise ValueError(f"{name} must hold at least one response length")
    return values


def same_length(a: Sequence, b: Sequence, name_a: str, name_b: str) -> None:
    """Raise unless `a` and `b` have the same number of items."""
    if len(a) != len(b):
        raise ValueError(f"{name_a} has {len(a)} items but {name_b} has {len(b)}; "
                         "give one per response")
