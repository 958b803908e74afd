"""`rlvr plot RUN_DIR`: training plots of a run directory as PNG files (needs matplotlib).

    rlvr plot runs/selfaware_grpo_cpu [--output-dir D]     # default D: RUN_DIR/plots

| file | what (x axis: optimizer step) |
|---|---|
| rewards.png | total reward mean with a +-reward_std band, and each `rewards/<name>/mean` |
| zero_spread.png | share of groups whose rewards all tie (no GRPO signal) |
| calibration.png | answerable / unanswerable outcome counts (stacked), over-abstention and hedge rate |
| kl.png | KL divergence of the policy from the reference model |
| length.png | mean completion length; clipped / truncated share on a second axis |
| before_after.png | honesty metrics of always-abstain, base and trained, and the headline metrics of base and trained (a task run: its held-out metrics), with the report's paired 95% CIs of trained - base |

The numbers come from `rlvr.plots.training_data.load_run_metrics` (metrics.jsonl, else
train_log.jsonl and report.json). A plot whose metrics the run did not log (beta 0: no
`kl`; a reward without diagnostics: no `calibration/*`) is skipped and the skip is logged.
Every PNG has a fixed size, `PNG_SIZES[name]` pixels, whatever it shows.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Callable

from rlvr.errors import RlvrError
from rlvr.plots.before_after import draw_before_after
from rlvr.plots.common import DPI, figure_row, require_pyplot, save_png
from rlvr.plots.training_data import RunMetrics, has_any, load_run_metrics, reward_names, series

logger = logging.getLogger(__name__)

FIGSIZES = {  # inches; pixels = inches x DPI
    "rewards.png": (8, 4.5),
    "zero_spread.png": (8, 4.5),
    "calibration.png": (12, 4.5),
    "kl.png": (8, 4.5),
    "length.png": (8, 4.5),
    "before_after.png": (12, 4.5),  # rlvr.plots.before_after.FIGSIZE
}
PNG_SIZES = {name: (round(w * DPI), round(h * DPI)) for name, (w, h) in FIGSIZES.items()}
STEP_LABEL = "optimizer step"
UNIT = "(0-1)"
SHARE_LABEL = f"share {UNIT}"
C = "calibration/"
ANSWERABLE = (("n_correct", "correct", "tab:green"),
              ("n_hedged_correct", "hedged, right answer", "yellowgreen"),
              ("n_hedged_wrong", "hedged, wrong answer", "tab:orange"),
              ("n_abstained", "abstained", "tab:blue"),
              ("n_listed_candidates", "listed candidates", "tab:purple"),
              ("n_wrong", "wrong", "tab:red"))
UNANSWERABLE = (("n_abstained_unanswerable", "abstained", "tab:blue"),
                ("n_hedged_unanswerable", "hedged", "tab:orange"),
                ("n_answered_unanswerable", "answered", "tab:red"))


def _figure(plt, name: str, ncols: int = 1):
    """A figure of the fixed size of `name` and its list of `ncols` axes."""
    return figure_row(plt, FIGSIZES[name], ncols)


def _line(ax, run: RunMetrics, key: str, label: str, **style) -> bool:
    xs, ys = series(run.steps, key)
    if xs:
        ax.plot(xs, ys, marker="o", markersize=3, label=label, **style)
    return bool(xs)


def _finish(ax, run: RunMetrics, ylabel: str, title: str, legend: bool = True) -> None:
    """Axis labels, resume markers, title and legend of a per-step axis."""
    for i, step in enumerate(run.resumed_at):
        ax.axvline(step, color="black", linestyle=":", linewidth=1,
                   label="resumed" if i == 0 else None)
    ax.xaxis.get_major_locator().set_params(integer=True)  # steps are whole numbers
    ax.set_xlabel(STEP_LABEL)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    if legend and ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=7)


def _name(run: RunMetrics) -> str:
    return run.run_dir.resolve().name


def draw_rewards(plt, run: RunMetrics):
    """Reward mean per step (+-reward_std band) and each per-reward mean; None if no data."""
    names = reward_names(run.steps)
    if not has_any(run.steps, ["reward"]) and not names:
        return None
    fig, (ax,) = _figure(plt, "rewards.png")
    if _line(ax, run, "reward", "reward (weighted sum)", color="black"):
        both = [(s, v["reward"], v["reward_std"]) for s, v in run.steps.items()
                if "reward" in v and "reward_std" in v]
        if both:
            ax.fill_between([b[0] for b in both], [b[1] - b[2] for b in both],
                            [b[1] + b[2] for b in both], color="gray", alpha=0.25,
                            label="reward +- reward_std")
    for name in names:
        _line(ax, run, f"rewards/{name}/mean", f"rewards/{name}/mean", linestyle="--")
    _finish(ax, run, "reward (score per completion)", f"{_name(run)}: reward per step")
    return fig


def draw_zero_spread(plt, run: RunMetrics):
    """Share of zero-spread groups per step (TRL's and rlvr's); None if neither was logged."""
    keys = (("frac_reward_zero_std", "groups with zero reward spread (TRL)"),
            (C + "zero_std_group_share", "groups with zero reward spread (rlvr)"),
            (C + "zero_std_token_share", "tokens in zero-spread groups (rlvr)"))
    if not has_any(run.steps, [k for k, _ in keys[:2]]):
        return None
    fig, (ax,) = _figure(plt, "zero_spread.png")
    for (key, label), style in zip(keys, ("-", "--", ":")):
        _line(ax, run, key, label, linestyle=style)
    ax.set_ylim(-0.03, 1.03)
    _finish(ax, run, SHARE_LABEL, f"{_name(run)}: groups without learning signal")
    return fig


def _stack(ax, run: RunMetrics, cells, title: str) -> None:
    keys = [C + key for key, _, _ in cells]
    steps = [s for s, v in run.steps.items() if any(k in v for k in keys)]
    if steps:
        ax.stackplot(steps, *[[run.steps[s].get(k, 0.0) for s in steps] for k in keys],
                     labels=[label for _, label, _ in cells],
                     colors=[color for _, _, color in cells], alpha=0.85)
    else:
        ax.text(0.5, 0.5, "not logged", ha="center", va="center", transform=ax.transAxes)
    _finish(ax, run, "completions per step (count)", title)


def draw_calibration(plt, run: RunMetrics):
    """Outcome counts of answerable and unanswerable prompts (stacked), over-abstention and
    hedge rate per step; None if no `calibration/` count or rate was logged."""
    counts = [C + k for k, _, _ in ANSWERABLE + UNANSWERABLE]
    rates = (C + "over_abstention", C + "hedge_rate")
    if not has_any(run.steps, counts + list(rates)):
        return None
    fig, axes = _figure(plt, "calibration.png", ncols=3)
    fig.suptitle(f"{_name(run)}: calibration outcomes of the training completions", fontsize=11)
    _stack(axes[0], run, ANSWERABLE, "answerable prompts")
    _stack(axes[1], run, UNANSWERABLE, "unanswerable prompts")
    drawn = [_line(axes[2], run, rates[0], "over-abstention (abstained / answerable)",
                   color="tab:blue"),
             _line(axes[2], run, rates[1], "hedge rate (hedged / scored)", color="tab:orange")]
    if not any(drawn):
        axes[2].text(0.5, 0.5, "not logged", ha="center", va="center",
                     transform=axes[2].transAxes)
    axes[2].set_ylim(-0.03, 1.03)
    _finish(axes[2], run, SHARE_LABEL, "abstention and hedging")
    return fig


def draw_kl(plt, run: RunMetrics):
    """KL to the reference model per step; None if `kl` was not logged (beta 0)."""
    if not has_any(run.steps, ["kl"]):
        return None
    fig, (ax,) = _figure(plt, "kl.png")
    _line(ax, run, "kl", "kl (TRL, mean per token)", color="tab:purple")
    _finish(ax, run, "KL(policy || reference) (nats per token)",
            f"{_name(run)}: KL to the reference model")
    return fig


def draw_length(plt, run: RunMetrics):
    """Mean completion length and the clipped / truncated share per step; None if no data."""
    length = next((k for k in ("completions/mean_length", C + "completion_length")
                   if has_any(run.steps, [k])), None)
    ratios = (("completions/clipped_ratio", "clipped at max length (TRL)", "tab:red"),
              (C + "truncation_rate", "truncated (rlvr)", "tab:orange"))
    if length is None and not has_any(run.steps, [k for k, _, _ in ratios]):
        return None
    fig, (ax,) = _figure(plt, "length.png")
    if length is not None:
        _line(ax, run, length, f"{length} (tokens)", color="tab:blue")
    _line(ax, run, "completions/mean_terminated_length", "mean terminated length (tokens)",
          color="tab:cyan", linestyle="--")
    ax.set_ylim(bottom=0)
    right = ax.twinx()
    for (key, label, color), style in zip(ratios, ("-", ":")):
        _line(right, run, key, label, color=color, linestyle=style)
    right.set_ylim(-0.03, 1.03)
    right.set_ylabel(f"share of completions {UNIT}")
    _finish(ax, run, "completion length (tokens)", f"{_name(run)}: completion length",
            legend=False)
    handles, labels = ax.get_legend_handles_labels()
    more = right.get_legend_handles_labels()
    if handles or more[0]:
        ax.legend(handles + more[0], labels + more[1], fontsize=7, loc="upper left")
    return fig


PLOTS: tuple[tuple[str, Callable, str], ...] = (
    ("rewards.png", draw_rewards, "no `reward` or `rewards/<name>/mean` logged"),
    ("zero_spread.png", draw_zero_spread,
     "no `frac_reward_zero_std` or `calibration/zero_std_group_share` logged"),
    ("calibration.png", draw_calibration, "no `calibration/*` diagnostics logged"),
    ("kl.png", draw_kl, "no `kl` logged (beta 0?)"),
    ("length.png", draw_length, "no completion length or clipped ratio logged"),
    ("before_after.png", draw_before_after,
     "no before/after results (no eval record in metrics.jsonl, no report.json)"),
)


def write_training_plots(run_dir: str | Path, output_dir: str | Path | None = None) -> list[Path]:
    """Draw the training plots of a run directory as PNG files.

    Args:
        run_dir: the `--output-dir` of an `rlvr train` run (holds metrics.jsonl, or
            train_log.jsonl and report.json for older runs).
        output_dir: where the PNGs go (created if needed); default `run_dir/plots`.
    Returns:
        The written paths, in the order of `PLOTS`; plots without data are skipped (logged
        at INFO). Each file is `PNG_SIZES[name]` pixels, written atomically.
    Raises:
        RlvrError: `run_dir` is missing or holds neither metrics.jsonl nor train_log.jsonl,
            a log cannot be read, matplotlib is missing, or a PNG cannot be written.
    """
    run = load_run_metrics(run_dir)
    plt = require_pyplot("`rlvr plot`")
    folder = Path(output_dir) if output_dir is not None else Path(run_dir) / "plots"
    if not run.steps:
        logger.info("%s: no per-step log in %s yet; only before/after results can be drawn",
                    run_dir, run.source)
    written = []
    for name, draw, reason in PLOTS:
        fig = draw(plt, run)
        if fig is None:
            logger.info("skipped %s: %s", name, reason)
            continue
        try:
            written.append(save_png(fig, folder / name, dpi=DPI, tight=False))
        except OSError as exc:
            raise RlvrError(f"cannot write {folder / name}: {exc.strerror or exc}; choose a "
                            "writable --output-dir") from None
        finally:
            plt.close(fig)
    return written

