"""The chart of `rlvr compare` (compare.png): per metric, each arm's mean over seeds with its
95% interval as an error bar (the summary of `rlvr.eval.method_stats.compare_arms`), and
beside it every seed of every arm as a point on prudence against known retention (the
trade-off a reader wants at a glance; the base model a star, the retention floor a line;
seeds that land on one point drawn larger with their count)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rlvr.plots.common import require_pyplot, save_png

CHART_METRICS = ("honesty", "prudence", "over_conservativeness", "known_retention")


def compare_chart(summary: dict[str, Any], path: str | Path) -> Path:
    """Draw grouped bars (metrics on the x axis, one bar per arm) into `path`.
    Raises:
        RlvrError: matplotlib is missing (the message has the pip line).
    """
    plt = require_pyplot("the compare chart")
    arms = list(summary["metrics"])
    per_seed = summary.get("per_seed") or {}
    width_in = 2.2 * len(CHART_METRICS) + 1.5
    if per_seed:
        fig, (ax, scatter) = plt.subplots(1, 2, figsize=(width_in + 4.2, 3.6),
                                          gridspec_kw={"width_ratios": [width_in, 4.2]})
        _seed_points(scatter, summary, per_seed)
    else:
        fig, ax = plt.subplots(figsize=(width_in, 3.6))
    width = 0.8 / max(1, len(arms))
    for i, arm in enumerate(arms):
        xs, means, errs = [], [], [[], []]
        for j, metric in enumerate(CHART_METRICS):
            m = summary["metrics"][arm][metric]
            if m["mean"] is None:
                continue
            xs.append(j + i * width)
            means.append(m["mean"])
            errs[0].append(m["mean"] - m["ci_low"] if m["ci_low"] is not None else 0.0)
            errs[1].append(m["ci_high"] - m["mean"] if m["ci_high"] is not None else 0.0)
        ax.bar(xs, means, width, yerr=errs, capsize=2, color=f"C{i}",
               label=f"{arm} ({summary['seeds'][arm]} seed{'s' if summary['seeds'][arm] > 1 else ''})")
    ax.set_xticks([j + width * (len(arms) - 1) / 2 for j in range(len(CHART_METRICS))])
    ax.set_xticklabels([m.replace("_", "\n") for m in CHART_METRICS], fontsize=8)
    ax.set_ylim(0, 1.05)
    ax.set_title(f"methods on {summary['n']} held-out questions ({summary['known']} known): "
                 "mean over seeds, 95% CI", fontsize=9)
    ax.legend(fontsize=7, ncol=2)
    written = save_png(fig, path, dpi=110)
    plt.close(fig)
    return written


def _seed_points(ax, summary: dict[str, Any], per_seed: dict[str, list[dict[str, Any]]]) -> None:
    """Every seed of every arm at (known retention, prudence), each arm in its bar colour;
    the base model's point a star."""
    colours = {arm: f"C{i}" for i, arm in enumerate(summary["metrics"])}
    base = (summary["metrics"].get("base") or {})
    if base:
        ax.scatter([base["known_retention"]["mean"]], [base["prudence"]["mean"]], marker="*",
                   s=90, color="black", label="base", zorder=3)
    arms = list(per_seed)
    for i, (arm, rows) in enumerate(per_seed.items()):
        points = [(r["known_retention"], r["prudence"]) for r in rows
                  if r["known_retention"] is not None and r["prudence"] is not None]
        if not points:
            continue
        # seeds on the same point stay visible: each arm is shifted a little sideways, and
        # a point shared by n seeds is drawn larger and labelled with n
        shift = (i - (len(arms) - 1) / 2) * 0.008
        counts: dict[tuple[float, float], int] = {}
        for point in points:
            counts[point] = counts.get(point, 0) + 1
        xs = [x + shift for x, _ in counts]
        ys = [y for _, y in counts]
        ax.scatter(xs, ys, s=[22 * n for n in counts.values()], alpha=0.8,
                   color=colours.get(arm), label=f"{arm} ({len(points)})")
        for x, y, n in zip(xs, ys, counts.values()):
            if n > 1:
                ax.annotate(f"x{n}", (x, y), fontsize=6, xytext=(3, 3),
                            textcoords="offset points")
    floor = summary.get("retention_floor")
    if floor is not None:
        ax.axvline(floor, color="grey", linestyle="--", linewidth=0.8)
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("known retention", fontsize=8)
    ax.set_ylabel("prudence", fontsize=8)
    ax.set_title("every seed", fontsize=9)
    ax.legend(fontsize=6)
