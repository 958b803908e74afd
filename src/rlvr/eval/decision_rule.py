"""Is the model's greedy action the one its own reward prefers?

The reward table implies a rule (`rlvr.metrics.decision`): answer an answerable question
when P(correct) > p*, abstain on unanswerable ones. P(correct) is estimated per question
from K answer-forced samples: the question's prompt (the run's chat prompt, rendered with
the generation prompt as in evaluation) followed by a pre-filled start of the assistant
turn that does not allow abstaining (`ANSWER_PREFIX`, "The answer is"), sampled at
temperature 1.0 (seeded), each "<prefix> <sample>" scored by the run's task reward; a sample
is correct when its outcome is `correct` (a hedge or a list is not, as in the knowledge
labels of `rlvr.eval.knowledge`). P(correct) = correct samples / scored samples; 0 for an
unanswerable question, which is not sampled.

Cost: K samples of at most `max_new_tokens` tokens per answerable question and model, in
`generate` calls of `batch_size` prompts x K sequences; nothing for unanswerable questions.

    p_base = answer_forced_p_correct(model, tok, task, rows, num_samples=8)
    ...  # the same with the trained model
    report = decision_report(rows, base_records, trained_records, p_base, p_trained,
                             reward_values(task.reward_preset, task.reward_params))
    print(decision_table(report))

The main job's two stages are `base_decision` (the base model's P(correct), saved to
`decision_base.json` with its settings and reused when they match) and, after training,
`decision_check` (the trained model's P(correct) and the report).
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, Mapping, Sequence

from rlvr.eval.settings import DecisionSettings, EvalSettings

from rlvr.metrics.decision import (ABSTAIN, ANSWER, EITHER, action_of, answer_threshold,
                                   decision_summary, paired_decisions, preferred_action,
                                   reward_values)

ANSWER_PREFIX = "The answer is"
DECISION_BASE_FILE = "decision_base.json"

logger = logging.getLogger(__name__)

__all__ = ["ANSWER_PREFIX", "DECISION_BASE_FILE", "answer_forced", "base_decision",
           "decision_check", "answer_forced_p_correct", "answer_forced_records",
           "decision_report", "decision_table", "forced_prompts", "p_correct_from_records",
           "reward_values", "task_values"]


def task_values(task) -> dict[str, float | None]:
    """The reward table of an eval task (`rlvr.tasks.heldout.run_task`): its preset and
    reward_params through `rlvr.metrics.decision.reward_values`."""
    return reward_values(task.reward_preset, task.reward_params, task.reward)


def forced_prompts(tokenizer, task, rows: Sequence[dict], prefix: str = ANSWER_PREFIX) -> list[str]:
    """Prompt texts whose assistant turn is pre-filled with `prefix`.

    Chat prompts (`task.build_prompt(row)`, the row's own `chat_prompt` for a run's
    held-out rows) go through the chat template with the generation prompt, then `prefix`
    follows directly; a raw prompt gets `prefix` on a new line.
    """
    from rlvr.eval.generate import render_prompts

    prompts = [task.build_prompt(row, []) for row in rows]
    rendered = render_prompts(tokenizer, prompts)
    return [text + prefix if not isinstance(prompt, str) else f"{text}\n{prefix}"
            for prompt, text in zip(prompts, rendered)]


def answer_forced_records(model, tokenizer, task, rows: Sequence[dict], num_samples: int = 8,
                          temperature: float = 1.0, seed: int = 0,
                          max_new_tokens: int | None = None, batch_size: int = 4,
                          prefix: str = ANSWER_PREFIX) -> list[dict[str, Any]]:
    """K answer-forced samples per answerable row, scored by the task's reward.

    Args:
        model, tokenizer: a loaded causal LM (base or with its adapter) in eval mode, or
            an engine (`rlvr.eval.vllm_engine.VllmEngine`: same distribution, other draws).
        task: the held-out task (`rlvr.tasks.heldout.run_task`): prompt, reward, stop strings.
        rows: held-out rows (`rlvr.tasks.heldout.heldout_rows`); unanswerable rows are skipped.
        num_samples: K; temperature: > 0 (sampling), or 0 with K = 1 (greedy).
        seed: sampling seed (`rlvr.eval.generate.generate_completions`: seed + batch start).
        max_new_tokens: cap after the prefix, in tokens (None = the task's cap).
        batch_size: prompts per `generate` call (each with K sequences).
    Returns:
        records as `rlvr.eval.runner.score_records` makes them (row-major, K per row), with
        `completion` = prefix + " " + the sampled text, `reward` and `outcome`.
    Raises:
        ValueError: K > 1 with temperature 0.
    """
    from rlvr.eval.runner import completions_of, score_records

    answerable = [r for r in rows if not r.get("is_unanswerable")]
    if not answerable:
        return []
    generations = completions_of(model, tokenizer)(
        forced_prompts(tokenizer, task, answerable, prefix),
        max_new_tokens=max_new_tokens or task.max_new_tokens, batch_size=batch_size,
        desc=f"answer-forced {task.name}", stop=task.stop, num_samples=num_samples,
        temperature=temperature, seed=seed)
    forced = [{**g, "completion": f"{prefix} {g['completion']}".strip()} for g in generations]
    prompts = [task.build_prompt(row, []) for row in answerable]
    return score_records(task, answerable, forced, num_samples, prompts)


def p_correct_from_records(rows: Sequence[dict], records: Sequence[dict],
                           correct_outcomes: Sequence[str] = ("correct",)) -> dict[Any, float]:
    """P(correct) per row id: records whose outcome is in `correct_outcomes` / scored records
    of that id (reward not None); 0.0 for unanswerable rows; a row with no scored record is
    left out (the decision report then skips it)."""
    hits: dict[Any, list[bool]] = defaultdict(list)
    for rec in records:
        if rec.get("reward") is not None:
            hits[rec["id"]].append(rec.get("outcome") in correct_outcomes)
    out = {}
    for row in rows:
        if row.get("is_unanswerable"):
            out[row["id"]] = 0.0
        elif hits.get(row["id"]):
            out[row["id"]] = sum(hits[row["id"]]) / len(hits[row["id"]])
    return out


def answer_forced_p_correct(model, tokenizer, task, rows: Sequence[dict], num_samples: int = 8,
                            temperature: float = 1.0, seed: int = 0,
                            max_new_tokens: int | None = None,
                            batch_size: int = 4) -> dict[Any, float]:
    """{row id: P(correct)} from K answer-forced samples (module docstring; arguments as
    `answer_forced_records`). Unanswerable rows get 0.0 without sampling.

    Raises:
        ValueError: K > 1 with temperature 0.
    """
    records = answer_forced_records(model, tokenizer, task, rows, num_samples, temperature,
                                    seed, max_new_tokens, batch_size)
    return p_correct_from_records(rows, records)


def _greedy_actions(records: Sequence[dict]) -> dict[Any, str | None]:
    """The action of each id's first sample (`sample` 0) in evaluation records."""
    out: dict[Any, str | None] = {}
    for rec in sorted(records, key=lambda r: r.get("sample") or 0):
        out.setdefault(rec["id"], action_of(rec.get("outcome")))
    return out


def _public(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k != "per_question"}


def decision_report(rows: Sequence[dict], base_records: Sequence[dict],
                    trained_records: Sequence[dict], p_base: dict[Any, float],
                    p_trained: dict[Any, float], values: dict[str, Any],
                    known: dict[Any, bool] | None = None, settings: dict[str, Any] | None = None,
                    samples: int = 2000, seed: int = 0) -> dict[str, Any]:
    """Agreement with the reward's rule and reward left on the table, base and trained.

    Args:
        rows: the held-out rows (`id`, `is_unanswerable`), in report order.
        base_records, trained_records: each model's scored greedy records
            (`rlvr.eval.runner.generate_task_records`: `id`, `outcome`, ...).
        p_base, p_trained: each model's P(correct) per id (`answer_forced_p_correct`).
        values: the reward table (`rlvr.metrics.decision.reward_values` / `task_values`).
        known: optional {id: known} (base model knowledge labels), used only when the table
            has `abstain_known`.
        settings: optional facts for the table header (`preset`, `num_samples`,
            `temperature`, `prefix`), copied into the report.
        samples, seed: paired bootstrap resamples and seed.
    Returns:
        JSON-ready dict: `values`, `p_star`, `p_star_known`, `unanswerable_preferred`,
        `settings`; `base` and `trained`: `decision_summary` over the questions each can be
        judged on (greedy action scored, P(correct) known), plus `answerable` and
        `unanswerable` summaries; `paired`: trained - base on the questions both can be
        judged on (`n` and `rlvr.metrics.decision.paired_decisions`); `questions`: per id
        actions, P(correct), preferred actions and regrets.
    Raises:
        ValueError: a P(correct) outside [0, 1].
    """
    known = known or {}
    actions = {"base": _greedy_actions(base_records), "trained": _greedy_actions(trained_records)}
    probs = {"base": p_base, "trained": p_trained}
    questions = []
    for row in rows:
        qid = row["id"]
        q = {"id": qid, "is_unanswerable": bool(row.get("is_unanswerable")),
             "known": bool(known.get(qid))}
        for model in ("base", "trained"):
            q[f"{model}_action"] = actions[model].get(qid)
            q[f"{model}_p_correct"] = probs[model].get(qid)
        questions.append(q)
    out: dict[str, Any] = {
        "values": dict(values), "p_star": answer_threshold(values),
        "p_star_known": (answer_threshold(values, known=True)
                         if values.get("abstain_known") is not None else None),
        "unanswerable_preferred": preferred_action(0.0, True, values),
        "settings": dict(settings or {})}
    judged = {}
    for model in ("base", "trained"):
        usable = [q for q in questions
                  if q[f"{model}_action"] is not None and q[f"{model}_p_correct"] is not None]
        judged[model] = {q["id"] for q in usable}
        summary = decision_summary([_as_question(q, model) for q in usable], values)
        for q, d in zip(usable, summary["per_question"]):
            q[f"{model}_preferred"], q[f"{model}_regret"] = d["preferred"], d["regret"]
        out[model] = {**_public(summary), **{
            kind: _public(decision_summary([_as_question(q, model) for q in usable
                                            if q["is_unanswerable"] is (kind == "unanswerable")],
                                           values))
            for kind in ("answerable", "unanswerable")}}
    both = [q for q in questions if q["id"] in judged["base"] and q["id"] in judged["trained"]]
    per = {m: decision_summary([_as_question(q, m) for q in both], values)["per_question"]
           for m in ("base", "trained")}
    out["paired"] = {"n": len(both), **paired_decisions(per["base"], per["trained"], samples,
                                                        seed)}
    out["questions"] = questions
    return out


def _as_question(q: dict[str, Any], model: str) -> dict[str, Any]:
    return {"action": q[f"{model}_action"], "p_correct": q[f"{model}_p_correct"],
            "is_unanswerable": q["is_unanswerable"], "known": q["known"]}


def _num(x: float | None, sign: bool = False) -> str:
    return "n/a" if x is None else (f"{x:+.3f}" if sign else f"{x:.3f}")


def _ci(ci, sign: bool = False) -> str:
    return "n/a" if ci is None else f"[{_num(ci[0], sign)}, {_num(ci[1], sign)}]"


def _share(summary: dict[str, Any]) -> str:
    if not summary["n"]:
        return "n/a"
    return f"{summary['agreement']:.3f} ({summary['agree']}/{summary['n']})"


def decision_table(report: dict[str, Any]) -> str:
    """The decision report as Markdown: the rule (p* line), then per model the share of
    questions whose greedy action is the reward's choice (95% Wilson interval; split by
    answerable / unanswerable) and the expected reward left on the table per question (95%
    normal interval), then trained - base paired per question (95% bootstrap intervals)."""
    values, settings = report["values"], report.get("settings") or {}
    p_star = report["p_star"]
    preset = f" (preset `{settings['preset']}`)" if settings.get("preset") else ""
    rule = ("P(correct) does not change the value of answering" if p_star is None else
            f"answering always beats abstaining (p* = {p_star:.3f} <= 0: even a sure-wrong "
            "answer pays more than abstaining)" if p_star <= 0 else
            "abstaining always beats answering (p* >= 1)" if p_star >= 1 else
            f"answering beats abstaining when P(correct) > p* = {p_star:.3f}")
    unans = {ABSTAIN: "abstaining", ANSWER: "answering", EITHER: "either action"}[
        report["unanswerable_preferred"]]
    lines = [f"Decision rule of the reward{preset}: on an answerable question {rule} "
             f"(correct {values['correct']:+g}, wrong {values['wrong']:+g}, abstain "
             f"{values['abstain_answerable']:+g}); on an unanswerable question {unans} is "
             f"preferred (abstain {values['abstain_unanswerable']:+g}, answer "
             f"{values['answer_unanswerable']:+g})."]
    if report.get("p_star_known") is not None:
        known = report["p_star_known"]
        lines[0] += (f" On known questions (abstain_known) answering always beats abstaining "
                     f"(p* = {known:.3f} <= 0)." if known <= 0 else
                     f" On known questions p* = {known:.3f} (abstain_known).")
    if settings.get("num_samples"):
        lines.append(f"P(correct) per question: {settings['num_samples']} answer-forced "
                     f"samples (prefix \"{settings.get('prefix', ANSWER_PREFIX)}\", temperature "
                     f"{settings.get('temperature', 1.0)}); greedy action from the evaluation "
                     "answer (a hedge counts as answering).")
    lines += ["", "| model | questions | greedy action = reward's choice | 95% CI | answerable "
              "| unanswerable | reward left per question | 95% CI |",
              "|---|---|---|---|---|---|---|---|"]
    for model in ("base", "trained"):
        s = report[model]
        lines.append(f"| {model} | {s['n']} | {_share(s)} | {_ci(s['agreement_ci'])} | "
                     f"{_share(s['answerable'])} | {_share(s['unanswerable'])} | "
                     f"{_num(s['regret'])} | {_ci(s['regret_ci'])} |")
    paired = report["paired"]
    agree, regret = paired["agreement"], paired["regret"]
    if agree is not None:
        lines.append(f"| trained - base (paired) | {paired['n']} | "
                     f"{_num(agree['mean_difference'], True)} | "
                     f"{_ci((agree['ci_low'], agree['ci_high']), True)} | | | "
                     f"{_num(regret['mean_difference'], True)} | "
                     f"{_ci((regret['ci_low'], regret['ci_high']), True)} |")
    return "\n".join(lines)


def answer_forced(model, tokenizer, task, rows: Sequence[dict], decision: DecisionSettings,
                  generation: EvalSettings) -> dict[Any, float] | None:
    """P(correct) per held-out question from `decision.samples` answer-forced answers of
    `model` (`answer_forced_p_correct`, at most `decision.max_new_tokens` tokens, the
    batch size and seed of `generation`); None when `decision.samples` is 0."""
    if not decision.samples:
        return None
    model.eval()
    return answer_forced_p_correct(model, tokenizer, task, rows,
                                   num_samples=decision.samples,
                                   temperature=decision.temperature, seed=generation.seed,
                                   max_new_tokens=decision.max_new_tokens,
                                   batch_size=generation.batch_size)


def base_decision(model, tokenizer, task, rows: Sequence[dict], decision: DecisionSettings,
                  generation: EvalSettings, cache_key: Mapping[str, Any], run_dir: Path,
                  reuse: bool = False) -> tuple[dict[Any, float] | None, float | None]:
    """`answer_forced` on the base model, saved to RUN/decision_base.json with its settings
    and reused (`reuse`: `--resume`, `rlvr compare`) when they and the questions match
    (greedy answers do not depend on the seed, so seeds and arms share them).

    Args:
        cache_key: the run's `RunEvaluation.cache_key` (model and prompt); its samples,
            temperature, seed and token cap are replaced by the decision's own.
    Returns:
        (P(correct) by question id or None when off, seconds spent or None when reused).
    """
    path = Path(run_dir) / DECISION_BASE_FILE
    questions = "\n".join(str(r["question"]) for r in rows).encode("utf-8")
    settings = {**cache_key, "num_samples": decision.samples,
                "temperature": decision.temperature,
                "max_new_tokens": decision.max_new_tokens,
                "seed": generation.seed if decision.temperature > 0 else None,
                "reward": task.reward, "reward_preset": task.reward_preset,
                "reward_params": task.reward_params,
                "questions_sha256": hashlib.sha256(questions).hexdigest(),
                "ids": [r["id"] for r in rows]}
    if reuse and path.is_file():
        saved = json.loads(path.read_text(encoding="utf-8"))
        if saved.get("settings") == json.loads(json.dumps(settings)):
            logger.info("reusing the base model's answer-forced P(correct) from %s", path)
            return dict(zip(settings["ids"], saved["p_correct"])), None
    start = time.perf_counter()
    p = answer_forced(model, tokenizer, task, rows, decision, generation)
    seconds = time.perf_counter() - start
    if p is not None:
        from rlvr.io import write_json

        write_json(path, {"settings": settings, "p_correct": [p.get(i) for i in settings["ids"]]})
    return p, seconds


def decision_check(model, tokenizer, task, rows: Sequence[dict], base_records: Sequence[dict],
                   trained_records: Sequence[dict], p_base: dict[Any, float],
                   decision: DecisionSettings,
                   generation: EvalSettings) -> tuple[dict[str, Any], float]:
    """After training: does each greedy action (answer or abstain) follow the reward's own
    rule, for base and trained (`decision_report`)? `model` is the trained model.

    Returns:
        (the report's `decision` section, seconds spent on the trained model's samples).
    """
    start = time.perf_counter()
    p_trained = answer_forced(model, tokenizer, task, rows, decision, generation)
    seconds = time.perf_counter() - start
    return decision_report(rows, base_records, trained_records, p_base, p_trained,
                           task_values(task),
                           settings={"preset": decision.preset, "num_samples": decision.samples,
                                     "temperature": decision.temperature}), seconds
