"""`abstention` reward: how much a response abstains (abstain 1.0, hedge 0.5, answer 0.0).

The label comes from the abstention detectors (`rlvr.rewards.abstention_detection`):
`robust` (the default: `answer`, `abstain` or `hedge`) or `seed` (the reference project's
19 phrases: `answer` or `abstain`); from the last answer field in a structured format
(`boxed`, `answer_line`: abstain exactly when it holds the abstention value,
`rlvr.rewards.answers.fields`); or from an LLM judge (`decision: judge`,
`rlvr.rewards.judge`). It scores abstention itself, without a gold answer; the calibration
reward that weighs abstention against correctness is `selfaware`.
"""

from __future__ import annotations

from typing import Any

from rlvr.rewards.abstention_detection import (ROBUST_PATTERNS, classify, detect_abstention,
                                               question_text, robust_patterns)
from rlvr.rewards.answers import ABSTAIN_VALUE, ANSWER_FORMATS, check_format, read_field
from rlvr.rewards.contract import RewardResult
from rlvr.rewards.judge import (DECISIONS, JUDGE_OUTCOMES, charged, check_decision_params,
                                judge_decision, judged_batch)
from rlvr.rewards.registry import register_reward
from rlvr.rewards.rulebook import explained


@register_reward(
    "abstention",
    fields=(),
    optional_fields=("prompt",),
    score_range=(0.0, 1.0),
    presets={"default": {"mode": "robust"}, "robust": {"mode": "robust"}, "seed": {"mode": "seed"},
             "reference": {"mode": "seed", "fold_unicode": False}},
    outcomes=("abstain", "hedge", "answer", "no_answer") + JUDGE_OUTCOMES,
    batch_core=judged_batch("abstention"),
)
@explained(None)  # the detector's rules; the label alone prices the verdict
def abstention_reward(completion: str, *, prompt: Any = None, mode: str = "robust",
                      abstain: float = 1.0, hedge: float = 0.5, answer: float = 0.0,
                      extra_patterns: dict[str, Any] | None = None,
                      fold_unicode: bool = True, answer_format: str = "free",
                      abstain_text: str = ABSTAIN_VALUE, decision: str = "rules",
                      judge: dict[str, Any] | None = None) -> RewardResult:
    """Score how much a response abstains: abstain 1.0, hedge 0.5, answer 0.0 by default.

    Args:
        completion: the response text.
        prompt: optional prompt (str or messages); its question helps recognise
            restatements in robust mode.
        mode: "robust" (default) or "seed" (no hedge label).
        abstain, hedge, answer: the score for each label, all within [0, 1].
        extra_patterns: patterns added to the robust ones (see `robust_patterns`).
        fold_unicode: seed mode: fold typographic quotes first (default); the
            `reference` preset turns it off (the reference matcher, bit for bit).
        answer_format: "free" (default: the detector above), "boxed" or "answer_line"
            (`rlvr.rewards.answers.fields`): abstain exactly when the last field holds
            `abstain_text`; a response without the field is `no_answer`, scored `answer`
            (never an abstention); no phrase list is consulted.
        abstain_text: the abstention value of the structured formats.
        decision: "rules" (default: the detector of `mode`) or "judge": the LLM judge of
            `judge` labels the response (`rlvr.rewards.judge`).
        judge: the judge's settings (`rlvr.rewards.judge`), with `decision: judge`.
    Returns:
        RewardResult with outcome "abstain", "hedge" or "answer" (or "no_answer" in a
        structured format; `judge_unparsed` / `judge_error`, score None, from a judge) and
        details `phrase`, `commitment`, `ignored` (free text), `field` (structured) or
        `judge_reply` (judge).
    Raises:
        RlvrError: unknown mode, answer_format or bad extra patterns.
    """
    if answer_format != "free":
        check_format(answer_format)
        field = read_field(completion or "", answer_format, abstain_text)
        label = "abstain" if field.abstains else "answer" if field.found else "no_answer"
        return RewardResult(abstain if field.abstains else answer, label,
                            {"field": field.value if field.found else None})
    if decision == "judge":
        judged = judge_decision(judge, completion, prompt, None, "abstention")
        if judged.failure is not None:  # the row's worst value, or None (judge down)
            return charged(judged.failure, min(abstain, hedge, answer))
        score = {"abstain": abstain, "hedge": hedge, "answer": answer}[judged.label]
        return RewardResult(score, judged.label, dict(judged.details))
    if mode == "robust":
        patterns = robust_patterns(extra_patterns) if extra_patterns else ROBUST_PATTERNS
        question = question_text(prompt) if prompt is not None else None
        found = detect_abstention(completion or "", patterns=patterns, question=question,
                                  reasoning_tags=None)
    else:
        found = classify(completion or "", mode=mode, fold_unicode=fold_unicode)
    score = {"abstain": abstain, "hedge": hedge, "answer": answer}[found.label]
    return RewardResult(score, found.label, {"phrase": found.phrase, "commitment": found.commitment,
                                             "ignored": list(found.ignored)})


abstention_reward.param_choices = {"answer_format": ANSWER_FORMATS, "mode": ("robust", "seed"),
                                   "decision": DECISIONS}
abstention_reward.param_check = lambda params: check_decision_params(params, "abstention")
