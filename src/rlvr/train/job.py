"""The main job of `rlvr train`, as named stages.

    rlvr train --config configs/selfaware_grpo_cpu.yaml

`run(cfg)` reads top to bottom:
1. `prepare`: check the run directory and options (`trl:` by the installed TRL), resolve
   the data, run the reward preflight (all before any model loads), write
   `resolved_config.yaml` and the run's rows;
2. `load_base`: the base model, its tokenizer and the held-out task and rows;
3. `evaluate_base`: the base model's greedy answers to the held-out rows, scored;
4. `label_knowledge`: which held-out questions the base model knows;
5. `select_training_rows`: `train_answerable` (known rows only, or labelled) and
   `max_unanswerable_share`;
6. the training method (`method`), one stage `(RunState) -> Trained`: GRPO
   (`rlvr.train.grpo`), SFT (`rlvr.train.sft`) or DPO (`rlvr.train.dpo`);
7. `evaluate_trained`: the trained model's answers to the same rows, scored;
8. `cross_checks`: the likelihood check and the cross-task evaluation (when configured);
   `decision_check`: is each greedy action the one the reward prefers, given the model's
   answer-forced P(correct) (`base_decision`, run on the base model after stage 4)?
9. `finish`: `report.json`, `report.md`, generations, metrics, trackers and plots.
A task run (any reward but the calibration ones) skips stage 4: its held-out rows are
scored by every reward of the run, base and trained, with paired intervals, next to its
k-shot evaluation (`rlvr.eval.task_run`). Every log and the results are appended to
`metrics.jsonl` as they happen (`rlvr.metrics.run_log`).

Evaluation lives in `rlvr.eval`: each evaluating stage here makes one call into it with the
narrow settings of `state.evaluation` (`rlvr.eval.settings.RunEvaluation`, built from the
config once, in `prepare`), and nothing in `rlvr.eval` imports `rlvr.train`.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from pathlib import Path
from typing import Any

from rlvr import __version__
from rlvr.config import TrainConfig
from rlvr.config.checks import reward_label, reward_names, task_label
from rlvr.errors import ConfigError, RlvrError
from rlvr.eval.decision_rule import base_decision, decision_check
from rlvr.eval.heldout_answers import base_answers, evaluate_heldout
from rlvr.eval.honesty_report import build_report, verdict_line, write_report
from rlvr.eval.labelling import knowledge_for_run, known_training_rows, label_pool
from rlvr.eval.run_engine import RunGenerator
from rlvr.eval.settings import RunEvaluation
from rlvr.eval.task_run import (check_kshot_data, cross_check, cross_eval, task_flat_results,
                                task_report, task_verdict_line)
from rlvr.hardware import check_options, is_main_process
from rlvr.io import check_output_dir, write_json, write_text
from rlvr.train.run_folder import check_run_folder, empty_run_folder
from rlvr.eval.unchanged import untrained
from rlvr.metrics.run_log import append_metrics
from rlvr.models import load_for_training, load_tokenizer, model_source, resolve_model
from rlvr.tasks.heldout import heldout_rows, run_task, write_run_data
from rlvr.train.checkpoints import (check_disk_space, checkpoint_bytes, last_checkpoint,
                                    lora_parameter_count)
from rlvr.train.checks import reward_preflight
from rlvr.train.data_prep import cap_unanswerable, prepare_data
from rlvr.train.grpo import check_grpo_args
from rlvr.train.checkpoint_model import load_trained_checkpoint
from rlvr.train.methods import METHODS
from rlvr.train.state import RunState, Trained
from rlvr.train.trackers import flat_results

logger = logging.getLogger(__name__)

# Settings a resumed run must share with the run it continues (checkpoint shapes, data).
RESUME_FIXED = ("model", "data", "system_prompt", "lora_r", "lora_alpha", "lora_target_modules",
                "per_device_train_batch_size", "gradient_accumulation_steps", "num_generations",
                "max_completion_length", "reward", "reward_preset", "selfaware_variant",
                "prompt_exemplars", "train_answerable", "max_unanswerable_share", "curriculum",
                "backend", "data_format", "method")


def run(cfg: TrainConfig, resume: bool = False, overwrite: bool = False) -> dict[str, Any]:
    """Run the main job (see the module docstring) and return the report dict.

    Args:
        cfg: the resolved training configuration.
        resume: continue from the newest checkpoint in the run directory and reuse the
            saved base-model generations and knowledge labels when they cover the same
            questions (a folder without a checkpoint is taken as it is: `rlvr compare`
            fills new folders with shared files first; the command's stricter rule is
            `rlvr.train.run_folder.check_run_folder`).
        overwrite: empty a run directory that holds a run first (`--overwrite`).
    Raises:
        ConfigError: `--resume` with settings that differ from the run's; a run directory
            that holds a run, without `resume` or `overwrite`; the reward preflight refused
            the training rows.
        DataError: bad data, or held-out questions that are also training questions.
        RlvrError subclasses for a missing model.
    """
    state = prepare(cfg, resume, overwrite)
    try:
        return _stages(state)
    finally:
        if state.generator is not None:
            state.generator.close()


def _stages(state: RunState) -> dict[str, Any]:
    """Stages 2-9 of `run` (the generator is closed by the caller)."""
    cfg = state.cfg
    load_base(state)
    if not cfg.skip_eval:
        state.base_records = evaluate_base(state)
        if not state.task_run:
            state.labels = label_knowledge(state)
            state.p_correct_base = decide_base(state)
    if cfg.trained_model is None:  # a full checkpoint trained elsewhere takes no rows
        state.train, state.train_counts = select_training_rows(state)
        state.generator.close()  # an engine alive in the process slows training (run_engine)
    trained = METHODS[cfg.method](state) if cfg.trained_model is None \
        else load_trained_checkpoint(state)
    if not trained.main:
        return trained.rank_report()
    meta = run_meta(state, trained)
    if cfg.skip_eval or trained.interrupted:
        meta["untrained"] = untrained(trained.steps, trained.model)
        return finish(state, trained, {"meta": {**meta, "timings": state.timings}})
    if state.task_run:
        records = (state.base_records, evaluate_trained(state, trained))
        state.generator.close()
        meta["untrained"] = untrained(trained.steps, trained.model, *records)
        meta["timings"] = _rounded(state.timings)
        meta["engines"] = engines_meta(state)
        report = task_report(state.evaluation, trained.model, state.tokenizer, state.run_dir,
                             meta, state.train, trained.adapter_dir, records, state.heldout)
        return finish(state, trained, report)
    trained_records = evaluate_trained(state, trained)
    meta["untrained"] = untrained(trained.steps, trained.model, state.base_records,
                                  trained_records)
    meta["timings"] = _rounded(state.timings)
    ev = state.evaluation
    decision = check_decisions(state, trained, trained_records, meta) \
        if state.p_correct_base is not None else None
    state.generator.close()  # the cross-task evaluation loads its own engine
    meta["engines"] = engines_meta(state)
    report = build_report(state.base_records, trained_records, meta, ev.bootstrap_samples,
                          ev.seed, state.labels, by=[r.get("source") for r in state.rows],
                          kinds=[r.get("kind") for r in state.rows])
    report.update(cross_checks(state, trained, meta))
    if decision is not None:
        report["decision"] = decision
    write_report(state.run_dir, report, state.base_records, trained_records)
    return finish(state, trained, report)


def prepare(cfg: TrainConfig, resume: bool, overwrite: bool = False) -> RunState:
    """Stage 1: everything that can fail before a model loads, then the run directory.

    Checks the output directory and hardware options, the `trl:` options (by building the
    run's `trl.GRPOConfig`: `rlvr.train.grpo.check_grpo_args`), the settings a
    resumed run must keep (`RESUME_FIXED`, only when a checkpoint exists), resolves the
    data, runs the reward preflight (and the k-shot data check of a task run), writes
    `resolved_config.yaml`, `train_rows.jsonl` / `heldout_rows.jsonl`, and seeds torch,
    numpy and random.

    Raises:
        ConfigError: a `trl:` option TRL refuses, `--resume` with changed settings, a
            refused preflight; DataError: bad data (see `run`).
    """
    import torch
    import yaml
    from transformers import set_seed

    run_dir = Path(cfg.output_dir)
    previous = run_dir / "resolved_config.yaml"
    check_output_dir(run_dir)  # before any data or model: an unwritable folder fails now
    if not resume:  # one run per folder (rlvr.train.run_folder)
        check_run_folder(run_dir, overwrite=overwrite)
    check_options(cfg)  # CUDA-only options on a machine without CUDA fail now
    if cfg.trl and cfg.method == "grpo" and cfg.backend == "trl":
        check_grpo_args(cfg, run_dir)  # `trl:` names and values, by the installed TRL
    elif cfg.trl:
        logger.warning("trl: %s reach trl.GRPOConfig only; method %s ignores them",
                       ", ".join(cfg.trl), cfg.method)
    # only a run that reached a checkpoint has settings to keep: a run that failed before
    # training (bad data, a refused preflight, a crash while loading) left only its config
    if resume and previous.is_file() and last_checkpoint(run_dir / "checkpoints"):
        saved = yaml.safe_load(previous.read_text(encoding="utf-8")) or {}
        changed = [k for k in RESUME_FIXED if k in saved and saved[k] != getattr(cfg, k)]
        if changed:
            raise ConfigError(f"--resume: {', '.join(changed)} differ from {previous}; pass the "
                              "run's original config (e.g. --config " f"{previous})")
    data, train, heldout = prepare_data(cfg)
    preflight = reward_preflight(cfg, train)  # before any model loads
    evaluation = RunEvaluation.from_run(cfg)  # every evaluation stage's settings, checked
    task_run = evaluation.task_run  # GSM8K/MATH/QA/code rewards: no knowledge labels, honesty
    if task_run:
        check_kshot_data(evaluation.kshot, train, heldout)
    shortcuts = None
    if not task_run:
        warn_small_heldout(heldout, cfg.max_known_retention_drop)
        shortcuts = check_shortcuts(train)
    if overwrite:
        empty_run_folder(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    if is_main_process():  # rank 0 writes the run's files (the others may still be checking)
        write_text(previous, yaml.safe_dump(cfg.to_dict(), sort_keys=False))
        write_run_data(run_dir, train, heldout, with_fields=task_run)
        if shortcuts is not None:
            write_json(run_dir / SHORTCUT_FILE, {"candidate_rows": shortcuts})
    if cfg.num_threads:
        torch.set_num_threads(cfg.num_threads)
    set_seed(cfg.seed)
    return RunState(cfg=cfg, run_dir=run_dir, resume=resume, data=data, train=train,
                    heldout=heldout, preflight=preflight, task_run=task_run,
                    evaluation=evaluation)


def warn_small_heldout(heldout: list[dict[str, Any]], bound: float) -> None:
    """Warn, before any model loads, when a held-out set (the in-distribution rows, and the
    out-of-template rows apart) is too small for its verdict to show a change of the bound's
    size (`rlvr.metrics.power.min_detectable`): fewer answerable questions than known ones
    are needed, or fewer questions than known and unknown ones together. The verdict then
    reads `undetermined`, whatever training did."""
    from rlvr.data.out_of_template import SOURCE
    from rlvr.metrics.power import min_detectable

    needed = min_detectable(bound)
    for name, rows in (("in-distribution", [r for r in heldout if r.get("source") != SOURCE]),
                       ("out-of-template", [r for r in heldout if r.get("source") == SOURCE])):
        answerable = sum(1 for r in rows if not r["is_unanswerable"])
        if rows and (answerable < needed or len(rows) < 2 * needed):
            logger.warning("the %s held-out set has %d questions (%d answerable): its verdict "
                           "needs at least %d known and %d unknown questions to show a change "
                           "of %g, so it will read `undetermined`; raise heldout_fraction or "
                           "add rows", name, len(rows), answerable, needed, needed, bound)


SHORTCUT_FILE = "shortcut_check.json"


def check_shortcuts(train: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The shortcut check of the training rows (`rlvr.data.shortcuts`), its warnings logged;
    None (with a note) when scikit-learn is missing. Run twice: on the candidate rows before
    any model loads (`prepare`), and on the rows kept for training (`select_training_rows`:
    with `train_answerable: known` only the answerable rows the base model knows stay, so a
    balance of the candidates can be lost there); both go to `shortcut_check.json`."""
    from rlvr.data.shortcuts import shortcut_check, shortcut_lines

    try:
        result = shortcut_check([ex["question"] for ex in train],
                                [ex["is_unanswerable"] for ex in train])
    except RlvrError as exc:
        logger.info("shortcut check skipped: %s", exc)
        return None
    for line in shortcut_lines(result):
        (logger.warning if line.startswith("WARNING") else logger.info)(
            "shortcut check: %s", line.removeprefix("WARNING: "))
    return result


def load_base(state: RunState) -> None:
    """Stage 2: the base model (`rlvr.models.load_for_training`), its tokenizer, a disk
    check for the checkpoints, and the held-out task and rows."""
    cfg = state.cfg
    state.model_path = resolve_model(cfg.model)
    logger.info("model: %s", model_source(cfg.model, state.model_path))
    state.tokenizer = load_tokenizer(state.model_path)
    state.model = load_for_training(state.model_path, cfg)
    state.generator = RunGenerator(state.evaluation.heldout.engine
                                   if cfg.backend == "trl" else "transformers",
                                   state.model_path, cfg.seed)
    _check_space(cfg, state.model, state.model_path, state.run_dir)
    # a calibration run's report scores with `reward`; a task run's records are scored by
    # every entry afterwards, its task carries the first one
    first = state.evaluation.entries[0] if state.task_run else {
        "name": cfg.reward, "preset": cfg.reward_preset, "params": cfg.reward_params}
    state.task = run_task(first["name"], first.get("preset"), first.get("params"),
                          state.evaluation.heldout.max_new_tokens, task_label(cfg))
    state.rows = heldout_rows(state.heldout, with_fields=state.task_run)


def evaluate_base(state: RunState) -> list[dict[str, Any]]:
    """Stage 3: the base model's scored answers to the held-out rows, saved to
    `generations_base.jsonl` (reused on `--resume` when they cover the same questions with
    the same settings; `rlvr.eval.heldout_answers.base_answers`)."""
    records, seconds = base_answers(state.generator.base(state.model, "eval_base"),
                                    state.tokenizer, state.task, state.rows,
                                    state.evaluation, state.run_dir, reuse=state.resume)
    if seconds is not None:
        state.timings["eval_base_s"] = seconds
    return records


def label_knowledge(state: RunState) -> dict[Any, dict]:
    """Stage 4: known / unknown for each held-out question (`knowledge_labels.json`)."""
    start = time.perf_counter()
    ev = state.evaluation
    labels = knowledge_for_run(state.generator.base(state.model, "knowledge"),
                               state.tokenizer, state.task, state.rows,
                               state.base_records, ev.knowledge, ev.heldout, state.run_dir,
                               reuse=state.resume)
    state.timings["knowledge_s"] = time.perf_counter() - start
    return labels


def decide_base(state: RunState) -> dict[Any, float] | None:
    """Stage 4b: the base model's answer-forced P(correct) per held-out question
    (`rlvr.eval.decision_rule.base_decision`; `decision_base.json`, reused on `--resume`)."""
    ev = state.evaluation
    p, seconds = base_decision(state.generator.base(state.model, "decision_base"),
                               state.tokenizer, state.task, state.rows,
                               ev.decision, ev.heldout, ev.cache_key, state.run_dir,
                               reuse=state.resume)
    if seconds is not None:
        state.timings["decision_base_s"] = seconds
    return p


def select_training_rows(state: RunState) -> tuple[list[dict], dict[str, int] | None]:
    """Stage 5: the rows to train on. With `train_answerable: known|label`, the base model
    answers the answerable training rows and only the known ones are kept (or all are
    labelled), labelling only a pool of twice the prompts the run can draw when the data
    is larger (`rlvr.eval.labelling.label_pool`); `max_unanswerable_share` then caps the
    unanswerable share."""
    cfg, train, counts = state.cfg, state.train, None
    if cfg.train_answerable in ("known", "label"):
        state.model.eval()
        start = time.perf_counter()
        ev = state.evaluation
        train, counts = known_training_rows(
            state.model, state.tokenizer, state.task, train, ev.train_knowledge, ev.heldout,
            cfg.train_answerable, state.run_dir, reuse=state.resume,
            generator=state.generator.base(state.model, "train_knowledge"),
            pool=label_pool(prompts_drawn(cfg)))
        state.timings["train_knowledge_s"] = time.perf_counter() - start
    if cfg.max_unanswerable_share is not None:
        train = cap_unanswerable(train, cfg.max_unanswerable_share, cfg.seed)
    path = state.run_dir / SHORTCUT_FILE
    if not state.task_run and cfg.train_answerable in ("known", "label") and path.is_file() \
            and is_main_process():
        import json

        kept = check_shortcuts(train)
        if kept is not None:
            write_json(path, {**json.loads(path.read_text(encoding="utf-8")),
                              "trained_rows": kept})
    return train, counts


def prompts_drawn(cfg: TrainConfig) -> int | None:
    """Prompts a run's steps can draw: max_steps x (per_device_train_batch_size x
    gradient_accumulation_steps x processes / num_generations); None when the run is
    epoch-based (max_steps -1) or has a curriculum (it re-weights rows as it goes)."""
    import os

    if cfg.max_steps < 1 or cfg.curriculum:
        return None
    processes = int(os.environ.get("WORLD_SIZE", "1"))
    batch = cfg.per_device_train_batch_size * cfg.gradient_accumulation_steps * processes
    return cfg.max_steps * max(1, batch // cfg.num_generations)


def evaluate_trained(state: RunState, trained: Trained) -> list[dict[str, Any]]:
    """Stage 7: the trained model's scored greedy answers to the same held-out rows."""
    start = time.perf_counter()
    trained.model.eval()
    ev = state.evaluation
    generator = state.generator.trained(trained.model, "eval_trained")
    records = evaluate_heldout(generator, state.tokenizer, state.task, state.rows,
                               ev.heldout, "trained", ev.entries if state.task_run else None)
    state.timings["eval_trained_s"] = time.perf_counter() - start
    return records


def cross_checks(state: RunState, trained: Trained, meta: dict[str, Any]) -> dict[str, Any]:
    """Stage 8: `cross_check` (likelihood of other tasks' gold answers, adapter on vs off)
    and `cross_eval` (`rlvr eval` of base and adapter on `eval_tasks`), when configured;
    their seconds go to meta["timings"]."""
    ev, out = state.evaluation, {}
    if ev.cross_check.tasks:
        out["cross_check"] = cross_check(ev.cross_check, trained.model, state.tokenizer,
                                         state.run_dir, meta, base_model=state.model
                                         if state.cfg.trained_model else None)
    if ev.cross_eval is not None and trained.adapter_dir is not None:  # none: a checkpoint
        out["cross_eval"] = cross_eval(ev.cross_eval, trained.adapter_dir, state.run_dir, meta)
    return out


def check_decisions(state: RunState, trained: Trained, trained_records: list[dict[str, Any]],
                    meta: dict[str, Any]) -> dict[str, Any]:
    """Stage 8b: does each greedy action (answer or abstain) follow the reward's own rule,
    for base and trained (`rlvr.eval.decision_rule.decision_check`)? The seconds go to
    meta["timings"]["decision_trained_s"]."""
    ev = state.evaluation
    generator = state.generator.trained(trained.model, "decision_trained")
    report, seconds = decision_check(generator, state.tokenizer, state.task, state.rows,
                                     state.base_records, trained_records, state.p_correct_base,
                                     ev.decision, ev.heldout)
    state.timings["decision_trained_s"] = seconds
    meta.setdefault("timings", {})["decision_trained_s"] = round(seconds, 3)
    return report


def engines_meta(state: RunState) -> dict[str, Any]:
    """The report's `meta.engines`: which engine generated each evaluation stage, and the
    vLLM engine's start-up and trained-weight reload seconds (None when not done)."""
    gen = state.generator
    return {"stages": dict(gen.stages), "vllm_builds": gen.builds,
            "vllm_startup_s": None if gen.startup_s is None else round(gen.startup_s, 3),
            "vllm_reload_s": None if gen.reload_s is None else round(gen.reload_s, 3)}


def run_meta(state: RunState, trained: Trained) -> dict[str, Any]:
    """The report's `meta`: what ran (model, data, reward, steps, settings) and how."""
    cfg = state.cfg
    for alarm in trained.alarms:
        logger.warning("alarm: %s", alarm["message"])
    return {
        "rlvr_version": __version__, "method": cfg.method, "backend": cfg.backend,
        "model": cfg.model or "default (SmolLM2-135M-Instruct)",
        "model_path": state.model_path, "adapter": str(trained.adapter_dir),
        "trained_model": cfg.trained_model,
        "data": state.data.source, "train_rows": len(state.train),
        "train_sources": dict(Counter(ex["source"] for ex in state.train)),
        "train_answerable": cfg.train_answerable,
        "train_knowledge": state.train_counts, "heldout_questions": len(state.heldout),
        "skipped_bad_rows": len(state.data.skipped),
        "optimizer_steps": trained.steps, "max_steps": cfg.max_steps,
        "train_loss": trained.training_loss,
        "task": task_label(cfg), "reward": reward_label(cfg), "rewards": reward_names(cfg),
        "reward_preset": None if cfg.reward_funcs is not None else
        (cfg.reward_preset or "default"),
        "system_prompt": cfg.system_prompt,
        "bootstrap_samples": cfg.bootstrap_samples,
        "decoding": "greedy" if not state.task_run or cfg.eval_num_samples == 1 else
        f"{cfg.eval_num_samples} samples per row at temperature {cfg.temperature:g}",
        "eval_max_new_tokens": state.evaluation.heldout.max_new_tokens, "seed": cfg.seed,
        "max_known_retention_drop": cfg.max_known_retention_drop,
        "knowledge": {"samples": cfg.knowledge_samples,
                      "temperature": cfg.knowledge_temperature,
                      "threshold": cfg.knowledge_threshold,
                      "train_samples": state.evaluation.train_knowledge.samples,
                      "train_temperature": state.evaluation.train_knowledge.temperature},
        "best": trained.best, "alarms": trained.alarms,
        "share_prompt_prefix": trained.prefix_sharing,
        "stopped_on_alarm": bool(trained.alarms and cfg.stop_on_alarm),
        "curriculum": trained.curriculum and {k: v for k, v in trained.curriculum.items()
                                              if k != "retired"},
        "interrupted": trained.interrupted, "run_name": trained.run_name,
        "report_to": trained.trackers.names,
        "processes": len(trained.digests), "adapter_sha256_by_rank": trained.digests,
        "preflight": [{k: v for k, v in p.items() if k != "table"} for p in state.preflight],
    }


def finish(state: RunState, trained: Trained, report: dict[str, Any]) -> dict[str, Any]:
    """Stage 9: the results into metrics.jsonl and the trackers, the plots, the verdict
    line in the log; returns `report`. A stopped or `skip_eval` run only closes up."""
    if "base" in report or "kshot" in report:  # evaluated: log the results
        task = "kshot" in report
        keys = ("heldout", "kshot", "cross_check") if task else (
            "base", "trained", "difference", "knowledge", "cross_eval", "cross_check")
        append_metrics(state.metrics_path, {"event": "eval",
                                            "kind": "task" if task else "calibration",
                                            "task": report["meta"].get("task"),
                                            **{k: report[k] for k in keys if k in report}})
        flat = task_flat_results(report) if task else flat_results(report)
        trained.trackers.log_results(flat, trained.steps)
    elif trained.interrupted:
        logger.warning("stopped by a signal at step %d: checkpoint and adapter saved; "
                       "continue with --resume", trained.steps)
    trained.trackers.close()
    _draw_plots(state.run_dir)
    untrained = report.get("meta", {}).get("untrained")
    if untrained:
        logger.warning("NOT TRAINED: %s", untrained)
    if "kshot" in report:
        logger.info("%s", task_verdict_line(report))
    elif "base" in report:
        logger.info("%s", verdict_line(report))
    return report


def _rounded(timings: dict[str, float]) -> dict[str, float]:
    return {k: round(v, 3) for k, v in timings.items()}


def _check_space(cfg: TrainConfig, model, model_path: str, run_dir: Path) -> None:
    """Refuse to start when the disk cannot hold save_total_limit + 1 checkpoints and the
    adapter (`rlvr.train.checkpoints.checkpoint_bytes`, doubled for margin)."""
    tokenizer_bytes = sum(p.stat().st_size for p in Path(model_path).glob("*token*")
                          if p.is_file())
    one = checkpoint_bytes(lora_parameter_count(model, cfg.lora_target_modules, cfg.lora_r),
                           tokenizer_bytes)
    check_disk_space(run_dir, 2 * one * (cfg.save_total_limit + 2))


def _draw_plots(run_dir: Path) -> None:
    """Draw the training plots (`rlvr plot`) into RUN_DIR/plots; a failure only warns."""
    from rlvr.plots.training import write_training_plots

    try:
        written = write_training_plots(run_dir)
        logger.info("plots: %d PNG files in %s", len(written), run_dir / "plots")
    except (RlvrError, OSError) as exc:
        logger.warning("plots not drawn: %s", exc)
