"""`rlvr train`: the main job (GRPO by default; SFT or DPO with `method`) with a before/after
report."""

from __future__ import annotations

import argparse

# CLI flag -> config key, for the common overrides.
FLAG_KEYS = {
    "data": "data", "model": "model", "max_steps": "max_steps", "eval_limit": "eval_limit",
    "output_dir": "output_dir", "seed": "seed", "skip_bad_rows": "skip_bad_rows",
    "data_variant": "selfaware_variant",
}


def register(subparsers) -> None:
    """Add the `train` subcommand."""
    p = subparsers.add_parser(
        "train", help="train a LoRA adapter (GRPO, SFT or DPO) and report base vs trained",
        description="Run TRL's GRPOTrainer (or SFTTrainer / DPOTrainer with `--set "
                    "method=sft|dpo`, docs/methods.md) with PEFT LoRA, then answer held-out "
                    "questions with the base model and the adapter and write report.json / "
                    "report.md into the run directory.")
    p.add_argument("--config", help="YAML or JSON config (see configs/); also the reference "
                                    "project's JSON layout with a selfaware_grpo section; "
                                    "defaults apply without one")
    p.add_argument("--data", help="messages JSONL, folder of splits, or SelfAware.json")
    p.add_argument("--model", help="model spec (default: SmolLM2-135M-Instruct)")
    p.add_argument("--max-steps", type=int, help="optimizer steps (overrides epochs)")
    p.add_argument("--eval-limit", type=int, help="held-out questions to evaluate")
    p.add_argument("--output-dir", help="run directory")
    p.add_argument("--seed", type=int, help="random seed")
    p.add_argument("--data-variant", choices=("v1", "v2", "v3"),
                   help="SelfAware split variant when --data is SelfAware.json "
                        "(= --set selfaware_variant=...)")
    p.add_argument("--skip-bad-rows", action="store_true", default=None,
                   help="skip malformed data rows (reported with a count) instead of failing")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="override any config key (repeatable), e.g. --set beta=0.0")
    p.add_argument("--resume", action="store_true",
                   help="continue from the newest checkpoint in the run directory")
    p.add_argument("--overwrite", action="store_true",
                   help="empty a run directory that already holds a run, then start afresh "
                        "(without it or --resume such a folder is refused)")
    p.add_argument("--list-keys", action="store_true", help="list config keys and exit")
    p.add_argument("--print-schema", action="store_true",
                   help="print the config's JSON Schema (for editors) and exit")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Resolve the config, run training and print the before/after table."""
    import dataclasses

    from rlvr.config import TrainConfig, load_config, parse_override

    if args.print_schema:
        from rlvr.config.schema import schema_text

        print(schema_text(), end="")
        return 0
    if args.list_keys:
        for f in dataclasses.fields(TrainConfig):
            print(f"{f.name:32} {f.metadata.get('help', '')} (default: {f.default!r})"
                  if f.default is not dataclasses.MISSING else f"{f.name:32} {f.metadata['help']}")
        return 0
    overrides = dict(parse_override(item) for item in args.set)
    for flag, key in FLAG_KEYS.items():
        value = getattr(args, flag)
        if value is not None:
            overrides[key] = value
    cfg = load_config(args.config, overrides)
    from rlvr.train.checks import check_before_model
    from rlvr.train.run_folder import check_run_folder

    check_run_folder(cfg.output_dir, args.resume, args.overwrite)  # one run per folder
    check_before_model(cfg)  # paths, data, preflight: before torch/TRL import (seconds)

    from rlvr.train.job import run as run_training

    try:
        report = run_training(cfg, resume=args.resume, overwrite=args.overwrite)
    finally:
        _end_process_group()
    timings = report["meta"].get("timings", {})
    print(f"run directory: {cfg.output_dir}")
    print(f"optimizer steps: {report['meta']['optimizer_steps']}, "
          + ", ".join(f"{k}={v:.1f}" for k, v in timings.items()))
    if report["meta"].get("interrupted"):
        print(f"interrupted at step {report['meta']['optimizer_steps']}: checkpoint and "
              f"adapter saved; continue with the same command and --resume")
        return 130
    print_report(report)
    if report["meta"].get("optimizer_steps") == 0:
        return 3  # a run that took no step is not a successful training run
    return 0



def print_report(report: dict) -> None:
    """Print a finished run's tables (k-shot, before/after, knowledge), its alarms, the
    cross-task evaluation, the verdict line and a NOT TRAINED line when training changed
    nothing (`rlvr train`, `rlvr eval --trained`)."""
    from rlvr.eval.honesty_report import format_table, knowledge_table, verdict_line

    if report.get("kshot"):
        from rlvr.eval.kshot import kshot_markdown
        from rlvr.eval.task_run import task_verdict_line

        print(kshot_markdown(report["kshot"]))
        print(task_verdict_line(report))
    if "base" in report:
        print(format_table(report))
        if report.get("knowledge"):
            print()
            print(knowledge_table(report["knowledge"]))
    for alarm in report["meta"].get("alarms") or []:
        print(f"ALARM: {alarm['message']}")
    if report.get("cross_eval"):
        from rlvr.eval.results import results_table

        print("\ncross-task evaluation (base vs trained):")
        print(results_table(report["cross_eval"]))
    if "base" in report:
        print()
        print(verdict_line(report))
    untrained = report["meta"].get("untrained")
    if untrained:
        print(f"NOT TRAINED: {untrained}")

def _end_process_group() -> None:
    """Destroy this process's torch.distributed process group, if a multi-process run
    (`accelerate launch`) made one, before the interpreter exits. Left to interpreter
    shutdown, the gloo backend's threads were destroyed while still joinable and a rank
    could end with "terminate called without an active exception" after its work was
    saved (exit code not 0). Nothing to do for a one-process run."""
    import sys

    dist = sys.modules.get("torch.distributed")
    if dist is not None and dist.is_available() and dist.is_initialized():
        dist.destroy_process_group()
