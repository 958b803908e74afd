"""Answer fields: the final answer in a marked field, and the values read from it.

The structured answer formats put the final answer in a marked field and make abstention
one fixed value in it, so nothing is matched against phrase lists (a list of ways to say
"I don't know" always misses some form; the free-text detector,
`rlvr.rewards.abstention_detection`, has to recognise every one):

* `boxed`: the answer is the content of the LAST outermost `\\boxed{...}` (braces balanced,
  nested braces allowed; an unclosed box does not count; a box nested in it is part of its
  content, and makes its items candidates). Abstention is the fixed value
  `\\boxed{I don't know}`, as TruthRL trains (Wei et al., "TruthRL: Incentivizing Truthful
  LLMs via Reinforcement Learning", 2025; ICML 2026).
* `answer_line`: the answer is the text after the LAST line that opens with `Answer:` (or
  `Final answer:`, markdown bold allowed), up to the end of that line.

The field is read from the folded text (`selfaware` and `abstention` read the same field),
and its value is compared after `normalise_value`: Unicode folding, text-style LaTeX
commands and LaTeX spaces, case, surrounding punctuation and quotes, apostrophes (so "I dont
know.", "i don\u2019t know", "\\text{I don't know}." and "I\\ don't\\ know" all equal the
abstention value) and runs of whitespace. Nothing else is normalised: "I do not know" or
"Unknown" inside the field is an answer (a wrong one), which the prompt's exemplar makes
unambiguous. `free` is the free-text behaviour (no field); a response without the field in
a structured format is neither an answer nor an abstention (`no_answer`).

The free-text matcher reads fields too, when free text writes them
(`rlvr.rewards.answers.forms.other_fields`). The `selfaware` table of a structured response
is `rlvr.rewards.selfaware_structured` (`score_structured`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rlvr.errors import RlvrError
from rlvr.rewards.answers.boxes import boxed_spans, boxed_values, closing_brace, outermost
from rlvr.rewards.answers.folding import fold

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


ANSWER_FORMATS = ("free", "boxed", "answer_line")


def check_format(answer_format: str) -> None:
    """Refuse an unknown answer format.

    Raises:
        RlvrError: `answer_format` is not one of ANSWER_FORMATS (the message lists them).
    """
    if answer_format not in ANSWER_FORMATS:
        raise RlvrError(f"unknown answer_format {answer_format!r}; known: "
                        f"{', '.join(ANSWER_FORMATS)}")


def nested_items(content: str) -> list[str]:
    """The candidates of a field that holds boxes: each nested box's content and the text
    around them (when any is left), else [] (no nested box). "Rome \\boxed{Paris}" ->
    ["Paris", "Rome"]; "\\boxed{Paris}" -> ["Paris"]."""
    spans = boxed_spans(content)
    if not spans:
        return []
    inner = [c for _, _, c in outermost(spans)]
    rest, pos = [], 0
    for s, e, _ in spans:
        if s >= pos:
            rest.append(content[pos:s])
            pos = e
    rest.append(content[pos:])
    around = " ".join("".join(rest).split()).strip(_EDGE)
    return inner + ([around] if around else [])


@dataclass(frozen=True)
class FieldAnswer:
    """The final-answer field of a response in a structured format.

    Attributes:
        found: a field is present.
        value: the raw content of the last field ("" when none).
        abstains: the last field holds the abstention value.
        earlier: the distinct normalised non-abstention values of the other fields that
            differ from the last one (candidates offered besides the final answer).
    """

    found: bool
    value: str = ""
    abstains: bool = False
    earlier: tuple[str, ...] = ()


def read_field(text: str, answer_format: str, abstain_value: str = ABSTAIN_VALUE) -> FieldAnswer:
    """Read the final-answer field of `text` in `answer_format` ("boxed" or "answer_line").

    Only the last field decides answer vs abstention; earlier fields only matter as other
    candidates (see `FieldAnswer.earlier`). The text is folded first
    (`folding.fold`), so `selfaware` and `abstention` read the same field.

    Raises:
        RlvrError: unknown format, or "free" (which has no field).
    """
    check_format(answer_format)
    if answer_format == "free":
        raise RlvrError("answer_format 'free' has no answer field to read")
    text = fold(text)  # "\uff3cboxed{...}", "\uff21nswer\uff1a": the same field in every reward
    values = boxed_values(text) if answer_format == "boxed" else answer_line_values(text)
    values = [v for v in values if normalise_value(v)]  # an empty field is no field
    if not values:
        return FieldAnswer(False)
    last = values[-1]
    idk = normalise_value(abstain_value)
    final = normalise_value(last)
    earlier = tuple(dict.fromkeys(n for n in map(normalise_value, values[:-1])
                                  if n and n != idk and n != final))
    return FieldAnswer(True, last, final == idk, earlier)


_FIELD_SEP = re.compile(r"\s*(?:(?<!\d),|,(?!\d)|;|\s&\s|(?<!\d)/|/(?!\d)|\||\?|\bor\b|\band\b|"
                        r"\bvs\b\.?|\bversus\b|\n)\s*")


def field_items(content: str, aliases: list[str]) -> list[str]:
    """The items of a field's content when it offers more than one ("paris, london",
    "paris or rome", "paris/rome"), else [content]. The field holds the answer alone, so
    it is stricter than free text: two items joined by a comma already make a list
    ("\\boxed{Paris, France}" too). A content equal to a gold alias ("bosnia and
    herzegovina") and separators inside a number ("1,000", "3/4") do not split.
    Args: content folded and lower-cased; aliases likewise."""
    stripped = content.strip(_EDGE)
    if stripped in aliases:
        return [stripped]
    nested = nested_items(stripped)
    if nested:  # "rome \\boxed{paris}": the nested box and the text around it
        return [n.strip(_EDGE) for n in nested]
    undated = _DATE.sub(lambda m: m.group().replace(",", " "), stripped)  # "july 20, 1969"
    items = [i.strip(_EDGE) for i in _FIELD_SEP.split(undated) if i.strip(_EDGE)]
    return items if len(items) > 1 else [stripped]


_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
          r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
_WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
# a date's commas join one value: "july 20, 1969", "monday, july 20, 1969", "20 july, 1969"
_DATE = re.compile(rf"\b(?:{_WEEKDAY},?\s+)?(?:{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?|"
                   rf"\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}),\s*\d{{1,4}}\b|\b{_WEEKDAY},\s+(?={_MONTH}|\d)")


def in_field(value: str, answer_format: str) -> str:
    """`value` written in the answer field of `answer_format`: "\\boxed{Paris}" or
    "Answer: Paris" ("free" returns it unchanged). Used to build structured responses
    (preflight policies, tests)."""
    check_format(answer_format)
    if answer_format == "boxed":
        return f"\\boxed{{{value}}}"
    return f"Answer: {value}" if answer_format == "answer_line" else value


def normalise_content(value: str) -> str:
    """A field's content for answer matching: folded, `\\text{...}` wrappers removed,
    lower-cased (punctuation kept: the matcher reads numbers and lists from it)."""
    return _plain_latex(fold(value)).lower()
