"""rlvr from Python: one call per job, as a TRL user expects.

    from rlvr.api import TrainConfig, train, evaluate, score

    result = train("configs/arithmetic_grpo_cpu.yaml", max_steps=5, output_dir="runs/try")
    result.run_dir, result.adapter_dir, result.report["heldout"]

    cfg = TrainConfig(data="my_rows.jsonl", reward="qa", max_steps=20)   # or build one
    result = train(cfg)

    evaluate(adapter=result.adapter_dir, tasks=["heldout"])   # the run's own held-out rows
    evaluate(tasks=["gsm8k", "triviaqa"], limit=20)           # tasks, base model only
    score("gsm8k_correctness", [{"completion": "#### 4", "final_answer": "4"}])
    export(result.run_dir, "merged")                          # a model transformers loads

Each function is the command of the same name (`rlvr train`, `rlvr eval`, `rlvr score`,
`rlvr compare`, `rlvr export --merge`) without the argument parsing: the same checks run before any model loads
and raise the same `rlvr.errors.RlvrError` subclasses (ConfigError, DataError, ...) with the
one-line message the command prints. Models and TRL are imported only when a job runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from rlvr.config import TrainConfig, load_config

__all__ = ["TrainConfig", "TrainResult", "compare", "evaluate", "export", "load_config",
           "score", "train"]


@dataclass(frozen=True)
class TrainResult:
    """What `train` returns.

    Attributes:
        run_dir: the run folder (`output_dir`); adapter_dir: its LoRA adapter (PEFT);
        report: the report dict also written to run_dir/report.json (for a run stopped by
        a signal or with `skip_eval`, only `meta`).
    """

    run_dir: Path
    adapter_dir: Path
    report: dict[str, Any]


def _config(config: TrainConfig | str | Path | None, overrides: dict[str, Any]) -> TrainConfig:
    """A checked TrainConfig from an object, a YAML path or None (the defaults), with
    `overrides` applied (each checked as the config's own keys are).
    Raises: ConfigError (unknown key, bad value), as `load_config`."""
    if isinstance(config, TrainConfig):  # re-loaded, so an unknown key gets its closest match
        return load_config(None, {**config.to_dict(), **overrides}) if overrides else config
    return load_config(str(config) if config is not None else None, overrides)


def train(config: TrainConfig | str | Path | None = None, resume: bool = False,
          overwrite: bool = False, **overrides: Any) -> TrainResult:
    """Train (the configured `method`) and evaluate, as `rlvr train --config FILE`.

    Args:
        config: a TrainConfig, a YAML config path, or None for the defaults (the main job's
            built-in data and reward).
        resume: continue the run in `output_dir` from its newest checkpoint (`--resume`).
        overwrite: empty an `output_dir` that holds a run first (`--overwrite`); without
            it or `resume` such a folder is refused (`rlvr.train.run_folder`).
        overrides: config keys, e.g. `max_steps=5` (`--set key=value`).
    Returns:
        TrainResult (run folder, adapter folder, report dict).
    Raises:
        ConfigError, DataError, RlvrError: as `rlvr train`, before any model loads when the
            input is at fault.
    """
    from rlvr.train.job import run

    from rlvr.train.run_folder import check_run_folder

    cfg = _config(config, overrides)
    check_run_folder(cfg.output_dir, resume, overwrite)
    report = run(cfg, resume=resume, overwrite=overwrite)
    run_dir = Path(cfg.output_dir)
    return TrainResult(run_dir=run_dir, adapter_dir=run_dir / "adapter", report=report)


def evaluate(model: str | None = None, tasks: Sequence[str] = ("heldout",),
             adapter: str | Path | None = None, output_dir: str | Path = "runs/eval",
             limit: int | None = None, settings: Any = None, **kwargs: Any) -> dict[str, Any]:
    """Evaluate as `rlvr eval`: `tasks` are registered task names (`rlvr eval --list`), or
    `heldout` with the `adapter` of a task run (its own held-out rows, base vs adapter,
    `rlvr.eval.run_heldout.eval_heldout`). The command's checks run first
    (`rlvr.eval.request.check_request`), before any model loads.

    Args:
        settings: an `rlvr.eval.settings.EvalSettings`; None = one built from `limit` and
            the `kwargs` among its fields (num_samples, temperature, batch_size, seed,
            max_new_tokens, engine, dtype).
        kwargs: those fields, and num_fewshot, data_dir, task_paths ({task: file}) and
            data_source (as the flags of the same names).
    Returns:
        {"heldout": summary} and/or the `run_eval` results dict (its `tasks`, `meta`, ...).
    Raises:
        RlvrError: an unknown task or keyword, `heldout` without a task run's adapter, bad
            settings (the command's one-line messages).
    """
    import dataclasses

    from rlvr.errors import RlvrError
    from rlvr.eval.request import check_request, evaluate as run_request
    from rlvr.eval.settings import EvalSettings

    fields = {f.name for f in dataclasses.fields(EvalSettings)}
    request_keys = ("num_fewshot", "data_dir", "task_paths", "data_source")
    unknown = sorted(set(kwargs) - fields - set(request_keys))
    if unknown:
        raise RlvrError(f"evaluate() got unknown keyword(s) {', '.join(unknown)}; known: "
                        f"{', '.join(sorted(fields | set(request_keys)))}")
    if settings is None:
        settings = EvalSettings(limit=limit, **{k: v for k, v in kwargs.items() if k in fields})
    elif limit is not None or set(kwargs) & fields:
        raise RlvrError("evaluate(): pass either settings= or its fields (limit, num_samples, "
                        "...), not both")
    request = {k: kwargs[k] for k in request_keys if k in kwargs}
    names = list(tasks)
    paths = check_request(names, settings, model=model, adapter=adapter,
                          num_fewshot=request.get("num_fewshot"),
                          data_dir=request.get("data_dir"),
                          task_paths=request.get("task_paths") or {}, output_dir=output_dir)
    return run_request(names, settings, model=model, adapter=adapter, output_dir=output_dir,
                       num_fewshot=request.get("num_fewshot"), data_dir=request.get("data_dir"),
                       task_paths=paths, data_source=request.get("data_source", "auto"))


def score(reward: str, rows: list[dict[str, Any]], preset: str | None = None,
          on_error: str = "raise", **params: Any) -> list:
    """Score rows (`completion` plus the reward's fields) with a registered reward, as
    `rlvr score`; returns one `rlvr.rewards.RewardResult` (score, outcome, details) per row.
    Raises: RlvrError as `rlvr.rewards.score_rows` (a bad row names its number)."""
    from rlvr.rewards import score_rows

    return score_rows(reward, rows, preset, on_error=on_error, **params)


def compare(config: str | Path | None, arms: Sequence[str], seeds: Sequence[int] = (0, 1, 2),
            output_dir: str | Path = "runs/compare", **overrides: Any) -> dict[str, Any]:
    """Train every arm with every seed on one held-out set and summarise, as
    `rlvr compare` (resumable); returns the compare.json summary (with its `answer`).
    Raises: ConfigError (an unknown arm, a config an arm makes invalid), as a run."""
    from rlvr.train.compare_arms import run_compare

    return run_compare(None if config is None else str(config), list(arms), list(seeds),
                       overrides, output_dir)


def export(run_dir: str | Path | None, out_dir: str | Path, *, adapter: str | Path | None = None,
           model: str | None = None, dtype: str = "float32", force: bool = False) -> Path:
    """Merge a run's LoRA adapter into its base model and save a folder that plain
    transformers loads (`AutoModelForCausalLM.from_pretrained(out_dir)`), as `rlvr export
    RUN_DIR --merge OUT_DIR`; returns `out_dir`.

    Args: as `rlvr.train.export.plan_export` (`adapter` instead of `run_dir` for any PEFT
        adapter folder; `dtype` float32 | bfloat16 | float16; `force` replaces an earlier
        export).
    Raises: RlvrError with the command's one-line message (a missing run, adapter or base
        model, a non-empty `out_dir` without `force`, too little disk), before any model
        loads.
    """
    from rlvr.train.export import export_merged, plan_export

    plan = plan_export(None if run_dir is None else str(run_dir), str(out_dir),
                       adapter=None if adapter is None else str(adapter), model=model,
                       dtype=dtype, force=force)
    export_merged(plan)
    return Path(out_dir)
