"""`rlvr eval`: cross-task evaluation of a model and, optionally, a trained adapter."""

from __future__ import annotations

import argparse
import sys


def register(subparsers) -> None:
    """Add the `eval` subcommand."""
    p = subparsers.add_parser(
        "eval", help="evaluate a model (and an adapter) on several tasks",
        description="Generate answers for each task, score them with the task's registered "
                    "reward, and write samples_*.jsonl, results.json, results.md (and "
                    "results.png with matplotlib) into --output-dir.")
    p.add_argument("--model", help="model spec (default: SmolLM2-135M-Instruct)")
    p.add_argument("--adapter", help="LoRA adapter folder; base and adapter are both evaluated")
    p.add_argument("--tasks", help="comma-separated task names (see --list)")
    p.add_argument("--limit", type=int, help="first N questions per task")
    p.add_argument("--num-samples", type=int, default=1, help="samples per question (pass@k)")
    p.add_argument("--temperature", type=float,
                   help="sampling temperature (default: greedy; 0.8 with --num-samples > 1)")
    p.add_argument("--num-fewshot", type=int, help="few-shot exemplars (gsm8k: 0, 2, 4 or 8)")
    p.add_argument("--batch-size", type=int, default=16, help="prompts per generation batch")
    p.add_argument("--max-new-tokens", type=int, help="override every task's token cap")
    p.add_argument("--output-dir", default="runs/eval")
    p.add_argument("--data-dir", help="folder holding the task files (e.g. ../shared/data); "
                                      "default: $RLVR_DATA_DIR or data_dir in "
                                      "~/.config/rlvr/config.yaml")
    p.add_argument("--task-path", action="append", default=[], metavar="TASK=FILE",
                   help="data file for one task (repeatable), e.g. exploretom=ExploreToM.csv")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--list", action="store_true", help="list the registered tasks and exit")
    p.add_argument("--rescore", metavar="DIR", help="recompute metrics from DIR's samples")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run, list or rescore, and print the results table."""
    from rlvr.errors import RlvrError
    from rlvr.eval.results import results_table
    from rlvr.eval.tasks import TASKS

    if args.list:
        for task in TASKS.values():
            print(f"{task.name:11} v{task.version}  reward={task.reward:18} {task.description}")
        return 0
    if args.rescore:
        from rlvr.eval.runner import rescore

        results = rescore(args.rescore)
    else:
        if not args.tasks:
            raise RlvrError("--tasks is required, e.g. --tasks selfaware,gsm8k (see --list)")
        if args.num_fewshot is not None and args.num_fewshot not in (0, 2, 4, 8):
            raise RlvrError("--num-fewshot must be 0, 2, 4 or 8")
        for flag, value in (("--num-samples", args.num_samples), ("--limit", args.limit),
                            ("--batch-size", getattr(args, "batch_size", None))):
            if value is not None and value < 1:
                raise RlvrError(f"{flag} must be >= 1, got {value}")
        if args.temperature is not None and args.temperature < 0:
            raise RlvrError(f"--temperature must be >= 0, got {args.temperature}")
        from rlvr.eval.tasks import get_task

        for name in [t.strip() for t in args.tasks.split(",") if t.strip()]:
            get_task(name)  # unknown task: refused before any model loads
        if args.adapter:
            _check_adapter(args.adapter)
        task_paths = {}
        for item in args.task_path:
            if "=" not in item:
                raise RlvrError(f"--task-path expects TASK=FILE, got {item!r}")
            name, path = item.split("=", 1)
            task_paths[name.strip()] = path
        from rlvr.eval.runner import run_eval

        results = run_eval(
            args.model, [t.strip() for t in args.tasks.split(",") if t.strip()],
            adapter=args.adapter, output_dir=args.output_dir, limit=args.limit,
            num_samples=args.num_samples, temperature=args.temperature,
            batch_size=args.batch_size, num_fewshot=args.num_fewshot, data_dir=args.data_dir,
            task_paths=task_paths, seed=args.seed, max_new_tokens=args.max_new_tokens)
    print(results_table(results))
    for name, reason in results.get("skipped", {}).items():
        print(f"skipped {name}: {reason}")
    print(f"wrote {args.rescore or args.output_dir}/results.json and results.md")
    if results.get("skipped") and not results.get("tasks"):
        print("every task was skipped: nothing was evaluated", file=sys.stderr)
        return 1
    return 0


def _check_adapter(path: str) -> None:
    """Refuse an --adapter folder that holds no PEFT adapter, before the base evaluation."""
    from pathlib import Path

    from rlvr.errors import RlvrError

    folder = Path(path)
    if not (folder / "adapter_config.json").is_file():
        raise RlvrError(f"--adapter {path}: no adapter_config.json there; pass the adapter "
                        "folder a training run wrote (RUN_DIR/adapter)")
