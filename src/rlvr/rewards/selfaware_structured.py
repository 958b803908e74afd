"""The `selfaware` verdict on a structured response (`answer_format: boxed` or
`answer_line`): the last answer field decides, no phrase list is read
(`rlvr.rewards.selfaware` has the calibration table and the free-text reading; the fields
are read by `rlvr.rewards.answers.read_field`; docs/rewards_structured.md).
"""

from __future__ import annotations

from typing import Any

from rlvr.rewards.answers import field_items, match_answer, normalise_content, read_field
from rlvr.rewards.contract import RewardResult


def score_structured(completion: str, preset: Any, *, aliases: list[str],
                     unanswerable: bool, question: str,
                     abstain_answerable: float) -> RewardResult:
    """The `selfaware` verdict on a structured response (`preset.answer_format` boxed or
    answer_line; the field is read by `rlvr.rewards.answers.read_field`).

    | question     | last field                      | outcome                  | value               |
    |--------------|---------------------------------|--------------------------|---------------------|
    | answerable   | none (or empty)                 | `no_answer`              | `wrong`             |
    | unanswerable | none (or empty)                 | `no_answer_unanswerable` | `answer_unanswerable` |
    | answerable   | the abstention value            | `abstained`              | `abstain_answerable` |
    | answerable   | gives the gold, nothing else    | `correct`                | `correct`           |
    | answerable   | the gold among candidates (*)   | `listed_candidates`      | `list_candidates`   |
    | answerable   | anything else                   | `wrong`                  | `wrong`             |
    | unanswerable | the abstention value            | `abstained_unanswerable` | `abstain_unanswerable` |
    | unanswerable | anything else                   | `answered_unanswerable`  | `answer_unanswerable` |

    (*) several items in the field (`rlvr.rewards.answers.field_items`), or other distinct
    fields before it.

    The field's content is matched with `rlvr.rewards.answers.match_answer` (word
    boundaries, numbers by value, candidates, denials), as in free text.

    Args:
        completion: the response (already Unicode-folded when the caller folds).
        preset: a `rlvr.rewards.selfaware.SelfAwarePreset` (not imported here: that module
            imports this one): the values, `answer_format`, `abstain_text` and `match`
            (`"word"` or `"substring"`, as `match_answer` takes it).
        aliases: the gold answers, folded and lower-cased ([] for unanswerable rows).
        unanswerable: the question has no knowable answer.
        question: the question, lower-cased ("" when unknown).
        abstain_answerable: the row's reward for abstaining on an answerable question
            (`SelfAwarePreset.abstain_value`).
    Returns:
        a RewardResult with details `answer_format`, `field` (the last field's raw content
        or None) and, when listed, `other_candidates`. Score None with outcome `no_gold`
        for an answerable row without a gold answer.
    Raises:
        RlvrError: unknown `answer_format`.
    """
    p = preset
    field = read_field(completion, p.answer_format, p.abstain_text)
    details: dict = {"answer_format": p.answer_format,
                     "field": field.value if field.found else None}
    if unanswerable:
        if not field.found:
            return RewardResult(p.answer_unanswerable, "no_answer_unanswerable", details)
        if field.abstains:
            return RewardResult(p.abstain_unanswerable, "abstained_unanswerable", details)
        return RewardResult(p.answer_unanswerable, "answered_unanswerable", details)
    if not aliases:
        return RewardResult(None, "no_gold", {**details, "error": "empty expected_answer"})
    if not field.found:
        return RewardResult(p.wrong, "no_answer", details)
    if field.abstains:
        return RewardResult(abstain_answerable, "abstained", details)
    content = normalise_content(field.value)
    hit = match_answer(content, aliases, question=question, match=p.match)
    if hit.hit is None:
        return RewardResult(p.wrong, "wrong", details)
    details["matched_answer"] = hit.hit
    items = field_items(content, aliases)
    if hit.listed or field.earlier or len(items) > 1:
        others = list(hit.others) + list(field.earlier) + [i for i in items if i != hit.hit]
        return RewardResult(p.list_candidates, "listed_candidates",
                            {**details, "other_candidates": others})
    return RewardResult(p.correct, "correct", details)
