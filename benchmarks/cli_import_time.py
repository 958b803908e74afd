"""Wall time of `rlvr score --help` and `rlvr calc --help`, for one source tree or two.

    .venv/bin/python benchmarks/cli_import_time.py                   # this checkout
    .venv/bin/python benchmarks/cli_import_time.py --src /old/src    # compare with a tree

Each command runs as a fresh `python -m rlvr.cli ... --help` process (PYTHONPATH set to the
tree's `src`), `--repeats` times after one warm-up run (the file cache), alternating the
trees so drift hits both alike. Prints the machine's fp32 matmul throughput, the median
and the quartiles of the wall time per tree and command, the number of modules imported
(`python -X importtime`; torch must not be among them), and the ratio new / old.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import matmul_gflops  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = (("score", "--help"), ("calc", "--help"))


def _env(src: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(src)}


def once(src: Path, args: tuple[str, ...]) -> float:
    """Seconds of one `python -m rlvr.cli ARGS` process."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "rlvr.cli", *args], env=_env(src), check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def imported(src: Path, args: tuple[str, ...]) -> tuple[int, bool]:
    """(modules imported, torch among them) for one run, from `-X importtime`."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "rlvr.cli", *args],
                          env=_env(src), capture_output=True, text=True, check=True)
    names = [line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()
             if line.startswith("import time:") and "|" in line]
    names = [n for n in names if n and n != "package"]
    return len(names), any(n.strip() == "torch" for n in names)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", type=Path, default=None,
                        help="a second tree's src folder to compare with (the old one)")
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    trees = {"new": ROOT / "src"}
    if args.src is not None:
        trees = {"old": args.src.resolve(), **trees}
    print(f"machine: {matmul_gflops():.0f} GFLOP/s fp32 matmul")
    for command in COMMANDS:
        for src in trees.values():
            once(src, command)  # warm the file cache
        times: dict[str, list[float]] = {name: [] for name in trees}
        for _ in range(args.repeats):
            for name, src in trees.items():
                times[name].append(once(src, command))
        medians = {}
        for name, src in trees.items():
            q1, q2, q3 = statistics.quantiles(times[name], n=4)
            count, torch = imported(src, command)
            medians[name] = q2
            print(f"rlvr {' '.join(command)} [{name}: {src}]: median {q2 * 1000:.0f} ms "
                  f"(quartiles {q1 * 1000:.0f}-{q3 * 1000:.0f} ms, {args.repeats} runs); "
                  f"{count} modules imported, torch imported: {torch}")
        if "old" in medians:
            print(f"rlvr {' '.join(command)}: new / old median = "
                  f"{medians['new'] / medians['old']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
