"""Structured shapes of a free-text response, read as the plain text they stand for.

A model may answer in a JSON object, an XML-like tag or a Markdown table. Read as prose,
the braces, quotes and pipes broke the graders: a table's cells looked like a list of
candidates, `{"answer": null, "reason": "This cannot be known"}` was no abstention, and
`"answer": "#### 24"}` no answer line. `plain_shape` writes each shape as lines of
"field: value", which every grader already reads (an "Answer:" line is an answer marker; a
"reason" or "note" line is prose the abstention detector reads):

| response | read as |
|---|---|
| `{"answer": "Canberra", "confidence": "low"}` (the whole response one JSON object) | `answer: Canberra` / `confidence: low` |
| `{"answer": null, "reason": "..."}` | `answer: none` / `reason: ...` |
| `{"answer": "yen", "confidence": 0.2, "alternatives": ["won"]}` | `answer: yen or won` / `confidence: low` (alternatives are candidates; a confidence below 0.5 is low) |
| `<answer>I don't know</answer> <!-- Cairo -->` | `answer: I don't know` (an HTML comment is hidden text, never the answer) |
| `<answer>0.75</answer>` | `answer: 0.75` |
| a Markdown table (header row, `|---|` rule, rows) | one row: `header: cell; header: cell`; several rows: a bulleted list of the rows (candidates, as a list is) |

Anything else is returned unchanged. Nested values are written as JSON text. Standard
library only. Tests: tests/test_answer_shapes.py.
"""

from __future__ import annotations

import json
import re

_TAG = re.compile(r"<(answer|final_answer|final|result)>(.*?)</\1>", re.IGNORECASE | re.DOTALL)
_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _json_lines(text: str) -> str | None:
    stripped = text.strip()
    fenced = re.fullmatch(r"```(?:json)?\s*(.*?)\s*```", stripped, re.DOTALL)
    if fenced:
        stripped = fenced.group(1)
    if not (stripped.startswith("{") and stripped.endswith("}")):
        return None
    try:
        data = json.loads(stripped)
    except ValueError:
        return None
    if not isinstance(data, dict) or not data:
        return None
    lines = []
    others = [v for k, v in data.items() if k.strip().lower() in _ALTERNATIVE_KEYS
              and isinstance(v, list) and v]
    for key, value in data.items():
        if key.strip().lower() in _ALTERNATIVE_KEYS and isinstance(value, list) and value:
            continue  # written beside the answer, below
        if value is None:
            shown = "none"
        elif isinstance(value, str):
            shown = value
        elif key.strip().lower() == "confidence" and isinstance(value, (int, float)) \
                and not isinstance(value, bool):
            shown = "low" if value < 0.5 or 1 < value < 50 else str(value)  # 0.2, or 20 (%)
        else:
            shown = json.dumps(value, ensure_ascii=False)
        if key.strip().lower() in _ANSWER_KEYS and others:  # "alternatives": candidates
            shown = " or ".join([shown] + [str(v) for v in others[0]])
        lines.append(f"{key}: {shown}")
    return "\n".join(lines)


def _table_lines(text: str) -> str | None:
    lines = text.strip().splitlines()
    at = next((i for i, line in enumerate(lines) if _RULE.match(line)), None)
    if at is None or at == 0 or "|" not in lines[at - 1]:
        return None
    header = _cells(lines[at - 1])
    out = lines[:at - 1]
    rows = sum("|" in line for line in lines[at + 1:])
    for line in lines[at + 1:]:
        if "|" not in line:
            out.append(line)
        elif rows == 1:  # one row: its fields
            out.append("; ".join(f"{h}: {c}" if h else c for h, c in zip(header, _cells(line))))
        else:  # several rows: a bulleted list, as candidates are
            out.append("- " + ", ".join(c for c in _cells(line) if c))
    return "\n".join(out)


_ALTERNATIVE_KEYS = ("alternatives", "alternative", "candidates", "other_answers", "options",
                     "other answers", "others")
_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.DOTALL)


def plain_shape(text: str, tags: bool = True) -> str:
    """`text` with a JSON-object response, answer tags (unless `tags` is False: `qa` reads
    its `<answer>` tag itself) and Markdown tables written as "field: value" lines (module
    docstring); other text unchanged."""
    if not text or not any(mark in text for mark in ("{", "<", "|")):
        return text
    text = _COMMENT.sub(" ", text)  # an HTML comment is hidden, never part of the answer
    as_json = _json_lines(text)
    if as_json is not None:
        return as_json
    if tags:
        text = _TAG.sub(lambda m: f"{m.group(1)}: {m.group(2).strip()}", text)
    return _table_lines(text) or text


_ANSWER_KEYS = ("answer", "final_answer", "final answer", "result")


def json_answer(text: str) -> str | None:
    """The answer field of a response that is one JSON object (`{"answer": "Paris", ...}`:
    "Paris"; a null answer: ""), else None."""
    lines = _json_lines(text)
    if lines is None:
        return None
    data = json.loads(re.sub(r"^```(?:json)?|```$", "", text.strip()).strip())
    for key, value in data.items():
        if key.strip().lower() in _ANSWER_KEYS:
            return "" if value is None else value if isinstance(value, str) else json.dumps(value)
    return None
