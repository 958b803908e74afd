"""`rlvr handoff`: write a run's data, rlvr's rewards and a launch script for verl or
OpenRLHF (`rlvr.train.handoff`).

    rlvr handoff verl|openrlhf --config FILE --output-dir DIR [--set KEY=VALUE ...]
"""

from __future__ import annotations

import argparse

ENGINES = ("verl", "openrlhf")  # rlvr.train.handoff.ENGINES (no import here)


def register(subparsers) -> None:
    """Add the `handoff` subcommand."""
    p = subparsers.add_parser(
        "handoff", help="hand a run to verl or OpenRLHF with rlvr's rewards inside",
        description="Check the config as `rlvr train` does (paths, data, reward fields, "
                    "preflight), then write into DIR the engine's data (verl: train/validation "
                    "parquet; OpenRLHF: JSONL), a reward file that imports rlvr's rewards from "
                    "the installed package, their spec (rlvr_rewards.json) and a launch script "
                    "whose every option is mapped from the config (docs/scaling.md).")
    p.add_argument("engine", choices=ENGINES, help="the training engine")
    p.add_argument("--config", help="the rlvr config (YAML or JSON); defaults apply without one")
    p.add_argument("--output-dir", required=True, metavar="DIR",
                   help="folder for the engine's files (created; files are replaced)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="override a config key (repeatable), as for rlvr train")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Write the hand-off folder and print what was written."""
    from rlvr.config import load_config, parse_override
    from rlvr.train.handoff import handoff

    cfg = load_config(args.config, dict(parse_override(item) for item in args.set))
    result = handoff(cfg, args.engine, args.output_dir, args.config)
    print(f"{args.engine}: {result['train_rows']} training rows, "
          f"{result['validation_rows']} validation rows")
    for path in result["files"]:
        print(f"wrote {path}")
    for note in result["notes"]:
        print(f"note: {note}")
    script = next(p for p in result["files"] if p.endswith(".sh"))
    print(f"launch on the engine's machine (rlvr installed there): bash {script}")
    print("then judge the checkpoint it writes against the base model: rlvr eval --trained "
          f"CHECKPOINT_FOLDER --config {args.config or '<this config>'}")
    return 0
