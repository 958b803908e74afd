"""`rlvr compare`: training methods side by side on one held-out set, over seeds."""

from __future__ import annotations

import argparse


def register(subparsers) -> None:
    """Add the `compare` subcommand."""
    p = subparsers.add_parser(
        "compare", help="train several methods (arms) over seeds and compare their honesty",
        description="Run the main job once per arm and seed on the same data and held-out "
                    "set (base answers and knowledge labels computed once), then write "
                    "compare.json, compare.md and compare.png: per arm the mean over seeds "
                    "with 95% intervals, and each arm against grpo-strict paired per "
                    "question and seed, and every seed's own verdict (with the verdict of the "
                    "seeds pooled, flagged when they disagree). Finished runs are reused; "
                    "rerun the same command to resume.")
    p.add_argument("--config", help="YAML or JSON config, as for `rlvr train`")
    p.add_argument("--arms", default="grpo-strict,grpo-ternary,sft,dpo",
                   help="comma-separated arms: grpo, grpo-<preset>, sft, dpo")
    p.add_argument("--seeds", default="0,1,2", help="comma-separated seeds")
    p.add_argument("--max-steps", type=int, help="optimizer steps per run")
    p.add_argument("--eval-limit", type=int, help="held-out questions to evaluate")
    p.add_argument("--data", help="the rows every arm trains and is judged on (as `rlvr train "
                                  "--data`: a messages JSONL, a folder of splits or "
                                  "SelfAware.json); default: the config's")
    p.add_argument("--output-dir", default="runs/compare", help="folder of the runs")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="override any config key for every arm (repeatable)")
    p.set_defaults(func=run)


def _names(text: str, what: str) -> list[str]:
    from rlvr.errors import ConfigError

    names = [t.strip() for t in text.split(",") if t.strip()]
    if not names:
        raise ConfigError(f"--{what} needs at least one name")
    return names


def run(args: argparse.Namespace) -> int:
    """Check every arm's config, run the arms, print the comparison table."""
    from rlvr.config import parse_override
    from rlvr.errors import ConfigError

    overrides = dict(parse_override(item) for item in args.set)
    if args.max_steps is not None:
        overrides["max_steps"] = args.max_steps
    if args.eval_limit is not None:
        overrides["eval_limit"] = args.eval_limit
    if args.data is not None:
        overrides["data"] = args.data
    try:
        seeds = [int(s) for s in _names(args.seeds, "seeds")]
    except ValueError:
        raise ConfigError(f"--seeds must be integers such as 0,1,2, got {args.seeds!r}") from None
    arms = _names(args.arms, "arms")
    from rlvr.train.compare_arms import arm_configs, run_compare

    arm_configs(args.config, arms, seeds, overrides, args.output_dir)  # fail before any model
    from rlvr.eval.method_stats import compare_markdown

    summary = run_compare(args.config, arms, seeds, overrides, args.output_dir)
    print(compare_markdown(summary))
    print(f"written: {args.output_dir}/compare.json, compare.md, compare.png")
    return 0
