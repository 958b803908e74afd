"""Questions per second of `rlvr eval` vs lm-evaluation-harness (HF backend), one run.

Both answer the same GSM8K test questions with the same model, the same rendered prompts
(rlvr's gsm8k task prompt through the model's chat template), the same maximum new
tokens and greedy decoding; both stop at the end-of-turn token. Timings exclude model
loading. Prints each tool's questions/s, the ratio and how many outputs agree exactly.

    pip install -e ".[bench]"           # lm-eval is not a core dependency
    .venv/bin/python benchmarks/eval_throughput.py --limit 100 --max-new-tokens 128

`--lm-eval-batch-size` defaults to lm-eval's own default (1); pass the rlvr batch size
too to compare the two at equal batch size.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=None, help="model spec (default: SmolLM2-135M)")
    parser.add_argument("--data-dir", default=str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--limit", type=int, default=100)
    parser.add_argument("--max-new-tokens", type=int, default=128)
    parser.add_argument("--batch-size", type=int, default=16, help="rlvr eval batch size")
    parser.add_argument("--lm-eval-batch-size", type=int, nargs="+", default=[1])
    parser.add_argument("--output-dir", default=str(ROOT / "runs" / "bench_eval_throughput"))
    args = parser.parse_args()

    import torch

    torch.set_num_threads(2)
    from rlvr.eval.generate import render_prompts
    from rlvr.eval.runner import run_eval
    from rlvr.eval.tasks import get_task
    from rlvr.io import read_jsonl
    from rlvr.models import load_causal_lm, resolve_model

    model, tokenizer = load_causal_lm(args.model)
    results = run_eval(args.model, ["gsm8k"], output_dir=args.output_dir, limit=args.limit,
                       batch_size=args.batch_size, data_dir=args.data_dir,
                       max_new_tokens=args.max_new_tokens, loaded_model=(model, tokenizer))
    rlvr_s = results["meta"]["timings_s"]["base/gsm8k"]
    records = read_jsonl(Path(args.output_dir) / "samples_base_gsm8k.jsonl")
    rlvr_out = [r["completion"] for r in records]
    task = get_task("gsm8k")
    contexts = render_prompts(tokenizer, [task.build_prompt(r) for r in records])
    n = len(contexts)
    print(f"rlvr eval: {n} questions in {rlvr_s:.1f} s = {n / rlvr_s:.3f} questions/s "
          f"(batch {args.batch_size}, generation + scoring)")

    from lm_eval.api.instance import Instance
    from lm_eval.models.huggingface import HFLM

    path = resolve_model(args.model)
    for bs in args.lm_eval_batch_size:
        lm = HFLM(pretrained=path, batch_size=bs, device="cpu", dtype="float32")
        gen = {"until": [tokenizer.eos_token], "max_gen_toks": args.max_new_tokens,
               "do_sample": False}
        requests = [Instance(request_type="generate_until", doc={}, arguments=(c, dict(gen)),
                             idx=i) for i, c in enumerate(contexts)]
        start = time.perf_counter()
        outs = lm.generate_until(requests, disable_tqdm=False)
        lm_s = time.perf_counter() - start
        agree = sum(a.strip() == b.strip() for a, b in zip(rlvr_out, outs))
        print(f"lm-eval HF (batch {bs}): {n} questions in {lm_s:.1f} s = {n / lm_s:.3f} "
              f"questions/s")
        print(f"  ratio rlvr / lm-eval = {lm_s / rlvr_s:.2f}x; identical outputs: "
              f"{agree} of {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
