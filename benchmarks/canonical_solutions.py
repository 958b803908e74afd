"""Run the datasets' own reference solutions through the `code` reward and count passes.

    .venv/bin/python benchmarks/canonical_solutions.py               # HumanEval + MBPP test split
    .venv/bin/python benchmarks/canonical_solutions.py --mbpp all    # all 974 MBPP tasks
    .venv/bin/python benchmarks/canonical_solutions.py --only humaneval --timeout 10

A guard that rejects correct programs is as much a fault as one that lets wrong ones pass,
so every reference solution should score 1.0. Each one takes the path a model's response
takes: HumanEval's `canonical_solution` is the completion that continues the `prompt`
(`build_job` joins them); MBPP's `code` is the completion, with the task's `test_list` and
`test_setup_code`. Data come from ../shared/data (see its README). Prints, per dataset,
the pass count, each failure with its outcome and the harness's reason, the wall time of
the batch, the worker count and the machine's CPU count, and the sandbox's isolation modes.
Each program runs in its own locked-down process and the tests in a trusted one
(`rlvr.sandbox`): no task falls back to a shared interpreter.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import time
from pathlib import Path

from rlvr.rewards.code import code_batch
from rlvr.sandbox import filesystem_isolation, network_isolation, process_isolation

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def humaneval_rows() -> list[tuple[str, str, dict]]:
    """(task id, completion, fields) for the 164 HumanEval tasks, completion = reference body."""
    with gzip.open(DATA / "humaneval" / "HumanEval.jsonl.gz", "rt", encoding="utf-8") as handle:
        tasks = [json.loads(line) for line in handle]
    return [(t["task_id"], t["canonical_solution"], t) for t in tasks]


def mbpp_rows(split: str) -> list[tuple[str, str, dict]]:
    """(task id, completion, fields) for MBPP; `split` is "test" (ids 11-510) or "all"."""
    rows = [json.loads(line) for line in (DATA / "mbpp" / "mbpp.jsonl").open(encoding="utf-8")]
    if split == "test":
        rows = [r for r in rows if 11 <= r["task_id"] <= 510]
    return [(f"MBPP/{r['task_id']}", r["code"], r) for r in rows]


def run(name: str, rows: list[tuple[str, str, dict]], timeout_s: float, workers: int) -> int:
    """Score `rows` in one batch, print the summary and failures; returns the failure count."""
    start = time.monotonic()
    results = code_batch([c for _, c, _ in rows], [f for _, _, f in rows], timeout_s=timeout_s,
                         workers=workers)
    wall = time.monotonic() - start
    failures = [(task_id, r) for (task_id, _, _), r in zip(rows, results) if r.score != 1.0]
    print(f"{name}: {len(rows) - len(failures)}/{len(rows)} passed in {wall:.1f} s "
          f"({len(rows) / wall:.1f} programs/s, {workers} workers)")
    for task_id, r in failures:
        print(f"  FAIL {task_id}: {r.outcome}: {r.details.get('reason', '')}")
    return len(failures)


def main() -> int:
    """Parse the arguments, run the chosen datasets; exit code 1 if any reference failed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("humaneval", "mbpp"), help="run one dataset only")
    parser.add_argument("--mbpp", choices=("test", "all"), default="test",
                        help="MBPP tasks: the test split (ids 11-510, default) or all 974")
    parser.add_argument("--timeout", type=float, default=10.0,
                        help="wall-clock seconds per program (default 10: references that "
                             "do real work must not fail because a loaded machine is slow)")
    parser.add_argument("--workers", type=int, default=None, help="default: the CPU count")
    args = parser.parse_args()
    if not DATA.is_dir():
        print(f"no data folder at {DATA}", file=sys.stderr)
        return 2
    cpus = os.cpu_count() or 1
    workers = args.workers or cpus
    print(f"python {sys.version.split()[0]}, {cpus} CPUs, euid {os.geteuid()}, network: "
          f"{network_isolation()}, files: {filesystem_isolation()}, processes: "
          f"{process_isolation()}")
    failed = 0
    total = time.monotonic()
    if args.only in (None, "humaneval"):
        failed += run("HumanEval", humaneval_rows(), args.timeout, workers)
    if args.only in (None, "mbpp"):
        failed += run(f"MBPP ({args.mbpp})", mbpp_rows(args.mbpp), args.timeout, workers)
    print(f"total wall time {time.monotonic() - total:.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
