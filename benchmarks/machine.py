"""The machine figure every benchmark prints beside its times (machines of one kind differ
in speed by up to 2x): fp32 matmul throughput with torch's default threads.

    from machine import matmul_gflops   # benchmarks/ is on sys.path when a script runs
"""

from __future__ import annotations

import time


def matmul_gflops(rows: int = 1024, inner: int = 1024, cols: int = 4096,
                  repeats: int = 30) -> float:
    """GFLOP/s of a (rows x inner) @ (inner x cols) fp32 matmul loop: 2 x rows x inner x
    cols floating-point operations per product, after 3 warm-up products."""
    import torch

    a, b = torch.randn(rows, inner), torch.randn(inner, cols)
    for _ in range(3):
        a @ b
    start = time.perf_counter()
    for _ in range(repeats):
        a @ b
    return 2 * rows * inner * cols * repeats / (time.perf_counter() - start) / 1e9
