"""What sharing the cores costs: a training-shaped forward and backward pass of the default
model, alone and with a second identical process on the same cores, at 1 and at the
machine's thread count per process, under libgomp's default spin count and under rlvr's.

Each worker process loads the default model (`rlvr.models.load_causal_lm`), sets
`torch.set_num_threads(T)` and times `--iters` forward + backward passes of a
(`--batch` x `--tokens`) batch after one warm-up pass. Cases: one process with T = 1 and
with T = the cores (`rlvr.hardware.available_cores`), then two processes at once with each
T. Every case runs twice: with `GOMP_SPINCOUNT=300000` (libgomp's default when neither it
nor `OMP_WAIT_POLICY` is set: an idle OpenMP thread spins before it sleeps) and with
`GOMP_SPINCOUNT=1000` (what importing rlvr sets, `rlvr/__init__.py`). Prints seconds per pass
for each process, and the work done per second by all processes together relative to one
process alone with every core under the same spin count: below 1.0 the sharing costs more
than it overlaps.

    .venv/bin/python benchmarks/thread_contention.py            # ~5 min on 2 cores
    .venv/bin/python benchmarks/thread_contention.py --iters 3  # quicker, noisier
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def worker(threads: int, iters: int, batch: int, tokens: int) -> None:
    """Print one JSON line: {"threads", "s_per_pass"} (run in a child process)."""
    import torch

    from rlvr.models import load_causal_lm

    torch.set_num_threads(threads)
    model, _ = load_causal_lm(None)
    model.train()
    ids = torch.randint(0, 1000, (batch, tokens))

    def one() -> None:
        model(input_ids=ids, labels=ids).loss.backward()
        model.zero_grad(set_to_none=True)

    one()
    start = time.perf_counter()
    for _ in range(iters):
        one()
    print(json.dumps({"threads": threads, "s_per_pass": (time.perf_counter() - start) / iters}))


def run_case(threads: int, processes: int, args, spincount: str) -> list[float]:
    """Seconds per pass of each of `processes` workers started together."""
    import os

    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    env["GOMP_SPINCOUNT"] = spincount
    cmd = [sys.executable, __file__, "--worker", str(threads), "--iters", str(args.iters),
           "--batch", str(args.batch), "--tokens", str(args.tokens)]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=env) for _ in range(processes)]
    out = []
    for proc in procs:
        stdout, _ = proc.communicate()
        if proc.returncode != 0:
            raise SystemExit(f"worker failed with exit code {proc.returncode}")
        out.append(json.loads(stdout.strip().splitlines()[-1])["s_per_pass"])
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iters", type=int, default=6)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--tokens", type=int, default=100)
    parser.add_argument("--worker", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:
        worker(args.worker, args.iters, args.batch, args.tokens)
        return 0
    from machine import matmul_gflops

    from rlvr.hardware import available_cores

    cores = available_cores()
    print(f"machine: {matmul_gflops():.0f} GFLOP/s fp32 matmul; {cores} cores available")
    print(f"work: forward + backward of the default model, {args.batch} x {args.tokens} "
          f"tokens, {args.iters} passes per process")
    for name, spincount in (("libgomp default", "300000"), ("rlvr", "1000")):
        print(f"GOMP_SPINCOUNT={spincount} ({name})")
        alone = run_case(cores, 1, args, spincount)[0]
        rows = [(f"1 process,  {cores} threads", [alone])]
        if cores > 1:
            rows.append(("1 process,  1 thread ", run_case(1, 1, args, spincount)))
        rows.append((f"2 processes, {cores} threads each", run_case(cores, 2, args, spincount)))
        if cores > 1:
            rows.append(("2 processes, 1 thread each ", run_case(1, 2, args, spincount)))
        for label, seconds in rows:
            throughput = sum(1 / s for s in seconds) * alone
            print(f"  {label}: {' / '.join(f'{s:.2f}' for s in seconds)} s per pass; "
                  f"work per second vs 1 process alone: {throughput:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
