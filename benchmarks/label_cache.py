"""What the label cache saves: the main job's training-row labelling with an empty cache,
then again with the cache that first call filled.

The main job's path (`configs/selfaware_grpo_cpu.yaml`, its data, prompt, reward and
held-out settings; `rlvr.eval.labelling.known_training_rows` with `label_cache: true`) run
twice into two fresh folders with one fresh cache folder. Prints the machine's fp32 matmul
throughput, the seconds of each call (model loading excluded), their ratio, how long the
weights digest takes, and whether both calls kept the same training rows (they must).

    .venv/bin/python benchmarks/label_cache.py
    .venv/bin/python benchmarks/label_cache.py --limit 64      # the first 64 training rows
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default=str(ROOT / "configs" / "selfaware_grpo_cpu.yaml"))
    parser.add_argument("--limit", type=int, default=None, help="first N training rows")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="rlvr-label-cache-"))

    from machine import matmul_gflops

    from rlvr.config import load_config
    from rlvr.eval import label_cache
    from rlvr.eval.labelling import known_training_rows
    from rlvr.eval.settings import RunEvaluation
    from rlvr.models import load_causal_lm
    from rlvr.tasks.heldout import run_task
    from rlvr.train.data_prep import prepare_data

    cfg = load_config(args.config)
    print(f"machine: {matmul_gflops():.0f} GFLOP/s fp32 matmul")
    _, train, _ = prepare_data(cfg)
    train = train[:args.limit] if args.limit else train
    ev = RunEvaluation.from_run(cfg)
    model, tokenizer = load_causal_lm(cfg.model)
    model.eval()
    task = run_task(cfg.reward, cfg.reward_preset, cfg.reward_params, ev.heldout.max_new_tokens)
    label_cache.cache_folder = lambda: work / "cache"  # an empty cache of its own
    start = time.perf_counter()
    label_cache.weights_digest(model)
    digest_s = time.perf_counter() - start
    kept, seconds = [], []
    for name in ("empty", "filled"):
        folder = work / name
        folder.mkdir()
        start = time.perf_counter()
        rows, counts = known_training_rows(model, tokenizer, task, train, ev.knowledge,
                                           ev.heldout, cfg.train_answerable, folder)
        seconds.append(time.perf_counter() - start)
        kept.append([r.get("id", i) for i, r in enumerate(rows)])
        print(f"{name} cache: {seconds[-1]:.1f} s for {counts['answerable']} answerable "
              f"training rows ({counts['known']} known)")
    print(f"weights digest: {digest_s:.2f} s")
    print(f"with the cache: {seconds[1]:.1f} s vs {seconds[0]:.1f} s = "
          f"{seconds[1] / seconds[0]:.3f}x; same training rows kept: {kept[0] == kept[1]}")
    return 0 if kept[0] == kept[1] else 1


if __name__ == "__main__":
    raise SystemExit(main())
