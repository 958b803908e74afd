"""Cross-task results: metrics per model and task, paired differences, results.json/md,
an optional PNG chart, and tracker keys `cross_eval/<run>_on_<task>`."""

from __future__ import annotations

import importlib.metadata
import platform
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Sequence

from rlvr import __version__
from rlvr.metrics.calibration import paired_bootstrap
from rlvr.metrics.task_metrics import primary_value
from rlvr.tasks.registry import get_task
from rlvr.io import read_jsonl, write_json, write_text

PACKAGES = ("torch", "transformers", "trl", "peft", "math-verify")


def package_versions() -> dict[str, str | None]:
    """Installed versions of rlvr's main dependencies (None when not installed)."""
    out: dict[str, str | None] = {"rlvr": __version__, "python": platform.python_version()}
    for name in PACKAGES:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            out[name] = None
    return out


def paired_difference(base: Sequence[dict], other: Sequence[dict], seed: int = 0) -> dict | None:
    """Paired bootstrap of the per-sample reward, other - base, matched on (id, sample)."""
    base_by_key = {(str(r["id"]), r.get("sample", 0)): r["reward"] for r in base}
    pairs = [(base_by_key[k], r["reward"]) for r in other
             if (k := (str(r["id"]), r.get("sample", 0))) in base_by_key
             and base_by_key[k] is not None and r["reward"] is not None]
    if not pairs:
        return None
    return paired_bootstrap([p[0] for p in pairs], [p[1] for p in pairs], samples=2000, seed=seed)


def finish_results(out: Path, meta: dict[str, Any], task_names: list[str],
                   skipped: dict[str, str]) -> dict[str, Any]:
    """Compute metrics from the samples files in `out` and write results.json/md (+ PNG).

    Each task's entry in `tasks` carries its version, reward, description and, when
    `meta["data_sources"]` has it, `data_source` (a path, "hub <id>, config <c>, split
    <s>" or "packaged subset (N of M rows ...)"), `data_kind`, `data_note` (why earlier
    sources were passed over) and `fewshot_source`."""
    runs = meta["runs"]
    num_samples = meta["settings"].get("num_samples", 1)
    metrics: dict[str, dict[str, Any]] = {run: {} for run in runs}
    records: dict[tuple[str, str], list[dict]] = {}
    for run in runs:
        for name in task_names:
            recs = read_jsonl(out / f"samples_{run}_{name}.jsonl")
            records[(run, name)] = recs
            metrics[run][name] = get_task(name).metrics(recs, num_samples)
    differences = {}
    if len(runs) == 2:
        for name in task_names:
            differences[name] = {
                "primary_metric": metrics[runs[0]][name]["primary"],
                "primary_difference": _delta(primary_value(metrics[runs[1]][name]),
                                             primary_value(metrics[runs[0]][name])),
                "reward": paired_difference(records[(runs[0], name)], records[(runs[1], name)]),
            }
    tracker = {f"cross_eval/{run}_on_{name}": primary_value(metrics[run][name])
               for run in runs for name in task_names}
    results = {
        "meta": {**meta, "created_utc": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                 "packages": package_versions()},
        "tasks": {name: {"version": get_task(name).version,
                         "reward": get_task(name).reward,
                         "description": get_task(name).description,
                         **meta.get("data_sources", {}).get(name, {})} for name in task_names},
        "skipped": skipped,
        "metrics": metrics,
        "differences": differences,
        "tracker": tracker,
    }
    write_json(out / "results.json", results)
    write_text(out / "results.md", results_markdown(results))
    chart = _chart(results, out / "results.png")
    if chart:
        results["chart"] = str(chart)
    return results


def _delta(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else a - b


def _fmt(v: Any) -> str:
    return "-" if v is None else f"{v:.3f}"


def _ci(metric: dict[str, Any]) -> str:
    ci = metric.get("ci95") if isinstance(metric, dict) else None
    return f" [{ci[0]:.3f}, {ci[1]:.3f}]" if ci else ""


def results_table(results: dict[str, Any]) -> str:
    """Markdown table: one row per task, the primary metric per run (with 95% CI) and,
    for two runs, the difference with the paired bootstrap interval of the reward."""
    runs = results["meta"]["runs"]
    head = "| task | metric | " + " | ".join(runs) + (" | difference | reward diff [95% CI] |"
                                                       if len(runs) == 2 else " |")
    lines = [head, "|" + "---|" * (2 + len(runs) + (2 if len(runs) == 2 else 0))]
    for name in results["tasks"]:
        first = results["metrics"][runs[0]][name]
        key = first["primary"]
        cells = []
        for run in runs:
            m = results["metrics"][run][name]
            cells.append(_fmt(primary_value(m)) + _ci(m.get(key) if isinstance(m.get(key), dict)
                                                      else {"ci95": m.get("ci95", {}).get(key)}))
        row = f"| {name} | {key} | " + " | ".join(cells)
        if len(runs) == 2:
            d = results["differences"][name]
            r = d["reward"]
            rd = f"{r['mean_difference']:+.3f} [{r['ci_low']:+.3f}, {r['ci_high']:+.3f}]" if r else "-"
            delta = d["primary_difference"]
            row += f" | {'-' if delta is None else f'{delta:+.3f}'} | {rd}"
        lines.append(row + " |")
    for name, reason in results.get("skipped", {}).items():
        lines.append(f"| {name} | skipped | {reason} |"
                     + " |" * (len(runs) - 1 + (2 if len(runs) == 2 else 0)))
    return "\n".join(lines)


def results_markdown(results: dict[str, Any]) -> str:
    """The whole results.md: settings, the table, and every metric per task and run."""
    meta = results["meta"]
    lines = ["# rlvr eval results", "",
             f"- model: {meta['model']}", f"- adapter: {meta.get('adapter')}",
             f"- settings: {meta['settings']}", f"- created: {meta.get('created_utc')}",
             f"- task versions: " + ", ".join(f"{n} v{t['version']}"
                                              for n, t in results["tasks"].items()),
             "", results_table(results), ""]
    for name, task in results["tasks"].items():
        lines.append(f"## {name}")
        if task.get("data_source"):
            lines.append(f"- data: {task['data_source']}"
                         + (f" ({task['data_note']})" if task.get("data_note") else ""))
        if task.get("fewshot_source"):
            lines.append(f"- few-shot exemplars from: {task['fewshot_source']}")
        for run in meta["runs"]:
            m = results["metrics"][run][name]
            parts = [f"{k}={_fmt(v['value'])}" for k, v in m.items()
                     if isinstance(v, dict) and "value" in v]
            parts += [f"{k}={_fmt(v)}" for k, v in m.items() if isinstance(v, float)]
            lines.append(f"- {run}: n={m.get('n', m.get('n_problems'))} " + " ".join(parts))
        lines.append("")
    return "\n".join(lines)


def _chart(results: dict[str, Any], path: Path) -> Path | None:
    """Bar chart of the primary metric per task and run; None when matplotlib is missing."""
    from rlvr.errors import RlvrError
    from rlvr.plots.common import require_pyplot, save_png

    try:
        plt = require_pyplot("the results chart")
    except RlvrError:
        return None

    runs, tasks = results["meta"]["runs"], list(results["tasks"])
    if not tasks:
        return None
    fig, ax = plt.subplots(figsize=(1.6 * len(tasks) + 2, 3.2))
    width = 0.8 / len(runs)
    for i, run in enumerate(runs):
        values = [primary_value(results["metrics"][run][t]) or 0.0 for t in tasks]
        ax.bar([x + i * width for x in range(len(tasks))], values, width, label=run)
    ax.set_xticks([x + width * (len(runs) - 1) / 2 for x in range(len(tasks))])
    ax.set_xticklabels([f"{t}\n({results['metrics'][runs[0]][t]['primary']})" for t in tasks],
                       fontsize=8)
    ax.axhline(0, color="black", linewidth=0.5)
    ax.legend()
    ax.set_title("rlvr eval: primary metric per task")
    written = save_png(fig, path, dpi=110)
    plt.close(fig)
    return written
