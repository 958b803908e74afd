"""Self-awareness (calibration) reward: answer what is answerable, abstain otherwise.

Preset `seed` is the reference project's table:

| question     | response                                   | outcome                  | reward |
|--------------|--------------------------------------------|--------------------------|--------|
| answerable   | contains the expected answer (lower-cased) | `correct`                | +1.0   |
| answerable   | abstains                                   | `abstained`              | -0.5   |
| answerable   | anything else                              | `wrong`                  | -1.0   |
| unanswerable | abstains                                   | `abstained_unanswerable` | +1.0   |
| unanswerable | anything else                              | `answered_unanswerable`  | -1.0   |

Correctness is checked before abstention for answerable questions, so "I don't know,
maybe Paris" is `correct` when the answer is Paris. Abstention uses the seed detector
(`rlvr.rewards.abstention`).
"""

from __future__ import annotations

from rlvr.rewards.abstention import SEED_PATTERNS, seed_abstention_match
from rlvr.rewards.base import RewardResult, register_reward

SEED_VALUES = {
    "correct": 1.0,
    "abstain_answerable": -0.5,
    "wrong": -1.0,
    "abstain_unanswerable": 1.0,
    "answer_unanswerable": -1.0,
}


def _aliases(expected_answer: str | list[str] | None) -> list[str]:
    if expected_answer is None:
        return []
    if isinstance(expected_answer, str):
        expected_answer = [expected_answer]
    return [a.strip().lower() for a in expected_answer if isinstance(a, str) and a.strip()]


def _as_bool(value) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes")
    return bool(value)


@register_reward(
    "selfaware",
    fields=("expected_answer", "is_unanswerable"),
    score_range=(-1.0, 1.0),
    presets={"default": {}, "seed": {}},
)
def selfaware_reward(
    completion: str,
    *,
    expected_answer: str | list[str] | None,
    is_unanswerable: bool,
    correct: float = SEED_VALUES["correct"],
    abstain_answerable: float = SEED_VALUES["abstain_answerable"],
    wrong: float = SEED_VALUES["wrong"],
    abstain_unanswerable: float = SEED_VALUES["abstain_unanswerable"],
    answer_unanswerable: float = SEED_VALUES["answer_unanswerable"],
    patterns: tuple[str, ...] = SEED_PATTERNS,
) -> RewardResult:
    """Score one response with the calibration table (see module docstring).

    Args:
        completion: the model's response text.
        expected_answer: gold answer (str) or aliases (list, any match counts); may be
            None or empty for unanswerable questions.
        is_unanswerable: True when the question has no knowable answer (bools, or the
            strings "true"/"false" as found in CSV-like data).
        correct, abstain_answerable, wrong, abstain_unanswerable, answer_unanswerable:
            the reward for each cell of the table (defaults: the reference values).
        patterns: abstention phrases (default: the 19 seed patterns).
    Returns:
        RewardResult with outcome in {correct, abstained, wrong, abstained_unanswerable,
        answered_unanswerable}; score None with outcome `no_gold` for an answerable
        question whose expected answer is empty (it would match every response).
    Source: the reference self-awareness GRPO project's reward table (seed convention).
    """
    text = completion or ""
    matched = seed_abstention_match(text, tuple(patterns))
    details = {"abstention_phrase": matched}
    if _as_bool(is_unanswerable):
        if matched:
            return RewardResult(abstain_unanswerable, "abstained_unanswerable", details)
        return RewardResult(answer_unanswerable, "answered_unanswerable", details)
    aliases = _aliases(expected_answer)
    if not aliases:
        return RewardResult(None, "no_gold", {**details, "error": "empty expected_answer"})
    lowered = text.lower()
    hit = next((a for a in aliases if a in lowered), None)
    if hit is not None:
        return RewardResult(correct, "correct", {**details, "matched_answer": hit})
    if matched:
        return RewardResult(abstain_answerable, "abstained", details)
    return RewardResult(wrong, "wrong", details)
