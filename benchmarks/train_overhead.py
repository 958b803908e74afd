"""What rlvr adds to a GRPO step over plain TRL, where a step's time goes, and how far a
step is from its compute floor.

Runs the same model, training rows, rewards and GRPO settings through
(a) `rlvr train` (`rlvr.config.load_config` + `rlvr.train.job.run`, with its callbacks,
    diagnostics, metrics file and checkpoints; `profile_steps: true`), and
(b) a minimal plain-TRL script (GRPOConfig + GRPOTrainer + peft LoraConfig, no rlvr
    callbacks), the rows and reward callables taken from rlvr's data and reward modules,
each in a fresh process, interleaved (a, b, a, b, ...; `--rounds`), every run `--steps`
optimizer steps. Both sides use `before/after evaluation off` (skip_eval), no trackers and
`train_answerable: all` (no base-model labelling), so only training is compared:

    flock /tmp/rlvr_cpu.lock .venv/bin/python benchmarks/train_overhead.py \\
        --config configs/selfaware_grpo_cpu.yaml --steps 5 --rounds 2
    flock /tmp/rlvr_cpu.lock .venv/bin/python benchmarks/train_overhead.py \\
        --config configs/gsm8k_grpo_cpu.yaml --steps 3 --rounds 1
    ... --set num_threads=1 --grpo '{"cache_implementation": "static"}' --only plain

Prints: the machine's fp32 matmul GFLOP/s; any difference between the two resolved
GRPOConfigs (and torch threads, dtype, attention kernel, LoRA targets, rows); each run's
step wall times (`StepProfiler`'s `step`: one `on_step_begin` to the next, callbacks and
checkpoint saves included); the median over steps (first step of each run left out as
warm-up) for rlvr and plain TRL and their ratio; the split of a step (median seconds and
share per part); and the compute floor (`rlvr.train.profiling.step_flops` / matmul
throughput) beside the measured time, per part. `--set` overrides go to both sides,
`--grpo` (JSON) adds GRPOConfig fields to both.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from machine import matmul_gflops

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
PARTS = ("generate", "reward", "ref_forward", "policy_forward", "backward", "optimizer", "other")
BENCH = {"skip_eval": True, "report_to": "none", "train_answerable": "all", "kshot_eval": None}
COMPARED = ("per_device_train_batch_size", "gradient_accumulation_steps", "steps_per_generation",
            "num_generations", "max_completion_length", "max_steps", "learning_rate",
            "lr_scheduler_type", "warmup_steps", "beta", "epsilon", "temperature", "top_p",
            "top_k", "loss_type", "scale_rewards", "reward_weights", "seed", "data_seed",
            "bf16", "fp16", "gradient_checkpointing", "use_cpu", "disable_dropout",
            "cache_implementation", "generation_kwargs", "use_transformers_continuous_batching",
            "pad_to_multiple_of", "max_grad_norm", "optim", "weight_decay", "torch_compile",
            "mask_truncated_completions", "num_iterations", "logging_steps")


def _parse_set(items: list[str]) -> dict:
    import yaml

    out = {}
    for item in items:
        key, _, value = item.partition("=")
        out[key] = yaml.safe_load(value)
    return out


def _settings(trainer, rows: list) -> dict:
    """The resolved settings both sides must share."""
    import hashlib

    import torch

    model = trainer.model
    lora = model.peft_config["default"]
    settings = {k: getattr(trainer.args, k, None) for k in COMPARED}
    settings.update({
        "torch_threads": torch.get_num_threads(),
        "dtype": str(next(model.parameters()).dtype),
        "attn_implementation": model.config._attn_implementation,
        "lora": [lora.r, lora.lora_alpha, lora.lora_dropout, sorted(lora.target_modules)],
        "rows": len(rows),
        "rows_sha256": hashlib.sha256(json.dumps(rows, sort_keys=True, default=str)
                                      .encode()).hexdigest()[:16],
        "reward_funcs": [getattr(f, "__name__", str(f)) for f in trainer.reward_funcs],
    })
    return {k: v if isinstance(v, (int, float, str, bool, list, type(None))) else str(v)
            for k, v in settings.items()}


def _model_shape(trainer) -> dict:
    from rlvr.train.profiling import matmul_params

    config = trainer.model.config
    return {"params": matmul_params(trainer.model), "layers": config.num_hidden_layers,
            "hidden": config.hidden_size}


def worker_rlvr(config: str, overrides: dict, grpo: dict, run_dir: Path) -> dict:
    """Train through rlvr's real path; return step records, logs and settings."""
    from rlvr.config import load_config
    from rlvr.train import grpo as grpo_module, job as job_module, profiling
    from rlvr.train.data_prep import training_columns

    captured = {}
    original_attach = profiling.StepProfiler.attach

    def attach(self, trainer):  # benchmark-only: keep the trainer and profiler to read
        captured.update(trainer=trainer, profiler=self)
        return original_attach(self, trainer)

    profiling.StepProfiler.attach = attach
    if grpo:  # extra GRPOConfig fields, as rlvr would pass them
        original_args = grpo_module.grpo_args

        def grpo_args(*args, **kwargs):
            result = original_args(*args, **kwargs)
            for key, value in grpo.items():
                setattr(result, key, value)
            return result

        grpo_module.grpo_args = grpo_args
    captured_rows = {}
    original_columns = training_columns

    def columns(*args, **kwargs):
        captured_rows["columns"] = original_columns(*args, **kwargs)
        return captured_rows["columns"]

    grpo_module.training_columns = columns
    cfg = load_config(config, {**overrides, "profile_steps": True, "output_dir": str(run_dir)})
    job_module.run(cfg)
    trainer = captured["trainer"]
    cols = captured_rows["columns"]
    rows = [dict(zip(cols, values)) for values in zip(*cols.values())]
    return {"steps": captured["profiler"].steps, "log": trainer.state.log_history,
            "settings": _settings(trainer, rows), "shape": _model_shape(trainer)}


def worker_plain(config: str, overrides: dict, grpo: dict, run_dir: Path) -> dict:
    """Train with plain TRL: the same rows, reward callables and GRPO settings."""
    import torch
    from datasets import Dataset
    from peft import LoraConfig
    from transformers import AutoModelForCausalLM, AutoTokenizer, set_seed
    from trl import GRPOConfig, GRPOTrainer

    from rlvr.config import load_config
    from rlvr.models import resolve_model
    from rlvr.rewards import make_trl_rewards
    from rlvr.config.checks import reward_entries
    from rlvr.train.data_prep import cap_unanswerable, prepare_data, training_columns
    from rlvr.train.profiling import StepProfiler

    cfg = load_config(config, {**overrides, "output_dir": str(run_dir)})
    _, train, _ = prepare_data(cfg)
    if cfg.max_unanswerable_share is not None:
        train = cap_unanswerable(train, cfg.max_unanswerable_share, cfg.seed)
    entries = reward_entries(cfg)
    cols = training_columns(train, with_known=False, entries=entries)
    reward_funcs, reward_weights = make_trl_rewards(entries, None)
    if cfg.num_threads:
        torch.set_num_threads(cfg.num_threads)
    set_seed(cfg.seed)
    path = resolve_model(cfg.model)
    tokenizer = AutoTokenizer.from_pretrained(path)
    tokenizer.padding_side = "left"
    tokenizer.pad_token = tokenizer.pad_token or tokenizer.eos_token
    model = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32)
    args = GRPOConfig(
        output_dir=str(run_dir), use_cpu=True, report_to="none", save_strategy="no",
        per_device_train_batch_size=cfg.per_device_train_batch_size,
        gradient_accumulation_steps=cfg.gradient_accumulation_steps,
        num_generations=cfg.num_generations, max_completion_length=cfg.max_completion_length,
        max_steps=cfg.max_steps, learning_rate=cfg.learning_rate,
        lr_scheduler_type=cfg.lr_scheduler_type, warmup_steps=cfg.warmup_ratio,
        beta=cfg.beta, epsilon=cfg.epsilon, temperature=cfg.temperature, top_p=cfg.top_p,
        loss_type=cfg.loss_type, scale_rewards=cfg.scale_rewards, seed=cfg.seed,
        data_seed=cfg.seed, reward_weights=reward_weights, logging_steps=cfg.logging_steps,
        gradient_checkpointing=cfg.gradient_checkpointing, bf16=False, **grpo)
    trainer = GRPOTrainer(
        model=model, reward_funcs=reward_funcs, args=args,
        train_dataset=Dataset.from_dict(cols), processing_class=tokenizer,
        peft_config=LoraConfig(r=cfg.lora_r, lora_alpha=cfg.lora_alpha,
                               lora_dropout=cfg.lora_dropout,
                               target_modules=cfg.lora_target_modules, task_type="CAUSAL_LM"))
    profiler = StepProfiler().attach(trainer)
    trainer.train()
    rows = [dict(zip(cols, values)) for values in zip(*cols.values())]
    return {"steps": profiler.steps, "log": trainer.state.log_history,
            "settings": _settings(trainer, rows), "shape": _model_shape(trainer)}


def _run(side: str, args, run_dir: Path) -> dict:
    out = run_dir.with_suffix(".json")
    cmd = [sys.executable, __file__, "--worker", side, "--config", args.config,
           "--steps", str(args.steps), "--out", str(out), "--run-dir", str(run_dir),
           "--grpo", args.grpo] + [x for s in args.set for x in ("--set", s)] \
        + (["--plain-compact"] if args.plain_compact else [])
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=env)
    if done.returncode:
        raise SystemExit(f"{side} run failed:\n{done.stderr[-4000:]}")
    return json.loads(out.read_text(encoding="utf-8"))


def step_tokens(log: list[dict], sequences: int) -> list[tuple[float, float, float]]:
    """(mean prompt tokens, mean completion tokens, longest completion) per logged step,
    from TRL's cumulative `num_tokens` (prompt + completion tokens) and completion lengths."""
    out, previous = [], 0.0
    for entry in log:
        if "num_tokens" not in entry or "completions/mean_length" not in entry:
            continue
        tokens = entry["num_tokens"] - previous
        previous = entry["num_tokens"]
        completion = entry["completions/mean_length"]
        out.append((tokens / sequences - completion, completion,
                    entry["completions/max_length"]))
    return out


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def report(results: dict[str, list[dict]], gflops: float) -> None:
    """Print the comparison, the split and the floor (module docstring)."""
    from rlvr.train.profiling import step_flops

    sides = [s for s in ("rlvr", "plain") if results[s]]
    settings = {s: results[s][0]["settings"] for s in sides}
    if len(sides) == 2:
        diff = {k: (settings["rlvr"].get(k), settings["plain"].get(k))
                for k in settings["rlvr"] if settings["rlvr"].get(k) != settings["plain"].get(k)}
        print("settings that differ (rlvr, plain):", diff or "none", flush=True)
    print("settings:", json.dumps(settings[sides[0]]), flush=True)
    medians = {}
    for side in sides:
        steps = [s for run in results[side] for s in run["steps"][1:]]  # warm-up left out
        medians[side] = _median([s["step"] for s in steps])
        print(f"{side}: median {medians[side]:.2f} s/step over {len(steps)} steps; runs: "
              + " | ".join(", ".join(f"{s['step']:.2f}" for s in run["steps"])
                           for run in results[side]), flush=True)
        split = {p: _median([s.get(p, 0.0) for s in steps]) for p in PARTS}
        print(f"  split (median s, share of median step): " + ", ".join(
            f"{p} {v:.2f} ({v / medians[side]:.0%})" for p, v in split.items()), flush=True)
    if len(sides) == 2:
        print(f"rlvr / plain TRL: {medians['rlvr'] / medians['plain']:.3f}", flush=True)
    side = sides[0]
    run, cfg = results[side][0], settings[side]
    sequences = cfg["per_device_train_batch_size"] * cfg["gradient_accumulation_steps"]
    floors, measured = [], []
    for run in results[side]:
        tokens = step_tokens(run["log"], sequences)
        for (prompt, completion, longest), steps in zip(tokens[1:], run["steps"][1:]):
            flops = step_flops(run["shape"]["params"], prompt, completion, sequences,
                               cfg["beta"], run["shape"]["layers"], run["shape"]["hidden"])
            padded = step_flops(run["shape"]["params"], prompt, longest, sequences,
                                cfg["beta"], run["shape"]["layers"], run["shape"]["hidden"])
            floors.append((flops, padded, prompt, completion, longest))
            measured.append(steps)
    if not floors:
        return
    total = _median([f[0]["total"] for f in floors])
    print(f"compute floor ({side}; N = {run['shape']['params'] / 1e6:.1f} M matmul params, "
          f"{sequences} sequences, median prompt {_median([f[2] for f in floors]):.0f} + "
          f"completion {_median([f[3] for f in floors]):.0f} tokens, longest completion "
          f"{_median([f[4] for f in floors]):.0f}):", flush=True)
    step = _median([m["step"] for m in measured])
    print(f"  step: {total / 1e9:.0f} GFLOP (padded to the longest completion: "
          f"{_median([f[1]['total'] for f in floors]) / 1e9:.0f}) -> floor {total / gflops / 1e9:.2f}"
          f" s at {gflops:.0f} GFLOP/s; measured {step:.2f} s = {step / (total / gflops / 1e9):.1f}x"
          " the floor", flush=True)
    for part, timed in (("generate", ("generate",)), ("ref_forward", ("ref_forward",)),
                        ("policy_fwd_bwd", ("policy_forward", "backward"))):
        flops = _median([f[0][part] for f in floors])
        seconds = _median([sum(m.get(p, 0.0) for p in timed) for m in measured])
        floor = flops / gflops / 1e9
        ratio = f"{seconds / floor:.1f}x" if floor else "-"
        print(f"  {part}: {flops / 1e9:.0f} GFLOP, floor {floor:.2f} s, measured {seconds:.2f} s"
              f" ({ratio})", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "),
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--config", default="configs/selfaware_grpo_cpu.yaml")
    parser.add_argument("--steps", type=int, default=5, help="optimizer steps per run")
    parser.add_argument("--rounds", type=int, default=2, help="rlvr, plain pairs")
    parser.add_argument("--set", action="append", default=[], help="key=value, both sides")
    parser.add_argument("--grpo", default="{}", help="JSON of extra GRPOConfig fields")
    parser.add_argument("--only", choices=("rlvr", "plain"), help="run one side only")
    parser.add_argument("--plain-compact", action="store_true",
                        help="plain TRL also gets rlvr.train.speedups.compact_logprobs, so "
                             "the ratio measures rlvr's layer alone (without it, the ratio "
                             "also holds the speed-up)")
    parser.add_argument("--worker", choices=("rlvr", "plain"), help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    parser.add_argument("--run-dir", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        overrides = {**BENCH, "max_steps": args.steps, **_parse_set(args.set)}
        work = worker_rlvr if args.worker == "rlvr" else worker_plain
        if args.worker == "plain" and args.plain_compact:
            from rlvr.train.speedups import compact_logprobs

            compact_logprobs()
        result = work(args.config, overrides, json.loads(args.grpo), Path(args.run_dir))
        Path(args.out).write_text(json.dumps(result, default=str), encoding="utf-8")
        return 0
    gflops = matmul_gflops()
    print(f"machine: {os.cpu_count()} CPUs, matmul {gflops:.0f} GFLOP/s (fp32, torch)",
          flush=True)
    print(f"config {args.config}, {args.steps} steps per run, {args.rounds} round(s), "
          f"--set {args.set}, --grpo {args.grpo}, plain TRL with compact_logprobs: "
          f"{args.plain_compact}", flush=True)
    sides = [args.only] if args.only else ["rlvr", "plain"]
    results: dict[str, list[dict]] = {"rlvr": [], "plain": []}
    with tempfile.TemporaryDirectory() as tmp:
        for index in range(args.rounds):
            for side in sides:
                result = _run(side, args, Path(tmp) / f"{side}{index}")
                results[side].append(result)
                print(f"round {index + 1} {side}: " + ", ".join(
                    f"{s['step']:.2f}" for s in result["steps"]) + " s/step", flush=True)
    report(results, gflops)
    return 0


if __name__ == "__main__":
    sys.exit(main())
