"""Generation engines side by side: transformers fp32, transformers bf16 and vLLM fp32 (CPU
build) for evaluation, and GRPO rollouts with and without vLLM against the step's compute
floor.

Evaluation, two workloads, every engine on the same prompts at the same batch (transformers
`batch_size` B; vLLM `max_num_seqs` B, at most B answers in flight), greedy, through the
runner `rlvr eval` uses (`rlvr.eval.runner.generate_task_records`):
- selfaware: the main job's prompt (`configs/selfaware_grpo_cpu.yaml`: system prompt,
  exemplars, the `selfaware` reward with its preset) on the built-in held-out questions
  (`rlvr.train.data_prep.prepare_data`), its `eval_max_new_tokens` and `eval_batch_size`;
- gsm8k: `rlvr eval --tasks gsm8k` as shipped (the task's prompt and few-shot exemplars,
  its 256-token cap, batch 16) on the first GSM8K test questions (`../shared/data` when
  present, else the packaged subset).
One more vLLM row, "vllm fp32 run", leaves the answers in flight to vLLM (its default cap,
256 on CPU), as the engine of a training run's evaluation stages does
(`rlvr.eval.run_engine`); the last line gives its speed-up apart.
Per engine and workload: questions per second (generation and scoring, after a 2-question
warm-up; model loading and vLLM's start-up printed apart), and against transformers fp32 the
share of identical answer texts and of identical rewards. The last line pools both
workloads: transformers fp32 seconds / vLLM fp32 seconds over the same questions, and the
share of identical answers over all of them.

GRPO: `rlvr train` in a subprocess (`max_steps` small, `train_answerable: all` and
`skip_eval: true`, `profile_steps: true`), once with `use_vllm: false` and once with
`use_vllm: true` (colocated vLLM on CPU, `rlvr.train.vllm_cpu`), on the GSM8K CPU recipe
(`configs/gsm8k_grpo_cpu.yaml`; and the main job's config without --quick; without --quick
also with TRL's importance-sampling correction, which rlvr turns off on CPU). Prints the
median seconds per step and of its generation part (steps after the first: the first holds
warm-ups), and the step's compute floor (`rlvr.train.profiling.step_flops` for the logged
prompt and completion tokens / the machine's matmul throughput, measured again just before
each run) with the ratio.

Needs vLLM's CPU build (`bash scripts/install.sh --vllm`). Run it alone on the machine.

    .venv/bin/python benchmarks/generation_engines.py --quick      # < 10 min on 2 cores
    .venv/bin/python benchmarks/generation_engines.py              # more questions and steps
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = {"selfaware": ROOT / "configs" / "selfaware_grpo_cpu.yaml",
           "gsm8k": ROOT / "configs" / "gsm8k_grpo_cpu.yaml"}
ENGINES = (("transformers fp32", "transformers", "float32"),
           ("transformers bf16", "transformers", "bfloat16"),
           ("vllm fp32", "vllm", "float32"))
# the engine of a training run's evaluation stages (`rlvr.eval.run_engine`): vLLM's default
# cap on answers in flight (256 on CPU), not the transformers batch
RUN_ENGINE = "vllm fp32 run"
# TRL's default, which rlvr turns off for colocated vLLM on CPU (rlvr.train.vllm_cpu)
CORRECTION = 'trl={"vllm_importance_sampling_correction": true}'
RUNS = itertools.count()  # a fresh run folder per grpo_run
sys.path.insert(0, str(Path(__file__).resolve().parent))


def workloads(limits: dict[str, int | None]) -> list[dict]:
    """[{name, task, rows, exemplars, settings}] for the selfaware and gsm8k workloads."""
    from rlvr.config import load_config
    from rlvr.eval.runner import fewshot_exemplars, load_task_rows
    from rlvr.tasks.heldout import heldout_rows, run_task
    from rlvr.tasks.registry import get_task
    from rlvr.train.data_prep import prepare_data

    cfg = load_config(str(CONFIGS["selfaware"]))
    _, _, heldout = prepare_data(cfg)
    budget = cfg.eval_max_new_tokens or cfg.max_completion_length
    selfaware = {"name": "selfaware", "task": run_task(cfg.reward, cfg.reward_preset,
                                                       cfg.reward_params, budget),
                 "rows": heldout_rows(heldout)[:limits["selfaware"]], "exemplars": [],
                 "settings": _settings(cfg.eval_batch_size, budget, cfg.seed),
                 "about": "built-in held-out questions, the main job's prompt"}
    shared = ROOT.parent / "shared" / "data"
    data_dir = str(shared) if shared.is_dir() else None  # None: rlvr's own fallbacks
    rows, skipped, sources = load_task_rows(["gsm8k"], data_dir, {}, limits["gsm8k"])
    if "gsm8k" in skipped:
        raise SystemExit(f"gsm8k rows unavailable: {skipped['gsm8k']}")
    task = get_task("gsm8k")
    gsm8k = {"name": "gsm8k", "task": task, "rows": rows["gsm8k"],
             "exemplars": fewshot_exemplars(task, task.default_fewshot, data_dir, 0),
             "settings": _settings(16, task.max_new_tokens, 0),
             "about": f"GSM8K test ({sources['gsm8k']['data_source']}), "
                      f"{task.default_fewshot}-shot, `rlvr eval` defaults"}
    return [selfaware, gsm8k]


def _settings(batch_size: int, max_new_tokens: int, seed: int) -> dict:
    return {"batch_size": batch_size, "num_samples": 1, "temperature": 0.0, "seed": seed,
            "max_new_tokens": max_new_tokens}


def answer(generator, tokenizer, work: dict, label: str) -> dict:
    """Greedy, scored answers of one workload; seconds after a 2-question warm-up."""
    from rlvr.eval.runner import generate_task_records

    generate_task_records(generator, tokenizer, work["task"], work["rows"][:2],
                          work["exemplars"], work["settings"], label + " warm-up")
    start = time.perf_counter()
    records = generate_task_records(generator, tokenizer, work["task"], work["rows"],
                                    work["exemplars"], work["settings"], label)
    seconds = time.perf_counter() - start
    return {"records": records, "seconds": seconds, "q_per_s": len(work["rows"]) / seconds}


def agreement(records: list[dict], reference: list[dict]) -> tuple[float, float]:
    """(share of identical completion texts, share of identical rewards), in [0, 1]."""
    n = len(reference)
    text = sum(a["completion"] == b["completion"] for a, b in zip(records, reference)) / n
    reward = sum(a["reward"] == b["reward"] for a, b in zip(records, reference)) / n
    return text, reward


def eval_engines(works: list[dict], more: bool = False) -> dict[str, dict[str, dict]]:
    """{workload: {engine label: answer(...) + startup_s}}: a model or engine loaded per
    engine and workload (vLLM's `max_num_seqs` is fixed at start-up: the workload's batch,
    times 4 for the `more` row "vllm fp32 x4 batch", which with "vllm bf16" shows what
    vLLM reaches beyond the equal-batch fp32 setting)."""
    from rlvr.eval.runner import close_generator, load_generator

    out: dict[str, dict[str, dict]] = {w["name"]: {} for w in works}
    rows = [(label, engine, dtype, 1) for label, engine, dtype in ENGINES]
    rows.append((RUN_ENGINE, "vllm", "float32", None))  # vLLM's own cap: the run's engine
    if more:
        rows += [("vllm fp32 x4 batch", "vllm", "float32", 4),
                 ("vllm bf16", "vllm", "bfloat16", 1)]
    for label, engine, dtype, times in rows:
        for work in works:
            start = time.perf_counter()  # load_generator starts a vLLM engine at once
            generator, tokenizer = load_generator(
                None, engine, dtype, max_num_seqs=None if times is None
                else times * work["settings"]["batch_size"])
            startup = time.perf_counter() - start
            out[work["name"]][label] = {**answer(generator, tokenizer, work, label),
                                        "startup_s": startup}
            close_generator(generator)
            del generator
    return out


def grpo_run(config: Path, use_vllm: bool, steps: int, out_dir: Path,
             extra: tuple[str, ...] = ()) -> dict:
    """`rlvr train --config config` for `steps` steps (plus `--set` items `extra`); the
    run's profile and train events."""
    rlvr = Path(sys.executable).with_name("rlvr")
    run_dir = out_dir / f"{config.stem}-{'vllm' if use_vllm else 'transformers'}-{next(RUNS)}"
    sets = [f"max_steps={steps}", "train_answerable=all", "skip_eval=true",
            "cross_check=none", "kshot_eval=null", "profile_steps=true", "report_to=none",
            "rollout_log=none", "save_steps=1000", "save_minutes=null",
            f"use_vllm={str(use_vllm).lower()}", *extra]
    cmd = [str(rlvr), "train", "--config", str(config), "--output-dir", str(run_dir)]
    for item in sets:
        cmd += ["--set", item]
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-5:]
        return {"error": " | ".join(tail), "wall_s": wall}
    events = [json.loads(line) for line in (run_dir / "metrics.jsonl").read_text().splitlines()]
    profile = [e for e in events if e.get("event") == "profile"]
    train = [e for e in events if "num_tokens" in e and "completions/mean_length" in e]
    later = profile[1:] or profile
    return {"wall_s": wall, "steps": len(profile), "train": train,
            "s_per_step": statistics.median(p["profile/step_s"] for p in later),
            "generate_s": statistics.median(p["profile/generate_s"] for p in later),
            "first_step_s": profile[0]["profile/step_s"] if profile else None}


def floor_seconds(config: Path, train_events: list[dict], gflops: float) -> float:
    """Median compute floor of the steps after the first, in seconds: `step_flops` of the
    logged mean prompt and completion tokens / `gflops`."""
    from train_overhead import step_tokens

    from rlvr.config import load_config
    from rlvr.train.profiling import step_flops

    cfg = load_config(str(config))
    params, layers, hidden = model_shape(cfg.model)
    sequences = cfg.per_device_train_batch_size * cfg.gradient_accumulation_steps
    floors = [step_flops(params, prompt, completion, sequences, cfg.beta, layers,
                         hidden)["total"]
              for prompt, completion, _ in step_tokens(train_events, sequences)[1:]]
    return statistics.median(floors) / gflops / 1e9 if floors else float("nan")


@functools.lru_cache(maxsize=None)
def model_shape(model: str | None) -> tuple[int, int, int]:
    """(matmul parameters N, layers L, hidden size d) of a model spec, loaded once."""
    from rlvr.models import load_causal_lm
    from rlvr.train.profiling import matmul_params

    loaded, _ = load_causal_lm(model)
    return matmul_params(loaded), loaded.config.num_hidden_layers, loaded.config.hidden_size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="24 selfaware and 16 GSM8K questions, 3 GRPO steps per engine on "
                             "the GSM8K recipe only (< 10 min on 2 cores)")
    parser.add_argument("--limit", type=int, help="questions per workload (default: 147 "
                        "selfaware, 64 gsm8k; 24 and 16 with --quick)")
    parser.add_argument("--steps", type=int, help="GRPO steps per run (default 5; 3 quick)")
    parser.add_argument("--skip-grpo", action="store_true")
    parser.add_argument("--more", action="store_true",
                        help="also vLLM fp32 at 4x the batch and vLLM bf16 (not in the "
                             "last line)")
    args = parser.parse_args()
    limits = {"selfaware": args.limit or (24 if args.quick else None),
              "gsm8k": args.limit or (16 if args.quick else 64)}
    steps = args.steps or (3 if args.quick else 5)

    from machine import matmul_gflops

    gflops = matmul_gflops()
    print(f"machine: {gflops:.0f} GFLOP/s fp32 matmul (torch default threads)", flush=True)
    works = workloads(limits)
    results = eval_engines(works, args.more)
    pooled = {label: 0.0 for label, _, _ in ENGINES}
    same, same_run, total = 0, 0, 0
    for work in works:
        s = work["settings"]
        print(f"eval {work['name']}: {len(work['rows'])} questions ({work['about']}), greedy, "
              f"up to {s['max_new_tokens']} tokens, batch {s['batch_size']}", flush=True)
        reference = results[work["name"]]["transformers fp32"]["records"]
        for label, r in results[work["name"]].items():
            text, reward = agreement(r["records"], reference)
            pooled[label] = pooled.get(label, 0.0) + r["seconds"]
            print(f"  {label:18} {r['q_per_s']:6.2f} questions/s ({r['seconds']:6.1f} s; "
                  f"start-up {r['startup_s']:5.1f} s)  identical text {100 * text:5.1f}%  "
                  f"identical reward {100 * reward:5.1f}%", flush=True)
        vllm = results[work["name"]]["vllm fp32"]["records"]
        same += sum(a["completion"] == b["completion"] for a, b in zip(vllm, reference))
        run = results[work["name"]][RUN_ENGINE]["records"]
        same_run += sum(a["completion"] == b["completion"] for a, b in zip(run, reference))
        total += len(reference)
    if not args.skip_grpo:
        configs = [CONFIGS["gsm8k"]] if args.quick else [CONFIGS["gsm8k"], CONFIGS["selfaware"]]
        variants = [(False, ()), (True, ())] + ([] if args.quick else [(True, (CORRECTION,))])
        with tempfile.TemporaryDirectory() as tmp:
            for config in configs:
                print(f"GRPO: rlvr train --config {config.relative_to(ROOT)}, {steps} steps, "
                      "train_answerable all, no evaluation", flush=True)
                for use_vllm, extra in variants:
                    gflops = matmul_gflops()  # the floor at this run's throughput
                    r = grpo_run(config, use_vllm, steps, Path(tmp), extra)
                    label = ("use_vllm true " if use_vllm else "use_vllm false") + \
                        (" + TRL's importance correction" if extra else "")
                    if "error" in r:
                        print(f"  {label}: failed after {r['wall_s']:.0f} s: {r['error']}")
                        continue
                    floor = floor_seconds(config, r["train"], gflops)
                    print(f"  {label}: {r['s_per_step']:.1f} s/step (median of steps 2-"
                          f"{r['steps']}; generation {r['generate_s']:.1f} s of it; first "
                          f"step {r['first_step_s']:.1f} s; whole command {r['wall_s']:.0f} s)"
                          f"; compute floor {floor:.1f} s at {gflops:.0f} GFLOP/s, step / floor "
                          f"{r['s_per_step'] / floor:.1f}x", flush=True)
    speedup = pooled["transformers fp32"] / pooled["vllm fp32"]
    print(f"eval speedup vs transformers: {speedup:.1f}x, identical greedy answers: "
          f"{100 * same / total:.0f}%")
    speedup = pooled["transformers fp32"] / pooled[RUN_ENGINE]
    print(f"eval speedup vs transformers, vLLM as a training run uses it (its default "
          f"answers in flight): {speedup:.1f}x, identical greedy answers: "
          f"{100 * same_run / total:.0f}%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
