"""When the work after a `math` answer takes it back (`rlvr.rewards.math`).

Two rules, read on the text after the answer the math reward extracted (`taken_back`):

* a retracting word right after it, in its sentence or opening the next one ("\\boxed{5}.
  Actually, no: 6", "Wait"); the weak words "no", "nope", "maybe", "perhaps", "actually",
  "sorry" count only with a number or an error word after them ("12 eggs, no more and no
  less", "Sorry if the steps were long!" keep the answer);
* a correction of the work anywhere after it ("that double-counts", "scrap that", "I
  ignored the restriction", a mistake, a miscalculation) followed by a different last
  number ("... the count is 11").

Work that ends on the answer's own number keeps it ("Wait, let me check: 2 + 3 = 5"),
unless that number is denied; a different last number with neither is left to the other
rules (a check: "12 + 3 = 15"). Also here: math-verify's "answer is" marker reads through a
negation ("The answer is not 5" gave 5): `negated_marker`.
"""

from __future__ import annotations

import re
from typing import Any

from rlvr.rewards.answers.denial import denied
from rlvr.rewards.answers.math_compare import MathAnswer
from rlvr.rewards.answers.math_kinds import sentence_rest
from rlvr.rewards.answers.numbers import RETRACTING, iter_numbers, retracts

_RETRACTING = RETRACTING - {"or"}  # "or" offers another value: `other_candidates` decides
# Words that retract only when what follows them says the answer was wrong or gives a
# number ("\\boxed{12}, no more and no less", "Actually, this matches", "Sorry if the
# steps were long!" keep the answer; "Actually, no: 6", "or maybe 6" do not)
_WEAK_RETRACTING = frozenset({"no", "nope", "maybe", "perhaps", "actually", "sorry"})
_ERROR = re.compile(r"\b(?:wrong|incorrect|mistake|mistaken|error|slip|typo|not (?:right|correct)|"
                    r"(?:mis|double[- ]?|over|under)count\w*|miscalculat\w*)\b", re.IGNORECASE)
_WORD_RE = re.compile(r"[A-Za-z']+")
# math-verify's "answer is" marker reads through a negation: "The answer is not 5" gave 5
_NEGATED_IN_MARKER = re.compile(r"\banswer\s+(?:is|was|would be|should be)\s+(?:not|never)\b"
                                r"|\banswer\s+(?:isn't|wasn't)\b", re.IGNORECASE)
# A correction of the work, anywhere after the answer: with a different number stated after
# it, the answer is taken back even without a retracting word next to it ("\\boxed{12}.
# Hmm, that double-counts the corner tile ... the count is 11", "Scrap that; only 10
# remain", "I ignored the restriction; with it, we get 10"). Not "hmm" or "wait" alone:
# a check that restates the answer in another unit or form is no correction.
_CORRECTION = re.compile(
    r"\b(?:scrap|scratch|oops|redo|recount\w*|reconsider\w*|correction|correct(?:ed|ing) "
    r"(?:that|this|it|myself)|(?:the )?(?:correct|right|actual|true) (?:answer|value|result) is|"
    r"ignored|ignoring|forgot|forgotten|forgets?|forgetting|overlooked|overlooks?|"
    r"missed|neglected|should(?:n't| not)? have|wrong|incorrect|mistake\w*|error|slip|"
    r"typo|(?:mis|double[- ]?|over|under)count\w*|counted (?:twice|two times)|miscalculat\w*|"
    r"misread|mixed up|"
    r"messed up)\b", re.IGNORECASE)


def _takes_back(rest: str, after: str) -> bool:
    """Whether the text after an answer retracts it (`retracts`: a retracting word in the
    rest of its sentence or opening the next one). A weak word (`_WEAK_RETRACTING`) counts
    only with a number or an error word after it, or as a bare "No." of its own."""
    if not retracts(rest, after, words=_RETRACTING):
        return False
    strong = _RETRACTING - _WEAK_RETRACTING
    words = [w.lower() for w in _WORD_RE.findall(rest)]
    first = _WORD_RE.match(after.strip())
    if strong & set(words) or (first and first.group().lower() in strong):
        return True
    tail = rest + " " + after
    return bool(re.search(r"\d", tail) or _ERROR.search(tail)
                or re.fullmatch(r"\W*(?:(?:no|nope|actually|sorry|wait)\W*)*(?:no|nope)\W*",
                                after.strip(), re.IGNORECASE))  # "No.", "Actually, no."


def _last_number(text: str, start: int):
    """The last number token of `text[start:]` as (value, start, end) in `text`, or None."""
    last = None
    for last in iter_numbers(text[start:]):
        pass
    return None if last is None else (last.value, start + last.start, start + last.end)


def _same_number(a: Any, b: Any) -> bool:
    return abs(float(a) - float(b)) <= 1e-9 * max(1.0, abs(float(b)))


def corrected(text: str, end: int, number: Any) -> bool:
    """Whether the work after `end` corrects a stated number (the second rule of
    `taken_back`, for any reward that reads one number: `math`, `gsm8k_correctness`): a
    correction cue (`_CORRECTION`) and then a last number that differs from `number`, or
    that is `number` denied ("#### 18\n\nHmm, actually that's wrong: ... 27 dollars")."""
    cue = _CORRECTION.search(text, end)
    if cue is None:
        return False
    last = _last_number(text, cue.start())
    if last is None:
        return False
    if _same_number(last[0], number):
        return denied(text, last[1], last[2])
    return True


def taken_back(text: str, end: int, answer: MathAnswer) -> bool:
    """Whether what follows the answer ending at `end` takes it back. Two rules:
    - a retracting word right after it (`_takes_back`: in its sentence or opening the next);
    - a correction of the work anywhere after it (`_CORRECTION`) and then a different last
      number ("\\boxed{12}. Hmm, that double-counts the corner ... the count is 11").
    Work that ends on the answer's own number keeps it ("\\boxed{5}. Wait, let me check:
    2 + 3 = 5"), unless that number is denied; a different last number with no correction
    or retracting word before it is left to the other rules (checks: "12 + 3 = 15")."""
    number = None
    if answer.kind == "math":
        try:
            number = float(answer.value)
        except (TypeError, ValueError):
            number = None  # not a single number
    retract = _takes_back(*sentence_rest(text, end))
    cue = _CORRECTION.search(text, end)
    if not retract and (cue is None or number is None):
        return False
    last = _last_number(text, end if retract else cue.start()) if number is not None else None
    if last is None:
        return retract
    if _same_number(last[0], number) and last[1] >= end:
        return denied(text, last[1], last[2])  # "..., so it is not 12"
    return True


def withdrawn(text: str, end: int, later: int) -> bool:
    """Whether an earlier final answer ending at `end` is withdrawn before the answer that
    starts at `later`: a correction cue (`_CORRECTION`) or a retracting word (`_takes_back`)
    between them ("Final answer: \\boxed{5}. Wait, I made an error ... Corrected final
    answer: \\boxed{6}" offers one answer, 6, not two)."""
    return bool(_CORRECTION.search(text, end, later)) or _takes_back(
        *sentence_rest(text[:later], end))


def negated_marker(matched: str) -> bool:
    """Whether math-verify's matched text reads its answer through a negation ("answer is
    not 5", "answer isn't 5"): then it states no answer."""
    return bool(_NEGATED_IN_MARKER.search(matched))
