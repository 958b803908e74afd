"""The evaluation and report of a task run of `rlvr train` (GSM8K, MATH, QA, code rewards).

A task run (`rlvr.config.reward_setup.is_task_run`: no calibration reward) has no
knowledge labels and no honesty report; after training, `task_report` (with the run's
`rlvr.eval.settings.RunEvaluation`):
- with `kshot_eval` (GSM8K rewards), evaluates base and trained on the GSM8K test split
  at each shot count (`rlvr.eval.kshot`; exemplars from the train split), writing
  `kshot.json`, `kshot.md`, `kshot.png` and `kshot_samples.jsonl` into the run directory;
- with `eval_tasks`, runs the cross-task evaluation on the saved adapter, as a
  calibration run does;
- writes `report.json` (`meta`, `kshot`, `cross_eval`) and `report.md`.
`check_kshot_data` runs before any model loads: the GSM8K rows and exemplars resolve,
and no k-shot test question is a training question.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any, Sequence

from rlvr.eval.settings import CrossCheckSettings, CrossEvalSettings, KshotSettings, RunEvaluation
from rlvr.io import write_json, write_text
from rlvr.tasks.heldout import check_overlap, normalise_question

logger = logging.getLogger(__name__)


def _gsm8k_rows(examples: Sequence[dict]) -> list[dict]:
    """Examples that carry GSM8K fields (`final_answer`, worked `solution`) as k-shot rows
    (`rlvr.data.loaders.gsm8k_row`); [] when any lacks them."""
    from rlvr.data.loaders import gsm8k_row

    fields = [ex.get("fields") or {} for ex in examples]
    if not examples or not all("final_answer" in f and "####" in str(f.get("solution", ""))
                               for f in fields):
        return []
    return [gsm8k_row(ex["question"], str(f["solution"]), ex.get("id", i))
            for i, (ex, f) in enumerate(zip(examples, fields))]


def _kshot_inputs(kshot: KshotSettings, train: Sequence[dict], heldout: Sequence[dict]):
    """The k-shot test rows, exemplar pool and sources: the run's own held-out and training
    rows when they are GSM8K-format rows other than GSM8K itself (`data: arithmetic`, a
    user's file), else GSM8K's test and train splits."""
    from rlvr.eval.kshot import exemplar_order, kshot_data

    rows, pool = (_gsm8k_rows(heldout), _gsm8k_rows(train)) if kshot.data != "gsm8k" else ([], [])
    if rows and pool:
        rows = rows[:kshot.limit] if kshot.limit is not None else rows
        sources = {"data_source": "the run's held-out rows", "fewshot_source":
                   "the run's training rows"}
    else:
        rows, pool, sources = kshot_data(kshot.limit, kshot.data_dir)
    check_overlap(rows, {normalise_question(ex["question"]) for ex in train},
                  f"kshot_eval ({sources['data_source']})",
                  "train on rows that are not GSM8K test questions (the k-shot evaluation "
                  "uses the test split), or set kshot_eval: null")
    exemplar_order(pool, max(kshot.shots), kshot.seed, rows)  # enough exemplars
    return rows, pool, sources


def check_kshot_data(kshot: KshotSettings | None, train: Sequence[dict],
                     heldout: Sequence[dict] = ()) -> None:
    """With `kshot_eval` (`kshot` not None): the test rows and exemplars resolve (`_kshot_inputs`), there are
    enough exemplars, and no test question is a training question (before any model
    loads).

    Raises:
        DataError: no GSM8K source, too few exemplars, or overlap (with the count).
    """
    if kshot is not None:
        _kshot_inputs(kshot, train, heldout)


def task_report(ev: RunEvaluation, model, tokenizer, run_dir: str | Path, meta: dict[str, Any],
                train: Sequence[dict], adapter_dir: str | Path | None = None,
                records: tuple[Sequence[dict], Sequence[dict]] | None = None,
                heldout: Sequence[dict] = ()) -> dict[str, Any]:
    """Evaluate a task run after training and write report.json / report.md.

    Args:
        ev: the run's evaluation settings (`RunEvaluation.from_run`).
        model: the trained PEFT model (`trainer.model`); its base is the same model with
            the adapter disabled. tokenizer: the run's tokenizer.
        meta: the run's meta dict (as `rlvr.train.job.run` builds it); `timings` gains
            `kshot_s`.
        train, heldout: the training and held-out examples (k-shot questions come from the
            held-out ones for GSM8K-format data other than GSM8K, `_kshot_inputs`; they must
            not be training questions).
        adapter_dir: the saved adapter; with `eval_tasks`, the cross-task evaluation of
            `rlvr eval` runs on it as in a calibration run (`report["cross_eval"]`).
        records: (base, trained) held-out records scored by every reward entry
            (`rlvr.eval.heldout_answers.evaluate_heldout`): the trained ones go to
            generations_trained.jsonl and both into `report["heldout"]`
            (`rlvr.eval.task_heldout.heldout_summary`).
    Returns:
        {"meta", "heldout" (or None), "kshot" (or None)[, "cross_check"][, "cross_eval"]}:
        the report also
        written to report.json; "cross_check" (with `cross_check` tasks) is the likelihood
        check of `rlvr.eval.cross_check`, as in a calibration run (`ev.cross_check.tasks`).
    """
    from rlvr.eval.kshot import kshot_eval

    run_dir = Path(run_dir)
    report: dict[str, Any] = {"meta": meta, "heldout": None, "kshot": None}
    if records is not None and records[0]:
        from rlvr.eval.task_heldout import heldout_summary
        from rlvr.io import write_jsonl

        write_jsonl(run_dir / "generations_trained.jsonl", records[1])
        report["heldout"] = heldout_summary(records[0], records[1], list(ev.entries),
                                            num_samples=ev.heldout.num_samples,
                                            bootstrap_samples=ev.bootstrap_samples,
                                            seed=ev.seed)
    kshot = ev.kshot
    if kshot is not None:
        rows, pool, sources = _kshot_inputs(kshot, train, heldout)
        start = time.perf_counter()
        report["kshot"] = kshot_eval(
            model, tokenizer, list(kshot.shots), kshot.limit, output_dir=run_dir,
            seed=kshot.seed, batch_size=kshot.batch_size,
            max_new_tokens=kshot.max_new_tokens, bootstrap_samples=kshot.bootstrap_samples,
            rows=rows, pool=pool, sources=sources)
        meta.setdefault("timings", {})["kshot_s"] = round(time.perf_counter() - start, 3)
    if ev.cross_check.tasks:
        report["cross_check"] = cross_check(ev.cross_check, model, tokenizer, run_dir, meta)
    if ev.cross_eval is not None and adapter_dir is not None:
        report["cross_eval"] = cross_eval(ev.cross_eval, adapter_dir, run_dir, meta)
    write_task_report(run_dir, report)
    return report


def cross_check(settings: CrossCheckSettings, model, tokenizer, run_dir: str | Path,
                meta: dict[str, Any], base_model=None) -> dict[str, Any]:
    """The likelihood cross-task check (`rlvr.eval.cross_check.likelihood_check`) of the
    trained PEFT `model` against itself with the adapter off (or, for a full checkpoint,
    against `base_model`), on `settings.tasks`,
    rows into RUN_DIR/cross_check_rows.jsonl; the seconds go to
    meta["timings"]["cross_check_s"]. Used by calibration and task runs alike. Under a
    budget (`check_budget`), rows per task are sized to it first (`size_cross_check`);
    the sizing goes to the result's meta["budget"]."""
    from rlvr.eval.cross_check import likelihood_check

    start = time.perf_counter()
    limit, sizing = settings.limit, None
    budget = check_budget(settings, meta)
    if budget is not None:
        limit, sizing = size_cross_check(settings, model, tokenizer, budget, base_model)
    tasks = [t for t in settings.tasks if not sizing or t not in sizing["skipped"]]
    result = likelihood_check(
        base_model, model, tokenizer, tasks, limit=limit, seed=settings.seed,
        distractors=settings.distractors,
        bootstrap_samples=settings.bootstrap_samples, data_dir=settings.data_dir,
        rows_file=Path(run_dir) / "cross_check_rows.jsonl") if tasks else {
            "meta": {}, "tasks": {}, "skipped": {}}
    if sizing:
        result["meta"]["budget"] = sizing
        result["skipped"].update(sizing["skipped"])
    meta.setdefault("timings", {})["cross_check_s"] = round(time.perf_counter() - start, 3)
    return result


MIN_CHECK_ROWS = 5  # fewer rows than this per task say nothing; the task is skipped


def check_budget(settings: CrossCheckSettings, meta: dict[str, Any]) -> float | None:
    """Seconds the cross-check may take, or None for no limit: `settings.budget_share`
    times the run's training time (seconds per step measured in this process x all
    optimizer steps, so a resumed run counts its earlier steps too). `cross_check_budget:
    auto` is `rlvr.eval.settings.TASK_RUN_BUDGET` for a task run (whose check on other
    tasks' answers is a side question) and no limit for a calibration run (where it is
    half the verdict: knowledge or willingness lost); `RunEvaluation.from_run` decides."""
    share = settings.budget_share
    per_step = (meta.get("timings") or {}).get("seconds_per_step")
    steps = meta.get("optimizer_steps")
    if share is None or per_step is None or steps is None or not per_step == per_step:
        return None  # no training measured in this process (a resume that only evaluates)
    return share * float(per_step) * int(steps)


def size_cross_check(settings: CrossCheckSettings, model, tokenizer,
                     budget: float, base_model=None) -> tuple[dict[str, int], dict[str, Any]]:
    """Rows per task that fit `budget` seconds: a probe scores 2 rows of each task (both
    models, the same distractors), its seconds per row give each task's cost, the budget
    left after the probe is shared equally, and each task gets min(its limit, what its
    share affords) rows; below `MIN_CHECK_ROWS` it is skipped with the reason.

    Returns:
        ({task: rows}, {"budget_s", "probe_s", "seconds_per_row", "rows", "skipped"}).
    """
    from rlvr.eval.cross_check import DEFAULT_ROWS, likelihood_check, per_task

    start = time.perf_counter()
    probe = likelihood_check(base_model, model, tokenizer, list(settings.tasks), limit=2,
                             seed=settings.seed, distractors=settings.distractors,
                             bootstrap_samples=10, data_dir=settings.data_dir)
    probe_s = time.perf_counter() - start
    share = max(0.0, budget - probe_s) / max(1, len(probe["tasks"]))
    rows, skipped, costs = {}, dict(probe["skipped"]), {}
    for name, r in probe["tasks"].items():
        costs[name] = sum(r["seconds"].values()) / max(1, r["n"])
        affordable = int(share // costs[name]) if costs[name] > 0 else 10 ** 6
        wanted = per_task(settings.limit, name, DEFAULT_ROWS)
        rows[name] = min(wanted, affordable)
        if affordable < min(MIN_CHECK_ROWS, wanted):
            skipped[name] = (f"over the cross-check budget: {budget:.0f} s "
                             f"({settings.budget_share:g} of the training time) affords "
                             f"{affordable} rows at {costs[name]:.1f} s per row; set "
                             "cross_check_budget: null to run it anyway")
            del rows[name]
    return rows, {"budget_s": round(budget, 1), "probe_s": round(probe_s, 1),
                  "seconds_per_row": {k: round(v, 3) for k, v in costs.items()},
                  "rows": rows, "skipped": skipped}


def cross_eval(settings: CrossEvalSettings, adapter_dir, run_dir: Path,
               meta: dict[str, Any]) -> dict[str, Any]:
    """`rlvr eval` of the base model and the adapter on `settings.tasks` (generation-based
    scores) into RUN_DIR/cross_eval; the seconds go to meta["timings"]["cross_eval_s"]."""
    from rlvr.eval.runner import run_eval

    start = time.perf_counter()
    g = settings.generation
    results = run_eval(
        settings.model, list(settings.tasks), adapter=str(adapter_dir),
        output_dir=Path(run_dir) / "cross_eval", limit=g.limit,
        batch_size=g.batch_size, data_dir=settings.data_dir, seed=g.seed,
        run_name="trained", engine=g.engine, dtype=g.dtype)
    meta.setdefault("timings", {})["cross_eval_s"] = round(time.perf_counter() - start, 3)
    return results


def task_verdict_line(report: dict[str, Any]) -> str:
    """One line: UNCHANGED first when the run changed nothing (`rlvr.eval.unchanged`), then
    the held-out rows' accuracy (else mean reward) base -> trained with the paired CI (`rlvr.eval.task_heldout.verdict_line`), then the k-shot accuracy at the
    largest shot count with its paired CI."""
    from rlvr.eval.task_heldout import verdict_line

    untrained = (report.get("meta") or {}).get("untrained")
    parts = [f"Verdict: UNCHANGED from the base model ({untrained})."] if untrained else []
    parts += [verdict_line(report["heldout"])] if report.get("heldout") else []
    if report.get("kshot"):
        parts.append(_kshot_line(report["kshot"]))
    return " ".join(parts) or ("task run: no held-out rows and no k-shot evaluation (set "
                               "eval_limit above 0 or kshot_eval for GSM8K)")


def _kshot_line(kshot: dict[str, Any]) -> str:
    """k-shot accuracy at the largest shot count, base -> trained, with the paired CI."""
    k = str(max(kshot["shots"]))
    metrics = kshot["metrics"]
    acc = {m: (metrics[m].get(k, {}).get("accuracy") or {}).get("value") for m in metrics}
    diff = (kshot.get("difference") or {}).get(k)
    text = f"{k}-shot accuracy (n={kshot['n_questions']}): base " + _pct(acc.get("base"))
    if "trained" in acc:
        text += f" -> trained {_pct(acc['trained'])}"
    if diff:
        text += (f" ({100 * diff['mean_difference']:+.1f} pp, 95% CI "
                 f"[{100 * diff['ci_low']:+.1f}, {100 * diff['ci_high']:+.1f}])")
    return text


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def task_flat_results(report: dict[str, Any]) -> dict[str, float]:
    """`heldout/<base|trained>/<metric>`, `heldout/difference/<metric>/<mean_difference|
    ci_low|ci_high>`, `kshot/<model>/<k>shot/accuracy` and `kshot/difference/<k>shot/...`
    for the trackers (`Trackers.log_results`)."""
    kshot = report.get("kshot") or {}
    flat: dict[str, float] = {}
    for metric, m in ((report.get("heldout") or {}).get("metrics") or {}).items():
        flat[f"heldout/base/{metric}"], flat[f"heldout/trained/{metric}"] = m["base"], m["trained"]
        for key in ("mean_difference", "ci_low", "ci_high"):
            flat[f"heldout/difference/{metric}/{key}"] = float(m["difference"][key])
    for model, by_k in (kshot.get("metrics") or {}).items():
        for k, m in by_k.items():
            value = (m.get("accuracy") or {}).get("value")
            if value is not None:
                flat[f"kshot/{model}/{k}shot/accuracy"] = float(value)
    for k, d in (kshot.get("difference") or {}).items():
        for key in ("mean_difference", "ci_low", "ci_high"):
            if d and d.get(key) is not None:
                flat[f"kshot/difference/{k}shot/{key}"] = float(d[key])
    return flat


def rebuild_task_report(run_dir: str | Path, bootstrap_samples: int | None = None) -> dict:
    """Rebuild a task run's report offline (`rlvr report`): its saved held-out generations
    rescored by the rewards in its `resolved_config.yaml`, the summary recomputed, the
    k-shot and cross-task sections kept from the old report.json; both files rewritten.

    Raises:
        RlvrError: a file of the run is missing (names it), or a reward cannot score a row.
    """
    import json

    import yaml

    from rlvr.errors import RlvrError
    from rlvr.eval.task_heldout import heldout_summary, score_with_entries
    from rlvr.io import read_jsonl
    from rlvr.eval.saved_run import run_entries
    from rlvr.eval.settings import run_value

    run_dir = Path(run_dir)
    needed = ["report.json", "resolved_config.yaml", "generations_base.jsonl",
              "generations_trained.jsonl"]
    missing = [n for n in needed if not (run_dir / n).is_file()]
    if missing:
        raise RlvrError(f"{run_dir}: missing {', '.join(missing)}; pass the directory of a "
                        "finished `rlvr train` run")
    old = json.loads((run_dir / "report.json").read_text(encoding="utf-8"))
    cfg = yaml.safe_load((run_dir / "resolved_config.yaml").read_text(encoding="utf-8")) or {}
    entries = run_entries(cfg)
    base, trained = (score_with_entries(read_jsonl(run_dir / f"generations_{m}.jsonl"), entries)
                     for m in ("base", "trained"))
    meta = old.get("meta", {})
    report = {**old, "heldout": heldout_summary(
        base, trained, entries, num_samples=int(run_value(cfg, "eval_num_samples")),
        bootstrap_samples=bootstrap_samples
        or meta.get("bootstrap_samples") or 2000, seed=meta.get("seed", 0))}
    write_task_report(run_dir, report)
    return report


def write_task_report(run_dir: str | Path, report: dict[str, Any]) -> dict[str, Path]:
    """Write report.json and report.md (verdict line, k-shot table, run facts)."""
    from rlvr.eval.kshot import kshot_markdown

    run_dir = Path(run_dir)
    meta = report.get("meta", {})
    md = [f"# {meta.get('task') or meta.get('reward', 'task')} "
          f"({str(meta.get('method', 'grpo')).upper()}, rewards: {meta.get('reward', '?')}): "
          "base vs trained", "",
          f"**{task_verdict_line(report)}**", ""]
    for alarm in meta.get("alarms") or []:
        md.append(f"- ALARM: {alarm['message']}")
    if report.get("heldout"):
        from rlvr.eval.task_heldout import heldout_table

        md += ["## Held-out rows: base vs trained (the run's own rewards)", "",
               heldout_table(report["heldout"]), "", "![before and after](plots/before_after.png)",
               ""]
    if report.get("kshot"):
        md += ["## Accuracy by few-shot count", "", kshot_markdown(report["kshot"]),
               "![k-shot accuracy](kshot.png)", ""]
    if report.get("cross_check"):
        from rlvr.eval.cross_check_table import cross_check_table

        md += ["## Cross-task check: likelihood of gold answers (base vs trained)", "",
               "Mean per-token log-likelihood of each task's gold continuation (nats/token); "
               "trained - base below 0 means training made those answers less likely.", "",
               cross_check_table(report["cross_check"]), ""]
    if report.get("cross_eval"):
        from rlvr.eval.results import results_table

        md += ["## Cross-task evaluation (base vs trained)", "",
               results_table(report["cross_eval"]), ""]
    md += ["## Run", ""] + [f"- {k}: {v}" for k, v in meta.items()
                            if not isinstance(v, (dict, list))] + [""]
    return {"json": write_json(run_dir / "report.json", report),
            "markdown": write_text(run_dir / "report.md", "\n".join(md))}
