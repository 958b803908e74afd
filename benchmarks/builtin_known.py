"""How many built-in held-out questions the default model knows, and how many of its answers
finish within each evaluation token budget.

The main job's path, without training: `configs/selfaware_grpo_cpu.yaml` (system prompt,
prompt exemplars, the `selfaware` reward and its `strict` preset) resolves the built-in
data (`rlvr.train.data_prep.prepare_data`); the base model answers the held-out rows
greedily (`rlvr.eval.runner.generate_task_records`, the runner `rlvr train` uses) once per
budget; a question is known when its greedy answer scores `correct`
(`rlvr.eval.knowledge.knowledge_labels`, K = 1). Prints the machine's matmul GFLOP/s
(benchmarks/machine.py), then per budget: known held-out questions, answers cut at the
budget (truncated), seconds of generation and scoring (model loading excluded): wall time and
the process's CPU time over all threads (steadier than wall time when other processes share
the cores), and the decoding steps of the batches (`decode_steps`, the same on any machine).

    .venv/bin/python benchmarks/builtin_known.py                      # budget 12 (the cap)
    .venv/bin/python benchmarks/builtin_known.py --budgets 12,16,24,32 --split both
    .venv/bin/python benchmarks/builtin_known.py --dump /tmp/known.jsonl   # per question

`--split train` labels the answerable training rows as `rlvr train` does before training
(`train_answerable: known`), and prints the training rows the main job would keep.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))


def measure(model, tokenizer, task, rows, cfg, budget: int, label: str) -> dict:
    """Greedy answers of the base model to `rows` at `budget` tokens: scored records,
    known labels and seconds."""
    from rlvr.eval.knowledge import knowledge_labels
    from rlvr.eval.runner import generate_task_records

    settings = {"batch_size": cfg.eval_batch_size, "num_samples": 1, "temperature": 0.0,
                "seed": cfg.seed, "max_new_tokens": budget}
    start, cpu = time.perf_counter(), time.process_time()
    records = generate_task_records(model, tokenizer, task, rows, [], settings, label)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    labels = knowledge_labels(records, cfg.knowledge_threshold)
    return {"records": records, "labels": labels, "seconds": seconds, "cpu_seconds": cpu}


def decode_steps(tokenizer, task, rows, records, batch_size: int, budget: int) -> int:
    """Decoding steps of the batched greedy generation that made `records`: per batch, the
    tokens of its longest answer (capped at `budget`), batches formed as
    `rlvr.eval.generate.generate_completions` forms them (prompts longest first, by
    characters). A machine-independent measure of the generation's cost next to its time."""
    from rlvr.eval.generate import render_prompts

    texts = render_prompts(tokenizer, [task.build_prompt(r, []) for r in rows])
    order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
    return sum(min(budget, max(records[i]["num_tokens"] or 0 for i in order[s:s + batch_size]))
               for s in range(0, len(order), batch_size))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default=str(ROOT / "configs" / "selfaware_grpo_cpu.yaml"))
    parser.add_argument("--budgets", default="12",
                        help="comma-separated eval token budgets (max_new_tokens)")
    parser.add_argument("--split", choices=("test", "train", "both"), default="test")
    parser.add_argument("--dump", help="write every scored record (with its budget) here")
    args = parser.parse_args()

    from machine import matmul_gflops

    from rlvr.config import load_config
    from rlvr.io import write_jsonl
    from rlvr.models import load_causal_lm
    from rlvr.tasks.heldout import heldout_rows, run_task
    from rlvr.train.data_prep import cap_unanswerable, prepare_data

    cfg = load_config(args.config)
    print(f"machine: {matmul_gflops():.0f} GFLOP/s fp32 matmul (torch default threads)")
    _, train, heldout = prepare_data(cfg)
    splits = {"test": heldout_rows(heldout)}
    if args.split in ("train", "both"):
        answerable = [(i, ex) for i, ex in enumerate(train) if not ex["is_unanswerable"]]
        splits["train"] = heldout_rows([{**ex, "id": i} for i, ex in answerable])
    if args.split == "train":
        del splits["test"]
    model, tokenizer = load_causal_lm(cfg.model)
    dump = []
    for budget in [int(b) for b in args.budgets.split(",")]:
        task = run_task(cfg.reward, cfg.reward_preset, cfg.reward_params, budget)
        for name, rows in splits.items():
            out = measure(model, tokenizer, task, rows, cfg, budget, f"{name}@{budget}")
            labels, records = out["labels"], out["records"]
            answerable = [r for r in rows if not r["is_unanswerable"]]
            known = sum(1 for v in labels.values() if v["known"])
            cut = [r for r in records if r.get("truncated")]
            cut_answerable = sum(1 for r in cut if not r["is_unanswerable"])
            steps = decode_steps(tokenizer, task, rows, records, cfg.eval_batch_size, budget)
            print(f"{name} split, budget {budget} tokens: {len(rows)} questions "
                  f"({len(answerable)} answerable, {len(rows) - len(answerable)} "
                  f"unanswerable); known {known} of {len(answerable)} answerable; "
                  f"truncated {len(cut)} of {len(records)} ({cut_answerable} answerable); "
                  f"{out['seconds']:.1f} s wall ({out['seconds'] / max(len(rows), 1):.3f} "
                  f"s/question), {out['cpu_seconds']:.1f} s CPU (all threads), {steps} "
                  f"decode steps in {-(-len(rows) // cfg.eval_batch_size)} batches")
            if name == "train":
                keep = [ex for i, ex in enumerate(train)
                        if ex["is_unanswerable"] or labels.get(i, {}).get("known")]
                kept = cap_unanswerable(keep, cfg.max_unanswerable_share, cfg.seed)
                n_unans = sum(1 for ex in kept if ex["is_unanswerable"])
                print(f"  main job's training rows: {len(kept) - n_unans} known answerable + "
                      f"{n_unans} unanswerable (max_unanswerable_share "
                      f"{cfg.max_unanswerable_share})")
            dump += [{**{k: r.get(k) for k in ("id", "question", "expected_answer",
                                                  "is_unanswerable", "completion", "outcome",
                                                  "num_tokens", "truncated")},
                      "split": name, "budget": budget} for r in records]
    if args.dump:
        write_jsonl(args.dump, dump)
        print(f"wrote {len(dump)} records to {args.dump}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
