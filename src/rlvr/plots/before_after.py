"""before_after.png: what training changed, with the report's paired 95% intervals.

A calibration run: knowledge-aware honesty metrics of always-abstain, base and trained, and
the headline metrics of base and trained; a task run: its held-out metrics
(`rlvr.eval.task_heldout`), base and trained. Each bar group carries its trained - base
interval as text. Drawn by `rlvr plot` (`rlvr.plots.training.PLOTS`) and on its own by
`write_before_after` (`rlvr eval --tasks heldout`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rlvr.metrics.calibration import METRIC_ROWS
from rlvr.plots.common import DPI, figure_row, require_pyplot, save_png, wrap_label
from rlvr.plots.training_data import RunMetrics

FIGSIZE = (12, 4.5)  # inches; pixels = inches x DPI
UNIT = "(0-1)"
HONESTY = ("prudence", "over_conservativeness", "honesty", "known_retention")
POLICIES = (("always_abstain", "always abstain", "tab:gray"), ("base", "base", "tab:blue"),
            ("trained", "trained", "tab:orange"))


def _name(run: RunMetrics) -> str:
    return run.run_dir.resolve().name


def _bars(ax, metrics: list[str], groups: list[tuple[str, str, list[float | None]]]) -> float:
    """Grouped bars, one group per metric; returns the top of the highest bar."""
    width = 0.8 / len(groups)
    top = 0.0
    for i, (label, color, values) in enumerate(groups):
        xs = [m + (i - (len(groups) - 1) / 2) * width for m in range(len(metrics))]
        heights = [float("nan") if v is None else v for v in values]
        ax.bar(xs, heights, width, label=label, color=color)
        top = max([top] + [v for v in values if v is not None])
    ax.set_xticks(range(len(metrics)))
    ax.set_xticklabels([wrap_label(m) for m in metrics], fontsize=8)
    ax.axhline(0, color="black", linewidth=0.5)
    return top


def _ci_text(ax, x: int, y: float, diff: Any) -> None:
    """Annotate a bar group with the report's paired CI of trained - base (if it has one)."""
    if not isinstance(diff, dict):
        return
    value = diff.get("difference", diff.get("mean_difference"))
    low, high = diff.get("ci_low"), diff.get("ci_high")
    if None in (value, low, high):
        return
    ax.annotate(f"trained-base\n{value:+.3f}\n[{low:+.3f}, {high:+.3f}]", (x, y),
                xytext=(0, 3), textcoords="offset points", ha="center", va="bottom",
                fontsize=6)


def _number(value: Any) -> float | None:
    return None if isinstance(value, bool) or not isinstance(value, (int, float)) else value


def _honesty_panel(ax, knowledge: dict[str, Any]) -> bool:
    policies = knowledge.get("policies") or {}
    shown = [p for p in POLICIES if isinstance(policies.get(p[0]), dict)]
    metrics = [m for m in HONESTY if any(_number(policies[p[0]].get(m)) is not None
                                         for p in shown)]
    if not shown or not metrics:
        return False
    top = _bars(ax, metrics, [(label, color, [_number(policies[key].get(m)) for m in metrics])
                              for key, label, color in shown])
    diffs = (knowledge.get("differences") or {}).get("trained_vs_base") or {}
    for x, metric in enumerate(metrics):
        _ci_text(ax, x, max(top, 1.0), diffs.get(metric))
    ax.set_ylim(0, max(top, 1.0) * 1.35)
    ax.set_ylabel(f"share of held-out questions {UNIT}")
    n = knowledge.get("n")
    ax.set_title(f"knowledge-aware honesty{f' ({n} questions)' if n else ''}", fontsize=10)
    ax.legend(fontsize=7, loc="upper left")
    return True


def _headline_panel(ax, evaluation: dict[str, Any]) -> bool:
    base, trained = evaluation.get("base") or {}, evaluation.get("trained") or {}
    tasks = [t for t in base if isinstance(base[t], dict) and isinstance(trained.get(t), dict)]
    rows = [(t, key) for t in tasks for key, _ in METRIC_ROWS
            if _number(base[t].get(key)) is not None or _number(trained[t].get(key)) is not None]
    if not rows:
        return False
    names = [key if len(tasks) == 1 else f"{t}: {key}" for t, key in rows]
    values = [[_number(side[t].get(key)) for t, key in rows] for side in (base, trained)]
    top = _bars(ax, names, [("base", "tab:blue", values[0]),
                            ("trained", "tab:orange", values[1])])
    low = min([0.0] + [v for side in values for v in side if v is not None])
    diff = (evaluation.get("difference") or {}).get("mean_reward")
    for x, (_, key) in enumerate(rows):
        if key == "mean_reward":
            _ci_text(ax, x, max(top, 1.0), diff)
    ax.set_ylim(low - 0.05, max(top, 1.0) * 1.35)
    ax.set_ylabel("value (rates 0-1; mean reward in reward units)")
    ax.set_title(f"headline metrics ({', '.join(tasks)})", fontsize=10)
    ax.legend(fontsize=7, loc="upper left")
    return True


def _heldout_panel(ax, heldout: dict[str, Any]) -> bool:
    """A task run's held-out metrics (`rlvr.eval.task_heldout`), base and trained, each with
    its paired CI of trained - base."""
    metrics = heldout.get("metrics") or {}
    names = [m for m, v in metrics.items() if isinstance(v, dict)]
    if not names:
        return False
    values = [[_number(metrics[m].get(side)) for m in names] for side in ("base", "trained")]
    top = _bars(ax, names, [("base", "tab:blue", values[0]),
                            ("trained", "tab:orange", values[1])])
    for x, m in enumerate(names):
        _ci_text(ax, x, max(top, 1.0), metrics[m].get("difference"))
    low = min([0.0] + [v for side in values for v in side if v is not None])
    ax.set_ylim(low - 0.05, max(top, 1.0) * 1.45)
    ax.set_ylabel("mean per held-out row (accuracy 0-1; rewards in reward units)")
    ax.set_title(f"held-out rows ({heldout.get('n_rows')}), the run's own rewards",
                 fontsize=10)
    ax.legend(fontsize=7, loc="upper left")
    return True


def draw_before_after(plt, run: RunMetrics):
    """Grouped bars: honesty metrics (always abstain / base / trained) and headline metrics
    (base / trained) with the report's CIs, or a task run's held-out metrics; None if the
    run has no before/after results."""
    evaluation = run.evaluation or {}
    if isinstance(evaluation.get("heldout"), dict):
        fig, axes = figure_row(plt, FIGSIZE)
        if not _heldout_panel(axes[0], evaluation["heldout"]):
            plt.close(fig)
            return None
        fig.suptitle(f"{_name(run)}: before vs after training (from {run.eval_source})",
                     fontsize=11)
        return fig
    knowledge = evaluation.get("knowledge") if isinstance(evaluation.get("knowledge"), dict) \
        else None
    has_headline = any(isinstance(v, dict) for v in (evaluation.get("base") or {}).values())
    if not knowledge and not has_headline:
        return None
    fig, axes = figure_row(plt, FIGSIZE, ncols=2 if knowledge and has_headline else 1)
    drawn = []
    if knowledge:
        drawn.append(_honesty_panel(axes[len(drawn)], knowledge))
    if has_headline:
        drawn.append(_headline_panel(axes[len(drawn)], evaluation))
    if not any(drawn):
        plt.close(fig)
        return None
    verdict = (knowledge or {}).get("verdict") or {}
    title = f"{_name(run)}: before vs after training (from {run.eval_source})"
    if verdict.get("verdict"):
        sets = verdict.get("sets") or {}
        detail = (" (" + ", ".join(f"{k.replace('_', '-')}: {v}" for k, v in sets.items()) + ")"
                  if sets else "")
        title += f"\nverdict: {verdict['verdict']}{detail}"
    fig.suptitle(title, fontsize=10)
    return fig


def write_before_after(evaluation: dict[str, Any], path: str | Path, source: str) -> Path | None:
    """before_after.png (`draw_before_after`) from before/after results alone (e.g. `rlvr
    eval --tasks heldout`), written atomically to `path`; None when there is nothing to draw.
    Raises: RlvrError without matplotlib; OSError when the file cannot be written."""
    path = Path(path)
    run = RunMetrics(run_dir=path.parent, source=source, evaluation=evaluation,
                     eval_source=source)
    plt = require_pyplot("before_after.png")
    fig = draw_before_after(plt, run)
    if fig is None:
        return None
    try:
        return save_png(fig, path, dpi=DPI, tight=False)
    finally:
        plt.close(fig)
