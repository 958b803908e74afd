"""`rlvr data`: build training files from raw sources."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(subparsers) -> None:
    """Add the `data` subcommand and its builders."""
    p = subparsers.add_parser("data", help="build training files from raw sources")
    builders = p.add_subparsers(dest="builder", metavar="BUILDER", required=True)
    sa = builders.add_parser(
        "selfaware", help="split SelfAware.json into train/valid/test messages JSONL",
        description="Write train/valid/test JSONL (messages format) for variant v1, v2 or v3 "
                    "of the SelfAware dataset; deterministic for a given --seed.")
    sa.add_argument("--source", required=True, help="path to SelfAware.json")
    sa.add_argument("--variant", choices=("v1", "v2", "v3"), default="v3")
    sa.add_argument("--output-dir", required=True, help="folder for the split files")
    sa.add_argument("--seed", type=int, default=42)
    sa.set_defaults(func=run_selfaware)
    bi = builders.add_parser("builtin", help="write the built-in dataset as train/test JSONL")
    bi.add_argument("--output-dir", required=True)
    bi.set_defaults(func=run_builtin)
    ar = builders.add_parser(
        "arithmetic", help="write generated arithmetic questions (GSM8K format) as train/test",
        description="Write train.jsonl and test.jsonl of generated arithmetic questions in "
                    "GSM8K's format (question, answer ending in '#### N'; rlvr.data.arithmetic): "
                    "distinct questions, none shared between the splits, the same for the same "
                    "level, sizes and seed. Train on them with --data DIR.")
    ar.add_argument("--output-dir", help="folder for train.jsonl and test.jsonl")
    ar.add_argument("--level", default=None, help="difficulty (see --list; default: the level "
                                                  "`data: arithmetic` uses)")
    ar.add_argument("--n-train", type=int, default=400)
    ar.add_argument("--n-test", type=int, default=100)
    ar.add_argument("--seed", type=int, default=0)
    ar.add_argument("--list", action="store_true", help="list the levels and exit")
    ar.set_defaults(func=run_arithmetic)
    ck = builders.add_parser(
        "check", help="shortcut check: does the wording alone predict unanswerable rows?",
        description="Fit a bag-of-words and a named-feature classifier (rlvr.data.shortcuts) "
                    "that predict is_unanswerable from the question text of the training "
                    "rows alone; print their cross-validated balanced accuracy, the words "
                    "that carry it and the skewed features, and warn above --threshold. "
                    "Exit 0 either way (1 with --strict and a warning).")
    ck.add_argument("--data", default=None,
                    help="the rows: a messages JSONL, a folder of splits, SelfAware.json "
                         "(default: the built-in set; with --config, the config's data)")
    ck.add_argument("--config", default=None, help="read `data` from this training config")
    ck.add_argument("--split", choices=("train", "heldout", "both"), default="train")
    ck.add_argument("--threshold", type=float, default=None,
                    help="warn above this balanced accuracy (default 0.85)")
    ck.add_argument("--output", default=None, help="also write the result as JSON here")
    ck.add_argument("--strict", action="store_true", help="exit 1 when it warns")
    ck.set_defaults(func=run_check)


def _write_splits(splits: dict, output_dir: str) -> None:
    from rlvr.io import write_jsonl

    for name, rows in splits.items():
        path = write_jsonl(Path(output_dir) / f"{name}.jsonl", rows)
        n_unans = sum(r["is_unanswerable"] for r in rows)
        share = 100 * n_unans / len(rows) if rows else 0.0
        print(f"{path}: {len(rows)} rows, {n_unans} unanswerable ({share:.1f}%)")


def run_selfaware(args: argparse.Namespace) -> int:
    """Build and write the SelfAware splits; print the counts written."""
    from rlvr.data.selfaware import build_selfaware_splits, load_selfaware_json

    splits = build_selfaware_splits(load_selfaware_json(args.source), args.variant, args.seed)
    _write_splits(splits, args.output_dir)
    return 0


def run_builtin(args: argparse.Namespace) -> int:
    """Write the built-in dataset's splits."""
    from rlvr.data.builtin import builtin_splits

    _write_splits(builtin_splits(), args.output_dir)
    return 0


def run_arithmetic(args: argparse.Namespace) -> int:
    """Write (or list) generated arithmetic splits; print the counts and one example."""
    from rlvr.data.arithmetic import DEFAULT_LEVEL, LEVELS, arithmetic_splits
    from rlvr.errors import RlvrError
    from rlvr.io import write_jsonl

    if args.list:
        for name, level in LEVELS.items():
            mark = " (default)" if name == DEFAULT_LEVEL else ""
            print(f"{name:8} {level.description}{mark}")
        return 0
    if not args.output_dir:
        raise RlvrError("rlvr data arithmetic needs --output-dir (or --list)")
    splits = arithmetic_splits(args.n_train, args.n_test, args.level or DEFAULT_LEVEL, args.seed)
    for name, rows in splits.items():
        path = write_jsonl(Path(args.output_dir) / f"{name}.jsonl", rows)
        print(f"{path}: {len(rows)} questions, e.g. {rows[0]['question']!r}")
    return 0


def run_check(args: argparse.Namespace) -> int:
    """Run the shortcut check on a data source's rows; print its lines."""
    from rlvr.data.shortcuts import DEFAULT_THRESHOLD, shortcut_check, shortcut_lines
    from rlvr.errors import ConfigError
    from rlvr.io import write_json
    from rlvr.tasks.resolve import resolve_data

    threshold = DEFAULT_THRESHOLD if args.threshold is None else args.threshold
    if not 0.5 < threshold <= 1:
        raise ConfigError(f"--threshold must be in (0.5, 1], got {threshold}")
    if args.config is not None:
        from rlvr.config import load_config
        from rlvr.data.selfaware import SPLIT_SEED

        cfg = load_config(args.config, {"data": args.data} if args.data is not None else {})
        # the rows `rlvr train` would split: same split seed, held-out share and formats
        resolved = resolve_data(cfg.data, cfg.eval_split, cfg.selfaware_variant, SPLIT_SEED,
                                cfg.skip_bad_rows, cfg.data_format, cfg.eval_data_dir,
                                cfg.heldout_fraction)
    else:
        resolved = resolve_data(args.data)
    rows = {"train": resolved.train, "heldout": resolved.heldout,
            "both": resolved.train + resolved.heldout}[args.split]
    result = shortcut_check([r["question"] for r in rows], [r["is_unanswerable"] for r in rows],
                            threshold)
    result["data"] = resolved.source
    result["split"] = args.split
    print(f"{resolved.source}, {args.split} rows:")
    print("\n".join(shortcut_lines(result)))
    if args.output:
        print(f"wrote {write_json(args.output, result)}")
    return 1 if args.strict and result["warnings"] else 0
