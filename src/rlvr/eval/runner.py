"""Cross-task evaluation runner: generate, score with the registered rewards, report.

`run_eval` answers every task's questions with the base model and, when an adapter is
given, with the adapter too; writes each model's per-sample records as JSONL before any
metric is computed; then computes metrics (`rescore` can redo that step offline).
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import random
import time
from pathlib import Path
from typing import Any, Sequence

from rlvr.errors import DataError, RlvrError
from rlvr.eval.saved_run import find_run
from rlvr.tasks.heldout import check_overlap
from rlvr.tasks.sources import DataResolver, user_data_dir
from rlvr.tasks.registry import EvalTask, get_task
from rlvr.io import read_jsonl, write_jsonl
from rlvr.rewards import score_rows

logger = logging.getLogger(__name__)


def fewshot_exemplars(task: EvalTask, k: int, data_dir: str | None, seed: int,
                      resolver: DataResolver | None = None) -> list[dict]:
    """k exemplars drawn (seeded) from the task's train side; never from the test split.

    The pool comes from `resolver` (default: one for `data_dir`, auto): DIR/fewshot_file,
    the hub's few-shot split, or the packaged train rows (`rlvr.tasks.sources`).
    Raises:
        RlvrError: the task has no few-shot source but k > 0; DataError: none available.
    """
    if k <= 0:
        return []
    pool = (resolver or DataResolver(data_dir=data_dir)).fewshot(task).rows
    return random.Random(seed).sample(pool, k)


def score_records(task: EvalTask, rows: Sequence[dict], generations: Sequence[dict],
                  num_samples: int, prompts: Sequence[Any] = ()) -> list[dict[str, Any]]:
    """Join rows and generations into records and score them with the task's rewards.

    `prompts` (one per row) are stored as each record's `prompt` (the last message's text
    for chat prompts) before scoring, so rewards that read the prompt see it."""
    records = []
    for i, gen in enumerate(generations):
        row = rows[i // num_samples]
        record = {k: v for k, v in row.items() if k != "chat_prompt"}
        if prompts:
            prompt = prompts[i // num_samples]
            record["prompt"] = prompt if isinstance(prompt, str) else prompt[-1]["content"]
        records.append({**record, "task": task.name,
                        "sample": gen.get("sample", 0), "completion": gen["completion"],
                        "num_tokens": gen.get("num_tokens"), "truncated": gen.get("truncated")})
    return rescore_records(task, records)


def rescore_records(task: EvalTask, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """(Re)compute `reward`, `outcome`, `details` and `extra` of records in place."""
    for result, rec in zip(score_rows(task.reward, records, task.reward_preset,
                                      **task.reward_params), records):
        rec.update(reward=result.score, outcome=result.outcome, details=result.details)
    for name in task.extra_rewards:
        for result, rec in zip(score_rows(name, records), records):
            rec.setdefault("extra", {})[name] = {"score": result.score, "outcome": result.outcome}
    return records


def completions_of(model, tokenizer):
    """`generate(prompts, max_new_tokens=..., batch_size=..., ...)` for `model`: an engine's
    own `generate_completions` (`rlvr.eval.vllm_engine.VllmEngine`) or
    `rlvr.eval.generate.generate_completions` on a loaded model; both take the same
    arguments and return the same records."""
    if hasattr(model, "generate_completions"):  # an engine (rlvr.eval.vllm_engine)
        return functools.partial(model.generate_completions, tokenizer)
    from rlvr.eval.generate import generate_completions

    return functools.partial(generate_completions, model, tokenizer)


def generate_task_records(model, tokenizer, task: EvalTask, rows: list[dict],
                          exemplars: list[dict], settings: dict[str, Any],
                          label: str) -> list[dict[str, Any]]:
    """Answer `rows` of one task with a loaded model and score the answers.

    This is the one evaluation path: `rlvr eval` and the before/after evaluation of
    `rlvr train` both call it.
    Args:
        model: a loaded model (transformers `generate`), or an engine with a
            `generate_completions(tokenizer, prompts, ...)` method
            (`rlvr.eval.vllm_engine.VllmEngine`); both return the same records.
        settings: `batch_size`, `num_samples`, `temperature`, `seed` and optionally
            `max_new_tokens` (None = the task's cap).
        label: progress-bar label ("base", "trained", ...).
    Returns:
        one scored record per sample (rows x num_samples, row-major).
    """
    prompts = [task.build_prompt(r, exemplars) for r in rows]
    generations = completions_of(model, tokenizer)(
        prompts, max_new_tokens=settings.get("max_new_tokens") or task.max_new_tokens,
        batch_size=settings["batch_size"], desc=f"{label} {task.name}", stop=task.stop,
        num_samples=settings["num_samples"], temperature=settings["temperature"],
        seed=settings["seed"])
    return score_records(task, rows, generations, settings["num_samples"], prompts)


def load_task_rows(names: Sequence[str], data_dir: str | None, overrides: dict[str, str],
                   limit: int | None, data_source: str = "auto",
                   resolver: DataResolver | None = None,
                   ) -> tuple[dict[str, list[dict]], dict[str, str], dict[str, dict]]:
    """Load each task's rows (first `limit`) through `resolver` (default: one built from
    `data_source`, `data_dir` and the --task-path `overrides`; order in
    `rlvr.tasks.sources`). A task whose data is unavailable is skipped with its reason
    (returned, not logged: `run_eval` logs it), and the others still run.

    Returns:
        (rows per task, skip reason per task, data source per loaded task:
        {"data_source", "data_kind", "data_note"}).
    Raises:
        RlvrError: unknown task names or data source.
    """
    tasks = [get_task(n) for n in names]
    resolver = resolver or DataResolver(data_source, data_dir, overrides)
    loaded, skipped, sources = {}, {}, {}
    for task in tasks:
        try:
            data = resolver.rows(task)
        except DataError as exc:
            skipped[task.name] = str(exc)
            continue
        loaded[task.name] = data.rows[:limit] if limit is not None else data.rows
        sources[task.name] = {"data_source": data.source, "data_kind": data.kind,
                              "data_note": data.note}
    return loaded, skipped, sources


def load_generator(model: str | None, engine: str = "transformers", dtype: str = "float32",
                   adapter: str | None = None, seed: int = 0,
                   max_num_seqs: int | None = None, endpoint: str | None = None,
                   endpoint_model: str | None = None) -> tuple[Any, Any]:
    """(model or engine, tokenizer) that `generate_task_records` answers with.

    Args:
        model: model spec (`rlvr.models.resolve_model`).
        engine: "transformers" (a loaded causal LM) or "vllm" (a started `VllmEngine` on the
            model folder, `max_num_seqs` answers in flight: None = vLLM's default). Either
            is ready when returned, so generation timings leave loading and start-up out.
        adapter: not read here (kept for callers): switch to an adapter with `use_adapter`,
            which merges it into the engine's weights.
        endpoint, endpoint_model: with engine "endpoint", the server that answers
            (`rlvr.eval.endpoint.EndpointEngine`, `max_num_seqs` requests in flight) and
            `model`'s tokenizer, loaded here without its weights.
    Free a vLLM engine with `close_generator` when done (its KV cache holds memory).
    Raises:
        RlvrError: a missing model, an unreachable endpoint.
    """
    if engine == "endpoint":
        from rlvr.eval.endpoint import EndpointEngine
        from rlvr.models import load_tokenizer, resolve_model

        served = EndpointEngine(endpoint, endpoint_model, concurrency=max_num_seqs or 8)
        served.model  # noqa: B018 - reach the server now (one line if it is down)
        return served, load_tokenizer(resolve_model(model))
    if engine == "vllm":
        from rlvr.eval.vllm_engine import VllmEngine
        from rlvr.models import load_tokenizer, resolve_model

        path = resolve_model(model)
        built = VllmEngine(path, dtype, seed=seed, max_num_seqs=max_num_seqs)
        built.llm  # noqa: B018 - start-up here, not inside the first timed generation
        return built, load_tokenizer(path)
    from rlvr.models import load_causal_lm

    return load_causal_lm(model, dtype=dtype)


def close_generator(model_obj: Any) -> None:
    """Free what `load_generator` built: a vLLM engine is closed and collected (a second
    engine in the same process would otherwise hold its own KV cache as well); a
    transformers model is left to the caller's references."""
    close = getattr(model_obj, "close", None)
    if callable(close):
        import gc

        close()
        gc.collect()


def use_adapter(model_obj: Any, adapter: str) -> Any:
    """`model_obj` (from `load_generator`) answering through the PEFT adapter folder
    `adapter`: a vLLM engine loads the base weights with the adapter merged in
    (`VllmEngine.load_adapter`), a transformers model is wrapped by
    `rlvr.models.apply_adapter`. Returns the object to generate with."""
    if hasattr(model_obj, "generate_completions"):  # a VllmEngine: merged, not a LoRA
        model_obj.load_adapter(str(adapter))
        return model_obj
    from rlvr.models import apply_adapter

    return apply_adapter(model_obj, str(adapter))


def run_eval(model: str | None, tasks: Sequence[str], adapter: str | None = None,
             output_dir: str | Path = "runs/eval", limit: int | None = None,
             num_samples: int = 1, temperature: float | None = None, batch_size: int = 16,
             num_fewshot: int | None = None, data_dir: str | None = None,
             task_paths: dict[str, str] | None = None, seed: int = 0,
             max_new_tokens: int | None = None, run_name: str | None = None,
             loaded_model: Any = None, require_tasks: bool = False,
             data_source: str = "auto", engine: str = "transformers",
             dtype: str = "float32", endpoint: str | None = None,
             endpoint_model: str | None = None) -> dict[str, Any]:
    """Evaluate a model (and optionally an adapter on it) on several tasks.

    Args:
        model: model spec (see `rlvr.models.resolve_model`).
        tasks: registered task names.
        adapter: PEFT adapter folder; when given, base and adapter are both evaluated.
        limit: first N questions per task.
        num_samples: samples per question (K); K > 1 samples at `temperature` (default
            0.8) and enables pass@k for code tasks.
        num_fewshot: exemplars for tasks with a few-shot source (default: the task's).
        data_dir, task_paths, data_source: where each task's rows come from (local files,
            the Hugging Face Hub or the packaged subsets; order in `rlvr.tasks.sources`);
            each task's source is stated in the results (`tasks.<name>.data_source`).
        loaded_model: optional (model, tokenizer) already in memory (used by `rlvr train`).
        require_tasks: raise when every task is skipped (`rlvr eval`); otherwise the
            results only list the skipped tasks. No model is loaded in either case.
        engine: "transformers" (`generate`) or "vllm" (`rlvr.eval.vllm_engine`, the base
            model folder plus the adapter through a LoRARequest; not with `loaded_model`).
        dtype: "float32" or "bfloat16" weights for either engine (float32 greedy answers
            agree across engines; bfloat16 answers differ).
        endpoint, endpoint_model: answer through an OpenAI-compatible server instead
            (`rlvr.eval.endpoint.EndpointEngine`; `model` gives the tokenizer that renders
            the prompts); the run is labelled "endpoint"; no adapter.
    Returns:
        the results dict also written to OUTPUT_DIR/results.json.
    Raises:
        RlvrError: unknown task name, bad settings, a missing model, or engine "vllm"
            without vLLM installed (one line with the install command, before any model
            or data loads).
        DataError: every task was skipped and `require_tasks` (one line, every reason), or
            a file named in `task_paths` could not be read (never skipped quietly).
    """
    from rlvr.eval.results import finish_results
    from rlvr.eval.vllm_engine import check_engine

    if endpoint is not None:
        if adapter is not None or loaded_model is not None:
            raise RlvrError("--endpoint answers with the served model: serve the trained "
                            "model and point --endpoint at it, instead of --adapter")
        engine = "endpoint"
    else:
        check_engine(engine, dtype)
    if engine == "vllm" and loaded_model is not None:
        raise RlvrError("engine vllm loads the model folder itself; do not pass loaded_model")
    data_dir = data_dir if data_dir is not None else user_data_dir()
    overrides = dict(task_paths or {})
    if temperature is None:
        temperature = 0.8 if num_samples > 1 else 0.0
    settings = {"limit": limit, "num_samples": num_samples, "temperature": temperature,
                "batch_size": batch_size, "seed": seed, "max_new_tokens": max_new_tokens,
                "data_dir": data_dir, "task_paths": overrides, "num_fewshot": num_fewshot,
                "data_source": data_source, "engine": engine, "dtype": dtype,
                "endpoint": endpoint}
    resolver = DataResolver(data_source, data_dir, overrides)
    run = find_run(adapter)
    from_run = run is not None and "selfaware" in tasks and "selfaware" not in overrides
    rows_by_task, skipped, sources = load_task_rows(
        [t for t in tasks if not (from_run and t == "selfaware")], data_dir, overrides, limit,
        resolver=resolver)
    tasks_used = {name: get_task(name) for name in tasks}
    if run is not None and "selfaware" in tasks:
        # an adapter from `rlvr train`: its prompt, reward settings and held-out rows
        tasks_used["selfaware"] = run.task
        if from_run:
            rows_by_task = {"selfaware": run.rows[:limit] if limit is not None else run.rows,
                            **rows_by_task}
        if "selfaware" in rows_by_task:
            check_overlap(rows_by_task["selfaware"], run.train_questions,
                          overrides.get("selfaware", str(run.run_dir / "heldout.jsonl")))
        settings["selfaware_rows"] = ("held-out rows of the run " + str(run.run_dir)
                                      if from_run else overrides["selfaware"])
        if from_run:
            sources["selfaware"] = {"data_source": settings["selfaware_rows"],
                                    "data_kind": "run", "data_note": None}
    named = {name: reason for name, reason in skipped.items() if name in overrides}
    if named:  # a file the user pointed at is never skipped quietly
        raise DataError("; ".join(f"{name}: {reason}" for name, reason in named.items())
                        + " (fix the file given with --task-path, or drop that task)")
    if not rows_by_task and require_tasks:
        raise DataError("every task was skipped, so nothing was evaluated: " + "; ".join(
            f"{name}: {reason}" for name, reason in skipped.items()))
    for name, reason in skipped.items():
        logger.warning("skipping task %s: %s", name, reason)
    settings["task_settings"] = {
        name: {"reward": t.reward, "reward_preset": t.reward_preset,
               "reward_params": t.reward_params, "max_new_tokens": t.max_new_tokens}
        for name, t in tasks_used.items()}
    exemplars = {}
    for name in rows_by_task:
        task = tasks_used[name]
        k = task.default_fewshot if num_fewshot is None else num_fewshot
        exemplars[name] = fewshot_exemplars(task, k if task.fewshot_file else 0, data_dir, seed,
                                            resolver)
        if exemplars[name]:
            sources[name]["fewshot_source"] = resolver.fewshot(task).source
    out = Path(output_dir)
    out.mkdir(parents=True, exist_ok=True)
    runs = [("endpoint" if endpoint else "base", None)] + (
        [(run_name or Path(adapter).name or "adapter", adapter)] if adapter else [])
    timings: dict[str, float] = {}
    if rows_by_task:  # every task skipped: nothing to answer, no model to load
        if loaded_model is not None:
            model_obj, tokenizer = loaded_model
        else:
            model_obj, tokenizer = load_generator(model, engine, dtype, adapter, seed,
                                                  batch_size * num_samples, endpoint,
                                                  endpoint_model)
    try:
        for label, adapter_dir in runs if rows_by_task else []:
            if adapter_dir is not None:
                model_obj = use_adapter(model_obj, adapter_dir)
            for name, rows in rows_by_task.items():
                start = time.perf_counter()
                records = generate_task_records(model_obj, tokenizer, tasks_used[name], rows,
                                                exemplars[name], settings, label)
                timings[f"{label}/{name}"] = round(time.perf_counter() - start, 3)
                write_jsonl(out / f"samples_{label}_{name}.jsonl", records)
    finally:
        if rows_by_task and loaded_model is None:
            close_generator(model_obj)
    meta = {"model": model or "default (SmolLM2-135M-Instruct)", "adapter": adapter,
            "runs": [label for label, _ in runs], "settings": settings, "timings_s": timings,
            "fewshot_ids": {n: [e["id"] for e in ex] for n, ex in exemplars.items()},
            "data_sources": {n: sources[n] for n in rows_by_task if n in sources}}
    return finish_results(out, meta, list(rows_by_task), skipped)


def rescore(output_dir: str | Path) -> dict[str, Any]:
    """Recompute rewards and metrics from the saved samples of an earlier `run_eval`."""
    import json

    from rlvr.eval.results import finish_results

    out = Path(output_dir)
    results_file = out / "results.json"
    if not results_file.is_file():
        raise RlvrError(f"{results_file} not found; pass the --output-dir of an earlier rlvr eval")
    old = json.loads(results_file.read_text(encoding="utf-8"))
    meta = old["meta"]
    saved = meta.get("settings", {}).get("task_settings", {})
    for label in meta["runs"]:
        for name in old["tasks"]:
            task = dataclasses.replace(get_task(name), **saved[name]) if name in saved \
                else get_task(name)
            path = out / f"samples_{label}_{name}.jsonl"
            write_jsonl(path, rescore_records(task, read_jsonl(path)))
    return finish_results(out, meta, list(old["tasks"]), old.get("skipped", {}))
