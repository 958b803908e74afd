"""rlvr's CUDA path, checked in one go on a lent GPU, with a CPU rehearsal of the same code.

A lent GPU machine has about 15 minutes, no network and at most 64 MiB of files sent to it
(scripts/gpu_bundle.py gathers the wheels it lacks). This script needs nothing else: its
models are built here with random weights from architecture configs and saved as local
Hugging Face folders (the tokenizer is the default model's, or `--tokenizer DIR`).

    .venv/bin/python benchmarks/gpu_check.py --rehearse          # CPU, tiny shapes, ~1 min
    python benchmarks/gpu_check.py                                 # on the GPU machine

What it runs, in order, each result written into one JSON (default runs/gpu_check.json):
  A. the tests whose names mention cuda (`pytest -q -m "not slow" -k cuda`), CUDA only;
  B. per model shape (smollm2-135m-shaped: Llama, hidden 576, 30 layers; qwen2.5-0.5b-
     shaped: Qwen2, hidden 896, 24 layers; `--rehearse`: both at 2 layers, hidden 64),
     `--steps` GRPO steps with LoRA through `rlvr train` and through plain TRL (the
     runners of benchmarks/train_overhead.py, fresh processes, rlvr then plain), bf16 on a
     GPU and fp32 on CPU: seconds per step, tokens per second, the rlvr / plain ratio and
     the compute floor at the measured matmul rate;
  C. one QLoRA step (`quantization: nf4`; CUDA + bitsandbytes), one colocated vLLM step
     (CUDA + vllm) and one 2-process `accelerate launch` step (2+ GPUs); each is recorded
     as "skipped: <reason>" where its needs are not met (the config overrides are still
     checked with `rlvr.config.load_config`, so a renamed key shows up in the rehearsal).
A branch that fails is recorded as "failed: ..." and the others still run; the exit status
is 1 when any branch failed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # benchmarks/, run as a script

import train_overhead  # noqa: E402  (benchmarks/train_overhead.py: runners, BENCH, tokens)
from machine import matmul_gflops  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
CONFIG = "configs/selfaware_grpo_cpu.yaml"
# name -> (model_type, full-size dimensions, rehearsal dimensions)
SHAPES = {
    "smollm2-135m-shaped": ("llama",
                            {"hidden_size": 576, "num_hidden_layers": 30,
                             "num_attention_heads": 9, "num_key_value_heads": 3,
                             "intermediate_size": 1536},
                            {"hidden_size": 64, "num_hidden_layers": 2,
                             "num_attention_heads": 4, "num_key_value_heads": 2,
                             "intermediate_size": 128}),
    "qwen2.5-0.5b-shaped": ("qwen2",
                            {"hidden_size": 896, "num_hidden_layers": 24,
                             "num_attention_heads": 14, "num_key_value_heads": 2,
                             "intermediate_size": 4864},
                            {"hidden_size": 64, "num_hidden_layers": 2,
                             "num_attention_heads": 4, "num_key_value_heads": 1,
                             "intermediate_size": 128}),
}
TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "chat_template.jinja",
                   "special_tokens_map.json", "vocab.json", "merges.txt")
RUN_TIMEOUT_S = 300


def cuda_count() -> int:
    """Visible CUDA GPUs (0 without CUDA or without a CUDA build of torch)."""
    import torch

    return torch.cuda.device_count() if torch.cuda.is_available() else 0


def matmul_rate(cuda: bool) -> dict:
    """The matmul throughput the compute floor is taken at.

    Args:
        cuda: measure bf16 on the GPU (8192^3 products, synchronized) instead of fp32 on
            the CPU (`machine.matmul_gflops`).
    Returns:
        {"dtype": "bf16" | "fp32", "gflops": GFLOP/s (float)}.
    """
    if not cuda:
        return {"dtype": "fp32", "gflops": matmul_gflops()}
    import torch

    n, repeats = 8192, 50
    a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    for _ in range(5):
        a @ b
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(repeats):
        a @ b
    torch.cuda.synchronize()
    return {"dtype": "bf16", "gflops": 2 * n ** 3 * repeats / (time.perf_counter() - start) / 1e9}


def make_model(name: str, out_dir: Path, rehearse: bool, tokenizer_dir: str | None,
               seed: int = 0) -> dict:
    """Save a randomly initialised model of one of `SHAPES` as a local HF folder.

    Args:
        name: a key of `SHAPES`.
        out_dir: the folder to write (config, safetensors weights, tokenizer files).
        rehearse: the 2-layer, hidden-64 version of the shape instead of the full one.
        tokenizer_dir: a folder holding the tokenizer files; None = the default model's
            (`rlvr.models.resolve_model(None)`).
        seed: torch seed for the random weights.
    Returns:
        {"model_type", "dims", "vocab_size", "params", "dtype"} of what was saved.
    Raises:
        KeyError: unknown name; ModelNotFoundError (rlvr): no default model installed and
            no tokenizer_dir.
    """
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer

    from rlvr.models import resolve_model

    model_type, full, small = SHAPES[name]
    source = Path(tokenizer_dir or resolve_model(None))
    out_dir.mkdir(parents=True, exist_ok=True)
    for file in TOKENIZER_FILES:
        if (source / file).is_file():
            shutil.copy2(source / file, out_dir / file)
    tokenizer = AutoTokenizer.from_pretrained(out_dir)
    dims = small if rehearse else full
    config = AutoConfig.for_model(
        model_type, vocab_size=len(tokenizer), tie_word_embeddings=True,
        bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id, max_position_embeddings=2048, **dims)
    torch.manual_seed(seed)
    model = AutoModelForCausalLM.from_config(config)
    dtype = torch.float32 if rehearse else torch.bfloat16
    model.to(dtype).save_pretrained(out_dir)
    return {"model_type": model_type, "dims": dims, "vocab_size": len(tokenizer),
            "params": sum(p.numel() for p in model.parameters()),
            "dtype": str(dtype).replace("torch.", "")}


def _cuda_plain_patches() -> None:
    """train_overhead.worker_plain is written for the CPU (use_cpu=True, fp32 weights);
    on a GPU, make it train as rlvr does there: on CUDA, bf16 weights and bf16 mixed
    precision."""
    import torch
    import transformers
    import trl

    base_config = trl.GRPOConfig

    class CudaGRPOConfig(base_config):  # same dataclass, CUDA settings forced
        def __init__(self, *args, **kwargs):
            kwargs.update(use_cpu=False, bf16=True)
            super().__init__(*args, **kwargs)

    trl.GRPOConfig = CudaGRPOConfig
    auto = transformers.AutoModelForCausalLM
    original = auto.from_pretrained.__func__

    def from_pretrained(cls, *args, **kwargs):
        kwargs["dtype"] = torch.bfloat16
        return original(cls, *args, **kwargs)

    auto.from_pretrained = classmethod(from_pretrained)


def worker(side: str, config: str, overrides: dict, run_dir: Path) -> dict:
    """One training run in this process (called through `--worker`).

    Args:
        side: "rlvr" (train_overhead.worker_rlvr) or "plain" (train_overhead.worker_plain).
        config: the YAML config; overrides: config keys set on top (model, max_steps, ...).
        run_dir: the run's output folder.
    Returns:
        train_overhead's record: {"steps": per-step profiler records (seconds),
        "log": TRL's log history, "settings", "shape"}.
    """
    overrides = {**train_overhead.BENCH, **overrides}
    if side == "plain":
        if cuda_count():
            _cuda_plain_patches()
        return train_overhead.worker_plain(config, overrides, {}, run_dir)
    return train_overhead.worker_rlvr(config, overrides, {}, run_dir)


def run_side(side: str, config: str, overrides: dict, work: Path) -> dict:
    """Run `worker` in a fresh Python process and return its record.

    Raises:
        RuntimeError: the process failed or ran past RUN_TIMEOUT_S (message: stderr tail).
    """
    out = work / f"{side}-{len(list(work.glob('*.json')))}.json"
    cmd = [sys.executable, __file__, "--worker", side, "--config", config,
           "--overrides", json.dumps(overrides), "--worker-out", str(out),
           "--run-dir", str(out.with_suffix(""))]
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=env,
                              timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"{side} run passed {RUN_TIMEOUT_S} s") from None
    if done.returncode:
        raise RuntimeError(f"{side} run exited {done.returncode}: {done.stderr[-2000:]}")
    return json.loads(out.read_text(encoding="utf-8"))


def summarize(record: dict) -> dict:
    """Step figures of one run: first step left out as warm-up when there are two or more.

    Returns:
        {"step_s": every step's wall seconds, "median_s": median of the timed steps,
        "tokens_per_s": prompt + completion tokens of the timed steps / their seconds
        (None when TRL logged no token counts), "prompt_tokens", "completion_tokens"
        (means per sequence), "sequences"}.
    """
    settings = record["settings"]
    sequences = settings["per_device_train_batch_size"] * settings["gradient_accumulation_steps"]
    steps = [s["step"] for s in record["steps"]]
    skip = 1 if len(steps) > 1 else 0
    timed = steps[skip:]
    tokens = train_overhead.step_tokens(record["log"], sequences)[skip:len(steps)]
    out = {"step_s": steps, "median_s": statistics.median(timed) if timed else None,
           "tokens_per_s": None, "prompt_tokens": None, "completion_tokens": None,
           "sequences": sequences}
    if tokens and len(tokens) == len(timed):
        out["tokens_per_s"] = sum((p + c) * sequences for p, c, _ in tokens) / sum(timed)
        out["prompt_tokens"] = statistics.median(p for p, _, _ in tokens)
        out["completion_tokens"] = statistics.median(c for _, c, _ in tokens)
    return out


def compute_floor(record: dict, figures: dict, gflops: float) -> dict | None:
    """The step's FLOPs (`rlvr.train.profiling.step_flops`) and the seconds they need at
    `gflops` GFLOP/s; None without token counts. Returns {"gflop", "floor_s", "x_floor"}."""
    from rlvr.train.profiling import step_flops

    if figures["prompt_tokens"] is None or not figures["median_s"]:
        return None
    shape = record["shape"]
    flops = step_flops(shape["params"], figures["prompt_tokens"], figures["completion_tokens"],
                       figures["sequences"], record["settings"]["beta"], shape["layers"],
                       shape["hidden"])["total"]
    floor = flops / gflops / 1e9
    return {"gflop": flops / 1e9, "floor_s": floor, "x_floor": figures["median_s"] / floor}


def check_overrides(config: str, overrides: dict) -> str:
    """'ok' when `rlvr.config.load_config` accepts the overrides, else the error text."""
    from rlvr.config import load_config

    try:
        load_config(config, overrides)
    except Exception as exc:  # noqa: BLE001 -- recorded, not raised
        return f"{type(exc).__name__}: {exc}"
    return "ok"


def _importable(module: str) -> str | None:
    """None when `module` imports, else why not (one line)."""
    try:
        __import__(module)
    except Exception as exc:  # noqa: BLE001 -- ImportError, or a broken CUDA build
        return f"{module} not importable ({type(exc).__name__}: {str(exc)[:200]})"
    return None


def step_a_tests(cuda: int) -> dict:
    """Step A: the CUDA tests (`pytest -q -m "not slow" -k cuda`), only with CUDA.

    Returns:
        {"status": "skipped: <reason>" | "passed" | "failed", "rc", "summary" (pytest's
        last line)}; pytest's rc 5 (nothing selected) counts as passed.
    """
    if not cuda:
        return {"status": "skipped: no CUDA"}
    missing = _importable("pytest")
    if missing:
        return {"status": f"skipped: {missing}"}
    cmd = [sys.executable, "-m", "pytest", "-q", "-m", "not slow", "-k", "cuda"]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT,
                              timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return {"status": "failed", "summary": f"pytest passed {RUN_TIMEOUT_S} s"}
    lines = done.stdout.strip().splitlines()
    return {"status": "passed" if done.returncode in (0, 5) else "failed",
            "rc": done.returncode, "summary": lines[-1] if lines else done.stderr[-500:]}


def step_b_shape(name: str, model_dir: Path, args, work: Path, gflops: float) -> dict:
    """Step B for one shape: rlvr then plain TRL, `args.steps` steps each.

    Returns:
        {"rlvr": summarize(...), "plain": ..., "ratio": rlvr / plain median s per step,
        "floor": compute_floor(...) of the rlvr run, "settings_differ": {key: [rlvr, plain]}}.
    Raises:
        RuntimeError: a run failed (see run_side).
    """
    overrides = {"model": str(model_dir), "max_steps": args.steps, **args.overrides}
    records = {side: run_side(side, args.config, overrides, work) for side in ("rlvr", "plain")}
    out = {side: summarize(record) for side, record in records.items()}
    medians = [out[s]["median_s"] for s in ("rlvr", "plain")]
    out["ratio"] = medians[0] / medians[1] if all(medians) else None
    out["floor"] = compute_floor(records["rlvr"], out["rlvr"], gflops)
    a, b = records["rlvr"]["settings"], records["plain"]["settings"]
    out["settings_differ"] = {k: [a.get(k), b.get(k)] for k in a if a.get(k) != b.get(k)}
    return out


def step_c(cuda: int, args, model_dir: Path, work: Path) -> dict:
    """Step C: one QLoRA step, one colocated vLLM step, one 2-process accelerate step.

    Returns:
        {"qlora" | "vllm_colocate" | "accelerate_2proc": {"status": "passed" |
        "skipped: <reason>" | "failed: <message>", "config": check_overrides(...),
        "step_s" (when run)}}.
    """
    base = {"model": str(model_dir), "max_steps": 1, **args.overrides}
    branches = {
        "qlora": ({"quantization": "nf4"}, "bitsandbytes", 1),
        "vllm_colocate": ({"use_vllm": True, "vllm_mode": "colocate"}, "vllm", 1),
        "accelerate_2proc": ({}, None, 2),
    }
    results = {}
    for branch, (extra, module, gpus) in branches.items():
        overrides = {**base, **extra}
        entry = {"config": check_overrides(args.config, overrides)}
        reasons = [r for r in (None if cuda else "no CUDA",
                               None if cuda >= gpus or not cuda else
                               f"{gpus} GPUs needed, {cuda} visible",
                               _importable(module) if module else None) if r]
        if entry["config"] != "ok":
            entry["status"] = f"failed: config refused: {entry['config']}"
        elif reasons:
            entry["status"] = "skipped: " + "; ".join(reasons)
        else:
            try:
                if branch == "accelerate_2proc":
                    entry.update(accelerate_step(args.config, overrides, work))
                else:
                    record = run_side("rlvr", args.config, overrides, work)
                    entry["step_s"] = [s["step"] for s in record["steps"]]
                entry["status"] = "passed"
            except RuntimeError as exc:
                entry["status"] = f"failed: {exc}"
        results[branch] = entry
    return results


def accelerate_step(config: str, overrides: dict, work: Path) -> dict:
    """`accelerate launch --num_processes 2 -m rlvr.cli train` (DDP config) for the overrides.

    Returns:
        {"wall_s": seconds of the whole launch}.
    Raises:
        RuntimeError: the launch failed or ran past RUN_TIMEOUT_S.
    """
    overrides = {**train_overhead.BENCH, **overrides, "output_dir": str(work / "ddp")}
    cmd = [sys.executable, "-m", "accelerate.commands.launch", "--config_file",
           str(ROOT / "configs/accelerate/ddp.yaml"), "--num_processes", "2",
           "-m", "rlvr.cli", "train", "--config", config]
    for key, value in overrides.items():
        cmd += ["--set", f"{key}={json.dumps(value)}"]
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    start = time.perf_counter()
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=env,
                              timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"accelerate launch passed {RUN_TIMEOUT_S} s") from None
    if done.returncode:
        raise RuntimeError(f"accelerate launch exited {done.returncode}: "
                           f"{done.stderr[-2000:]}")
    return {"wall_s": time.perf_counter() - start}


def write_json(path: Path, data: dict) -> None:
    """Write `data` as JSON to `path` atomically (a temporary file beside it, then rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=2, default=str) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def _fmt(value, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def print_table(result: dict) -> None:
    """Print the figures of `result` (the JSON's content) as a short table."""
    rate = result["matmul"]
    print(f"\n{result['mode']} on {result['device']}; matmul {rate['gflops']:.0f} GFLOP/s "
          f"({rate['dtype']}); {result['steps']} steps per run")
    print(f"A cuda tests: {result['cuda_tests']['status']}"
          + (f" ({result['cuda_tests'].get('summary')})" if "summary" in result["cuda_tests"] else ""))
    print(f"{'shape':<22}{'side':<7}{'s/step':>9}{'tok/s':>10}{'rlvr/plain':>12}"
          f"{'floor s':>10}{'x floor':>9}")
    for name, shape in result["shapes"].items():
        if "error" in shape:
            print(f"{name:<22}failed: {shape['error'][:200]}")
            continue
        floor = shape["floor"] or {}
        for side in ("rlvr", "plain"):
            fig = shape[side]
            first = side == "rlvr"
            print(f"{name if first else '':<22}{side:<7}{_fmt(fig['median_s'], '.3f'):>9}"
                  f"{_fmt(fig['tokens_per_s'], '.0f'):>10}"
                  f"{_fmt(shape['ratio'] if first else None, '.3f'):>12}"
                  f"{_fmt(floor.get('floor_s') if first else None, '.4f'):>10}"
                  f"{_fmt(floor.get('x_floor') if first else None, '.1f'):>9}")
    for branch, entry in result["extras"].items():
        print(f"C {branch}: {entry['status'][:300]}")
    print(f"wall {result['wall_s']:.1f} s; figures in {result['out']}")


def main() -> int:
    """CLI entry (module docstring). Returns the exit status: 0, or 1 if a branch failed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rehearse", action="store_true",
                        help="tiny shapes on CPU, CUDA-only branches recorded as skipped")
    parser.add_argument("--out", default="runs/gpu_check.json", help="the JSON of figures")
    parser.add_argument("--steps", type=int, help="GRPO steps per run (GPU 10, rehearse 2)")
    parser.add_argument("--config", default=CONFIG, help="the GRPO config both sides use")
    parser.add_argument("--tokenizer", help="folder with tokenizer files (default: the "
                                            "default model's)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="config override for every run (repeatable)")
    parser.add_argument("--worker", choices=("rlvr", "plain"), help=argparse.SUPPRESS)
    parser.add_argument("--overrides", default="{}", help=argparse.SUPPRESS)
    parser.add_argument("--worker-out", help=argparse.SUPPRESS)
    parser.add_argument("--run-dir", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        result = worker(args.worker, args.config, json.loads(args.overrides), Path(args.run_dir))
        Path(args.worker_out).write_text(json.dumps(result, default=str), encoding="utf-8")
        return 0

    start = time.perf_counter()
    if args.rehearse:  # the CPU path, in this process and the runs, even beside a GPU
        os.environ["CUDA_VISIBLE_DEVICES"] = ""
    import torch

    cuda = cuda_count()
    if not cuda and not args.rehearse:
        print("no CUDA GPU visible: run with --rehearse for the CPU rehearsal", file=sys.stderr)
        return 2
    args.steps = args.steps or (2 if args.rehearse else 10)
    # the rehearsal trains 8 completions a step (2 prompts x 4) to stay near a minute
    rehearse_defaults = {"per_device_train_batch_size": 8} if args.rehearse else {}
    args.overrides = {**rehearse_defaults, **train_overhead._parse_set(args.set)}
    out = Path(args.out)
    out = out if out.is_absolute() else ROOT / out
    device = torch.cuda.get_device_name(0) if cuda else f"CPU ({os.cpu_count()} cores)"
    result = {"mode": "rehearse" if args.rehearse else "gpu", "device": device,
              "cuda_devices": cuda, "torch": torch.__version__, "steps": args.steps,
              "config": args.config, "overrides": args.overrides,
              "matmul": matmul_rate(bool(cuda)), "out": str(out)}
    failed = False
    with tempfile.TemporaryDirectory(prefix="gpu_check_") as tmp:
        work = Path(tmp)
        result["cuda_tests"] = step_a_tests(cuda)
        failed |= result["cuda_tests"]["status"] == "failed"
        result["shapes"], models = {}, {}
        for name in SHAPES:
            try:
                models[name] = work / name
                info = make_model(name, models[name], args.rehearse, args.tokenizer)
                figures = step_b_shape(name, models[name], args, work,
                                       result["matmul"]["gflops"])
                result["shapes"][name] = {"model": info, **figures}
            except Exception as exc:  # noqa: BLE001 -- recorded; the other branches run
                result["shapes"][name] = {"error": f"{type(exc).__name__}: {exc}"}
                failed = True
        first = next(iter(SHAPES))
        result["extras"] = step_c(cuda, args, models[first], work)
        failed |= any(e["status"].startswith("failed") for e in result["extras"].values())
    result["failed"] = failed
    result["wall_s"] = time.perf_counter() - start
    write_json(out, result)
    print_table(result)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
