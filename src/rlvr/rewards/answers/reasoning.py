"""The final answer of a completion that reasons first: the one rule every reward reads by.

Most 2025-2026 RL recipes (DeepSeek-R1's format and its descendants) let the policy write a
reasoning block before its answer: `<think> ... </think> answer`. Doubt voiced while
reasoning ("maybe Rome? no...") is not a hedge of the answer, and a guess made while
reasoning before a final "I don't know." is not an answer. So every reward reads the
*final answer* only, cut out here and nowhere else (`RewardSpec.score_batch` applies it
before any reward core sees the text; a registered reward's public function, called
directly, applies it too, and so does `detect_abstention`):

| completion | final answer |
|---|---|
| no reasoning tag at all | the whole completion |
| `... </think> A` (one block or several; the opening tag may sit in the prompt) | `A`: the text after the **last** closing tag |
| `<think> ...` opened and never closed, before or after an answer (cut at the token cap, or never ended) | no answer: read as an empty response |

Tags are matched without regard to case (`<THINK>` is the same tag), so a policy cannot step
around the rule by changing case. The tags are a reward parameter, `reasoning_tags`
(default `("<think>", "</think>")`; any reward, e.g. `reward_params: {reasoning_tags:
["<reasoning>", "</reasoning>"]}`); `reasoning_tags: null` reads whole completions. Rewards
that judge the block itself or the whole completion's length (`think_format`,
`soft_overlong`, `repetition_penalty`, `cosine_scaled`'s length part) are registered with
`whole_completion=True` and see everything.

Source: rlvr's convention (DESIGN.md, "reasoning blocks"); the tag pair is DeepSeek-R1's
(Guo et al., 2025) as TRL's and open-r1's format rewards use it.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Sequence

DEFAULT_REASONING_TAGS: tuple[str, str] = ("<think>", "</think>")
PARAM = "reasoning_tags"  # the reward parameter every reward accepts


def reasoning_tags(value: Any) -> tuple[str, str] | None:
    """Check a `reasoning_tags` value and return it as a pair (or None: read whole texts).

    Args:
        value: None, or a sequence of two non-empty, different strings (open, close).
    Returns:
        (open_tag, close_tag), or None.
    Raises:
        ValueError: anything else, with the expected form.
    """
    if value is None:
        return None
    if (isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(t, str) and t.strip() for t in value)
            and value[0].strip().lower() != value[1].strip().lower()):
        return (value[0].strip(), value[1].strip())
    raise ValueError(f"reasoning_tags must be two different non-empty strings [open, close] "
                     f"(e.g. ['<think>', '</think>']) or null, got {value!r}")


@lru_cache(maxsize=32)
def _patterns(open_tag: str, close_tag: str) -> tuple[re.Pattern, re.Pattern]:
    return (re.compile(re.escape(open_tag), re.IGNORECASE),
            re.compile(re.escape(close_tag), re.IGNORECASE))


def final_answer(completion: str,
                 tags: Sequence[str] | None = DEFAULT_REASONING_TAGS) -> str | None:
    """The part of `completion` a reward judges (module docstring's table).

    Args:
        completion: the response text.
        tags: (open, close) reasoning tags, matched case-insensitively; None returns the
            completion unchanged.
    Returns:
        the text after the last closing tag (the whole completion when there is none);
        None when that text opens a block it never closes (no answer given).
    """
    if tags is None:
        return completion
    opening, closing = _patterns(*reasoning_tags(tags))
    ends = [m.end() for m in closing.finditer(completion)]
    tail = completion[ends[-1]:] if ends else completion
    return None if opening.search(tail) else tail


def final_answers(completions: Sequence[str],
                  tags: Sequence[str] | None = DEFAULT_REASONING_TAGS) -> list[str]:
    """`final_answer` of each completion, with "no answer" (an unclosed block) as "".

    Args:
        completions: B response texts.
    Returns:
        B texts, what the reward cores read.
    """
    out = []
    for text in completions:
        answer = final_answer(text, tags)
        out.append("" if answer is None else answer)
    return out
