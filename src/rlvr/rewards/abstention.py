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
from rlvr.rewards.rulebook import explained, note, register_rule

HEAD_DECLINE = register_rule(
    "head.decline", "with a `head`: a response the rules read as an answer declines when the "
    "learned head's P(decline) reaches its threshold and the response speaks to the question "
    "(rlvr.rewards.abstention_head); the rules' abstentions and hedges are not read by it",
    # probes of the `abstention_head` grader: the gold slot names a stub head that always
    # ("declining") or never ("answering") declines (tests/test_rulebook.py)
    fires=[("The sky is blue because of sunlight.", "Why is the sky green?", "declining")],
    spares=[("The sky is blue because of sunlight.", "Why is the sky green?", "answering"),
            ("I don't know.", "Why is the sky green?", "declining"),
            ("Blue, but I'm not sure.", "Why is the sky green?", "declining"),
            ("Never ever.", "Why is the sky green?", "declining")],
    source="FalseQA, XSTest and EVOUNA labels (benchmarks/graders_outside.py --head)",
    grader="abstention_head")
HEAD_OFF_QUESTION = register_rule(
    "head.off_question", "with a `head`: a response the head reads as a decline stays an "
    "answer when it shares no content word with the question (\"Never ever.\", \"No, no, "
    "no, it is not.\", \"Sorry, it's Paris.\"): one such string could be said to every "
    "question",
    fires=[("Never ever.", "Why is the sky green?", "declining"),
           ("No, no, no, it is not.", "Is P equal to NP?", "declining")],
    spares=[("Never ever.", "Why is the sky green?", "answering"),
            ("The sky is blue, not green.", "Why is the sky green?", "declining")],
    source="an attack on the head: one fixed string read as a decline to every question; on "
           "the outside labels' tune halves the guard cost 0.012 of recall",
    grader="abstention_head")
HEAD_RULES = {"head.decline": HEAD_DECLINE, "head.off_question": HEAD_OFF_QUESTION}


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
                      judge: dict[str, Any] | None = None,
                      head: str | None = None) -> RewardResult:
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
        head: path of a learned decline reader (`rlvr.rewards.abstention_head`, free text
            under the rules only): the rules' abstentions and hedges stand; a response
            they read as an answer is an abstention when the head's P(decline) reaches its
            threshold and it shares a content word with the question (`why`:
            `head.decline`, or `head.off_question` where only that guard kept the answer).
            Needs the prompt; loads the head's model on first use.
    Returns:
        RewardResult with outcome "abstain", "hedge" or "answer" (or "no_answer" in a
        structured format; `judge_unparsed` / `judge_error`, score None, from a judge) and
        details `phrase`, `commitment`, `ignored` (free text), `head_p_decline` (with a
        head), `field` (structured) or `judge_reply` (judge).
    Raises:
        RlvrError: unknown mode, answer_format or bad extra patterns; a head file that does
            not load (`AbstentionHead.load`).
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
    label, details = found.label, {"phrase": found.phrase, "commitment": found.commitment,
                                   "ignored": list(found.ignored)}
    if head is not None and label == "answer":  # the head reads what the rules call an answer
        from rlvr.rewards.abstention_head import head_reader, read_with_head

        reader, asked = head_reader(head), question_text(prompt) if prompt is not None else ""
        _, p = reader.declines(asked, completion or "")
        details["head_p_decline"] = round(p, 4)
        label, decided = read_with_head(label, p, reader.head.threshold, completion or "", asked)
        if decided is not None:
            note(HEAD_RULES[decided], value=round(p, 4))
        if label == "abstain":
            details["phrase"] = None
    score = {"abstain": abstain, "hedge": hedge, "answer": answer}[label]
    return RewardResult(score, label, details)


abstention_reward.param_choices = {"answer_format": ANSWER_FORMATS, "mode": ("robust", "seed"),
                                   "decision": DECISIONS}


def _check_params(params: dict[str, Any]) -> None:
    """`decision`/`judge` as every calibration reward checks them; `head` only on free text
    read by the rules, and a head file that loads (before any model does)."""
    check_decision_params(params, "abstention")
    if params.get("head") is not None:
        from rlvr.errors import RlvrError
        from rlvr.rewards.abstention_head import AbstentionHead

        if params.get("answer_format", "free") != "free" or \
                params.get("decision", "rules") != "rules":
            raise RlvrError("reward 'abstention': head reads free text after the rules; it "
                            "does not combine with a structured answer_format or decision: "
                            "judge, so remove one of the two")
        AbstentionHead.load(params["head"])


abstention_reward.param_check = _check_params
