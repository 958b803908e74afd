"""Reading one answer field and its normalised value: `Answer:` lines and the abstention
value of the structured formats (`rlvr.rewards.structured`), also read by the free-text
matcher when free text writes fields (`rlvr.rewards.answer_forms.other_fields`).
"""

from __future__ import annotations

import re

from rlvr.rewards.boxes import closing_brace
from rlvr.rewards.folding import fold

ABSTAIN_VALUE = "I don't know"

_ANSWER_LINE = re.compile(r"^[ \t>*_#-]*(?:final[ \t]+)?answer[ \t*_]*:[ \t*_]*(.*)$",
                          re.IGNORECASE | re.MULTILINE)
_WRAPPER = re.compile(r"^\\(?:text|textbf|textit|mathrm|mbox|mathbf|emph|boxed)\s*\{")
# a text-style command anywhere in the field ("\\textsf{I}~\\text{don't know}") keeps its
# content; LaTeX spacing commands and "~" are spaces
_TEXT_COMMAND = re.compile(r"\\(?:text[a-z]*|math(?:rm|sf|it|bf|tt|normal)|mbox|hbox|emph|"
                           r"operatorname|bm|boldsymbol)\s*\{([^{}]*)\}")
_LATEX_SPACE = re.compile(r"\\[ ,;:!]|\\(?:q?quad|enspace|thinspace)\b|~")
_EDGE = " \t\n.,;:!?\"'*_`()[]"


def answer_line_values(text: str) -> list[str]:
    """The values of every `Answer:` / `Final answer:` line, in order.

    The marker must open its line (after optional markdown: spaces, `>`, `*`, `_`, `#`,
    `-`); the value runs to the end of that line, or is the next non-empty line when the
    marker ends its line ("Answer:\\nParis"). "The answer: Paris" mid-line does not count.
    """
    values = []
    for found in _ANSWER_LINE.finditer(text):
        value = found.group(1)
        if not value.strip():
            rest = text[found.end():].lstrip("\n").split("\n")
            value = next((line for line in rest if line.strip()), "")
        values.append(value)
    return values


def normalise_value(value: str) -> str:
    """A field value folded for comparison: Unicode folding, `\\text{...}`-style wrappers
    removed, lower case, apostrophes removed, surrounding punctuation/quotes stripped,
    whitespace collapsed. "  \\text{I Don\u2019t know.} " -> "i dont know"."""
    value = _plain_latex(fold(value))
    value = value.lower().replace("'", "")
    return " ".join(value.strip(_EDGE).split())


def _plain_latex(value: str) -> str:
    """`value` with text-style commands unwrapped wherever they are (`\\text{I don't
    know}.`, `\\textsf{...}`, `\\text{I}~\\text{don't know}`) and LaTeX spaces (`\\ `, `~`,
    `\\,`, `\\quad`) made spaces, `\\&`, `\\#`, `\\_` unescaped and a line break `\\\\` a
    newline (round 4: `\\boxed{Tom \\& Jerry}`, `\\boxed{Paris \\\\ Lyon}`); braces of other
    commands are kept (`\\frac{1}{2}`)."""
    value = value.strip()
    while True:  # a wrapper around the whole value, its braces balanced
        opened = _WRAPPER.match(value)
        if opened is None or closing_brace(value, opened.end()) != len(value):
            break
        value = value[opened.end():-1].strip()
    previous = None
    while previous != value:
        previous, value = value, _TEXT_COMMAND.sub(lambda m: m.group(1), value)
    value = re.sub(r"\\\\|\\([&#_])", lambda m: m.group(1) or "\n", value)  # `\&` is "&"
    return _LATEX_SPACE.sub(" ", value).strip()
