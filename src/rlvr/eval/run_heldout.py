"""`rlvr eval --tasks heldout --adapter RUN/adapter`: a task run's own held-out rows,
answered by the base model and by the adapter, scored by every reward of the run, with the
before/after table `rlvr train` writes into report.md (`rlvr.eval.task_heldout`).

Rows, prompt, rewards (`reward_funcs`, else `reward` with its preset and params) and token
cap come from the run folder (`heldout.jsonl`, `resolved_config.yaml`,
`rlvr.eval.saved_run.read_run`); everything is checked before a model loads. Writes
OUTPUT_DIR/heldout.json, heldout.md, samples_base_heldout.jsonl,
samples_trained_heldout.jsonl and (with matplotlib) before_after.png.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from rlvr.errors import RlvrError
from rlvr.eval.saved_run import read_run
from rlvr.eval.settings import EvalSettings, heldout_settings, run_value
from rlvr.io import write_json, write_jsonl, write_text
from rlvr.tasks.heldout import run_task


def eval_heldout(adapter: str | Path, output_dir: str | Path, model: str | None = None,
                 settings: EvalSettings | None = None) -> dict[str, Any]:
    """Answer the run's held-out rows (the first `settings.limit`) with base and adapter,
    score and summarise them as the run's report did (module docstring): the run's
    `eval_num_samples` (greedy when 1, else at its `temperature`), `seed` and
    `bootstrap_samples`, so the same rows give the same table (float32 greedy answers
    agree across engines; sampled answers, `eval_num_samples` > 1, through vLLM are other
    draws from the same distribution).

    Args:
        model: the base model spec; None = the run's own `model`.
        settings: what the caller chose (`limit`, `batch_size`, `max_new_tokens`, `engine`,
            `dtype`; `max_new_tokens` None = the run's evaluation cap, `eval_token_cap`);
            samples, temperature and seed are always the run's (`RunEvaluation.from_run`).
            None = `EvalSettings()`. vllm: the base model folder plus the adapter through a
            LoRARequest; float32 greedy answers agree with transformers float32.
    Returns:
        `rlvr.eval.task_heldout.heldout_summary` + "meta" (run, adapter, timings).
    Raises:
        RlvrError: as `read_run`; a missing model; engine vllm without vLLM installed
            (the install line, before any model loads).
    """
    from rlvr.eval.runner import (close_generator, generate_task_records, load_generator,
                                  use_adapter)
    from rlvr.eval.task_heldout import heldout_summary, heldout_table, score_with_entries
    asked = settings or EvalSettings()
    run, cfg, entries = read_run(adapter)
    rows = run.rows[:asked.limit] if asked.limit is not None else run.rows
    own = heldout_settings(cfg, task_run=True)  # the run's samples, temperature and seed
    settings = asked.replace(num_samples=own.num_samples, temperature=own.temperature,
                             seed=own.seed, max_new_tokens=asked.max_new_tokens
                             or own.max_new_tokens)
    tokens, k, seed = settings.max_new_tokens, settings.num_samples, settings.seed
    task = run_task(entries[0]["name"], entries[0].get("preset"), entries[0].get("params"),
                    tokens)
    out = Path(output_dir)
    out.mkdir(parents=True, exist_ok=True)
    model_obj, tokenizer = load_generator(model if model is not None else cfg.get("model"),
                                          settings.engine, settings.dtype, str(adapter), seed,
                                          settings.max_num_seqs)
    records, timings = {}, {}
    try:
        for label in ("base", "trained"):
            if label == "trained":
                model_obj = use_adapter(model_obj, str(adapter))
            start = time.perf_counter()
            records[label] = score_with_entries(generate_task_records(
                model_obj, tokenizer, task, rows, [], settings.generation(), label), entries)
            timings[label] = round(time.perf_counter() - start, 3)
            write_jsonl(out / f"samples_{label}_heldout.jsonl", records[label])
    finally:
        close_generator(model_obj)
    summary = heldout_summary(records["base"], records["trained"], entries, num_samples=k,
                              bootstrap_samples=int(run_value(cfg, "bootstrap_samples")),
                              seed=seed)
    summary["meta"] = {"run": str(run.run_dir), "adapter": str(adapter),
                       "max_new_tokens": tokens, "timings_s": timings,
                       "engine": settings.engine, "dtype": settings.dtype}
    write_json(out / "heldout.json", summary)
    write_text(out / "heldout.md", f"# Held-out rows of {run.run_dir}: base vs trained\n\n"
               + heldout_table(summary) + "\n\n![before and after](before_after.png)\n")
    _draw(summary, out)
    return summary


def _draw(summary: dict[str, Any], out: Path) -> None:
    """before_after.png from the summary (`rlvr.plots.before_after`); a failure only
    warns."""
    import logging

    from rlvr.plots.before_after import write_before_after

    try:
        write_before_after({"heldout": summary}, out / "before_after.png", "heldout.json")
    except (RlvrError, OSError) as exc:
        logging.getLogger(__name__).warning("before_after.png not drawn: %s", exc)
