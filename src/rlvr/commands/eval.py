"""`rlvr eval`: cross-task evaluation of a model and, optionally, a trained adapter; or, with
`--trained CHECKPOINT`, a full checkpoint judged as a run's trained model.

The flags become one `rlvr.eval.settings.EvalSettings` (which checks the numbers, engine
and dtype when built) and one request checked by `rlvr.eval.request.check_request`, the
same as `rlvr.api.evaluate`; nothing here imports `rlvr.train`. `--trained` runs the main
job's evaluation stages instead, on the held-out rows, prompt and reward of `--config`: the
CLI hands it to `rlvr.commands.checkpoint`.
"""

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
    p.add_argument("--batch-size", type=int, default=16,
                   help="prompts per generation batch (vllm engine: batch size x samples = "
                        "max_num_seqs, the sequences in flight)")
    p.add_argument("--max-new-tokens", type=int, help="override every task's token cap")
    p.add_argument("--output-dir", help="where to write (default runs/eval; with --trained "
                                        "a run folder, default runs/eval_checkpoint)")
    p.add_argument("--trained", metavar="CHECKPOINT",
                   help="a full checkpoint (a transformers folder verl or OpenRLHF wrote, or "
                        "`rlvr export --merge`'s) judged as the trained model of --config's run "
                        "against its base model: the run's held-out rows, prompt, knowledge "
                        "labels, cross-task check and verdict, with no training; report.md "
                        "and report.json in --output-dir (`rlvr report` reads it)")
    p.add_argument("--config", help="with --trained: the run's config (the one handed to the "
                                    "engine, or RUN/resolved_config.yaml); defaults apply "
                                    "without one")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="with --trained: override a config key (repeatable)")
    p.add_argument("--data-dir", help="folder holding task files in the layout gsm8k/test.jsonl, "
                                      "mbpp/mbpp.jsonl, ... (see docs/eval_data.md); default: "
                                      "$RLVR_DATA_DIR or data_dir in ~/.config/rlvr/config.yaml")
    p.add_argument("--task-path", action="append", default=[], metavar="TASK=FILE",
                   help="data file for one task (repeatable; wins over every other source), "
                        "e.g. exploretom=ExploreToM.csv")
    p.add_argument("--data-source", choices=("auto", "local", "hub", "packaged"), default="auto",
                   help="where task data comes from when no --task-path names it: auto (default) "
                        "= the --data-dir file, else the Hugging Face Hub (skipped at once when "
                        "offline), else the subset packaged with rlvr; local, hub or packaged = "
                        "only that source, no fallback")
    p.add_argument("--skip-missing", action="store_true",
                   help="a task whose data is missing is skipped with a note (without it, "
                        "the command exits 1 after evaluating the others)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--engine", choices=("auto", "transformers", "vllm"), default="auto",
                   help="generation engine: auto (default: vllm when installed, else "
                        "transformers), transformers, or vllm (vLLM's CPU build, "
                        "`bash scripts/install.sh --vllm`; an adapter is merged into its "
                        "weights; faster on CPU (docs/vllm_cpu.md), same greedy answers in "
                        "float32)")
    p.add_argument("--dtype", choices=("float32", "bfloat16"), default="float32",
                   help="model weights for generation: float32 (default; greedy answers agree "
                        "across engines) or bfloat16 (answers differ from float32; whether it is "
                        "faster depends on the CPU, docs/vllm_cpu.md)")
    p.add_argument("--endpoint", metavar="URL",
                   help="answer through an OpenAI-compatible server (e.g. `vllm serve FOLDER` "
                        "on a cluster: http://HOST:8000/v1) instead of loading weights here; "
                        "--model names the served model's tokenizer (its prompts are rendered "
                        "and sent as token ids); the same scoring and results")
    p.add_argument("--endpoint-model", metavar="NAME",
                   help="the served model's name (default: the first /v1/models lists)")
    p.add_argument("--list", action="store_true", help="list the registered tasks and exit")
    p.add_argument("--rescore", metavar="DIR", help="recompute metrics from DIR's samples")
    # --trained runs the main job's evaluation stages, which live in rlvr.train: this module
    # never imports training (the import contract), so the CLI hands such a call to
    # rlvr.commands.checkpoint
    p.set_defaults(func=run, delegate={"trained": "rlvr.commands.checkpoint"})


def run(args: argparse.Namespace) -> int:
    """Run, list or rescore, and print the results table."""
    from rlvr.errors import RlvrError
    from rlvr.eval.request import HELDOUT, check_request, evaluate, task_names
    from rlvr.eval.results import results_table
    from rlvr.tasks.registry import TASKS

    if args.list:
        for task in TASKS.values():
            print(f"{task.name:11} v{task.version}  reward={task.reward:18} {task.description}")
        print(f"{HELDOUT:11} {'':2}  {'reward=the run':25} with --adapter RUN/adapter of a task "
              "run: its held-out rows, scored by every reward of the run, base vs trained")
        return 0
    if args.config or args.set:  # --trained itself is routed by the CLI (`delegate` above)
        raise RlvrError("--config and --set belong to --trained CHECKPOINT (a full "
                        "checkpoint judged as the run's trained model); without it rlvr "
                        "eval takes --model, --adapter and --tasks")
    args.output_dir = "runs/eval" if args.output_dir is None else args.output_dir
    if args.rescore:
        from rlvr.eval.runner import rescore

        results = rescore(args.rescore)
    else:
        settings = eval_settings(args)  # every setting, before any model loads
        names = task_names(args.tasks)
        task_paths = check_request(names, settings, model=args.model, adapter=args.adapter,
                                   num_fewshot=args.num_fewshot, data_dir=args.data_dir,
                                   task_paths=args.task_path, output_dir=args.output_dir)
        results = evaluate(names, settings, model=args.model, adapter=args.adapter,
                           output_dir=args.output_dir, num_fewshot=args.num_fewshot,
                           data_dir=args.data_dir, task_paths=task_paths,
                           data_source=args.data_source)
        if HELDOUT in results:
            from rlvr.eval.task_heldout import heldout_table, verdict_line

            print(heldout_table(results[HELDOUT]))
            print(verdict_line(results[HELDOUT]))
            print(f"wrote {args.output_dir}/heldout.json, heldout.md and before_after.png")
            if names == [HELDOUT]:
                return 0
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
    if results.get("skipped") and not getattr(args, "skip_missing", False):
        print(f"rlvr eval: error: {len(results['skipped'])} task(s) asked for were skipped "
              f"({', '.join(results['skipped'])}); give their data (see each reason above) "
              "or pass --skip-missing to accept a partial evaluation", file=sys.stderr)
        return 1
    return 0


def eval_settings(args: argparse.Namespace):
    """The flags' `EvalSettings` (checked when built: counts >= 1 and not absurd, a finite
    temperature >= 0, a known engine and dtype, vLLM installed for --engine vllm).
    Raises: RlvrError naming the flag."""
    from rlvr.eval.settings import EvalSettings

    return EvalSettings(max_new_tokens=args.max_new_tokens, num_samples=args.num_samples,
                        temperature=args.temperature, seed=args.seed,
                        batch_size=getattr(args, "batch_size", 16),
                        engine=getattr(args, "engine", "auto"),
                        dtype=getattr(args, "dtype", "float32"), limit=args.limit,
                        endpoint=getattr(args, "endpoint", None),
                        endpoint_model=getattr(args, "endpoint_model", None))

