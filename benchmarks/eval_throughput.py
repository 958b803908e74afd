"""Questions per second of `rlvr eval` vs lm-evaluation-harness (HF backend) at equal batch
size.

Both answer the same GSM8K test questions with the same model, the same rendered prompts
(rlvr's gsm8k task prompt through the model's chat template), the same maximum new
tokens, greedy decoding and the same stop conditions (the end-of-turn token and the
task's stop strings, if any). For each batch size B given, `rlvr eval` runs with batch
size B and lm-eval with batch size B. Timings exclude model loading; rlvr's include
scoring. Prints the machine's matmul GFLOP/s, each tool's questions/s, the ratio and how
many outputs agree exactly (after stripping whitespace).

    pip install -e ".[bench]"           # lm-eval is not a core dependency
    .venv/bin/python benchmarks/eval_throughput.py --limit 100 --max-new-tokens 128 \\
        --batch-size 16 8

`rlvr eval` decodes with transformers' `generate` per batch (`--engine vllm`: with vLLM's CPU
build at `max_num_seqs` = the batch size, its start-up not timed); `--floor` adds the time of
the bare forward passes a static
batch needs when every row runs to the token cap (prefill of each length-sorted batch,
then max_new_tokens - 1 one-token steps with a KV cache, no generation logic).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))


def forward_floor(model, tokenizer, contexts, batch_size: int, max_new_tokens: int) -> float:
    """Seconds of bare batched forward passes: for each batch of `contexts` (longest token
    count first), one left-padded prefill and max_new_tokens - 1 one-token decode steps
    with a DynamicCache, greedy argmax fed back; no stop checks (every row to the cap)."""
    import torch
    from transformers import DynamicCache

    encoded = sorted((tokenizer(c, add_special_tokens=False)["input_ids"] for c in contexts),
                     key=lambda ids: -len(ids))
    start = time.perf_counter()
    with torch.no_grad():
        for first in range(0, len(encoded), batch_size):
            batch = encoded[first:first + batch_size]
            width = max(len(ids) for ids in batch)
            ids = torch.tensor([[tokenizer.pad_token_id] * (width - len(x)) + x for x in batch])
            mask = torch.tensor([[0] * (width - len(x)) + [1] * len(x) for x in batch])
            pos = (mask.cumsum(-1) - 1).masked_fill(mask == 0, 0)
            cache = DynamicCache(config=model.config)
            out = model(input_ids=ids, attention_mask=mask, position_ids=pos, cache=cache,
                        use_cache=True, logits_to_keep=1)
            last = pos[:, -1]
            for _ in range(max_new_tokens - 1):
                mask = torch.cat([mask, mask.new_ones((len(batch), 1))], dim=1)
                last = last + 1
                out = model(input_ids=out.logits[:, -1].argmax(-1)[:, None],
                            attention_mask=mask, position_ids=last[:, None], cache=cache,
                            use_cache=True, logits_to_keep=1)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "),
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--model", default=None, help="model spec (default: SmolLM2-135M)")
    parser.add_argument("--data-dir", default=str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--limit", type=int, default=100)
    parser.add_argument("--max-new-tokens", type=int, default=128)
    parser.add_argument("--batch-size", type=int, nargs="+", default=[16],
                        help="batch sizes; each is used by both tools")
    parser.add_argument("--engine", choices=("transformers", "vllm"), default="transformers",
                        help="rlvr eval's engine (vllm: `bash scripts/install.sh --vllm`; "
                             "max_num_seqs = the batch size, start-up not timed)")
    parser.add_argument("--floor", action="store_true",
                        help="also time bare batched forward passes (see the docstring)")
    parser.add_argument("--output-dir", default=str(ROOT / "runs" / "bench_eval_throughput"))
    args = parser.parse_args()
    import importlib.util

    if importlib.util.find_spec("lm_eval") is None:  # before any timing or model load
        parser.exit(2, 'eval_throughput.py: lm-eval is not installed; run: '
                       'pip install -e ".[bench]"\n')

    import torch

    torch.set_num_threads(2)
    from machine import matmul_gflops

    from rlvr.eval.generate import generate_completions, render_prompts
    from rlvr.eval.runner import run_eval
    from rlvr.tasks.registry import get_task
    from rlvr.io import read_jsonl
    from rlvr.models import load_causal_lm, resolve_model

    print(f"machine: fp32 matmul {matmul_gflops():.1f} GFLOP/s, "
          f"{torch.get_num_threads()} torch threads")
    model, tokenizer = load_causal_lm(args.model)
    task = get_task("gsm8k")
    from lm_eval.api.instance import Instance
    from lm_eval.models.huggingface import HFLM

    lm = HFLM(pretrained=resolve_model(args.model), batch_size=1, device="cpu",
              dtype="float32")
    # warm-up of both tools (first-call allocations), so run order does not count
    warm = [task.build_prompt({"question": "What is 1 + 1?", "answer": "2"})] * 2
    generate_completions(model, tokenizer, warm, 4, batch_size=2, progress=False)
    lm.generate_until([Instance(request_type="generate_until", doc={}, idx=0, arguments=(
        render_prompts(tokenizer, warm)[0], {"until": [tokenizer.eos_token], "max_gen_toks": 4,
                                             "do_sample": False})) for _ in range(2)],
        disable_tqdm=True)
    for bs in args.batch_size:
        out_dir = Path(args.output_dir) / f"batch{bs}"
        engine = {"engine": "vllm"} if args.engine == "vllm" else \
            {"loaded_model": (model, tokenizer)}
        results = run_eval(args.model, ["gsm8k"], output_dir=out_dir, limit=args.limit,
                           batch_size=bs, data_dir=args.data_dir,
                           max_new_tokens=args.max_new_tokens, **engine)
        rlvr_s = results["meta"]["timings_s"]["base/gsm8k"]
        records = read_jsonl(out_dir / "samples_base_gsm8k.jsonl")
        rlvr_out = [r["completion"] for r in records]
        prompts = [task.build_prompt(r) for r in records]
        contexts = render_prompts(tokenizer, prompts)
        n = len(contexts)
        print(f"batch {bs}, {n} questions, max_new_tokens {args.max_new_tokens}:")
        print(f"  rlvr eval ({args.engine}): {rlvr_s:.1f} s = {n / rlvr_s:.3f} questions/s "
              f"(generation + scoring); {sum(r['num_tokens'] for r in records)} tokens "
              f"generated, {sum(bool(r['truncated']) for r in records)} rows at the cap")

        lm.batch_size_per_gpu = bs  # HFLM's batch size (its `batch_size` property)
        gen = {"until": [tokenizer.eos_token, *task.stop],
               "max_gen_toks": args.max_new_tokens, "do_sample": False}
        requests = [Instance(request_type="generate_until", doc={}, arguments=(c, dict(gen)),
                             idx=i) for i, c in enumerate(contexts)]
        start = time.perf_counter()
        outs = lm.generate_until(requests, disable_tqdm=True)
        lm_s = time.perf_counter() - start
        agree = sum(a.strip() == b.strip() for a, b in zip(rlvr_out, outs))
        print(f"  lm-eval HF: {lm_s:.1f} s = {n / lm_s:.3f} questions/s")
        print(f"  ratio rlvr / lm-eval = {lm_s / rlvr_s:.2f}x; identical outputs: "
              f"{agree} of {n}")
        if args.floor:
            floor_s = forward_floor(model, tokenizer, contexts, bs, args.max_new_tokens)
            print(f"  bare forward passes (every row to the cap): {floor_s:.1f} s = "
                  f"{n / floor_s:.3f} questions/s; ceiling of the ratio for a static "
                  f"batch: {lm_s / floor_s:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
