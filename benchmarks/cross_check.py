"""Measure the main job's likelihood cross-task check (`rlvr.eval.cross_check`).

    .venv/bin/python benchmarks/cross_check.py                  # default model, limit 50
    .venv/bin/python benchmarks/cross_check.py --limit 20 --lora-scale 0

Loads the default model (SmolLM2-135M-Instruct), wraps it in the main job's LoRA shape
(configs/selfaware_grpo_cpu.yaml: r 16, alpha 32, q/k/v/o projections) with B drawn at
random (std `--lora-scale`, so "trained" differs from base; 0 = the identity adapter), and
runs `likelihood_check` exactly as `rlvr train` does: gsm8k, triviaqa, humaneval, mbpp, base
through `disable_adapter()` and trained, in one process. Rows come from the packaged subsets
(offline, no hub probe). The time covers row loading, tokenization, both models' forward
passes and the bootstrap, not the model load (the main job has the model in memory).
`--distractors 0 --abstention none` scores the gold continuation alone (the check before
the knowledge-or-willingness figures); the difference of the two runs is their cost. On a
machine other jobs share, `OMP_NUM_THREADS=1` gives steadier figures (two threads then wait
on each other at every operation, more so the more forward passes a run makes).

Prints the machine's fp32 matmul throughput, the check's seconds, the tokens scored, the
effective forward throughput (2 x parameters x tokens, both models), and the table.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from machine import matmul_gflops

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))


def per_task_arg(text: str):
    """"4" -> 4; "default=10,triviaqa=50" -> {"default": 10, "triviaqa": 50}."""
    if "=" not in text:
        return int(text)
    return {k.strip(): int(v) for k, v in (part.split("=", 1) for part in text.split(","))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=per_task_arg, default=50,
                        help="rows per task (default 50), or per task: default=10,triviaqa=50")
    parser.add_argument("--lora-scale", type=float, default=0.02,
                        help="std of the random LoRA B weights (0 = identity adapter)")
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--distractors", type=per_task_arg, default=4,
                        help="other rows' gold answers ranked with the gold (0 = no ranking), "
                             "or per task: triviaqa=4 (tasks not named: 0)")
    parser.add_argument("--abstention", default="I don't know.",
                        help='abstention continuation ("none" = no abstention figure)')
    args = parser.parse_args()

    import torch
    from peft import LoraConfig, get_peft_model

    from rlvr.eval.cross_check import DEFAULT_TASKS, likelihood_check
    from rlvr.eval.cross_check_table import cross_check_table
    from rlvr.tasks.sources import DataResolver
    from rlvr.models import load_causal_lm

    print(f"machine: matmul {matmul_gflops():.0f} GFLOP/s (fp32, 1024x1024 @ 1024x4096), "
          f"torch threads {torch.get_num_threads()}", flush=True)
    start = time.perf_counter()
    model, tokenizer = load_causal_lm(None)
    params = sum(p.numel() for p in model.parameters())
    torch.manual_seed(0)  # LoRA A is drawn from the global generator: the same adapter every run
    peft = get_peft_model(model, LoraConfig(r=16, lora_alpha=32, lora_dropout=0.05,
                                            target_modules=["q_proj", "k_proj", "v_proj",
                                                            "o_proj"]))
    with torch.no_grad():
        generator = torch.Generator().manual_seed(0)
        for name, param in peft.named_parameters():
            if "lora_B" in name:
                param.zero_()
                if args.lora_scale:
                    param.normal_(0, args.lora_scale, generator=generator)
    print(f"model load + LoRA: {time.perf_counter() - start:.1f} s ({params / 1e6:.1f} M "
          "parameters)", flush=True)

    abstention = None if args.abstention.lower() == "none" else args.abstention
    start = time.perf_counter()
    check = likelihood_check(None, peft, tokenizer, DEFAULT_TASKS, limit=args.limit, seed=42,
                             bootstrap_samples=2000, resolver=DataResolver("packaged"),
                             batch_size=args.batch_size, distractors=args.distractors,
                             abstention=abstention)
    seconds = time.perf_counter() - start
    tokens = sum(r["tokens"] for r in check["tasks"].values())
    print(f"likelihood check: {seconds:.1f} s wall for {len(check['tasks'])} tasks x "
          f"{args.limit} rows, base + trained; {tokens:,} continuation tokens per model")
    full = _full_tokens(tokenizer, check, args.limit, args.distractors, abstention)
    print(f"tokens through the model (contexts once + continuations, both models): {2 * full:,}; "
          f"{2 * full / seconds:,.0f} tokens/s, about "
          f"{2 * full * 2 * params / seconds / 1e9:.0f} GFLOP/s")
    for name, r in check["tasks"].items():
        print(f"  {name}: base {r['seconds']['base']:.1f} s, trained "
              f"{r['seconds']['trained']:.1f} s for {r['n']} rows ({r['tokens']:,} "
              f"continuation tokens)")
    print()
    print(cross_check_table(check))


def _full_tokens(tokenizer, check, limit, distractors, abstention) -> int:
    """Tokens one model reads: each row's context once (its continuations share it when
    there are several) plus every continuation (about; boundary merges ignored)."""
    from rlvr.eval.cross_check import load_check_rows, per_task, task_groups
    from rlvr.eval.likelihood import render_context
    from rlvr.tasks.sources import DataResolver

    def count(text: str) -> int:
        return len(tokenizer(text, add_special_tokens=False)["input_ids"])

    rows, _, _, pools = load_check_rows(list(check["tasks"]), limit, 42,
                                        DataResolver("packaged"))
    total = 0
    for name, task_rows in rows.items():
        for group in task_groups(name, task_rows, pools[name], per_task(distractors, name, 0),
                                 42, abstention):
            total += count(render_context(tokenizer, group["context"]))
            total += sum(count(text) for text in group["continuations"])
    return total


if __name__ == "__main__":
    main()
