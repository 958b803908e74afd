"""The main job's cross-task check: how likely base and trained find other tasks' gold
answers (torch only inside `likelihood_check`, through `rlvr.eval.likelihood`).

A 135M model solves almost no GSM8K, TriviaQA, HumanEval or MBPP question, so accuracy
before and after training is 0 and "no loss on other tasks" says nothing. The mean
per-token log-likelihood of each task's gold continuation (lm-evaluation-harness's measure
for small models) moves with any change to the model, so the paired difference trained -
base with its 95% bootstrap CI shows what training did to those tasks: about 0 = untouched,
below 0 = the gold answers became less likely (forgetting), in nats/token.

Each row's context is the task's own prompt (`EvalTask.build_prompt`, no exemplars),
rendered as `rlvr eval` renders it for generation, so the model is measured as it is used;
the continuation is the gold answer the task's reward accepts (`CONTINUATIONS`). Rows come
from `rlvr eval`'s data resolution (`rlvr.tasks.sources`), `limit` per task by a seeded
draw, the same rows for both models. Generation-based scores stay with `rlvr eval`.

Knowledge lost or willingness lost: a gold answer becomes less likely when the model forgot
it or when it now prefers "I don't know."; two figures per task tell them apart, with no
generation. Answer-forced ranking: under the same prompt, the gold and `distractors` other
rows' gold continuations of the task (seeded, never equal to the gold or one of its aliases,
the gold at a seeded position) are scored; rank accuracy = share of rows where the gold ranks
first (chance 1 / candidates), per model, with the paired difference and its bootstrap CI.
Abstention: the share of rows where `ABSTENTION` scores above the gold, and its mean margin.
Both compare mean per-token log-likelihoods (nats/token, the gold figure's unit): summed
log-likelihood (lm-evaluation-harness's `acc`) ranks by length (a one-token distractor beats
a five-token gold, "I don't know." any worked solution); its `acc_norm` divides by
characters, per token is that idea in the model's unit. Gold rank held, gold likelihood fell,
abstention rose: willingness lost. Candidates share the prompt's pass (`score_groups`).
"""

from __future__ import annotations

import logging
import random
import time
from contextlib import nullcontext
from functools import partial
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from rlvr.errors import DataError, RlvrError
from rlvr.metrics.calibration import paired_bootstrap
from rlvr.tasks.continuations import CONTINUATIONS, check_cross_check_tasks, gold_continuation
from rlvr.tasks.sources import DataResolver
from rlvr.tasks.registry import get_task

logger = logging.getLogger(__name__)

DEFAULT_TASKS = ("gsm8k", "triviaqa", "humaneval", "mbpp")
ABSTENTION = "I don't know."
# distractors per task by default: only TriviaQA, whose short answers make "which answer" a
# knowledge question; a GSM8K solution or a code body among other rows' ones is told apart by
# its wording, and their long continuations cost the most to score
DEFAULT_DISTRACTORS = {"triviaqa": 4}
DEFAULT_ROWS = 10  # rows of a task a `limit` mapping does not name (and no "default" entry)
def per_task(value: Any, name: str, fallback: Any) -> Any:
    """A setting for task `name`: `value` itself when it is not a mapping; else its entry for
    `name`, else its "default" entry, else `fallback` (`cross_check_limit: {triviaqa: 50}`)."""
    if not isinstance(value, Mapping):
        return value
    return value[name] if name in value else value.get("default", fallback)


def select_rows(rows: Sequence[dict], limit: int | None, seed: int, task: str) -> list[dict]:
    """`limit` rows drawn with `random.Random(f"{seed}:{task}:cross_check")`, in their file
    order (all rows when limit is None or not smaller)."""
    if limit is None or limit >= len(rows):
        return list(rows)
    keep = sorted(random.Random(f"{seed}:{task}:cross_check").sample(range(len(rows)), limit))
    return [rows[i] for i in keep]


def load_check_rows(tasks: Sequence[str], limit: int | None | Mapping[str, int | None],
                    seed: int, resolver: DataResolver
                    ) -> tuple[dict[str, list[dict]], dict[str, str], dict[str, dict],
                               dict[str, list[str]]]:
    """Each task's rows (`select_rows` of `per_task(limit, task, DEFAULT_ROWS)` among the
    rows with a non-blank gold continuation),
    skip reasons, data sources (as `rlvr eval` states them) and distractor pools (the
    distinct gold continuations of all those rows). A task whose data is
    missing, or has no row with a gold continuation, is skipped with the reason."""
    loaded, skipped, sources, pools = {}, {}, {}, {}
    for name in tasks:
        try:
            data = resolver.rows(get_task(name))
            usable = [r for r in data.rows if gold_continuation(name, r).strip()]
            if not usable:
                raise DataError(f"no {name} row has a gold continuation")
        except DataError as exc:
            skipped[name] = str(exc)
            continue
        loaded[name] = select_rows(usable, per_task(limit, name, DEFAULT_ROWS), seed, name)
        # distinct (`_same`) gold continuations of all usable rows, in file order
        pools[name] = list({_same(c): c for c in map(partial(gold_continuation, name),
                                                      usable)}.values())
        sources[name] = {"data_source": data.source, "data_note": data.note}
        if len(usable) < len(data.rows):
            sources[name]["rows_without_gold"] = len(data.rows) - len(usable)
    return loaded, skipped, sources, pools


def _same(text: str) -> str:
    """The form two answers are compared in: whitespace runs as one space, case folded."""
    return " ".join(text.split()).casefold()


def pick_candidates(gold: str, pool: Sequence[str], k: int, key: str,
                    barred: Iterable[str] = ()) -> tuple[list[str], int]:
    """(candidates, index of the gold among them): the gold continuation among up to `k`
    distractors drawn from `pool` with `random.Random(key)` (fewer when the pool is short),
    none equal (`_same`) to the gold or a `barred` text (its aliases); the gold at a
    position drawn by the same generator."""
    barred = {_same(gold)} | {_same(b) for b in barred}
    rng, others = random.Random(key), [c for c in pool if _same(c) not in barred]
    picked = rng.sample(others, min(max(k, 0), len(others)))
    at = rng.randrange(len(picked) + 1)
    return picked[:at] + [gold] + picked[at:], at


def task_groups(name: str, rows: Sequence[dict], pool: Sequence[str], distractors: int,
                seed: int, abstention: str | None) -> list[dict[str, Any]]:
    """Per row: `context` (the task's prompt), `candidates` (`pick_candidates`, key
    f"{seed}:{name}:{row id}:distractors", barred: the row's `aliases`), `gold` (its index)
    and `continuations` (candidates, then `abstention`). Raises DataError as
    `gold_continuation`."""
    task, out = get_task(name), []
    for i, row in enumerate(rows):
        aliases = row["aliases"] if isinstance(row.get("aliases"), list) else []
        candidates, gold = pick_candidates(
            gold_continuation(name, row), pool, distractors,
            f"{seed}:{name}:{row.get('id', i)}:distractors",
            [a for a in aliases if isinstance(a, str)])
        out.append({"context": task.build_prompt(row), "candidates": candidates, "gold": gold,
                    "continuations": candidates + ([abstention] if abstention else [])})
    return out


def read_group(group: dict[str, Any], records: Sequence[dict], normalise: str) -> dict:
    """One row's numbers from its `score_groups` records: `gold` (the gold's record), `rank`
    (`gold_rank` among the candidates; None with one candidate), `candidates`, `score` (the
    gold's `choice_score`) and `abstention` (the abstention's score; None without one)."""
    from rlvr.eval.likelihood import choice_score, gold_rank

    texts = group["continuations"]
    scores = [choice_score(rec, text, normalise) for rec, text in zip(records, texts)]
    n = len(group["candidates"])
    return {"gold": records[group["gold"]], "candidates": n, "score": scores[group["gold"]],
            "rank": gold_rank(scores[:n], group["gold"]) if n > 1 else None,
            "abstention": scores[n] if len(texts) > n else None}


def _sides(base_model, trained):
    """[(label, model, context manager)] for base and trained. `trained` is a PEFT model
    (base = the same model inside `disable_adapter()` when `base_model` is None or is it),
    an adapter folder (applied to `base_model`), or a separate model."""
    if isinstance(trained, (str, Path)):
        from rlvr.models import apply_adapter

        trained = apply_adapter(base_model, str(trained))
        base_model = None
    if base_model is None or base_model is trained:
        if not hasattr(trained, "disable_adapter"):
            raise RlvrError("likelihood_check needs a base model, or a PEFT model whose "
                            "adapter can be disabled; pass base_model")
        return [("base", trained, trained.disable_adapter), ("trained", trained, nullcontext)]
    return [("base", base_model, nullcontext), ("trained", trained, nullcontext)]


def summarise(name: str, base: Sequence[dict], trained: Sequence[dict],
              bootstrap_samples: int, seed: int) -> dict[str, Any]:
    """One task's entry: n, mean per-token log-likelihood (nats/token, the mean over rows
    of each row's mean) of base and trained, their paired difference trained - base with
    the percentile bootstrap CI (`rlvr.metrics.calibration.paired_bootstrap`, rows resampled),
    the pooled figure (total log-prob / total tokens) and the boundary/truncation counts."""
    b = [r["mean_logprob"] for r in base]
    t = [r["mean_logprob"] for r in trained]
    tokens = sum(r["num_tokens"] for r in base)
    return {
        "n": len(b), "tokens": tokens, "continuation": CONTINUATIONS[name][1],
        "base": sum(b) / len(b), "trained": sum(t) / len(t),
        "difference": paired_bootstrap(b, t, samples=bootstrap_samples, seed=seed),
        "pooled": {side: sum(r["sum_logprob"] for r in recs) / tokens
                   for side, recs in (("base", base), ("trained", trained))},
        "boundary_merged": sum(r["boundary_merged"] for r in base),
        "truncated_rows": sum(r["truncated_tokens"] > 0 for r in base),
    }


def share_summary(base: Sequence[bool], trained: Sequence[bool], bootstrap_samples: int,
                  seed: int) -> dict[str, Any]:
    """The share of rows where an event holds (gold ranked 1st; abstention above the gold)
    under base and trained, and the paired difference trained - base with its bootstrap CI
    (`paired_bootstrap` over 0/1 per row). Raises ValueError as `paired_bootstrap` (lists of
    different lengths, no rows)."""
    b, t = [float(x) for x in base], [float(x) for x in trained]
    return {"n": len(b), "base": sum(b) / max(1, len(b)), "trained": sum(t) / max(1, len(t)),
            "difference": paired_bootstrap(b, t, samples=bootstrap_samples, seed=seed)}


def choice_figures(base: Sequence[dict], trained: Sequence[dict], bootstrap_samples: int,
                   seed: int, abstention: str | None) -> dict[str, Any]:
    """From each model's `read_group` rows: `ranking` (`share_summary` of "gold ranked 1st"
    on rows with 2+ candidates, + `candidates` (most per row), `chance` (mean 1/candidates),
    `mean_rank`; None without distractors), `abstention` (`share_summary` of "abstention above
    the gold", + the text and `margin` = abstention - gold score: mean per model, paired
    difference and CI, which moves when the share sits at 0 or 1; None without a text)."""
    ranked = [i for i, r in enumerate(base) if r["rank"] is not None]
    ranking = abstaining = None
    if ranked:
        ranks = {side: [rows[i]["rank"] for i in ranked]
                 for side, rows in (("base", base), ("trained", trained))}
        counts = [base[i]["candidates"] for i in ranked]
        ranking = {**share_summary([r == 1 for r in ranks["base"]],
                                   [r == 1 for r in ranks["trained"]], bootstrap_samples, seed),
                   "candidates": max(counts), "chance": sum(1 / c for c in counts) / len(counts),
                   "mean_rank": {side: sum(v) / len(v) for side, v in ranks.items()}}
    if abstention:
        margins = {side: [r["abstention"] - r["score"] for r in rows]
                   for side, rows in (("base", base), ("trained", trained))}
        abstaining = {"continuation": abstention, **share_summary(
            *([m > 0 for m in margins[side]] for side in ("base", "trained")),
            bootstrap_samples, seed), "margin": {
                **{side: sum(v) / len(v) for side, v in margins.items()}, "difference":
                paired_bootstrap(*margins.values(), samples=bootstrap_samples, seed=seed)}}
    return {"ranking": ranking, "abstention": abstaining}


def likelihood_check(base_model, trained, tokenizer, tasks: Sequence[str] = DEFAULT_TASKS,
                     limit: int | None | Mapping[str, int | None] = 50, seed: int = 0,
                     bootstrap_samples: int = 2000, *,
                     data_dir: str | None = None, data_source: str = "auto",
                     resolver: DataResolver | None = None, batch_size: int = 8,
                     rows_file: str | Path | None = None,
                     distractors: int | Mapping[str, int] = DEFAULT_DISTRACTORS,
                     abstention: str | None = ABSTENTION,
                     normalise: str = "token") -> dict[str, Any]:
    """Mean per-token log-likelihood of each task's gold continuations under base and
    trained, with the paired 95% bootstrap CI of the difference, and the gold's rank among
    distractors and the abstention's preference (module docstring).

    Args:
        base_model, trained: see `_sides`; in `rlvr train`, `None` and the trainer's PEFT
            model (one model in memory: the base numbers come from `disable_adapter()`).
        tokenizer: the model's tokenizer.
        tasks: names with a gold continuation (`CONTINUATIONS`).
        limit: rows per task (seeded draw, `select_rows`); None = all; a mapping sets it per
            task (`per_task`; tasks it does not name: its "default" entry, else
            `DEFAULT_ROWS`).
        data_dir, data_source, resolver: where rows come from (`rlvr.tasks.sources`;
            data_dir None = $RLVR_DATA_DIR or ~/.config/rlvr/config.yaml, as `rlvr eval`).
        rows_file: when given, every row's numbers for both models go there as JSONL.
        distractors: other rows' gold continuations ranked with the gold (0 = no ranking);
            a mapping sets it per task (tasks it does not name: its "default" entry, else 0).
        abstention: the abstention continuation (None = no abstention figure).
        normalise: what ranking and abstention compare (`choice_score`; "token" = nats/token).
    Returns:
        {"meta": {measure, unit, limit, seed, bootstrap_samples, seconds, tokenization,
         ranking}, "tasks": {name: `summarise` + `choice_figures` + data_source, data_note,
         seconds {base, trained}}, "skipped": {name: reason}}.
    Raises:
        RlvrError: an unknown task, or one without a gold continuation.
        ValueError: an unknown `normalise`.
    """
    from rlvr.eval.likelihood import NORMALISATIONS, score_groups
    from rlvr.tasks.sources import user_data_dir

    check_cross_check_tasks(tasks)
    if normalise not in NORMALISATIONS:
        raise ValueError(f"normalise must be one of {NORMALISATIONS}, got {normalise!r}")
    start = time.perf_counter()
    if resolver is None:
        resolver = DataResolver(data_source, data_dir if data_dir is not None
                                else user_data_dir())
    rows, skipped, sources, pools = load_check_rows(tasks, limit, seed, resolver)
    for name, reason in skipped.items():
        logger.warning("cross-task check: skipping %s: %s", name, reason)
    groups = {name: task_groups(name, task_rows, pools[name],
                                per_task(distractors, name, 0), seed, abstention)
              for name, task_rows in rows.items()}
    scored: dict[str, dict[str, list[dict]]] = {name: {} for name in rows}
    seconds: dict[str, dict[str, float]] = {name: {} for name in rows}
    for label, model, context in _sides(base_model, trained) if rows else []:
        with context():
            for name, task_groups_ in list(groups.items()):
                began = time.perf_counter()
                try:
                    records = score_groups(model, tokenizer, [
                        (g["context"], g["continuations"]) for g in task_groups_], batch_size)
                except ValueError as exc:  # a row the tokenizer cannot split (encode_pair)
                    skipped[name] = str(exc)
                    logger.warning("cross-task check: skipping %s: %s", name, exc)
                    del rows[name], scored[name], groups[name]
                    continue
                scored[name][label] = [read_group(g, recs, normalise)
                                       for g, recs in zip(task_groups_, records)]
                seconds[name][label] = round(time.perf_counter() - began, 3)
    results = {}
    for name in rows:
        base, after = scored[name]["base"], scored[name]["trained"]
        results[name] = {**summarise(name, [r["gold"] for r in base], [r["gold"] for r in after],
                                     bootstrap_samples, seed),
                         **choice_figures(base, after, bootstrap_samples, seed, abstention),
                         **sources[name], "seconds": seconds[name]}
    if rows_file is not None:
        from rlvr.io import write_jsonl

        write_jsonl(rows_file, [
            {"task": name, "id": row["id"], "candidates": scored[name]["base"][i]["candidates"],
             **{f"{side}_{k}": scored[name][side][i]["gold"][k] for side in ("base", "trained")
                for k in ("sum_logprob", "num_tokens", "mean_logprob")},
             **{f"{side}_{k}": scored[name][side][i][k] for side in ("base", "trained")
                for k in ("rank", "abstention")}}
            for name, task_rows in rows.items() for i, row in enumerate(task_rows)])
    meta = {"measure": "mean per-token log-likelihood of the gold continuation",
            "unit": "nats/token", "difference": "trained - base (paired bootstrap over rows)",
            "limit": ({n: per_task(limit, n, DEFAULT_ROWS) for n in rows}
                      if isinstance(limit, Mapping) else limit),
            "seed": seed, "bootstrap_samples": bootstrap_samples,
            "tokenization": "joint context+continuation tokens after the common prefix with "
                            "the context's own tokens (rlvr.eval.likelihood)",
            "ranking": {"distractors": {n: per_task(distractors, n, 0) for n in rows},
                        "abstention": abstention,
                        "normalise": normalise},
            "seconds": round(time.perf_counter() - start, 3)}
    return {"meta": meta, "tasks": results, "skipped": skipped}
