"""`rlvr plot`: draw a training run's plots (rewards, zero-spread groups, calibration
counts, KL, completion length, before/after) as PNG files.

    rlvr plot RUN_DIR [--output-dir D]     # default D: RUN_DIR/plots
"""

from __future__ import annotations

import argparse


def register(subparsers) -> None:
    """Add the `plot` subcommand."""
    p = subparsers.add_parser(
        "plot", help="draw a run's training curves and before/after bars as PNG files",
        description="Read RUN_DIR/metrics.jsonl (or, for older runs, train_log.jsonl and "
                    "report.json) and write rewards.png, zero_spread.png, calibration.png, "
                    "kl.png, length.png and before_after.png (needs matplotlib). A plot whose "
                    "metrics the run did not log is skipped with a note.")
    p.add_argument("run_dir", help="the run directory (the --output-dir of rlvr train)")
    p.add_argument("--output-dir", metavar="D", help="where the PNGs go (default: RUN_DIR/plots)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Write the plots and print the path of each file written."""
    from rlvr.plots.training import write_training_plots

    paths = write_training_plots(args.run_dir, args.output_dir)
    for path in paths:
        print(f"wrote {path}")
    if not paths:
        print(f"no plots written: {args.run_dir} holds no plottable metrics yet")
    return 0
