"""Generation engines side by side: transformers fp32, transformers bf16 and vLLM fp32 (CPU
build) for evaluation, and GRPO rollouts with and without vLLM.

Evaluation: the main job's prompt (`configs/selfaware_grpo_cpu.yaml`: system prompt,
exemplars, the `selfaware` reward with its preset) on the built-in data's held-out
questions (`rlvr.train.data_prep.prepare_data`), answered greedily through the runner
`rlvr eval` uses (`rlvr.eval.runner.generate_task_records`) with each engine. Prints
questions per second (generation and scoring; model loading and the engine's start-up are
printed apart, after a 2-question warm-up), and against transformers fp32: the share of
identical answer texts and the share of identical `selfaware` rewards.

GRPO: `rlvr train` on the same config in a subprocess (`max_steps` small, `train_answerable:
all` and `skip_eval: true` so no base-model labelling or report runs, `profile_steps: true`),
once with `use_vllm: false` and once with `use_vllm: true` (colocated vLLM on CPU,
`rlvr.train.vllm_cpu`); prints the median seconds per step and of its generation part
(steps after the first; the first holds warm-ups) read from the run's metrics.jsonl.

Needs vLLM's CPU build (`bash scripts/install.sh --vllm`). The last line reads
`eval speedup vs transformers: <x>x, identical greedy answers: <p>%` (vLLM fp32 vs
transformers fp32).

    .venv/bin/python benchmarks/generation_engines.py --quick      # < 10 min on 2 cores
    .venv/bin/python benchmarks/generation_engines.py              # every held-out question
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "configs" / "selfaware_grpo_cpu.yaml"
sys.path.insert(0, str(Path(__file__).resolve().parent))


def answer(engine, tokenizer, task, rows, cfg, label: str) -> dict:
    """Greedy, scored answers to `rows` with a model or engine; seconds after a warm-up."""
    from rlvr.eval.runner import generate_task_records

    settings = {"batch_size": cfg.eval_batch_size, "num_samples": 1, "temperature": 0.0,
                "seed": cfg.seed, "max_new_tokens": task.max_new_tokens}
    generate_task_records(engine, tokenizer, task, rows[:2], [], settings, label + " warm-up")
    start = time.perf_counter()
    records = generate_task_records(engine, tokenizer, task, rows, [], settings, label)
    seconds = time.perf_counter() - start
    return {"records": records, "seconds": seconds, "q_per_s": len(rows) / seconds}


def agreement(records: list[dict], reference: list[dict]) -> tuple[float, float]:
    """(share of identical completion texts, share of identical rewards), in [0, 1]."""
    n = len(reference)
    text = sum(a["completion"] == b["completion"] for a, b in zip(records, reference)) / n
    reward = sum(a["reward"] == b["reward"] for a, b in zip(records, reference)) / n
    return text, reward


def eval_engines(cfg, limit: int | None) -> dict[str, dict]:
    """transformers fp32, transformers bf16, vLLM fp32 on the held-out rows."""
    from rlvr.eval.vllm_engine import VllmEngine
    from rlvr.models import load_causal_lm, load_tokenizer, resolve_model
    from rlvr.tasks.heldout import heldout_rows, run_task
    from rlvr.train.data_prep import prepare_data

    _, _, heldout = prepare_data(cfg)
    rows = heldout_rows(heldout)[:limit]
    budget = cfg.eval_max_new_tokens or cfg.max_completion_length
    task = run_task(cfg.reward, cfg.reward_preset, cfg.reward_params, budget)
    print(f"eval: {len(rows)} held-out questions of the built-in set, main job's prompt, "
          f"greedy, up to {budget} tokens, batch {cfg.eval_batch_size} (transformers)")
    out = {}
    for name, dtype in (("transformers fp32", "float32"), ("transformers bf16", "bfloat16")):
        start = time.perf_counter()
        model, tokenizer = load_causal_lm(cfg.model, dtype=dtype)
        load = time.perf_counter() - start
        out[name] = {**answer(model, tokenizer, task, rows, cfg, name), "startup_s": load}
        del model
    path = resolve_model(cfg.model)
    tokenizer = load_tokenizer(path)
    engine = VllmEngine(path, "float32", enforce_eager=True, seed=cfg.seed)
    start = time.perf_counter()
    engine.llm  # noqa: B018 - builds the engine (timed apart)
    load = time.perf_counter() - start
    out["vllm fp32"] = {**answer(engine, tokenizer, task, rows, cfg, "vllm fp32"),
                        "startup_s": load}
    engine.close()
    return out


def grpo_step_seconds(use_vllm: bool, steps: int, out_dir: Path) -> dict:
    """`rlvr train` on the main config for `steps` steps; median s/step (steps after the
    first) and median generation seconds, from the run's profile events."""
    rlvr = Path(sys.executable).with_name("rlvr")
    run_dir = out_dir / ("vllm" if use_vllm else "transformers")
    sets = [f"max_steps={steps}", "train_answerable=all", "skip_eval=true",
            "cross_check=none", "profile_steps=true", "report_to=none", "rollout_log=none",
            "save_steps=1000", "save_minutes=null", f"use_vllm={str(use_vllm).lower()}"]
    cmd = [str(rlvr), "train", "--config", str(CONFIG), "--output-dir", str(run_dir)]
    for item in sets:
        cmd += ["--set", item]
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-5:]
        return {"error": " | ".join(tail), "wall_s": wall}
    profile = [json.loads(line) for line in (run_dir / "metrics.jsonl").read_text().splitlines()
               if '"profile"' in line]
    later = profile[1:] or profile
    return {"wall_s": wall, "steps": len(profile),
            "s_per_step": statistics.median(p["profile/step_s"] for p in later),
            "generate_s": statistics.median(p["profile/generate_s"] for p in later),
            "first_step_s": profile[0]["profile/step_s"] if profile else None}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="24 questions and 3 GRPO steps per engine (< 10 min on 2 cores)")
    parser.add_argument("--limit", type=int, help="held-out questions (default: all; 24 quick)")
    parser.add_argument("--steps", type=int, help="GRPO steps per engine (default 5; 3 quick)")
    parser.add_argument("--skip-grpo", action="store_true")
    args = parser.parse_args()
    limit = args.limit or (24 if args.quick else None)
    steps = args.steps or (3 if args.quick else 5)

    from machine import matmul_gflops

    from rlvr.config import load_config

    print(f"machine: {matmul_gflops():.0f} GFLOP/s fp32 matmul (torch default threads)",
          flush=True)
    cfg = load_config(str(CONFIG))
    results = eval_engines(cfg, limit)
    reference = results["transformers fp32"]["records"]
    for name, r in results.items():
        text, reward = agreement(r["records"], reference)
        print(f"  {name:18} {r['q_per_s']:6.2f} questions/s ({r['seconds']:6.1f} s; start-up "
              f"{r['startup_s']:5.1f} s)  identical text {100 * text:5.1f}%  identical "
              f"selfaware reward {100 * reward:5.1f}%", flush=True)
    if not args.skip_grpo:
        print(f"GRPO: rlvr train --config {CONFIG.relative_to(ROOT)}, {steps} steps, "
              "train_answerable all, no evaluation", flush=True)
        with tempfile.TemporaryDirectory() as tmp:
            for use_vllm in (False, True):
                r = grpo_step_seconds(use_vllm, steps, Path(tmp))
                label = "use_vllm true " if use_vllm else "use_vllm false"
                if "error" in r:
                    print(f"  {label}: failed after {r['wall_s']:.0f} s: {r['error']}")
                    continue
                print(f"  {label}: {r['s_per_step']:.1f} s/step (median of steps 2-"
                      f"{r['steps']}; generation {r['generate_s']:.1f} s of it; first step "
                      f"{r['first_step_s']:.1f} s; whole command {r['wall_s']:.0f} s)",
                      flush=True)
    speedup = results["vllm fp32"]["q_per_s"] / results["transformers fp32"]["q_per_s"]
    text, _ = agreement(results["vllm fp32"]["records"], reference)
    print(f"eval speedup vs transformers: {speedup:.1f}x, identical greedy answers: "
          f"{100 * text:.0f}%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
