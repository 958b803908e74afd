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
from `rlvr eval`'s data resolution (`rlvr.tasks.sources`: --data-dir, the Hub, the packaged
subsets), `limit` per task by a seeded draw, the same rows for both models.
Generation-based scores stay with `rlvr eval`.
"""

from __future__ import annotations

import logging
import random
import re
import time
from contextlib import nullcontext
from pathlib import Path
from typing import Any, Callable, Sequence

from rlvr.errors import DataError, RlvrError
from rlvr.metrics.calibration import paired_bootstrap
from rlvr.tasks.sources import DataResolver
from rlvr.tasks.registry import get_task

logger = logging.getLogger(__name__)

DEFAULT_TASKS = ("gsm8k", "triviaqa", "humaneval", "mbpp")
CALCULATOR = re.compile(r"<<[^<>]*>>")


def gsm8k_continuation(row: dict[str, Any]) -> str:
    """The worked solution without GSM8K's calculator annotations (`<<48/2=24>>`: tool
    calls for the dataset's calculator, not text a model writes), ending with the
    '#### N' line the task's system prompt asks for."""
    return CALCULATOR.sub("", row["solution"])


def mbpp_continuation(row: dict[str, Any]) -> str:
    """The reference program with Windows line ends made plain (`\\r\\n` -> `\\n`)."""
    return row["code"].replace("\r\n", "\n")


# task -> (gold continuation of a row, what it is)
CONTINUATIONS: dict[str, tuple[Callable[[dict[str, Any]], str], str]] = {
    "gsm8k": (gsm8k_continuation, "the gold worked solution (calculator annotations removed)"),
    "triviaqa": (lambda row: row["answer"], "the first gold answer"),
    "humaneval": (lambda row: row["canonical_solution"], "the canonical solution (function body)"),
    "mbpp": (mbpp_continuation, "the reference program"),
}


def check_cross_check_tasks(names: Sequence[str]) -> None:
    """Raise RlvrError (one line, the usable names) for a task without a gold continuation."""
    for name in names:
        if name not in CONTINUATIONS:
            get_task(name)  # an unknown name: the registry's error, with the closest match
            raise RlvrError(f"task {name!r} has no gold continuation to score; use some of "
                            f"{', '.join(CONTINUATIONS)}")


def select_rows(rows: Sequence[dict], limit: int | None, seed: int, task: str) -> list[dict]:
    """`limit` rows drawn with `random.Random(f"{seed}:{task}:cross_check")`, in their file
    order (all rows when limit is None or not smaller)."""
    if limit is None or limit >= len(rows):
        return list(rows)
    keep = sorted(random.Random(f"{seed}:{task}:cross_check").sample(range(len(rows)), limit))
    return [rows[i] for i in keep]


def gold_continuation(name: str, row: dict[str, Any]) -> str:
    """A row's gold continuation (`CONTINUATIONS`).

    Raises:
        DataError: the row lacks the field it needs (e.g. a HumanEval file without
            `canonical_solution`), naming the field.
    """
    try:
        return CONTINUATIONS[name][0](row)
    except KeyError as exc:
        raise DataError(f"{name} rows have no {exc.args[0]!r} field (the gold continuation); "
                        "use a file that has it, e.g. the packaged subset") from None


def task_pairs(name: str, rows: Sequence[dict]) -> list[tuple[Any, str]]:
    """(context, continuation) per row: the task's prompt and its gold continuation.
    Raises DataError as `gold_continuation`."""
    task = get_task(name)
    return [(task.build_prompt(row), gold_continuation(name, row)) for row in rows]


def load_check_rows(tasks: Sequence[str], limit: int | None, seed: int,
                    resolver: DataResolver) -> tuple[dict[str, list[dict]], dict[str, str],
                                                     dict[str, dict]]:
    """Each task's rows (`select_rows` among the rows with a non-blank gold continuation),
    skip reasons, and data sources (as `rlvr eval` states them). A task whose data is
    missing, or has no row with a gold continuation, is skipped with the reason."""
    loaded, skipped, sources = {}, {}, {}
    for name in tasks:
        try:
            data = resolver.rows(get_task(name))
            usable = [r for r in data.rows if gold_continuation(name, r).strip()]
            if not usable:
                raise DataError(f"no {name} row has a gold continuation")
        except DataError as exc:
            skipped[name] = str(exc)
            continue
        loaded[name] = select_rows(usable, limit, seed, name)
        sources[name] = {"data_source": data.source, "data_note": data.note}
        if len(usable) < len(data.rows):
            sources[name]["rows_without_gold"] = len(data.rows) - len(usable)
    return loaded, skipped, sources


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


def likelihood_check(base_model, trained, tokenizer, tasks: Sequence[str] = DEFAULT_TASKS,
                     limit: int | None = 50, seed: int = 0, bootstrap_samples: int = 2000, *,
                     data_dir: str | None = None, data_source: str = "auto",
                     resolver: DataResolver | None = None, batch_size: int = 8,
                     rows_file: str | Path | None = None) -> dict[str, Any]:
    """Mean per-token log-likelihood of each task's gold continuations under base and
    trained, with the paired 95% bootstrap CI of the difference (module docstring).

    Args:
        base_model, trained: see `_sides`; in `rlvr train`, `None` and the trainer's PEFT
            model (one model in memory: the base numbers come from `disable_adapter()`).
        tokenizer: the model's tokenizer.
        tasks: names with a gold continuation (`CONTINUATIONS`).
        limit: rows per task (seeded draw, `select_rows`); None = all.
        data_dir, data_source, resolver: where rows come from (`rlvr.tasks.sources`;
            data_dir None = $RLVR_DATA_DIR or ~/.config/rlvr/config.yaml, as `rlvr eval`).
        rows_file: when given, every row's numbers for both models go there as JSONL.
    Returns:
        {"meta": {measure, unit, limit, seed, bootstrap_samples, seconds, tokenization},
         "tasks": {name: `summarise` + data_source, data_note, seconds {base, trained}},
         "skipped": {name: reason}}.
    Raises:
        RlvrError: an unknown task, or one without a gold continuation.
    """
    from rlvr.eval.likelihood import continuation_logprobs
    from rlvr.tasks.sources import user_data_dir

    check_cross_check_tasks(tasks)
    start = time.perf_counter()
    if resolver is None:
        resolver = DataResolver(data_source, data_dir if data_dir is not None
                                else user_data_dir())
    rows, skipped, sources = load_check_rows(tasks, limit, seed, resolver)
    for name, reason in skipped.items():
        logger.warning("cross-task check: skipping %s: %s", name, reason)
    scored: dict[str, dict[str, list[dict]]] = {name: {} for name in rows}
    seconds: dict[str, dict[str, float]] = {name: {} for name in rows}
    for label, model, context in _sides(base_model, trained) if rows else []:
        with context():
            for name, task_rows in list(rows.items()):
                began = time.perf_counter()
                try:
                    scored[name][label] = continuation_logprobs(
                        model, tokenizer, task_pairs(name, task_rows), batch_size=batch_size)
                    seconds[name][label] = round(time.perf_counter() - began, 3)
                except ValueError as exc:  # a row the tokenizer cannot split (encode_pair)
                    skipped[name] = str(exc)
                    logger.warning("cross-task check: skipping %s: %s", name, exc)
                    del rows[name], scored[name]
    results = {name: {**summarise(name, scored[name]["base"], scored[name]["trained"],
                                  bootstrap_samples, seed), **sources[name],
                      "seconds": seconds[name]}
               for name in rows}
    if rows_file is not None:
        from rlvr.io import write_jsonl

        write_jsonl(rows_file, [
            {"task": name, "id": row["id"], **{f"{side}_{k}": scored[name][side][i][k]
                                              for side in ("base", "trained")
                                              for k in ("sum_logprob", "num_tokens",
                                                        "mean_logprob")}}
            for name, task_rows in rows.items() for i, row in enumerate(task_rows)])
    meta = {"measure": "mean per-token log-likelihood of the gold continuation",
            "unit": "nats/token", "difference": "trained - base (paired bootstrap over rows)",
            "limit": limit, "seed": seed, "bootstrap_samples": bootstrap_samples,
            "tokenization": "joint context+continuation tokens after the common prefix with "
                            "the context's own tokens (rlvr.eval.likelihood)",
            "seconds": round(time.perf_counter() - start, 3)}
    return {"meta": meta, "tasks": results, "skipped": skipped}


def cross_check_table(check: dict[str, Any]) -> str:
    """Markdown table: per task n, base and trained nats/token and the paired difference
    trained - base with its 95% CI; skipped tasks with their reason."""
    lines = ["| task | n | gold continuation | base (nats/token) | trained (nats/token) | "
             "trained - base [95% CI] |", "|---|---:|---|---:|---:|---:|"]
    for name, r in check["tasks"].items():
        d = r["difference"]
        lines.append(f"| {name} | {r['n']} | {r['continuation']} | {r['base']:.4f} | "
                     f"{r['trained']:.4f} | {d['mean_difference']:+.4f} "
                     f"[{d['ci_low']:+.4f}, {d['ci_high']:+.4f}] |")
    for name, reason in check.get("skipped", {}).items():
        lines.append(f"| {name} | - | skipped: {reason} | - | - | - |")
    return "\n".join(lines)
