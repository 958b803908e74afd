"""The policy a reward table implies, and how far a model's greedy actions are from it.

Standard library only. A `selfaware` reward table (`rlvr.rewards.selfaware`) values five
cells: correct, wrong and abstain on an answerable question, abstain and answer on an
unanswerable one. With P(correct) = p the chance that the model's answer is right:

    EV(answer)  = p * correct + (1 - p) * wrong      (answerable)
                = answer_unanswerable                 (unanswerable)
    EV(abstain) = abstain_answerable                  (answerable; abstain_known on a
                                                       known question when the table has it)
                = abstain_unanswerable                (unanswerable)

so on an answerable question answering beats abstaining when p > p* = (abstain - wrong) /
(correct - wrong) (`strict`: (-0.5 - -1) / (1 - -1) = 0.25; `strict` with abstain_answerable
-1.0: 0; `ternary`: (0 - -1) / 2 = 0.5), and on an unanswerable one abstaining is preferred
when abstain_unanswerable > answer_unanswerable. At p = p* both earn the same: either action
is the reward's choice (`EITHER`).

A model's greedy action on a question is read from its `selfaware` outcome (`action_of`):
the abstained outcomes are `abstain`, every other scored outcome (correct, wrong, hedged,
listed, answered_unanswerable, no_answer) commits to an answer, as in
`rlvr.eval.knowledge.behaviour`. `decision_summary` reports the share of questions where
that action is the one the reward prefers (Wilson interval) and the expected reward left on
the table, mean over questions of max(EV(answer), EV(abstain)) - EV(greedy action).
A model that learned *when* to abstain raises the share and lowers the regret; one that only
learned to abstain *more* moves them on unknown questions and loses them on known ones.
Source of the decision rule: expected-reward maximisation over the table, as in TruthRL
(Wei et al., ICML 2026), applied to each of rlvr's presets (the thresholds above).
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from rlvr.metrics.calibration import paired_bootstrap
from rlvr.metrics.stats import mean_interval, wilson_interval
from rlvr.rewards.registry import get_reward
from rlvr.rewards.selfaware import ABSTAINED_OUTCOMES, SelfAwarePreset

ANSWER, ABSTAIN, EITHER = "answer", "abstain", "either"
VALUE_KEYS = ("correct", "wrong", "abstain_answerable", "abstain_unanswerable",
              "answer_unanswerable")
_UNSCORED = ("no_gold", "reward_error", "bad_row")
_TIE = 1e-12


def reward_values(preset: str | None = None, params: dict[str, Any] | None = None,
                  reward: str = "selfaware") -> dict[str, float | None]:
    """The five table values (and `abstain_known`) of a `selfaware` preset with overrides.

    Args:
        preset: a preset name of the reward (None = "default").
        params: reward_params overrides, e.g. {"abstain_answerable": -1.0}.
        reward: the registered reward; only `selfaware` has this table.
    Returns:
        {"correct", "wrong", "abstain_answerable", "abstain_unanswerable",
        "answer_unanswerable": float, "abstain_known": float | None}: the preset's value,
        else the override, else the reward function's default.
    Raises:
        RlvrError: unknown preset or bad override (`RewardSpec.params`); ValueError: another
            reward.
    """
    if reward != "selfaware":
        raise ValueError(f"the decision rule needs the selfaware table, not reward {reward!r}")
    merged = SelfAwarePreset.named(preset, **(params or {}))
    out = {key: float(getattr(merged, key)) for key in VALUE_KEYS}
    out["abstain_known"] = None if merged.abstain_known is None else float(merged.abstain_known)
    return out


def answer_threshold(values: dict[str, Any], known: bool = False) -> float | None:
    """p* = (abstain - wrong) / (correct - wrong): answering an answerable question beats
    abstaining when P(correct) > p*.

    Args:
        values: `reward_values` output; known: use `abstain_known` (when set) as abstain.
    Returns:
        p* (may lie outside [0, 1]: below 0 answering always wins, above 1 never); None when
        correct == wrong (p does not change EV(answer)).
    Source: EV(answer) = p c + (1-p) w > a  <=>  p > (a - w) / (c - w) for c > w.
    """
    spread = values["correct"] - values["wrong"]
    if spread == 0:
        return None
    return (_abstain(values, False, known) - values["wrong"]) / spread


def threshold_table(params: dict[str, Any] | None = None,
                    reward: str = "selfaware") -> list[dict[str, Any]]:
    """p* and the unanswerable preference for every preset of the reward with `params`.

    Returns:
        one dict per preset (registry order): `preset`, `values` (`reward_values`),
        `p_star` (`answer_threshold`), `p_star_known` (None without abstain_known) and
        `unanswerable` (ANSWER, ABSTAIN or EITHER: the preferred action there).
    """
    rows = []
    for preset in get_reward(reward).presets:
        values = reward_values(preset, params, reward)
        rows.append({"preset": preset, "values": values, "p_star": answer_threshold(values),
                     "p_star_known": (answer_threshold(values, known=True)
                                      if values["abstain_known"] is not None else None),
                     "unanswerable": preferred_action(0.0, True, values)})
    return rows


def _abstain(values: dict[str, Any], is_unanswerable: bool, known: bool) -> float:
    if is_unanswerable:
        return values["abstain_unanswerable"]
    if known and values.get("abstain_known") is not None:
        return values["abstain_known"]
    return values["abstain_answerable"]


def expected_rewards(p_correct: float, is_unanswerable: bool, values: dict[str, Any],
                     known: bool = False) -> dict[str, float]:
    """{ANSWER: EV(answer), ABSTAIN: EV(abstain)} for one question (module formulas).

    Raises:
        ValueError: p_correct outside [0, 1].
    """
    if not 0.0 <= p_correct <= 1.0 or math.isnan(p_correct):
        raise ValueError(f"p_correct must lie in [0, 1], got {p_correct}")
    if is_unanswerable:
        answer = values["answer_unanswerable"]
    else:
        answer = p_correct * values["correct"] + (1 - p_correct) * values["wrong"]
    return {ANSWER: answer, ABSTAIN: _abstain(values, is_unanswerable, known)}


def preferred_action(p_correct: float, is_unanswerable: bool, values: dict[str, Any],
                     known: bool = False) -> str:
    """The action the reward prefers: ANSWER, ABSTAIN, or EITHER when both expected rewards
    are equal (within 1e-12; e.g. P(correct) = p* exactly, as 1 of 4 samples under strict).

    Args:
        p_correct: the model's chance of a correct answer, in [0, 1] (unused when
            unanswerable); values: `reward_values`; known: the question is known and the
            table has `abstain_known`.
    Raises:
        ValueError: p_correct outside [0, 1].
    """
    ev = expected_rewards(p_correct, is_unanswerable, values, known)
    if abs(ev[ANSWER] - ev[ABSTAIN]) <= _TIE:
        return EITHER
    return ANSWER if ev[ANSWER] > ev[ABSTAIN] else ABSTAIN


def action_of(outcome: str | None) -> str | None:
    """A `selfaware` outcome as an action: ABSTAIN (`abstained`, `abstained_unanswerable`),
    None when unscored (None, `no_gold`, `reward_error`, `bad_row`), else ANSWER."""
    if outcome is None or outcome in _UNSCORED:
        return None
    return ABSTAIN if outcome in ABSTAINED_OUTCOMES else ANSWER


def question_decision(action: str, p_correct: float, is_unanswerable: bool,
                      values: dict[str, Any], known: bool = False) -> dict[str, Any]:
    """One question: {"preferred", "agrees" (the action is preferred, or EITHER),
    "regret" (max EV - EV(action), >= 0)}.

    Raises:
        ValueError: action not ANSWER or ABSTAIN, or p_correct outside [0, 1].
    """
    if action not in (ANSWER, ABSTAIN):
        raise ValueError(f"action must be {ANSWER!r} or {ABSTAIN!r}, got {action!r}")
    ev = expected_rewards(p_correct, is_unanswerable, values, known)
    preferred = preferred_action(p_correct, is_unanswerable, values, known)
    return {"preferred": preferred, "agrees": preferred in (action, EITHER),
            "regret": max(ev.values()) - ev[action]}


def decision_summary(questions: Sequence[dict[str, Any]],
                     values: dict[str, Any]) -> dict[str, Any]:
    """Agreement with the reward's rule and expected reward left on the table.

    Args:
        questions: dicts with `action` (ANSWER / ABSTAIN, or None to skip the question),
            `p_correct` (in [0, 1]), `is_unanswerable` and optionally `known`.
        values: `reward_values`.
    Returns:
        {"n", "agree", "agreement" (agree / n), "agreement_ci" (Wilson 95%),
        "regret" (mean regret, reward units), "regret_ci" (normal 95%, its low end
        clipped at 0 since no regret is negative; None for n < 2),
        "preferred" (counts of ANSWER / ABSTAIN / EITHER), "per_question" (in input order,
        skipped ones left out)}; rates are None when n = 0.
    Raises:
        ValueError: a bad action or p_correct.
    """
    per_question = [question_decision(q["action"], q["p_correct"], bool(q["is_unanswerable"]),
                                      values, bool(q.get("known")))
                    for q in questions if q.get("action") is not None]
    n = len(per_question)
    agree = sum(d["agrees"] for d in per_question)
    regrets = [d["regret"] for d in per_question]
    preferred = {a: sum(d["preferred"] == a for d in per_question)
                 for a in (ANSWER, ABSTAIN, EITHER)}
    interval = mean_interval(regrets)
    return {"n": n, "agree": agree, "agreement": agree / n if n else None,
            "agreement_ci": wilson_interval(agree, n), "regret": sum(regrets) / n if n else None,
            "regret_ci": interval and (max(0.0, interval[0]), interval[1]), "preferred": preferred,
            "per_question": per_question}


def paired_decisions(base: Sequence[dict[str, Any]], trained: Sequence[dict[str, Any]],
                     samples: int = 2000, seed: int = 0) -> dict[str, Any]:
    """Trained - base in agreement and regret, paired per question (percentile bootstrap,
    `rlvr.metrics.calibration.paired_bootstrap`).

    Args:
        base, trained: `per_question` lists of `decision_summary` for the same questions in
            the same order (agreement counts 1 / 0).
    Returns:
        {"agreement": paired_bootstrap of agrees, "regret": paired_bootstrap of regrets}
        (None each when there are no questions).
    Raises:
        ValueError: the lists differ in length.
    """
    if len(base) != len(trained):
        raise ValueError(f"paired decisions differ in length: {len(base)} vs {len(trained)}")
    if not base:
        return {"agreement": None, "regret": None}
    return {"agreement": paired_bootstrap([float(d["agrees"]) for d in base],
                                          [float(d["agrees"]) for d in trained], samples, seed),
            "regret": paired_bootstrap([d["regret"] for d in base],
                                       [d["regret"] for d in trained], samples, seed)}
