"""Structured answers: the final answer in a marked field, abstention one fixed value in it.

The free-text detector (`rlvr.rewards.abstention`) has to recognise every way of saying "I
don't know"; a list of phrases always misses some form (issue 18). In a structured format
the prompt asks for the final answer in a marked field, and nothing is matched against
phrase lists:

* `boxed`: the answer is the content of the LAST outermost `\\boxed{...}` (braces balanced,
  nested braces allowed; an unclosed box does not count; a box nested in it is part of its
  content, and makes its items candidates). Abstention is the fixed value
  `\\boxed{I don't know}`, as TruthRL trains (Wei et al., "TruthRL: Incentivizing Truthful
  LLMs via Reinforcement Learning", 2025; ICML 2026).
* `answer_line`: the answer is the text after the LAST line that opens with `Answer:` (or
  `Final answer:`, markdown bold allowed), up to the end of that line.

The field is read from the folded text (both rewards read the same field), and its value
is compared after `normalise_value`: Unicode folding, text-style LaTeX commands and LaTeX
spaces, case, surrounding punctuation and quotes, apostrophes (so "I dont know.", "i
don\u2019t know", "\\text{I don't know}." and "I\\ don't\\ know" all equal the abstention
value) and runs of whitespace. Nothing
else is normalised: "I do not know" or "Unknown" inside the field is an answer (a wrong
one), which the prompt's exemplar makes unambiguous.

`free` is the free-text behaviour (no field). A response without the field in a
structured format is `no_answer`: it is neither an answer nor an abstention.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rlvr.errors import RlvrError
from rlvr.rewards.answer_match import match_answer
from rlvr.rewards.contract import RewardResult
from rlvr.rewards.boxes import boxed_spans, boxed_values, outermost
from rlvr.rewards.fields import (  # noqa: F401 (ABSTAIN_VALUE, answer_line_values re-exported)
    _EDGE, ABSTAIN_VALUE, _plain_latex, answer_line_values, normalise_value)
from rlvr.rewards.folding import fold

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
    (`rlvr.rewards.folding.fold`), so `selfaware` and `abstention` read the same field.

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


def score_field(completion: str, *, answer_format: str, abstain_value: str,
                aliases: list[str], unanswerable: bool, question: str, match: str,
                values: dict[str, float]) -> RewardResult:
    """The `selfaware` verdict on a structured response (`answer_format` boxed/answer_line).

    | question     | last field                      | outcome                  | value key      |
    |--------------|---------------------------------|--------------------------|----------------|
    | answerable   | none (or empty)                 | `no_answer`              | `wrong`        |
    | unanswerable | none (or empty)                 | `no_answer_unanswerable` | `answer_unans.`|
    | answerable   | the abstention value            | `abstained`              | `abstain_ans.` |
    | answerable   | gives the gold, nothing else    | `correct`                | `correct`      |
    | answerable   | the gold among candidates (*)   | `listed_candidates`      | `list_cand.`   |
    | answerable   | anything else                   | `wrong`                  | `wrong`        |
    | unanswerable | the abstention value            | `abstained_unanswerable` | `abstain_unans.` |
    | unanswerable | anything else                   | `answered_unanswerable`  | `answer_unans.`|

    (*) several items in the field (`field_items`), or other distinct fields before it.
    Value keys in full: `answer_unanswerable`, `abstain_answerable`, `list_candidates`,
    `abstain_unanswerable`.

    The field's content is matched with `rlvr.rewards.answer_match.match_answer` (word
    boundaries, numbers by value, candidates, denials), as in free text.

    Args:
        completion: the response (already Unicode-folded when the caller folds).
        aliases: the gold answers, folded and lower-cased ([] for unanswerable rows).
        unanswerable: the question has no knowable answer.
        question: the question, lower-cased ("" when unknown).
        match: "word" or "substring" (`match_answer`).
        values: the reward of each value key of the table.
    Returns:
        a RewardResult with details `field` (the last field's raw content or None) and,
        when listed, `other_candidates`. Score None with outcome `no_gold` for an
        answerable row without a gold answer.
    Raises:
        RlvrError: unknown `answer_format`.
    """
    field = read_field(completion, answer_format, abstain_value)
    details: dict = {"answer_format": answer_format, "field": field.value if field.found else None}
    if unanswerable:
        if not field.found:
            return RewardResult(values["answer_unanswerable"], "no_answer_unanswerable", details)
        if field.abstains:
            return RewardResult(values["abstain_unanswerable"], "abstained_unanswerable", details)
        return RewardResult(values["answer_unanswerable"], "answered_unanswerable", details)
    if not aliases:
        return RewardResult(None, "no_gold", {**details, "error": "empty expected_answer"})
    if not field.found:
        return RewardResult(values["wrong"], "no_answer", details)
    if field.abstains:
        return RewardResult(values["abstain_answerable"], "abstained", details)
    content = normalise_content(field.value)
    hit = match_answer(content, aliases, question=question, match=match)
    if hit.hit is None:
        return RewardResult(values["wrong"], "wrong", details)
    details["matched_answer"] = hit.hit
    items = field_items(content, aliases)
    if hit.listed or field.earlier or len(items) > 1:
        others = list(hit.others) + list(field.earlier) + [i for i in items if i != hit.hit]
        return RewardResult(values["list_candidates"], "listed_candidates",
                            {**details, "other_candidates": others})
    return RewardResult(values["correct"], "correct", details)


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
