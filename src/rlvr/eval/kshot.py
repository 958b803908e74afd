"""GSM8K accuracy at several few-shot counts, base against trained, with 95% intervals.

`kshot_eval` answers the same GSM8K test questions at each exemplar count in `shots`
(default 0, 2, 4, 8) with the base model and, for a PEFT model, with the trained adapter
(the base is the same model with the adapter disabled), scores every answer with the
training reward (`gsm8k_correctness`, plus `gsm8k_format` recorded), and returns per
model and shot count the accuracy with its Wilson 95% interval, and per shot count the
paired difference trained - base with a paired percentile-bootstrap 95% interval
(`rlvr.metrics.calibration.paired_bootstrap`, questions resampled). `write_kshot` writes
`kshot.json`, `kshot.md`, `kshot_samples.jsonl` and `kshot.png`.

Exemplars come from the train split only (`rlvr.tasks.sources`: a data folder's
`gsm8k/train.jsonl`, the hub's train split, or the packaged train rows): one seeded
order of the pool, of which k-shot takes the first k, so the 2 exemplars of 2-shot are
also the first 2 of 4-shot and 8-shot; every question gets the same exemplars, shown as
user/assistant turns after the GSM8K system prompt (`rlvr.tasks.registry`, task `gsm8k`).
A test question that is also an exemplar question is refused (DataError).
Source of the protocol: Cobbe et al. (2021) and Wei et al. (2022, chain-of-thought
8-shot GSM8K); lm-evaluation-harness draws exemplars per question instead.
"""

from __future__ import annotations

import contextlib
import logging
import random
from pathlib import Path
from typing import Any, Sequence

from rlvr.errors import DataError
from rlvr.tasks.heldout import normalise_question
from rlvr.metrics.calibration import paired_bootstrap
from rlvr.metrics.task_metrics import gsm8k_metrics
from rlvr.io import write_json, write_jsonl, write_text

logger = logging.getLogger(__name__)

DEFAULT_SHOTS = (0, 2, 4, 8)
KSHOT_FILE, KSHOT_MD, KSHOT_PNG, KSHOT_SAMPLES = ("kshot.json", "kshot.md", "kshot.png",
                                                  "kshot_samples.jsonl")


def kshot_data(limit: int | None, data_dir: str | None = None, data_source: str = "auto",
               resolver=None) -> tuple[list[dict], list[dict], dict[str, str]]:
    """The GSM8K test rows (first `limit`) and the train-side exemplar pool (`data_dir`
    default: `$RLVR_DATA_DIR`, as `rlvr eval`).

    Returns:
        (rows, pool, sources) with sources {"data_source", "fewshot_source"} as
        `rlvr.tasks.sources` states them.
    Raises:
        DataError: no source has the test or train rows (one line with the fix).
    """
    from rlvr.tasks.sources import DataResolver
    from rlvr.tasks.registry import get_task

    from rlvr.tasks.sources import user_data_dir

    task = get_task("gsm8k")
    data_dir = data_dir if data_dir is not None else user_data_dir()
    resolver = resolver or DataResolver(data_source, data_dir)
    test, train = resolver.rows(task), resolver.fewshot(task)
    rows = test.rows[:limit] if limit is not None else test.rows
    return rows, train.rows, {"data_source": test.source, "fewshot_source": train.source}


def exemplar_order(pool: Sequence[dict], max_shots: int, seed: int,
                   rows: Sequence[dict] = ()) -> list[dict]:
    """The first `max_shots` exemplars of a seeded shuffle of `pool` (k-shot uses the
    first k), skipping any whose question is also one of the test `rows`.

    Raises:
        DataError: the pool has fewer than `max_shots` usable exemplars.
    """
    asked = {normalise_question(r["question"]) for r in rows}
    order = [e for e in random.Random(seed).sample(list(pool), len(pool))
             if normalise_question(e["question"]) not in asked]
    if len(order) < max_shots:
        raise DataError(f"{max_shots}-shot needs {max_shots} GSM8K train exemplars, but the "
                        f"pool has {len(order)}; lower kshot_eval or pass a data folder "
                        "holding gsm8k/train.jsonl (eval_data_dir)")
    return order[:max_shots]


def _adapter_off(model, label: str):
    """The adapter disabled for the base run of a PEFT model; nothing otherwise."""
    if label == "base" and hasattr(model, "disable_adapter"):
        return model.disable_adapter()
    return contextlib.nullcontext()


def kshot_records(model, tokenizer, rows: Sequence[dict], exemplars: Sequence[dict],
                  shots: Sequence[int], settings: dict[str, Any]) -> dict[str, dict[int, list]]:
    """Answer `rows` at each shot count with the base model and, when `model` is a PEFT
    model, with the trained adapter; score with the `gsm8k` task's rewards.

    Args:
        settings: runner settings (`batch_size`, `num_samples` (1), `temperature` (0),
            `seed`, `max_new_tokens` (None = the task's 256)).
    Returns:
        {"base": {k: records}, "trained": {k: records}} (no "trained" for a plain
        model); records as `rlvr.eval.runner.generate_task_records`, each with `shots`.
    """
    from rlvr.eval.runner import generate_task_records
    from rlvr.tasks.registry import get_task

    task = get_task("gsm8k")
    labels = ["base", "trained"] if hasattr(model, "disable_adapter") else ["base"]
    out: dict[str, dict[int, list]] = {}
    was_training = getattr(model, "training", False)
    model.eval()
    try:
        for label in labels:
            out[label] = {}
            with _adapter_off(model, label):
                for k in shots:
                    records = generate_task_records(model, tokenizer, task, list(rows),
                                                    list(exemplars[:k]), settings,
                                                    f"{label} {k}-shot")
                    out[label][k] = [{**r, "model": label, "shots": k} for r in records]
    finally:
        if was_training:
            model.train()
    return out


def _correct(record: dict) -> float | None:
    return None if record.get("reward") is None else float(record["reward"] >= 1.0)


def kshot_summary(records: dict[str, dict[int, list]], bootstrap_samples: int = 2000,
                  seed: int = 0) -> dict[str, Any]:
    """Accuracy per model and shot count (Wilson 95% CI, `gsm8k_metrics`) and the paired
    bootstrap of trained - base per shot count, over questions both models could be
    scored on (a None reward, a bad gold, drops that question from the pair).

    Returns:
        {"shots": [...], "metrics": {model: {str(k): gsm8k_metrics}}, "difference":
        {str(k): paired_bootstrap dict or None}}.
    """
    shots = sorted({k for by_k in records.values() for k in by_k})
    metrics = {label: {str(k): gsm8k_metrics(by_k[k]) for k in shots if k in by_k}
               for label, by_k in records.items()}
    difference: dict[str, Any] = {}
    if "trained" in records:
        for k in shots:
            base = {r["id"]: _correct(r) for r in records["base"][k]}
            pairs = [(base[r["id"]], _correct(r)) for r in records["trained"][k]
                     if base.get(r["id"]) is not None and _correct(r) is not None]
            difference[str(k)] = paired_bootstrap(
                [b for b, _ in pairs], [t for _, t in pairs], bootstrap_samples, seed + k
            ) if pairs else None
    return {"shots": shots, "metrics": metrics, "difference": difference}


def _pct(metric: dict | None) -> str:
    if not metric or metric.get("value") is None:
        return "n/a"
    ci = metric.get("ci95")
    text = f"{100 * metric['value']:.1f}% ({metric['count']}/{metric['n']})"
    return text + (f" [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]" if ci else "")


def kshot_markdown(result: dict[str, Any]) -> str:
    """The markdown table: one line per shot count, accuracy with Wilson 95% CI per model,
    trained - base with its paired bootstrap 95% CI (percentage points), then the share
    of answers with a '#### N' line per model (format rate; where shots help a small
    model, they help the format first)."""
    models = list(result["metrics"])
    head = ["shots"] + [f"{m} accuracy [95% CI]" for m in models]
    if "trained" in models:
        head.append("trained - base, pp [95% CI]")
    head += [f"{m} '####' format rate" for m in models]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for k in result["shots"]:
        cells = [str(k)] + [_pct(result["metrics"][m].get(str(k), {}).get("accuracy"))
                            for m in models]
        if "trained" in models:
            d = result["difference"].get(str(k))
            cells.append("n/a" if d is None else f"{100 * d['mean_difference']:+.1f} "
                         f"[{100 * d['ci_low']:+.1f}, {100 * d['ci_high']:+.1f}]")
        for m in models:
            rate = result["metrics"][m].get(str(k), {}).get("format_rate")
            cells.append("n/a" if not rate or rate.get("value") is None
                         else f"{100 * rate['value']:.0f}% ({rate['count']}/{rate['n']})")
        lines.append("| " + " | ".join(cells) + " |")
    note = (f"\n{result.get('n_questions', '?')} test questions "
            f"({result.get('data_source', '?')}); exemplars from "
            f"{result.get('fewshot_source', '?')}; greedy; accuracy = `gsm8k_correctness` "
            "(the number after the last '####'); CIs: Wilson (accuracy), paired bootstrap "
            f"over questions ({result.get('bootstrap_samples', '?')} resamples) for the "
            "difference.")
    return "\n".join(lines) + "\n" + note + "\n"


def kshot_chart(result: dict[str, Any], path: Path) -> Path | None:
    """Accuracy against shot count per model with Wilson 95% error bars (PNG); None when
    matplotlib is missing (logged)."""
    from rlvr.errors import RlvrError
    from rlvr.plots.common import require_pyplot, save_png

    try:
        plt = require_pyplot("the k-shot chart")
    except RlvrError as exc:
        logger.warning("kshot.png not drawn: %s", exc)
        return None
    fig, ax = plt.subplots(figsize=(5.0, 3.4))
    for i, (label, by_k) in enumerate(result["metrics"].items()):
        xs, ys, low, high = [], [], [], []
        for k in result["shots"]:
            acc = by_k.get(str(k), {}).get("accuracy") or {}
            if acc.get("value") is None:
                continue
            ci = acc.get("ci95") or [acc["value"], acc["value"]]
            xs.append(k + (i - 0.5) * 0.12)
            ys.append(acc["value"])
            # a Wilson bound can sit a rounding error past the value (0 or 1): never below 0
            low.append(max(0.0, acc["value"] - ci[0]))
            high.append(max(0.0, ci[1] - acc["value"]))
        ax.errorbar(xs, ys, yerr=[low, high], marker="o", capsize=3, label=label)
    ax.set_xticks(result["shots"])
    ax.set_xlabel(f"few-shot exemplars ({result.get('fewshot_source', 'train')})")
    ax.set_ylabel("accuracy")
    ax.set_ylim(bottom=0)
    ax.set_title(f"k-shot accuracy, n = {result.get('n_questions', '?')} (95% CI)")
    ax.legend()
    written = save_png(fig, path, dpi=110)
    plt.close(fig)
    return written


def write_kshot(out_dir: str | Path, result: dict[str, Any],
                records: dict[str, dict[int, list]] | None = None) -> dict[str, str]:
    """Write kshot.json, kshot.md, kshot.png (when matplotlib is there) and, with
    `records`, kshot_samples.jsonl into `out_dir`; return {kind: path}."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    files = {"json": str(write_json(out / KSHOT_FILE, result)),
             "markdown": str(write_text(out / KSHOT_MD, kshot_markdown(result)))}
    if records is not None:
        write_jsonl(out / KSHOT_SAMPLES, [r for by_k in records.values()
                                          for k in sorted(by_k) for r in by_k[k]])
        files["samples"] = str(out / KSHOT_SAMPLES)
    try:  # a chart is a view of the numbers already written: it never ends the run
        png = kshot_chart(result, out / KSHOT_PNG)
    except (ValueError, OSError) as exc:
        logger.warning("kshot.png not drawn: %s", exc)
        png = None
    if png is not None:
        files["png"] = str(png)
    return files


def kshot_eval(model, tokenizer, shots: Sequence[int] = DEFAULT_SHOTS, limit: int | None = 20,
               output_dir: str | Path | None = None, data_dir: str | None = None,
               data_source: str = "auto", seed: int = 0, batch_size: int = 16,
               max_new_tokens: int | None = None, bootstrap_samples: int = 2000,
               rows: Sequence[dict] | None = None, pool: Sequence[dict] | None = None,
               sources: dict[str, str] | None = None) -> dict[str, Any]:
    """Evaluate a loaded model (a PEFT model: base and trained) on GSM8K at each shot count.

    Args:
        model, tokenizer: e.g. the trainer's model after training, or
            `rlvr.models.load_causal_lm(model, adapter=DIR)`.
        shots: exemplar counts; limit: first N test rows (None = all).
        output_dir: where `write_kshot` writes (None = nothing written).
        data_dir, data_source: where the rows come from (`rlvr.tasks.sources`).
        rows, pool, sources: test rows and exemplar pool already loaded (`kshot_data`),
            and where they came from.
        max_new_tokens: tokens per answer (None = the gsm8k task's 256).
    Returns:
        `kshot_summary` plus `n_questions`, `data_source`, `fewshot_source`,
        `fewshot_ids` (the exemplar ids in order), `settings`, `bootstrap_samples`.
    Raises:
        DataError: no GSM8K data, too few exemplars, or an exemplar among the questions.
    """
    sources = sources or {"data_source": "given rows", "fewshot_source": "given pool"}
    if rows is None or pool is None:
        loaded_rows, loaded_pool, sources = kshot_data(limit, data_dir, data_source)
        rows = loaded_rows if rows is None else rows
        pool = loaded_pool if pool is None else pool
    rows = list(rows)[:limit] if limit is not None else list(rows)
    shots = sorted(set(int(k) for k in shots))
    exemplars = exemplar_order(pool, max(shots), seed, rows)
    settings = {"batch_size": batch_size, "num_samples": 1, "temperature": 0.0, "seed": seed,
                "max_new_tokens": max_new_tokens}
    records = kshot_records(model, tokenizer, rows, exemplars, shots, settings)
    result = {**kshot_summary(records, bootstrap_samples, seed), "n_questions": len(rows),
              **sources, "fewshot_ids": [e.get("id") for e in exemplars],
              "settings": settings, "bootstrap_samples": bootstrap_samples}
    if output_dir is not None:
        result["files"] = write_kshot(output_dir, result, records)
    return result


def kshot_eval_adapter(model: str | None = None, adapter: str | None = None,
                       **kwargs: Any) -> dict[str, Any]:
    """`kshot_eval` for a model spec and an adapter folder (`rlvr.models.load_causal_lm`):
    with an adapter, base (adapter disabled) and trained; without, the base model only.

    Raises:
        ModelNotFoundError: a missing model or adapter; DataError: as `kshot_eval`.
    """
    from rlvr.models import load_causal_lm

    loaded, tokenizer = load_causal_lm(model, adapter=adapter)
    return kshot_eval(loaded, tokenizer, **kwargs)
