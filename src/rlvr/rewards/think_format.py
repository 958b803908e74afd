"""`think_format` reward: one reasoning block, then one answer block.

The response must be exactly `<think>R</think><answer>A</answer>` with non-empty R and A
(multi-line content allowed), with only whitespace around and between the blocks, and
each tag exactly once. Chat templates that open the `<think>` block in the prompt (the
generation starts inside it) are handled with `prompt_opens_think=True`: the response
must then start with the reasoning and contain no opening `<think>`.
"""

from __future__ import annotations

import re

from rlvr.rewards.contract import RewardResult
from rlvr.rewards.registry import register_reward

_TAGS = ("<think>", "</think>", "<answer>", "</answer>")
_FULL_RE = re.compile(r"\s*<think>(.*)</think>\s*<answer>(.*)</answer>\s*", re.DOTALL)
_OPENED_RE = re.compile(r"(.*)</think>\s*<answer>(.*)</answer>\s*", re.DOTALL)


@register_reward("think_format", whole_completion=True,  # it judges the block itself
                 fields=(), score_range=(0.0, 1.0),
                 presets={"default": {}, "prompt_opens_think": {"prompt_opens_think": True}},
                 outcomes=("formatted", "tag_count", "misplaced", "empty_think", "empty_answer"))
def think_format(completion: str, *, prompt_opens_think: bool = False,
                 value: float = 1.0) -> RewardResult:
    """`value` (1.0) for `<think>...</think>` followed by `<answer>...</answer>`, else 0.0.

    Args:
        completion: the response.
        prompt_opens_think: the prompt already ends with `<think>`; the response starts
            with the reasoning.
        value: the score for a well-formed response (kept within [0, 1]).
    Returns:
        RewardResult with outcome `formatted` or one of `tag_count` (a tag missing or
        repeated), `misplaced` (text outside the blocks or blocks out of order),
        `empty_think`, `empty_answer`. Details: `counts` of each tag for `tag_count`.
    """
    text = completion or ""
    expected = {"<think>": 0 if prompt_opens_think else 1, "</think>": 1, "<answer>": 1,
                "</answer>": 1}
    counts = {tag: text.count(tag) for tag in _TAGS}
    if counts != expected:
        return RewardResult(0.0, "tag_count", {"counts": counts})
    match = (_OPENED_RE if prompt_opens_think else _FULL_RE).fullmatch(text)
    if match is None:
        return RewardResult(0.0, "misplaced", {})
    think, answer = match.groups()
    if not think.strip():
        return RewardResult(0.0, "empty_think", {})
    if not answer.strip():
        return RewardResult(0.0, "empty_answer", {})
    return RewardResult(value, "formatted", {})
