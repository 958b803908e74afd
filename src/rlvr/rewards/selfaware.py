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
(`rlvr.rewards.abstention_detection`). This is preset `seed`, the reference project's table;
the `default` preset (no preset named: `rlvr score`, `make_trl_reward`, a task without one)
is `strict`, the same as `rlvr train`'s `reward_preset`, so scoring rows offline gives the
numbers training gives. A preset is
a `SelfAwarePreset` (the table's values and the reading rules), built from the preset's
overrides (`PRESETS`) plus a config's `reward_params`.

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
* Candidates behind a disclaimer ("I don't know - Paris? Rome? Berlin?") are a list
  (below, `listed_candidates`, -1.0), so listing them earns nothing over a clean abstention;
  a disclaimer that only mentions the answer without offering it ("I don't know whether
  it's Paris") is `abstained`.
* Listing candidates ("Paris, Rome or Berlin", "Paris or Rome") is `listed_candidates`
  (-1.0, as wrong): with k listed candidates and a chance r of each being right, a list
  scored like a hedge would earn 0.5 kr - (1 - kr), more than abstaining (-0.5) once
  r > 1/(3k); at -1.0 a list never beats committing to its best candidate (2r - 1 >= -1).
  A list is the answer sitting in an "or" alternative, or among three or more short items
  separated by commas, semicolons or question marks, within one sentence
  (`rlvr.rewards.answers.lists_candidates`).
The unanswerable hedge (-0.5) is better than a flat answer (-1.0) because the response
does flag its uncertainty, but worse than abstaining; the non-hedge values are the seed
ones, so the two presets' scores compare directly.

Preset `ternary` is `strict` with abstention on an answerable question at 0 instead of -0.5,
the TruthRL table (Wei et al., "TruthRL", ICML 2026: +1 correct, 0 abstain, -1 wrong; GRPO
with it beat +1/-1 and an abstention at -0.5 there); unanswerable: abstain +1, answer -1.
Hedges and lists keep the strict values (hedged +0.5 right / -1.0 wrong / -0.5 unanswerable,
list -1.0), and the same arguments hold with the new abstain value:

* The policy it implies: on an answerable question, answering beats abstaining when
  p - (1-p) > 0, i.e. P(correct) > p* = (0 - -1) / (1 - -1) = 0.5 (strict: 0.25); on an
  unanswerable one abstaining (+1) beats answering (-1). `rlvr.metrics.decision` derives p*
  for every preset from these values.
* Never tied for best: commit = -u + (1-u)(2r-1), abstain = u, hedge = -0.5u +
  (1-u)(1.5r-1). hedge >= commit needs 0.5u >= 0.5r(1-u), i.e. u >= r/(1+r); hedge >=
  abstain needs (1-u)(1.5r-1) >= 1.5u, i.e. u <= (1.5r-1)/(1.5r+0.5); the second bound is
  below the first for every r ((1.5r-1)(1+r) < r(1.5r+0.5) <=> -1 < 0). At r = 0.5, where
  commit and abstain tie at 0, a hedge earns 0.5 * 0.5 - 0.5 * 1.0 = -0.25.
* A list scored like a hedge would earn 0.5kr - (1-kr) = 1.5kr - 1, above abstaining (0)
  once r > 2/(3k); at -1.0 it never beats committing to its best candidate (2r-1 >= -1).
* Calibrated - always abstain = (1-p) q * 1.0 > 0 for any q > 0 (p, q as above); always
  hedging the right answer scores 0.5(1-p) - 0.5p < 1.0. With `reward_params:
  {abstain_answerable: -1.0}` (configs/selfaware_grpo_cpu.yaml) ternary equals strict.
"""

from __future__ import annotations

import functools
from typing import Any

from rlvr.errors import RlvrError
from rlvr.rewards.abstention_detection import (
    ROBUST_PATTERNS,
    Detection,
    detect_abstention,
    question_text,
    robust_patterns,
    seed_abstention_match,
)
from rlvr.rewards.abstention_detection.rules import TENTATIVE, TENTATIVE_PHRASE
from rlvr.rewards.answers import plain_shape
from rlvr.rewards.answers import spellings
from rlvr.rewards.answers import (
    check_format,
    fold,
    mark_words,
)
from rlvr.rewards.contract import RewardResult
from rlvr.rewards.judge import (JUDGE_OUTCOMES, charged, check_decision_params,
                                judge_decision, judged_match, prefetch_judgements)
from rlvr.rewards.registry import register_reward
from rlvr.rewards.rulebook import Evidence, note, quiet, traced, why
from rlvr.rewards.selfaware_presets import (  # the table and its presets (re-exported)
    ABSTAINED_OUTCOMES,
    ANSWERABLE_OUTCOMES,
    HEDGED_OUTCOMES,
    PARAM_CHOICES,
    PRESETS,
    REFERENCE_PRESET,
    SEED_VALUES,
    STRICT_PRESET,
    TERNARY_PRESET,
    UNANSWERABLE_OUTCOMES,
    SelfAwarePreset,
    as_bool,
)
from rlvr.rewards.selfaware_rules import SEED_NONE, SEED_PHRASE, TABLE_CELL, UNCERTAIN_GOLD
from rlvr.rewards.selfaware_structured import score_structured


def _aliases(expected_answer: str | list[str] | None, folded: bool = True,
             question: str | None = None) -> list[str]:
    """The gold aliases, folded and lower-cased; with `question` (the robust table) also
    their other spellings (`answers.spellings`), the seed table reads them as given."""
    if expected_answer is None:
        return []
    if isinstance(expected_answer, (str, int, float)) and not isinstance(expected_answer, bool):
        answers = (str(expected_answer),)  # a numeric gold: 42 -> "42"
    else:
        answers = tuple(str(a) for a in expected_answer
                        if isinstance(a, (str, int, float)) and not isinstance(a, bool))
    return _normalised(answers, folded, question)


@functools.lru_cache(maxsize=65536)  # gold answers repeat once per generation in GRPO
def _normalised(answers: tuple[str, ...], folded: bool, question: str | None) -> list[str]:
    answers = tuple(a for a in answers if a.strip())
    if question is not None:  # dates, initials, "&", a surname for "who": `answers.spellings`
        answers = tuple(spellings(list(answers), question))
    return list(dict.fromkeys((fold(a) if folded else a).strip().lower() for a in answers))


@functools.lru_cache(maxsize=65536)
def uncertain_gold(alias: str) -> bool:
    """True when the gold answer is itself a statement of uncertainty ("unclear").

    SelfAware has answerable questions whose answer is "unclear" or similar; a response
    that gives that answer says an abstention phrase because the answer is one. Decided by
    the robust detector on the alias alone and on "it is <alias>.".
    """
    with quiet():  # a probe of the gold, no evidence about a response
        return any(detect_abstention(t, reasoning_tags=None).label != "answer"
                   for t in (alias, f"it is {alias}."))


def _mask_uncertain_gold(text: str, aliases: list[str]) -> str | None:
    """`text` with each word-bounded occurrence of an uncertain gold alias blanked out
    (same length), or None when no such alias occurs in it."""
    masked = text
    for alias in aliases:
        if uncertain_gold(alias):
            masked = mark_words(masked, alias, "x" * len(alias))
    return masked if masked != text else None


def selfaware_batch(completions: list[str], rows: list[dict[str, Any]],
                    **params: Any) -> list[RewardResult]:
    """Score a batch (`score_selfaware` per sample) under one `SelfAwarePreset(**params)`;
    with `decision: judge` the batch's judge requests are sent first, concurrently."""
    preset = SelfAwarePreset(**params)
    prefetch_judgements("selfaware", completions, rows, params)
    return [score_selfaware(text, **row, preset=preset) for text, row in zip(completions, rows)]


@register_reward(
    "selfaware",
    fields=("expected_answer", "is_unanswerable"),
    optional_fields=("prompt", "known"),
    score_range=(-1.0, 1.0),
    presets=PRESETS,
    outcomes=ANSWERABLE_OUTCOMES + UNANSWERABLE_OUTCOMES + ("no_gold",) + JUDGE_OUTCOMES,
    batch_core=selfaware_batch,
)
def selfaware_reward(completion: str, *, expected_answer: str | list[str] | None,
                     is_unanswerable: bool, prompt: Any = None, known: Any = None,
                     **params: Any) -> RewardResult:
    """Score one response (the registered core): `score_selfaware` under
    `SelfAwarePreset(**params)`, `params` being the preset's fields (defaults: the seed table).

    Returns / Raises: as `score_selfaware`; TypeError for a keyword that is not a field of
        `SelfAwarePreset` (through the registry such a key is refused earlier, as RlvrError).
    Source: the reference self-awareness GRPO project's reward table (seed convention);
        the strict table and the matching rules are rlvr's (module docstring).
    """
    return score_selfaware(completion, expected_answer=expected_answer,
                           is_unanswerable=is_unanswerable, prompt=prompt, known=known,
                           preset=SelfAwarePreset(**params))


selfaware_reward.params_type = SelfAwarePreset  # its **params are this dataclass's fields
selfaware_reward.param_choices = PARAM_CHOICES
selfaware_reward.param_check = lambda params: check_decision_params(params, "selfaware")


def score_selfaware(completion: str, *, expected_answer: str | list[str] | None,
                    is_unanswerable: bool, preset: SelfAwarePreset, prompt: Any = None,
                    known: Any = None) -> RewardResult:
    """Score one response with the calibration table of `preset` (module docstring).

    `details["why"]` lists the named rules that decided the verdict, in order, each with
    the span it read (`rlvr.rewards.rulebook`), and last the table cell that priced the
    outcome (`selfaware.table`: "unanswerable, hedged_unanswerable" -> -0.5).

    Args:
        completion: the model's response text.
        expected_answer: gold answer (str) or aliases (list, any match counts); may be
            None or empty for unanswerable questions.
        is_unanswerable: True when the question has no knowable answer (bools, or the
            strings "true"/"false" as found in CSV-like data).
        preset: the table's values and reading rules (`SelfAwarePreset.named`).
        prompt: the prompt (str or messages); its question helps recognise restatements
            (robust mode) and restated numbers (numeric gold answers).
        known: optional per-row flag: the base model answers this question correctly
            (`rlvr.eval.knowledge`); used with `preset.abstain_known`. None: not used.
    Returns:
        RewardResult with outcome in {correct, abstained, wrong, listed_candidates,
        abstained_unanswerable, answered_unanswerable} (robust mode adds hedged_correct,
        hedged_wrong, hedged_unanswerable; structured formats add no_answer,
        no_answer_unanswerable); score None with outcome `no_gold` for an
        answerable question whose expected answer is empty (it would match every
        response).
    Raises:
        RlvrError: unknown mode or answer_format, bad extra patterns, an `is_unanswerable`
            or `known` flag that is not a boolean.
    """
    result, trace = traced(_score, completion, expected_answer, is_unanswerable, preset,
                           prompt, known)
    if result.score is not None:
        kind = "unanswerable" if result.outcome in UNANSWERABLE_OUTCOMES else "answerable"
        trace.append(Evidence(TABLE_CELL, f"{kind}, {result.outcome}", result.score))
    details = dict(result.details)
    details["why"] = why(trace)
    return RewardResult(result.score, result.outcome, details)


def _score(completion: str, expected_answer: Any, is_unanswerable: Any,
           preset: SelfAwarePreset, prompt: Any, known: Any) -> RewardResult:
    """`score_selfaware` without its `why` (the rules note themselves while it runs)."""
    p = preset
    judged = None
    if p.decision == "judge":
        judged = judge_decision(p.judge, completion, prompt, expected_answer, "selfaware")
        if judged.failure is not None:  # the row's worst value, or None (judge down)
            return charged(judged.failure,
                           p.wrong if not as_bool(is_unanswerable) else p.answer_unanswerable)
    completion = plain_shape(completion or "")  # JSON, answer tags, tables: `answers.shapes`
    text = fold(completion) if p.fold_unicode else completion
    question = question_text(prompt) if prompt is not None else ""
    if p.fold_unicode:
        question = fold(question)
    abstain_value = p.abstain_value(known)
    if p.answer_format != "free":
        check_format(p.answer_format)
        unanswerable = as_bool(is_unanswerable)
        return score_structured(
            text, p, aliases=[] if unanswerable else _aliases(expected_answer, p.fold_unicode,
                                                              question),
            unanswerable=unanswerable, question=question.lower(), abstain_answerable=abstain_value)
    if p.mode != "seed":
        return _robust(text, expected_answer, is_unanswerable, question, p, abstain_value, judged)
    matched = seed_abstention_match(text, tuple(p.patterns), fold_unicode=False)  # folded above
    if matched:
        note(SEED_PHRASE, matched)
    else:
        note(SEED_NONE)
    if judged is not None:
        matched = None if judged.label == "answer" else f"judge:{judged.label}"
    details = {"abstention_phrase": matched, **(judged.details if judged else {})}
    if as_bool(is_unanswerable):
        if matched:
            return RewardResult(p.abstain_unanswerable, "abstained_unanswerable", details)
        return RewardResult(p.answer_unanswerable, "answered_unanswerable", details)
    aliases = _aliases(expected_answer, p.fold_unicode)
    if not aliases:
        return RewardResult(None, "no_gold", {**details, "error": "empty expected_answer"})
    found = judged_match(text, aliases, question, p.match, judged)
    if found.hit is not None:
        details["matched_answer"] = found.hit
        if found.listed:
            return RewardResult(p.list_candidates, "listed_candidates",
                                {**details, "other_candidates": list(found.others)})
        return RewardResult(p.correct, "correct", details)
    if matched:
        return RewardResult(abstain_value, "abstained", details)
    return RewardResult(p.wrong, "wrong", details)


def _robust(text: str, expected_answer: Any, is_unanswerable: Any, question: str,
            p: SelfAwarePreset, abstain_answerable: float, judged=None) -> RewardResult:
    """The strict table (module docstring): robust labels (or the judge's), hedge values,
    word matching. `abstain_answerable` is the row's abstention value (`abstain_value`)."""
    if p.mode != "robust":
        raise RlvrError(f"unknown selfaware mode {p.mode!r}; known: seed, robust")
    patterns = robust_patterns(p.extra_patterns) if p.extra_patterns else ROBUST_PATTERNS
    found = (Detection(judged.label, "judge") if judged is not None
             else detect_abstention(text, patterns=patterns, question=question or None,
                                  reasoning_tags=None))
    aliases = _aliases(expected_answer, question=question or "")
    lowered = text.lower()
    tentative = TENTATIVE.fullmatch(lowered)
    if found.label == "hedge" and found.phrase == TENTATIVE_PHRASE and tentative:
        # the whole response one short question naming a candidate ("Was it Chinua
        # Achebe?"): the detector's guess, matched as the statement it asks about
        lowered = tentative.group("guess") + "."
    masked = None
    if found.label != "answer" and not as_bool(is_unanswerable) and judged is None:
        masked = _mask_uncertain_gold(lowered, aliases)
    uncertain = masked is not None
    if uncertain:  # the gold answer is itself an uncertainty word: judge the rest
        found = detect_abstention(masked, patterns=patterns, question=question or None,
                                 reasoning_tags=None)
    details = {"label": found.label, "abstention_phrase": found.phrase,
               "commitment": found.commitment, **(judged.details if judged else {})}
    if uncertain:
        note(UNCERTAIN_GOLD, masked)
        details["uncertain_gold"] = True
    if as_bool(is_unanswerable):
        value, outcome = {"abstain": (p.abstain_unanswerable, "abstained_unanswerable"),
                          "hedge": (p.hedge_unanswerable, "hedged_unanswerable"),
                          "answer": (p.answer_unanswerable, "answered_unanswerable")}[found.label]
        return RewardResult(value, outcome, details)
    if not aliases:
        return RewardResult(None, "no_gold", {**details, "error": "empty expected_answer"})
    label = found.label
    if label == "abstain":
        return RewardResult(abstain_answerable, "abstained", details)
    hit = judged_match(lowered, aliases, question, p.match, judged)
    if hit.hit is not None:
        details["matched_answer"] = hit.hit
    if hit.hit is not None and hit.listed:
        return RewardResult(p.list_candidates, "listed_candidates",
                            {**details, "other_candidates": list(hit.others)})
    if label == "hedge":
        if hit.hit is not None:
            return RewardResult(p.hedge_correct, "hedged_correct", details)
        return RewardResult(p.hedge_wrong, "hedged_wrong", details)
    if hit.hit is not None:
        return RewardResult(p.correct, "correct", details)
    return RewardResult(p.wrong, "wrong", details)
