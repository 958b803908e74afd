"""`rlvr eval`: cross-task evaluation of a model and, optionally, a trained adapter."""

from __future__ import annotations

import argparse
import sys

HELDOUT = "heldout"  # a training run's own held-out rows (`rlvr.train.heldout_eval`)


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
    p.add_argument("--batch-size", type=int, default=16,
                   help="prompts per generation batch (vllm engine: batch size x samples = "
                        "max_num_seqs, the sequences in flight)")
    p.add_argument("--max-new-tokens", type=int, help="override every task's token cap")
    p.add_argument("--output-dir", default="runs/eval")
    p.add_argument("--data-dir", help="folder holding task files in the layout gsm8k/test.jsonl, "
                                      "mbpp/mbpp.jsonl, ... (see README); default: "
                                      "$RLVR_DATA_DIR or data_dir in ~/.config/rlvr/config.yaml")
    p.add_argument("--task-path", action="append", default=[], metavar="TASK=FILE",
                   help="data file for one task (repeatable; wins over every other source), "
                        "e.g. exploretom=ExploreToM.csv")
    p.add_argument("--data-source", choices=("auto", "local", "hub", "packaged"), default="auto",
                   help="where task data comes from when no --task-path names it: auto (default) "
                        "= the --data-dir file, else the Hugging Face Hub (skipped at once when "
                        "offline), else the subset packaged with rlvr; local, hub or packaged = "
                        "only that source, no fallback")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--engine", choices=("transformers", "vllm"), default="transformers",
                   help="generation engine: transformers (default) or vllm (vLLM's CPU build, "
                        "`bash scripts/install.sh --vllm`; the adapter is served as a LoRA; "
                        "faster on CPU (README \"vLLM on CPU\"), same greedy answers in float32)")
    p.add_argument("--dtype", choices=("float32", "bfloat16"), default="float32",
                   help="model weights for generation: float32 (default; greedy answers agree "
                        "across engines) or bfloat16 (answers differ from float32; whether it is "
                        "faster depends on the CPU, README \"vLLM on CPU\")")
    p.add_argument("--list", action="store_true", help="list the registered tasks and exit")
    p.add_argument("--rescore", metavar="DIR", help="recompute metrics from DIR's samples")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run, list or rescore, and print the results table."""
    from rlvr.eval.results import results_table
    from rlvr.tasks.registry import TASKS

    if args.list:
        for task in TASKS.values():
            print(f"{task.name:11} v{task.version}  reward={task.reward:18} {task.description}")
        print(f"{HELDOUT:11} {'':2}  {'reward=the run':25} with --adapter RUN/adapter of a task "
              "run: its held-out rows, scored by every reward of the run, base vs trained")
        return 0
    if args.rescore:
        from rlvr.eval.runner import rescore

        results = rescore(args.rescore)
    else:
        names, task_paths = _check_args(args)  # every setting, before any model loads
        if HELDOUT in names:
            _heldout(args)
            names = [n for n in names if n != HELDOUT]
            if not names:
                return 0
        from rlvr.eval.runner import run_eval

        results = run_eval(
            args.model, names,
            adapter=args.adapter, output_dir=args.output_dir, limit=args.limit,
            num_samples=args.num_samples, temperature=args.temperature,
            batch_size=args.batch_size, num_fewshot=args.num_fewshot, data_dir=args.data_dir,
            task_paths=task_paths, seed=args.seed, max_new_tokens=args.max_new_tokens,
            require_tasks=True, data_source=args.data_source,
            engine=getattr(args, "engine", "transformers"),
            dtype=getattr(args, "dtype", "float32"))
    print(results_table(results))
    for name, task in results.get("tasks", {}).items():
        if task.get("data_kind") == "packaged":
            why = f" ({task['data_note']})" if task.get("data_note") else ""
            print(f"note: {name} was evaluated on rlvr's {task['data_source']}{why}")
    for name, reason in results.get("skipped", {}).items():
        print(f"skipped {name}: {reason}")
    print(f"wrote {args.rescore or args.output_dir}/results.json and results.md")
    if results.get("skipped") and not results.get("tasks"):
        print("every task was skipped: nothing was evaluated", file=sys.stderr)
        return 1
    return 0


def _check_args(args: argparse.Namespace) -> tuple[list[str], dict[str, str]]:
    """Check every `rlvr eval` setting without loading a model or a task's data.

    Returns:
        (task names, {task: file} from --task-path).
    Raises:
        RlvrError: one line naming the flag and the fix: no or duplicate task names, an
            unknown task, numbers out of range (or absurdly large), a missing or non-model
            --model path, an --adapter folder without an adapter, --engine vllm without
            vLLM installed (the install command), a --data-dir that is not
            a folder, a --task-path for an unknown task or a missing file, an --output-dir
            that cannot be written.
    """
    import math
    from pathlib import Path

    from rlvr.config.checks import UPPER_LIMITS
    from rlvr.errors import RlvrError
    from rlvr.tasks.registry import get_task
    from rlvr.models import check_model_path
    from rlvr.train.checkpoints import check_output_dir

    names = [t.strip() for t in (args.tasks or "").split(",") if t.strip()]
    if not names:
        raise RlvrError("--tasks is required, e.g. --tasks selfaware,gsm8k (see --list)")
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise RlvrError(f"--tasks names {', '.join(twice)} more than once; name each task once")
    for name in names:
        if name != HELDOUT:
            get_task(name)  # unknown task: refused with the closest name
    if args.num_fewshot is not None and args.num_fewshot not in (0, 2, 4, 8):
        raise RlvrError(f"--num-fewshot must be 0, 2, 4 or 8, got {args.num_fewshot}")
    for flag, value, limit in (
            ("--num-samples", args.num_samples, UPPER_LIMITS["num_generations"]),
            ("--limit", args.limit, None),
            ("--batch-size", getattr(args, "batch_size", None), UPPER_LIMITS["eval_batch_size"]),
            ("--max-new-tokens", args.max_new_tokens, UPPER_LIMITS["eval_max_new_tokens"])):
        if value is not None and value < 1:
            raise RlvrError(f"{flag} must be >= 1, got {value}")
        if value is not None and limit is not None and value > limit:
            raise RlvrError(f"{flag} {value} is above {limit:,}, far more than any real "
                            "evaluation uses (a typo?); pass a smaller value")
    from rlvr.eval.vllm_engine import check_engine

    # vllm missing: the install line, before any model loads
    check_engine(getattr(args, "engine", "transformers"), getattr(args, "dtype", "float32"))
    if args.temperature is not None and not (math.isfinite(args.temperature)
                                             and args.temperature >= 0):
        raise RlvrError(f"--temperature must be >= 0 and finite, got {args.temperature}")
    check_model_path(args.model)
    if args.adapter:
        _check_adapter(args.adapter)
    _check_run_tasks(args.adapter, names, args.task_path)
    if HELDOUT in names and (args.num_samples != 1 or args.temperature is not None):
        raise RlvrError("--tasks heldout answers as the run's report did (its "
                        "eval_num_samples, temperature and seed); drop --num-samples and "
                        "--temperature, or evaluate heldout in a call of its own")
    if args.data_dir is not None and not Path(args.data_dir).expanduser().is_dir():
        raise RlvrError(f"--data-dir {args.data_dir} is not a folder; pass the folder that "
                        "holds the task files (gsm8k/test.jsonl, ...; see README)")
    task_paths = {}
    for item in args.task_path:
        name, sep, path = item.partition("=")
        if not sep or not name.strip() or not path:
            raise RlvrError(f"--task-path expects TASK=FILE, got {item!r}")
        try:
            get_task(name.strip())
        except RlvrError as exc:
            raise RlvrError(f"--task-path {item}: {exc}") from None
        if not Path(path).expanduser().is_file():
            raise RlvrError(f"--task-path {item}: file not found; check the path")
        task_paths[name.strip()] = path
    if not args.output_dir.strip():
        raise RlvrError("--output-dir is empty; pass a folder, e.g. --output-dir runs/eval")
    check_output_dir(args.output_dir)
    return names, task_paths


def _check_run_tasks(adapter: str | None, names: list[str], task_paths: list[str]) -> None:
    """`heldout` needs the --adapter of a task run (`rlvr.train.heldout_eval.read_run`); a
    task run's adapter is not evaluated as `selfaware` on its own rows (its rewards are not
    the calibration reward). Raises RlvrError naming the fix, before any model loads."""
    from rlvr.errors import RlvrError

    if HELDOUT in names:
        if not adapter:
            raise RlvrError("--tasks heldout needs --adapter RUN/adapter (a training run's "
                            "held-out rows, base vs that adapter)")
        from rlvr.train.heldout_eval import read_run

        read_run(adapter)
    if adapter and "selfaware" in names and not any(t.startswith("selfaware=")
                                                    for t in task_paths):
        import yaml

        from rlvr.tasks.heldout import find_run
        from rlvr.config.reward_setup import CALIBRATION_REWARDS
        from rlvr.train.heldout_eval import run_entries

        run = find_run(adapter)
        if run is None:
            return
        cfg = yaml.safe_load((run.run_dir / "resolved_config.yaml").read_text(
            encoding="utf-8")) or {}
        rewards = [e["name"] for e in run_entries(cfg)]
        if not set(rewards) & set(CALIBRATION_REWARDS):
            raise RlvrError(f"--adapter {adapter} comes from a task run (rewards "
                            f"{', '.join(rewards)}), not a self-awareness run; evaluate its "
                            "held-out rows with --tasks heldout, or give selfaware rows with "
                            "--task-path selfaware=FILE")


def _heldout(args: argparse.Namespace) -> None:
    """`--tasks heldout`: the run's held-out rows, base vs adapter; print the table."""
    from rlvr.eval.task_heldout import heldout_table, verdict_line
    from rlvr.train.heldout_eval import eval_heldout

    summary = eval_heldout(args.adapter, args.output_dir, model=args.model, limit=args.limit,
                           batch_size=args.batch_size, max_new_tokens=args.max_new_tokens,
                           engine=getattr(args, "engine", "transformers"),
                           dtype=getattr(args, "dtype", "float32"))
    print(heldout_table(summary))
    print(verdict_line(summary))
    print(f"wrote {args.output_dir}/heldout.json, heldout.md and before_after.png")


def _check_adapter(path: str) -> None:
    """Refuse an --adapter folder that holds no PEFT adapter, before the base evaluation."""
    from pathlib import Path

    from rlvr.errors import RlvrError

    folder = Path(path)
    if not folder.exists():
        raise RlvrError(f"--adapter {path} does not exist; pass the adapter folder a training "
                        "run wrote (RUN_DIR/adapter)")
    if not (folder / "adapter_config.json").is_file():
        raise RlvrError(f"--adapter {path}: no adapter_config.json there; pass the adapter "
                        "folder a training run wrote (RUN_DIR/adapter)")
