"""PNG plots for the observation report (optional; needs matplotlib).

matplotlib is not a core dependency: it is imported inside `write_plots` (through
`rlvr.plots.common.require_pyplot`), which raises RlvrError with the install command when it
is missing. Plots read the numbers from the report dict, so they show exactly what the
JSON holds. Files are written atomically.
"""

from __future__ import annotations

from pathlib import Path

from rlvr.plots.common import require_pyplot, save_png

PLOT_FILES = ("advantage_broadcast.png", "aggregation_weights.png")


def write_plots(report: dict, directory: str | Path) -> list[Path]:
    """Draw the advantage broadcast and the aggregation weights as PNG files in `directory`.

    Returns the written paths. Raises RlvrError if matplotlib is missing.
    """
    plt = require_pyplot()
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    exhibits = report["exhibits"]
    written = []

    case = exhibits["grpo_advantages"]["outputs"]["cases"][0]
    fig, ax = plt.subplots(figsize=(7, 3))
    for i, row in enumerate(case["outputs"]["per_token_advantages"]):
        ax.bar([t + 0.2 * i for t in range(len(row))], row, width=0.2,
               label=f"response {i + 1}: reward {case['inputs']['rewards'][i]}")
    ax.axhline(0, color="black", linewidth=0.5)
    ax.set_xlabel("completion token index")
    ax.set_ylabel("advantage (std units)")
    ax.set_title("GRPO: one advantage per response, repeated on every token")
    ax.legend(fontsize=7)
    written.append(save_png(fig, folder / PLOT_FILES[0]))
    plt.close(fig)

    modes = exhibits["aggregation"]["outputs"]["modes"]
    fig, axes = plt.subplots(1, len(modes), figsize=(4 * len(modes), 3), sharey=True)
    for ax, mode in zip(axes, modes):
        for i, weights in enumerate(mode["token_weights"]):
            ax.bar([t + 0.4 * i for t in range(len(weights))], weights, width=0.4,
                   label=f"{len(weights)}-token response")
        ax.set_title(f"{mode['aggregation']} (TRL {mode['trl_loss_type']})\nloss {mode['loss']:.3f}")
        ax.set_xlabel("token index")
    axes[0].set_ylabel("weight per token")
    axes[0].legend(fontsize=7)
    written.append(save_png(fig, folder / PLOT_FILES[1]))
    plt.close(fig)
    return written
