"""The walkthrough's reward (docs/own_task.md): the last number in the
completion must equal the row's `answer`. It returns a `RewardResult` with the labels
`correct` / `wrong`, declared in `last_number.outcomes`, so the held-out report counts
accuracy; a plain float would work too (outcome `scored`, no accuracy)."""

import re

from rlvr.rewards import RewardResult

NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def last_number(completion, answer):
    """Per sample: 1.0 (`correct`) when the completion's last number equals `answer`, else
    0.0 (`wrong`); a completion with no number is wrong."""
    numbers = NUMBER.findall(completion.replace(",", ""))
    if numbers and float(numbers[-1]) == float(answer):
        return RewardResult(1.0, "correct", {"last_number": numbers[-1]})
    return RewardResult(0.0, "wrong", {"last_number": numbers[-1] if numbers else None})


last_number.outcomes = ("correct", "wrong")
