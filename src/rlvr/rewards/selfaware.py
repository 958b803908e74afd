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
(`rlvr.rewards.abstention`). The `default` preset is the same table.

Preset `strict` closes the seed table's loopholes. It labels each response with the robust
detector (`answer`, `abstain`, `hedge`), matches answers on word boundaries ("10" does not
contain the answer "1") and gives hedges their own values:

| question     | robust label | contains the answer | outcome                | reward |
|--------------|--------------|---------------------|------------------------|--------|
| answerable   | answer       | yes                 | `correct`              | +1.0   |
| answerable   | answer       | no                  | `wrong`                | -1.0   |
| answerable   | hedge        | yes                 | `hedged_correct`       | +0.5   |
| answerable   | hedge        | no                  | `hedged_wrong`         | -1.0   |
| answerable   | answer, the answer is one of listed candidates | `listed_candidates` | -1.0 |
| answerable   | abstain      | (ignored)           | `abstained`            | -0.5   |
| unanswerable | abstain      |                     | `abstained_unanswerable` | +1.0 |
| unanswerable | hedge        |                     | `hedged_unanswerable`  | -0.5   |
| unanswerable | answer       |                     | `answered_unanswerable`| -1.0   |

Why these hedge values. Under the seed table "I'm not sure, but maybe X" earns +1 when X is
right, -0.5 when wrong and +1 on every unanswerable question, so "always hedge with a
guess" scores at least as well as a calibrated policy (on the v3 test split, hedging the
gold answer everywhere scores the maximum, 1.0). In `strict`:

* A hedge always scores strictly below the better of committing and abstaining, whatever
  the model's chance r of a right guess and chance u that the question is unanswerable:
  hedge(r, u) = -0.5u + (1-u)(0.5r - (1-r)), commit = -u + (1-u)(2r-1),
  abstain = u - 0.5(1-u). hedge >= commit needs u >= r/(1+r); hedge >= abstain needs
  (1-u)(1.5r-0.5) >= 1.5u, i.e. u <= (1.5r-0.5)/(1.5r+1), which is < r/(1+r) for
  every r; so both cannot hold and hedging is never even tied for best. (`hedged_wrong` at -1.0 is what makes
  this hold for answerable questions: at r = 0.25, where commit and abstain tie at
  -0.5, a hedge earns 0.25 * 0.5 - 0.75 * 1.0 = -0.625.)
* So a policy that picks the better of commit and abstain per question (calibrated)
  scores strictly more than "always hedge" on any mix. Against "always abstain": with a fraction p of unanswerable questions and a fraction q
  of the answerable ones known for sure, calibrated - always abstain = (1-p) q 1.5 > 0
  for any q > 0. Hedging the right answer everywhere (the best a hedger can do) scores
  0.5 (1-p) - 0.5 p, at most 0.5 < 1.0; on the v3 test split (p = 239/337) it scores
  0.291 * 0.5 - 0.709 * 0.5 = -0.209 against 1.0 for the gold answers.
* A response that abstains without committing but mentions the answer ("I don't know -
  Paris? Rome? Berlin?") is `abstained`, so listing candidates behind a disclaimer earns
  nothing over a clean abstention.
* Listing candidates ("Paris, Rome or Berlin", "Paris or Rome") is `listed_candidates`
  (-1.0, as wrong): with k listed candidates and a chance r of each being right, a list
  scored like a hedge would earn 0.5 kr - (1 - kr), more than abstaining (-0.5) once
  r > 1/(3k); at -1.0 a list never beats committing to its best candidate (2r - 1 >= -1).
  A list is the answer sitting in an "or" alternative, or among three or more short items
  separated by commas, semicolons or question marks, within one sentence
  (`lists_candidates`).
The unanswerable hedge (-0.5) is better than a flat answer (-1.0) because the response
does flag its uncertainty, but worse than abstaining; the non-hedge values are the seed
ones, so the two presets' scores compare directly.
"""

from __future__ import annotations

import re
from typing import Any

from rlvr.rewards.abstention import (
    ROBUST_PATTERNS,
    SEED_PATTERNS,
    detect_abstention,
    question_text,
    robust_patterns,
    seed_abstention_match,
)
from rlvr.rewards.base import RewardResult, register_reward

STRICT_PRESET = {
    "mode": "robust",
    "match": "word",
    "hedge_correct": 0.5,
    "hedge_wrong": -1.0,
    "hedge_unanswerable": -0.5,
    "list_candidates": -1.0,
}

# Outcome groups, for metrics that count answerable/unanswerable questions and abstentions.
ANSWERABLE_OUTCOMES = ("correct", "wrong", "abstained", "hedged_correct", "hedged_wrong",
                       "listed_candidates")
UNANSWERABLE_OUTCOMES = ("abstained_unanswerable", "answered_unanswerable", "hedged_unanswerable")
ABSTAINED_OUTCOMES = ("abstained", "abstained_unanswerable")
HEDGED_OUTCOMES = ("hedged_correct", "hedged_wrong", "hedged_unanswerable")

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


_SENTENCE = re.compile(r"[.!\n:]+(?=\s|$)")
_ITEM_SEP = re.compile(r"\s*(?:[,;?]|\bor\b|\band\b|(?<=[a-z])\s*/\s*(?=[a-z]))\s*")
_OR = re.compile(r"\bor\b|[a-z]\s*/\s*[a-z]")


def lists_candidates(text: str, alias: str, max_item_words: int = 3) -> bool:
    """True when `alias` is one of several candidate answers offered in `text`.

    Within the sentence that holds the alias, the text is cut at commas, semicolons,
    question marks, "or", "and" and word/word slashes. A candidate item has at most
    `max_item_words` words, or ends with the alias after a lead-in such as "it could be".
    The alias must sit in a run of consecutive candidate items that offers alternatives:
    two or more items when the sentence has an "or" (or a word/word slash), else three or
    more. "The capital of France is Paris." and "London, England." are not lists; "Paris or
    Rome", "Paris, Rome, Berlin" and "Paris? Rome? Berlin?" are. Both arguments are
    expected lower-cased.
    """
    for sentence in _SENTENCE.split(text):
        if not _contains_word(sentence, alias):
            continue
        items = [p.strip() for p in _ITEM_SEP.split(sentence) if p.strip()]
        # an item is a candidate when short, or when it ends with the alias after a lead-in
        # ("it could be paris, rome or berlin")
        flags = [len(p.split()) <= max_item_words or (p.endswith(alias) and _contains_word(p, alias))
                 for p in items]
        run: list[str] = []  # consecutive candidate items
        for item, flag in zip(items + [""], flags + [False]):
            if flag:
                run.append(item)
                continue
            if any(_contains_word(p, alias) for p in run) and (
                    len(run) >= 3 or (len(run) >= 2 and _OR.search(sentence))):
                return True
            run = []
    return False


def _abstain_value(abstain_answerable: float, known: Any, abstain_known: float | None) -> float:
    """The reward of abstaining on an answerable question (knowledge-aware when asked)."""
    if abstain_known is not None and known is not None and _as_bool(known):
        return abstain_known
    return abstain_answerable


def _contains_word(text: str, alias: str) -> bool:
    """True when `alias` occurs in `text` with no letter or digit right before or after."""
    start = text.find(alias)
    while start >= 0:
        end = start + len(alias)
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        if not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_"):
            return True
        start = text.find(alias, start + 1)
    return False


@register_reward(
    "selfaware",
    fields=("expected_answer", "is_unanswerable"),
    optional_fields=("prompt", "known"),
    score_range=(-1.0, 1.0),
    presets={"default": {}, "seed": {}, "strict": STRICT_PRESET},
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
    mode: str = "seed",
    match: str = "substring",
    hedge_correct: float = STRICT_PRESET["hedge_correct"],
    hedge_wrong: float = STRICT_PRESET["hedge_wrong"],
    hedge_unanswerable: float = STRICT_PRESET["hedge_unanswerable"],
    list_candidates: float = STRICT_PRESET["list_candidates"],
    extra_patterns: dict[str, Any] | None = None,
    prompt: Any = None,
    known: Any = None,
    abstain_known: float | None = None,
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
        patterns: abstention phrases for seed mode (default: the 19 seed patterns).
        mode: "seed" (the table above) or "robust" (the strict table in the module
            docstring; `patterns` is then unused).
        match: "substring" (seed) or "word" (the answer must sit on word boundaries).
        hedge_correct, hedge_wrong, hedge_unanswerable: rewards of hedged responses
            (robust mode only).
        list_candidates: reward of an answer offered among several candidates (robust
            mode only; see `lists_candidates`).
        extra_patterns: patterns added to the robust detector (see
            `rlvr.rewards.abstention.robust_patterns`).
        known: optional per-row flag: the base model answers this question correctly
            (`rlvr.eval.knowledge`); with `abstain_known` set, abstaining on a known
            answerable question earns `abstain_known` instead of `abstain_answerable`
            (over-conservativeness, Yang et al., 2024). None/absent: not used.
        abstain_known: see `known`; None (default) = no knowledge-aware value.
        prompt: the prompt (str or messages); robust mode uses its question to recognise
            restatements. Seed mode ignores it.
    Returns:
        RewardResult with outcome in {correct, abstained, wrong, abstained_unanswerable,
        answered_unanswerable} (robust mode adds hedged_correct, hedged_wrong,
        hedged_unanswerable, listed_candidates); score None with outcome `no_gold` for an answerable
        question whose expected answer is empty (it would match every response).
    Raises:
        RlvrError: unknown mode or bad extra patterns.
    Source: the reference self-awareness GRPO project's reward table (seed convention);
        the strict table is rlvr's (reasoning in the module docstring).
    """
    text = completion or ""
    if mode != "seed":
        return _robust(text, expected_answer, is_unanswerable, correct,
                       _abstain_value(abstain_answerable, known, abstain_known),
                       wrong, abstain_unanswerable, answer_unanswerable, match, hedge_correct,
                       hedge_wrong, hedge_unanswerable, extra_patterns, prompt, mode,
                       list_candidates)
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
        return RewardResult(_abstain_value(abstain_answerable, known, abstain_known),
                            "abstained", details)
    return RewardResult(wrong, "wrong", details)


def _robust(text, expected_answer, is_unanswerable, correct, abstain_answerable, wrong,
            abstain_unanswerable, answer_unanswerable, match, hedge_correct, hedge_wrong,
            hedge_unanswerable, extra_patterns, prompt, mode,
            list_candidates=STRICT_PRESET["list_candidates"]) -> RewardResult:
    """The strict table (module docstring): robust labels, hedge values, word matching."""
    if mode != "robust":
        from rlvr.errors import RlvrError
        raise RlvrError(f"unknown selfaware mode {mode!r}; known: seed, robust")
    patterns = robust_patterns(extra_patterns) if extra_patterns else ROBUST_PATTERNS
    question = question_text(prompt) if prompt is not None else None
    found = detect_abstention(text, patterns=patterns, question=question)
    details = {"label": found.label, "abstention_phrase": found.phrase,
               "commitment": found.commitment}
    if _as_bool(is_unanswerable):
        value, outcome = {"abstain": (abstain_unanswerable, "abstained_unanswerable"),
                          "hedge": (hedge_unanswerable, "hedged_unanswerable"),
                          "answer": (answer_unanswerable, "answered_unanswerable")}[found.label]
        return RewardResult(value, outcome, details)
    aliases = _aliases(expected_answer)
    if not aliases:
        return RewardResult(None, "no_gold", {**details, "error": "empty expected_answer"})
    if found.label == "abstain":
        return RewardResult(abstain_answerable, "abstained", details)
    lowered = text.lower()
    if match == "word":
        hit = next((a for a in aliases if _contains_word(lowered, a)), None)
    else:
        hit = next((a for a in aliases if a in lowered), None)
    if found.label == "hedge":
        if hit is not None:
            return RewardResult(hedge_correct, "hedged_correct", {**details, "matched_answer": hit})
        return RewardResult(hedge_wrong, "hedged_wrong", details)
    if hit is not None and lists_candidates(lowered, hit):
        return RewardResult(list_candidates, "listed_candidates",
                            {**details, "matched_answer": hit})
    if hit is not None:
        return RewardResult(correct, "correct", {**details, "matched_answer": hit})
    return RewardResult(wrong, "wrong", details)
