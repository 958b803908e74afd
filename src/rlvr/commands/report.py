"""`rlvr report`: rebuild a training run's report offline from the files it wrote."""

from __future__ import annotations

import argparse


def register(subparsers) -> None:
    """Add the `report` subcommand."""
    p = subparsers.add_parser(
        "report", help="rebuild RUN_DIR/report.json and report.md from the saved generations",
        description="Recompute the before/after and knowledge-aware metrics of a finished "
                    "`rlvr train` run from generations_*.jsonl and knowledge_labels.json (a "
                    "task run: its held-out generations rescored by its rewards; no model "
                    "needed), rewrite report.json and report.md, and print the verdict.")
    p.add_argument("run_dir", help="the run directory (the --output-dir of rlvr train)")
    p.add_argument("--bootstrap-samples", type=int, help="resamples for the 95%% intervals")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Rebuild and print the tables and the verdict."""
    import json
    from pathlib import Path

    from rlvr.eval.honesty_report import format_table, knowledge_table, rebuild_report, verdict_line

    old = Path(args.run_dir) / "report.json"
    if old.is_file() and "kshot" in json.loads(old.read_text(encoding="utf-8")):
        return _task_run(args)  # a task run: held-out rows scored by its own rewards
    report = rebuild_report(args.run_dir, args.bootstrap_samples)
    print(format_table(report))
    if report.get("knowledge"):
        print()
        print(knowledge_table(report["knowledge"]))
    print()
    print(verdict_line(report))
    print(f"wrote {args.run_dir}/report.json and report.md")
    return 0


def _task_run(args: argparse.Namespace) -> int:
    """Rebuild a task run's report (`rlvr.eval.task_run.rebuild_task_report`), print it."""
    from rlvr.eval.task_heldout import heldout_table
    from rlvr.eval.task_run import rebuild_task_report, task_verdict_line

    report = rebuild_task_report(args.run_dir, args.bootstrap_samples)
    print(heldout_table(report["heldout"]))
    print()
    print(task_verdict_line(report))
    print(f"wrote {args.run_dir}/report.json and report.md")
    return 0
