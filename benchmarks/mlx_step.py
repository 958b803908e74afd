"""Measure seconds per GRPO step of `backend: mlx` (mlx-lm-lora) on the default model.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/mlx_step.py              # main-job setting
    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/mlx_step.py --compare-trl --steps 3

The setting is the CPU main job's (configs/selfaware_grpo_cpu.yaml: 8 prompts x 4
completions per step, 12 new tokens, LoRA r 16 on q/k/v/o, its KL beta, built-in data) with
`train_answerable: all` (no knowledge pass, so no torch model is needed) and `--steps`
optimizer steps. Prints the machine's fp32 matmul throughput first (torch, and MLX's own
CPU matmul, which goes through the BLAS its wheel bundles), then each step's seconds and
the mean over the steps after the first (the first includes MLX's graph compilation).
`--compare-trl` runs TRL's GRPOTrainer on the same rows and settings for the same number
of steps and prints its seconds per step.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from machine import matmul_gflops  # noqa: E402  (benchmarks/ is on sys.path)


def mlx_gflops(size: int = 512) -> float:
    """fp32 size x size matmul throughput of MLX on the CPU, GFLOP/s."""
    from rlvr.train.mlx.model import use_system_blas

    use_system_blas()  # as the backend does (RLVR_MLX_BLAS=bundled: the wheel's own BLAS)
    import mlx.core as mx

    mx.set_default_device(mx.cpu)
    a, b = mx.random.normal((size, size)), mx.random.normal((size, size))
    mx.eval(a @ b)
    n, start = 5, time.perf_counter()
    for _ in range(n):
        mx.eval(a @ b)
    return 2 * size ** 3 * n / (time.perf_counter() - start) / 1e9


def settings(args) -> dict:
    return {"backend": "mlx", "train_answerable": "all", "max_steps": args.steps,
            "save_steps": 10 ** 6, "report_to": "none", "skip_eval": True,
            "diagnostics": True, "seed": 0}


def run_trl(cfg, columns, steps: int) -> float:
    """Seconds per step of TRL's GRPOTrainer on the same rows and settings."""
    import torch
    from datasets import Dataset
    from transformers import AutoModelForCausalLM
    from trl import GRPOTrainer

    from rlvr.models import load_tokenizer, resolve_model
    from rlvr.train.grpo import grpo_args, lora_config, reward_functions

    torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "1")))
    path = resolve_model(cfg.model)
    funcs, weights = reward_functions(cfg)
    with tempfile.TemporaryDirectory() as tmp:
        trainer = GRPOTrainer(model=AutoModelForCausalLM.from_pretrained(path,
                                                                         dtype=torch.float32),
                              reward_funcs=funcs, args=grpo_args(cfg, Path(tmp), weights),
                              train_dataset=Dataset.from_dict(columns),
                              processing_class=load_tokenizer(path), peft_config=lora_config(cfg))
        start = time.perf_counter()
        trainer.train()
        return (time.perf_counter() - start) / max(1, trainer.state.global_step)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default=str(ROOT / "configs" / "selfaware_grpo_cpu.yaml"))
    parser.add_argument("--steps", type=int, default=4)
    parser.add_argument("--compare-trl", action="store_true")
    args = parser.parse_args()

    import logging

    logging.basicConfig(level=logging.WARNING)
    from rlvr.config import load_config
    from rlvr.train.data_prep import cap_unanswerable, prepare_data, training_columns
    from rlvr.train.mlx.backend import run_mlx
    from rlvr.train.mlx.settings import prompts_per_step

    print(f"threads: OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}", flush=True)
    print(f"machine: matmul {matmul_gflops():.1f} GFLOP/s (fp32, torch); MLX CPU matmul "
          f"{mlx_gflops():.1f} GFLOP/s (fp32, 512^3, "
          f"RLVR_MLX_BLAS={os.environ.get('RLVR_MLX_BLAS', 'system')})", flush=True)
    cfg = load_config(args.config, settings(args))
    _, train, _ = prepare_data(cfg)
    if cfg.max_unanswerable_share is not None:
        train = cap_unanswerable(train, cfg.max_unanswerable_share, cfg.seed)
    columns = training_columns(train)
    print(f"setting: {args.config}, {prompts_per_step(cfg)} "
          f"prompts x {cfg.num_generations} completions per step, {cfg.max_completion_length} "
          f"new tokens, LoRA r {cfg.lora_r} on {cfg.lora_target_modules}, beta {cfg.beta}, "
          f"{len(train)} rows, {args.steps} steps", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        result = run_mlx(cfg, columns, tmp)
    per_step = [h["seconds_per_step"] for h in result.log_history]
    later = per_step[1:] or per_step
    print("mlx seconds per step: " + ", ".join(f"{s:.2f}" for s in per_step))
    print(f"mlx: {sum(later) / len(later):.2f} s/step (mean after the first); "
          f"train_grpo total {result.train_s:.1f} s for {result.global_step} steps")
    if args.compare_trl:
        print(f"trl: {run_trl(cfg, columns, args.steps):.2f} s/step (mean incl. the first)")


if __name__ == "__main__":
    main()
