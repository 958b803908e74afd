"""`rlvr eval --trained CHECKPOINT`: a full checkpoint judged as a run's trained model.

The flag belongs to `rlvr eval` (`rlvr.commands.eval` registers it); judging runs the main
job's evaluation stages with `trained_model` set and no training (`rlvr.train.job`,
`rlvr.train.checkpoint_model`), so the CLI hands the call here: `rlvr.commands.eval` never
imports training code (the import contract "evaluation never imports training").
"""

from __future__ import annotations

import argparse


def run(args: argparse.Namespace) -> int:
    """`--trained`: the main job's evaluation of a full checkpoint (module docstring).
    Flags of the task evaluation are refused with it, one line each, before anything loads.
    Exit 0 with a verdict, 2 on a refused setting."""
    from rlvr.errors import ConfigError

    task_flags = (("--adapter", args.adapter), ("--tasks", args.tasks),
                  ("--rescore", args.rescore), ("--task-path", args.task_path),
                  ("--endpoint", args.endpoint), ("--endpoint-model", args.endpoint_model),
                  ("--num-samples", args.num_samples != 1), ("--temperature", args.temperature),
                  ("--num-fewshot", args.num_fewshot), ("--limit", args.limit),
                  ("--max-new-tokens", args.max_new_tokens), ("--data-dir", args.data_dir),
                  ("--data-source", args.data_source != "auto"))
    refused = [flag for flag, given in task_flags if given not in (None, False, [], "")]
    if refused:
        raise ConfigError(f"--trained judges the checkpoint as the config's run is judged (its "
                          f"held-out rows, decoding and settings): {', '.join(refused)} "
                          f"{'is' if len(refused) == 1 else 'are'} not read there; set such "
                          "settings in the config (--set eval_limit=..., --set eval_engine=...), "
                          "or run rlvr eval --model CHECKPOINT --tasks ... for the task "
                          "evaluation")
    from rlvr.commands.train import print_report
    from rlvr.config import load_config, parse_override

    overrides = dict(parse_override(item) for item in args.set)
    overrides["trained_model"] = args.trained
    overrides["output_dir"] = "runs/eval_checkpoint" if args.output_dir is None else args.output_dir
    if args.model:
        overrides["model"] = args.model
    if args.engine != "auto":  # the engine of every evaluation stage, as eval_engine
        overrides["eval_engine"] = args.engine
    cfg = load_config(args.config, overrides)
    from rlvr.train.checks import check_before_model
    from rlvr.train.run_folder import check_run_folder

    check_run_folder(cfg.output_dir, False, False)  # one run per folder
    check_before_model(cfg)  # paths (both models), data, preflight: before torch loads
    from rlvr.train.job import run as run_job

    report = run_job(cfg)
    print(f"run directory: {cfg.output_dir} (trained model: {args.trained})")
    print_report(report)
    return 0
