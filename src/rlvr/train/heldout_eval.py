"""`rlvr eval --tasks heldout --adapter RUN/adapter`: a training run's own held-out rows,
answered by the base model and by the adapter, scored by every reward of the run, with the
before/after table `rlvr train` writes into report.md (`rlvr.eval.task_heldout`).

Rows, prompt, rewards (`reward_funcs`, else `reward` with its preset and params) and token
cap come from the run folder (`heldout.jsonl`, `resolved_config.yaml`); everything is checked
before a model loads. Writes OUTPUT_DIR/heldout.json, heldout.md, samples_base_heldout.jsonl,
samples_trained_heldout.jsonl and (with matplotlib) before_after.png.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from rlvr.config.reward_setup import CALIBRATION_REWARDS
from rlvr.errors import RlvrError
from rlvr.io import write_json, write_jsonl, write_text
from rlvr.tasks.heldout import find_run, run_task

def run_entries(run_cfg: dict[str, Any]) -> list[dict[str, Any]]:
    """A run's reward entries from its resolved config (`reward_funcs`, else `reward`), its
    user functions registered (`rlvr.rewards.register_user_rewards`; the resolved config
    holds their absolute paths).

    Raises:
        RlvrError: a user function that no longer loads (the message names its file).
    """
    from rlvr.rewards import register_user_rewards
    from rlvr.rewards.user import is_function_ref, ref_name

    reward = run_cfg.get("reward", "selfaware")
    entry = {"name": reward, "preset": run_cfg.get("reward_preset"),
             "params": run_cfg.get("reward_params") or {}}
    if is_function_ref(reward):
        entry.update(name=ref_name(reward), function=reward)
    return register_user_rewards(list(run_cfg.get("reward_funcs") or [entry]))


def read_run(adapter: str | Path) -> tuple[Any, dict[str, Any], list[dict[str, Any]]]:
    """(RunData, resolved config dict, reward entries) of the run an adapter came from.

    Raises:
        RlvrError: the adapter is not inside an `rlvr train` run folder, the run trained a
            calibration reward (use `--tasks selfaware`), or its held-out rows lack a field
            a reward reads (a run from before task runs kept them); each names the fix.
    """
    import yaml

    run = find_run(adapter)
    if run is None:
        raise RlvrError(f"--tasks heldout needs an --adapter inside an `rlvr train` run folder "
                        f"(RUN_DIR/adapter, next to heldout.jsonl); {adapter} is not one")
    cfg = yaml.safe_load((run.run_dir / "resolved_config.yaml").read_text(encoding="utf-8"))
    entries = run_entries(cfg or {})
    if any(e["name"] in CALIBRATION_REWARDS for e in entries):
        raise RlvrError(f"{run.run_dir} trained the calibration reward; evaluate it with "
                        "--tasks selfaware (its honesty report), not heldout")
    from rlvr.rewards import get_reward

    for entry in entries:
        for i, row in enumerate(run.rows):
            missing = get_reward(entry["name"]).missing_fields(row)
            if missing:
                raise RlvrError(f"{run.run_dir / 'heldout.jsonl'}:{i + 1}: no {missing} for "
                                f"reward {entry['name']!r} (a run from an older rlvr keeps no "
                                "reward fields there); rerun `rlvr train` to write them")
    return run, cfg or {}, entries


def eval_heldout(adapter: str | Path, output_dir: str | Path, model: str | None = None,
                 limit: int | None = None, batch_size: int = 16,
                 max_new_tokens: int | None = None, engine: str = "transformers",
                 dtype: str = "float32") -> dict[str, Any]:
    """Answer the run's held-out rows (the first `limit`) with base and adapter, score and
    summarise them as the run's report did (module docstring): the run's
    `eval_num_samples` (greedy when 1, else at its `temperature`), `seed` and
    `bootstrap_samples`, so the same rows give the same table (float32 greedy answers
    agree across engines; sampled answers, `eval_num_samples` > 1, through vLLM are other
    draws from the same distribution).

    Args:
        model: the base model spec; None = the run's own `model`.
        max_new_tokens: None = the run's `eval_max_new_tokens` (else its training cap).
        engine, dtype: as `rlvr.eval.runner.run_eval` (vllm: the base model folder plus
            the adapter through a LoRARequest; float32 greedy answers agree with
            transformers float32).
    Returns:
        `rlvr.eval.task_heldout.heldout_summary` + "meta" (run, adapter, timings).
    Raises:
        RlvrError: as `read_run`; a missing model; engine vllm without vLLM installed
            (the install line, before any model loads).
    """
    from rlvr.eval.runner import (close_generator, generate_task_records, load_generator,
                                  use_adapter)
    from rlvr.eval.task_heldout import heldout_summary, heldout_table, score_with_entries
    from rlvr.eval.vllm_engine import check_engine

    check_engine(engine, dtype)

    run, cfg, entries = read_run(adapter)
    rows = run.rows[:limit] if limit is not None else run.rows
    tokens = max_new_tokens or cfg.get("eval_max_new_tokens") or cfg.get("max_completion_length")
    task = run_task(entries[0]["name"], entries[0].get("preset"), entries[0].get("params"),
                    tokens)
    k, seed = int(cfg.get("eval_num_samples") or 1), int(cfg.get("seed") or 0)
    settings = {"batch_size": batch_size, "num_samples": k, "seed": seed,
                "temperature": float(cfg.get("temperature") or 0.7) if k > 1 else 0.0,
                "max_new_tokens": tokens}
    out = Path(output_dir)
    out.mkdir(parents=True, exist_ok=True)
    model_obj, tokenizer = load_generator(model if model is not None else cfg.get("model"),
                                          engine, dtype, str(adapter), seed, batch_size * k)
    records, timings = {}, {}
    try:
        for label in ("base", "trained"):
            if label == "trained":
                model_obj = use_adapter(model_obj, str(adapter))
            start = time.perf_counter()
            records[label] = score_with_entries(generate_task_records(
                model_obj, tokenizer, task, rows, [], settings, label), entries)
            timings[label] = round(time.perf_counter() - start, 3)
            write_jsonl(out / f"samples_{label}_heldout.jsonl", records[label])
    finally:
        close_generator(model_obj)
    summary = heldout_summary(records["base"], records["trained"], entries, num_samples=k,
                              bootstrap_samples=int(cfg.get("bootstrap_samples") or 2000),
                              seed=seed)
    summary["meta"] = {"run": str(run.run_dir), "adapter": str(adapter),
                       "max_new_tokens": tokens, "timings_s": timings, "engine": engine,
                       "dtype": dtype}
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
