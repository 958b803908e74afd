"""Preflight: would a degenerate policy earn as much reward as the gold answers?

Before training, score the dataset's gold answers (they must reach the reward's maximum)
and a handful of degenerate policies that a model can find without learning the task:

| policy          | response                                                     |
|-----------------|--------------------------------------------------------------|
| gold            | the dataset's reference answer                               |
| always_abstain  | "I don't know."                                              |
| always_hedge    | "I'm not sure, but I think it is <gold answer>." (*)         |
| empty           | ""                                                           |
| list_candidates | "London, <gold answer> or Mars." (the gold among distractors; "11, 12 or 13" for a whole-number gold) |
| repeat_question | the question itself                                          |
| tags_only       | "<think></think><answer></answer>"                           |

(*) plus a `#### <gold>` line when the gold is a number; it hedges the RIGHT answer, the
best any hedger can do ("42" for an unanswerable question, which has no answer).

A degenerate policy whose expected reward comes within `margin` (a fraction of the
reward's score range, default 0.1) of the gold policy's is flagged: training may find it.
A user reward that declares no score range (`rlvr.rewards.user`: (-inf, inf)) has no
maximum for gold to reach and no margin: a policy is flagged only when it scores as much
as gold.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from rlvr.errors import RlvrError
from rlvr.rewards.registry import get_reward
from rlvr.rewards.gsm8k import gold_number

POLICIES = ("gold", "always_abstain", "always_hedge", "list_candidates", "empty",
            "repeat_question", "tags_only")
_DISTRACTORS = ("London", "Mars", "1900", "42")


def _messages(row: dict, role: str) -> str:
    messages = row.get("messages")
    if not isinstance(messages, list):
        return ""
    return "\n".join(str(m.get("content", "")) for m in messages
                     if isinstance(m, dict) and m.get("role") == role)


def question_of(row: dict) -> str:
    """The question a row asks: its user message, or a question/prompt/context/text field."""
    for key in ("question", "prompt", "context", "text", "problem"):
        value = row.get(key)
        if isinstance(value, str) and value.strip():
            return value
        if isinstance(value, list):  # a conversational prompt
            return "\n".join(str(m.get("content", "")) for m in value
                             if isinstance(m, dict) and m.get("role") == "user")
    return _messages(row, "user")


def _first(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return str(value[0]) if value else ""
    return "" if value is None else str(value)


def gold_answer(row: dict) -> str:
    """The short gold answer used by the hedge policy ("42" as the made-up guess for an
    unanswerable question, which has none)."""
    if row.get("is_unanswerable") in (True, "true", "True", 1):
        return "42"
    for key in ("expected_answer", "answers", "aliases", "final_answer", "solution", "answer"):
        if row.get(key) not in (None, "", []):
            text = _first(row[key])
            number = gold_number(text) if "####" in text else None
            return str(number) if number is not None else text
    return _messages(row, "assistant") or "42"


def _fields(name: str, row: dict) -> dict:
    """The reward's dataset fields, filled from common alternative column names."""
    row = dict(row)
    if name == "selfaware" and "expected_answer" not in row:
        row["expected_answer"] = row.get("answers") or _messages(row, "assistant") or None
    if name == "gsm8k_correctness" and "final_answer" not in row and "answer" in row:
        row["final_answer"] = row["answer"]
    if name == "math" and "solution" not in row and "answer" in row:
        row["solution"] = row["answer"]
    if "prompt" not in row and question_of(row):
        row["prompt"] = question_of(row)
    return row


def gold_completion(name: str, row: dict) -> str:
    """The gold policy's response for one row of a dataset scored by reward `name`."""
    assistant = _messages(row, "assistant")
    if name == "selfaware":
        if assistant:
            return assistant
        unanswerable = row.get("is_unanswerable") in (True, "true", "True", 1)
        return "I don't know." if unanswerable else _first(row.get("expected_answer"))
    if name == "abstention":  # the reference response, to check the detector's labels
        return assistant or "I don't know."
    if name == "gsm8k_correctness" or name == "gsm8k_format":
        answer = str(row.get("answer") or "")
        if "####" in answer:
            return answer
        return f"The result follows from the question.\n#### {row.get('final_answer', answer)}"
    if name == "math":
        return f"\\boxed{{{row.get('solution', row.get('answer', ''))}}}"
    if name == "think_format":
        return f"<think>\nWorking it out.\n</think>\n<answer>{gold_answer(row)}</answer>"
    if name == "code":
        return str(row.get("canonical_solution") or row.get("code") or "")
    return assistant or gold_answer(row)


def _hedge(row: dict) -> str:
    answer = gold_answer(row)
    text = f"I'm not sure, but I think it is {answer}."
    return text + f"\n#### {answer}" if gold_number(answer) is not None else text


def _list_candidates(row: dict) -> str:
    answer = gold_answer(row)
    number = gold_number(answer)
    if isinstance(number, int):  # numeric gold: the neighbours are the distractors
        return f"{number - 1}, {answer} or {number + 1}."
    first, second = [d for d in _DISTRACTORS if d.lower() != answer.strip().lower()][:2]
    return f"{first}, {answer} or {second}."


def _structured(policy: str, text: str, row: dict, answer_format: str) -> str:
    """A policy's response in a structured answer format (`rlvr.rewards.answers.fields`): the
    answer (or "I don't know", or the list) in the field; the hedge keeps its disclaimer
    outside the field; the empty, question and tags policies stay as they are (no field)."""
    from rlvr.rewards.answers import ABSTAIN_VALUE, in_field

    if policy in ("gold", "always_abstain", "list_candidates"):
        value = text.rstrip(".").strip()
        return in_field(ABSTAIN_VALUE if value == "I don't know" else value, answer_format)
    if policy == "always_hedge":
        return f"I'm not sure, but I think it is {in_field(gold_answer(row), answer_format)}"
    return text


_BUILDERS: dict[str, Callable[[str, dict], str]] = {
    "gold": gold_completion,
    "always_abstain": lambda name, row: "I don't know.",
    "always_hedge": lambda name, row: _hedge(row),
    "list_candidates": lambda name, row: _list_candidates(row),
    "empty": lambda name, row: "",
    "repeat_question": lambda name, row: question_of(row),
    "tags_only": lambda name, row: "<think></think><answer></answer>",
}


@dataclass
class PolicyScore:
    """One policy's scores over the dataset."""

    policy: str
    mean: float | None
    n_scored: int
    n_unscored: int
    outcomes: Counter = field(default_factory=Counter)
    at_max: int = 0
    example: str = ""  # its response to the first row (to the first matching row, if any)
    matches: int = 0  # rows where it scores as much as gold with a response other than gold's
    match_example: str = ""  # the first such row's question


@dataclass
class PreflightReport:
    """The preflight result (see `format_preflight` for the printed table)."""

    reward: str
    preset: str | None
    n_rows: int
    score_range: tuple[float, float]
    margin: float
    policies: list[PolicyScore]

    def gold(self) -> PolicyScore:
        return self.policies[0]

    def warnings(self) -> list[str]:
        """Human-readable findings: gold not at the maximum, degenerate policies close."""
        low, high = self.score_range
        notes = []
        gold = self.gold()
        declared = math.isfinite(high - low)
        if declared and gold.at_max < gold.n_scored:
            notes.append(f"gold reaches the maximum {high:g} on only {gold.at_max} of "
                         f"{gold.n_scored} scored rows")
        if gold.n_unscored:
            notes.append(f"{gold.n_unscored} rows cannot be scored (score None)")
        threshold = self.margin * (high - low) if declared else 0.0
        for p in self.policies[1:]:
            if p.mean is None or gold.mean is None:
                continue
            said = f"{p.policy} ({_quote(p.example)})"
            if p.mean >= gold.mean:
                notes.append(f"{said} scores {p.mean:+.4f}, as much as gold ({gold.mean:+.4f})")
            elif gold.mean - p.mean < threshold:
                notes.append(f"{said} scores {p.mean:+.4f}, within {threshold:g} of gold "
                             f"({gold.mean:+.4f})")
        return notes

    def partial(self) -> list[str]:
        """Policies that score as much as gold on some rows with a response other than
        gold's, though not on average: the policy may learn them on rows like those. These
        are warnings, never a refusal."""
        notes = []
        for p in self.policies[1:]:
            if p.matches and p.mean is not None and self.gold().mean is not None \
                    and p.mean < self.gold().mean:
                notes.append(f"{p.policy} ({_quote(p.example)}) scores as much as gold on "
                             f"{p.matches} of {self.n_rows} rows (e.g. the row "
                             f"{_quote(p.match_example)}): training may learn it there")
        return notes


def preflight(name: str, rows: list[dict[str, Any]], preset: str | None = None,
              policies: tuple[str, ...] = POLICIES, margin: float = 0.1,
              **overrides: Any) -> PreflightReport:
    """Score the gold answers and the degenerate policies on `rows` with reward `name`.

    Args:
        name, preset, overrides: the reward, as for `make_trl_reward`.
        rows: dataset rows (for example the v3 SelfAware split: `messages`,
            `is_unanswerable`, `answers`). Missing reward fields are filled from common
            alternatives (see `_fields`).
        policies: which policies to score; "gold" is always first.
        margin: fraction of the score range under which a policy counts as close to gold.
    Returns:
        a `PreflightReport`; each policy's mean is over its scored rows (None if none).
    Raises:
        RlvrError: unknown reward or preset, or a row without a needed field.
        ValueError: unknown policy name.
    """
    spec = get_reward(name)
    params = spec.params(preset, **overrides)
    unknown = [p for p in policies if p not in _BUILDERS]
    if unknown:
        raise ValueError(f"unknown preflight policy {unknown}; known: {list(_BUILDERS)}")
    order = ["gold"] + [p for p in policies if p != "gold"]
    prepared = [_fields(name, row) for row in rows]
    for i, row in enumerate(prepared):
        missing = spec.missing_fields(row)
        if missing:
            raise RlvrError(f"row {i + 1} lacks field(s) {missing} needed by reward {name!r}")
    high = spec.score_range[1]
    scores = []
    answer_format = params.get("answer_format", "free")
    low = spec.score_range[0]
    gold_texts: list[str] = []
    gold_scores: list[float | None] = []
    for policy in order:
        texts = [_BUILDERS[policy](name, row) for row in rows]
        if answer_format != "free":
            texts = [_structured(policy, text, row, answer_format)
                     for text, row in zip(texts, rows)]
        results = spec.score_batch(texts, prepared, params)
        values = [r.score for r in results if r.score is not None]
        if policy == "gold":
            gold_texts, gold_scores = texts, [r.score for r in results]
        # rows where this policy earns what gold earns there, with another response, and
        # gold earns more than the floor there (an answer the policy did not give)
        matched = [i for i, r in enumerate(results)
                   if policy != "gold" and r.score is not None and gold_scores[i] is not None
                   and texts[i].strip() != gold_texts[i].strip()
                   and gold_scores[i] > low and r.score >= gold_scores[i] - 1e-9]
        scores.append(PolicyScore(
            policy, sum(values) / len(values) if values else None, len(values),
            len(results) - len(values), Counter(r.outcome for r in results),
            sum(1 for v in values if v >= high - 1e-9),
            texts[matched[0] if matched else 0] if texts else "", len(matched),
            question_of(rows[matched[0]]) if matched else ""))
    return PreflightReport(name, preset, len(rows), spec.score_range, margin, scores)


def _quote(text: str, width: int = 48) -> str:
    """A response as a short quoted string for the table and the warnings."""
    flat = " ".join(str(text).split())
    return repr(flat if len(flat) <= width else flat[:width - 3] + "...")


def format_preflight(report: PreflightReport) -> str:
    """The preflight table as text: one line per policy, then the warnings."""
    low, high = report.score_range
    declared = math.isfinite(high - low)
    gold = report.gold()
    lines = [f"preflight: {report.reward}" + (f" (preset {report.preset})" if report.preset else "")
             + f" on {report.n_rows} rows; score range "
             + (f"[{low:g}, {high:g}]" if declared else "not declared"),
             f"  {'policy':16} {'mean':>8} {'vs gold':>8} {'scored':>7} {'= gold':>7}  "
             "response (first row)  outcomes"]
    for p in report.policies:
        mean = f"{p.mean:+.4f}" if p.mean is not None else "n/a"
        diff = ("" if p is gold or p.mean is None or gold.mean is None
                else f"{p.mean - gold.mean:+.4f}")
        same = "" if p is gold else str(p.matches)
        outcomes = ", ".join(f"{k} {v}" for k, v in p.outcomes.most_common())
        lines.append(f"  {p.policy:16} {mean:>8} {diff:>8} {p.n_scored:>7} {same:>7}  "
                     f"{_quote(p.example)}  {outcomes}")
    if declared:
        lines.append(f"  gold at the maximum ({high:g}): {gold.at_max} of {gold.n_scored} "
                     "scored rows")
    warnings = report.warnings()
    close = (f"comes within {report.margin * (high - low):g} of" if declared
             else "scores as much as")
    lines += [f"  WARNING: {w}" for w in warnings] or [f"  no degenerate policy {close} gold"]
    lines += [f"  WARNING (on some rows): {w}" for w in report.partial()]
    lines.append("  (= gold: rows where the policy scores as much as gold with another "
                 "response; the policies: docs/own_reward.md, \"Preflight\")")
    return "\n".join(lines)
