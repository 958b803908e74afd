"""What running a batch's shared prompt prefix once (`share_prompt_prefix`) saves, and whether
it changes anything.

    .venv/bin/python benchmarks/prefix_sharing.py                  # passes, then 2 x 2 runs
    .venv/bin/python benchmarks/prefix_sharing.py --train-steps 0  # the passes only (~1 min)

Part 1, the passes: one GRPO batch of the main job (configs/selfaware_grpo_cpu.yaml: its
system prompt and exemplars, 8 training questions x 4 completions sampled by the default
model, at most 12 tokens), the default model with a LoRA adapter whose B matrices are not
zero, TRL's fused LM head. Times the reference forward (adapter off, no grad) and the
policy's forward + backward, full pass against shared prefix (best of `--repeats`), and
prints the largest log-prob and relative gradient differences.

Part 2, training: `rlvr train` on the main job's config for `--train-steps` steps with the
option on and off, alternated (on off on off), `profile_steps: true`, a held-out set cut
to 8 questions and no cross-check (so that the runs are mostly training). Prints the median
seconds a step and per part (steps after the first), the ratio, and how many sampled
completions are the same in the two arms at every step (same seed: equal log-probs give
equal samples until a float difference flips a token).
Every figure is printed beside the machine's fp32 matmul throughput.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import matmul_gflops  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "configs" / "selfaware_grpo_cpu.yaml"


def _batch(cfg, tokenizer, model, prompts: int, generations: int):
    """Left-padded prompt ids + sampled completion ids, TRL's layout."""
    import torch

    from rlvr.train.data_prep import prepare_data

    _, train, _ = prepare_data(cfg)
    texts = [tokenizer.apply_chat_template(ex["prompt"], add_generation_prompt=True,
                                           tokenize=False) for ex in train[:prompts]]
    texts = [t for t in texts for _ in range(generations)]
    tokenizer.padding_side = "left"
    enc = tokenizer(texts, return_tensors="pt", padding=True, add_special_tokens=False)
    torch.manual_seed(0)
    with torch.no_grad():
        out = model.generate(**enc, do_sample=True, temperature=cfg.temperature,
                             max_new_tokens=cfg.max_completion_length,
                             pad_token_id=tokenizer.pad_token_id)
    completion = out[:, enc.input_ids.size(1):]
    ends = (completion == tokenizer.eos_token_id).int()
    after = ends.cumsum(1) - ends  # tokens after the first end-of-sequence
    mask = (after == 0).long()
    ids = torch.cat([enc.input_ids, completion.masked_fill(mask == 0, tokenizer.pad_token_id)], 1)
    return ids, torch.cat([enc.attention_mask, mask], 1), completion.size(1)


def passes(repeats: int) -> None:
    import torch
    from peft import get_peft_model
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl.trainer.utils import add_fused_lm_head

    from rlvr.config.loading import load_config
    from rlvr.models import default_model_dir
    from rlvr.train.fit import lora_config
    from rlvr.train.prefix_sharing import common_prefix_length, shared_prefix_logps
    from rlvr.train.speedups import compact_logprobs

    compact_logprobs()
    cfg = load_config(CONFIG)
    path = default_model_dir()
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32)
    rows = cfg.per_device_train_batch_size // cfg.num_generations
    ids, mask, keep = _batch(cfg, tokenizer, model, rows, cfg.num_generations)
    add_fused_lm_head(model)
    model = get_peft_model(model, lora_config(cfg))
    torch.manual_seed(1)
    for name, param in model.named_parameters():
        if "lora_B" in name:
            torch.nn.init.normal_(param, std=0.02)
    model.train()
    prefix = common_prefix_length(ids, mask, ids.size(1) - keep)
    completion = mask[:, -keep:].float()
    pad = tokenizer.pad_token_id

    def full():
        labels = ids.masked_fill(mask == 0, -100)
        labels[:, :-keep] = -100
        return model(input_ids=ids, attention_mask=mask, labels=labels,
                     fused_lm_head=True).log_probs[:, -keep:]

    def shared():
        return shared_prefix_logps(model, ids, mask, keep, prefix, pad)[0]

    def reference(fn):
        with torch.no_grad(), model.disable_adapter():
            fn()

    def policy(fn):
        model.zero_grad()
        (fn() * completion).sum().backward()

    def grads():
        return {n: p.grad.clone() for n, p in model.named_parameters() if p.grad is not None}

    policy(full)
    full_grads, full_logps = grads(), full().detach()
    policy(shared)
    shared_grads, shared_logps = grads(), shared().detach()
    gap = float(((full_logps - shared_logps) * completion).abs().max())
    rel = max(float((full_grads[n] - shared_grads[n]).norm() / full_grads[n].norm())
              for n in full_grads)

    def best(fn, arg):
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            fn(arg)
            times.append(time.perf_counter() - start)
        return min(times)

    print(f"machine: {matmul_gflops():.0f} GFLOP/s fp32 matmul")
    print(f"batch: {ids.size(0)} rows x {ids.size(1)} columns ({keep} completion columns), "
          f"{prefix} prompt tokens shared by every row")
    print(f"largest |log-prob difference| {gap:.1e}; largest relative gradient "
          f"difference {rel:.1e}")
    for name, fn in (("reference forward", reference), ("policy forward + backward", policy)):
        a, b = best(fn, full), best(fn, shared)
        print(f"{name}: full {a:.2f} s, shared prefix {b:.2f} s, {a / b:.2f}x")
    print(f"machine after: {matmul_gflops():.0f} GFLOP/s fp32 matmul")


def _run(out: Path, share: bool, steps: int) -> float:
    command = [str(ROOT / ".venv" / "bin" / "rlvr"), "train", "--config", str(CONFIG),
               "--output-dir", str(out), "--overwrite", "--max-steps", str(steps),
               "--set", "profile_steps=true", "--set", "cross_check=none",
               "--set", "eval_limit=8", "--set", f"share_prompt_prefix={str(share).lower()}"]
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def _profile(run: Path) -> list[dict]:
    lines = (run / "metrics.jsonl").read_text().splitlines()
    return [r for r in map(json.loads, lines) if r.get("event") == "profile"]


def _completions(run: Path) -> dict[int, list[str]]:
    steps: dict[int, list[str]] = {}
    for line in (run / "rollouts.jsonl").read_text().splitlines():
        row = json.loads(line)
        steps.setdefault(row["step"], []).append(row["completion"])
    return steps


def training(steps: int, folder: Path) -> None:
    parts = ("generate_s", "ref_forward_s", "policy_forward_s", "backward_s", "step_s")
    seen: dict[bool, list[dict]] = {True: [], False: []}
    runs: dict[bool, list[Path]] = {True: [], False: []}
    for index, share in enumerate((True, False, True, False)):
        gflops = matmul_gflops()
        out = folder / f"{'on' if share else 'off'}{index // 2}"
        wall = _run(out, share, steps)
        profile = _profile(out)[1:]  # the first step warms up
        seen[share] += profile
        runs[share].append(out)
        step = statistics.median(p["profile/step_s"] for p in profile)
        print(f"share_prompt_prefix {str(share).lower():5}: {wall:.0f} s command, "
              f"{step:.2f} s a step (median, steps 2-{steps}), {gflops:.0f} GFLOP/s before")
    for part in parts:
        on = statistics.median(p[f"profile/{part}"] for p in seen[True])
        off = statistics.median(p[f"profile/{part}"] for p in seen[False])
        print(f"  {part[:-2]:15}: off {off:.2f} s, on {on:.2f} s, off / on = {off / on:.2f}x")
    for pair, (a, b) in enumerate(zip(runs[True], runs[False])):
        x, y = _completions(a), _completions(b)
        same = sum(u == v for s in x for u, v in zip(x[s], y.get(s, [])))
        total = sum(len(x[s]) for s in x)
        print(f"pair {pair}: identical sampled completions {same}/{total}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--train-steps", type=int, default=4)
    parser.add_argument("--output-dir", default=str(ROOT / "runs" / "bench_prefix_sharing"))
    args = parser.parse_args()
    passes(args.repeats)
    if args.train_steps:
        training(args.train_steps, Path(args.output_dir))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
