"""Balanced LaTeX boxes (`\\boxed{...}`, `\\fbox{...}`): the one scanner the rewards share.

The structured answer formats (`fields`), the math reward's final-answer markers
(`math_kinds.final_markers`) and GSM8K's `\\boxed{}` fallback all read boxes here, so a
box means the same thing to every grader: braces are balanced (a `\\{` or `\\}` inside is
a literal brace), a box that never closes is no box, and a box nested in another is part
of the outer one's content.
"""

from __future__ import annotations

import re

BOXED = re.compile(r"\\boxed\s*\{")
BOXED_OR_FBOX = re.compile(r"\\(?:boxed|fbox)\s*\{")


def closing_brace(text: str, i: int) -> int:
    """Index just past the "}" that closes the group opened just before index `i`, or -1
    when it never closes. A `\\{` or `\\}` is a literal brace."""
    depth = 1
    while i < len(text):
        ch = text[i]
        if ch == "\\" and text[i + 1:i + 2] in ("{", "}"):
            i += 2
            continue
        depth += ch == "{"
        depth -= ch == "}"
        i += 1
        if depth == 0:
            return i
    return -1


def boxed_spans(text: str, opener: re.Pattern = BOXED) -> list[tuple[int, int, str]]:
    """Every closed box of `text` as (start, end, content), by start; `opener` matches a
    box's opening up to and including its "{" (default `\\boxed{`).

    A box that never closes is left out and the boxes after it are still found; nested
    boxes are listed too. Example: "x \\boxed{\\frac{1}{2}} y" -> [(2, 21, "\\frac{1}{2}")].
    """
    spans = []
    for found in opener.finditer(text):
        end = closing_brace(text, found.end())
        if end > 0:
            spans.append((found.start(), end, text[found.end():end - 1]))
    return spans


def outermost(spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """The spans of `boxed_spans` that no other span contains, in order."""
    return [(s, e, c) for s, e, c in spans if not any(s2 < s and e <= e2 for s2, e2, _ in spans)]


def boxed_values(text: str) -> list[str]:
    """The field values of the boxed format, in order: the contents of the closed
    outermost boxes, the last one being the outermost box around the box that STARTS last
    (so text around it, even with stray braces or an unclosed box before it, cannot change
    it). A box nested in another is part of its content, never a field of its own:
    "\\boxed{Rome \\boxed{Paris}}" is one field holding two candidates
    (`fields.nested_items`), not the answer "Paris".
    Example: "\\boxed{Paris} or \\boxed{Rome}" -> ["Paris", "Rome"]."""
    return [c for _, _, c in outermost(boxed_spans(text))]
