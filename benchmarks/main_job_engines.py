"""The main job on the path it had before (every evaluation stage on transformers, every
prompt token computed for every row) against the default path (vLLM when installed for the
evaluation stages, the shared prompt prefix computed once per batch), alternated on the
same machine.

Each run is README command 1's training command, `rlvr train --config
configs/selfaware_grpo_cpu.yaml`, in a fresh folder with `label_cache: false` (both arms pay
for the training rows' labels, as a first run does). Arm A sets `RLVR_EVAL_ENGINE=transformers`
(what `eval_engine: auto` means in that process) and `share_prompt_prefix: false`; arm B
leaves the defaults. Both train the same recipe, so every greedy answer can be compared;
`--engines-only` keeps the prefix option at its default in arm A (the engines alone). The arms run
A B A B ... (`--repeats` pairs), one at a time. Printed per run: the fp32 matmul throughput
measured just before it, the wall time, the peak memory of the run's process (its maximum
resident set), and the report's stage timings; then the median wall time of each arm and
their ratio B / A, each stage's ratio, and for each pair the share of identical greedy
answers between the arms: the base model's held-out answers, the training rows' labels
(known or not), the trained model's held-out answers, and whether the verdicts agree.

Needs vLLM's CPU build (`bash scripts/install.sh --vllm`). Run it alone on the machine:
about 25 minutes per pair on 2 cores.

    .venv/bin/python benchmarks/main_job_engines.py                 # 2 pairs: A B A B
    .venv/bin/python benchmarks/main_job_engines.py --repeats 1     # one pair
    .venv/bin/python benchmarks/main_job_engines.py --set max_steps=2 --repeats 1  # a smoke run
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "configs" / "selfaware_grpo_cpu.yaml"
sys.path.insert(0, str(Path(__file__).resolve().parent))
ARMS = {"A": "transformers", "B": None}  # None: the default (auto)
ARM_SETS = {"A": ["share_prompt_prefix=false"], "B": []}
STAGES = ("eval_base_s", "decision_base_s", "train_knowledge_s", "train_s", "eval_trained_s",
          "decision_trained_s")


def run_job(arm: str, folder: Path, sets: list[str], arm_sets: list[str]) -> dict:
    """One main job; its wall seconds, peak RSS (MB), timings, verdict and folder."""
    from machine import matmul_gflops

    gflops = matmul_gflops()
    env = {k: v for k, v in os.environ.items() if k != "RLVR_EVAL_ENGINE"}
    if ARMS[arm]:
        env["RLVR_EVAL_ENGINE"] = ARMS[arm]
    cmd = [str(Path(sys.executable).with_name("rlvr")), "train", "--config", str(CONFIG),
           "--output-dir", str(folder)]
    for item in ["label_cache=false", *arm_sets, *sets]:
        cmd += ["--set", item]
    start = time.perf_counter()
    with open(folder.with_suffix(".log"), "w", encoding="utf-8") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"arm {arm} failed: see {folder.with_suffix('.log')}")
    report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    return {"arm": arm, "gflops": gflops, "wall_s": wall, "rss_mb": usage.ru_maxrss / 1024,
            "timings": report["meta"]["timings"], "engines": report["meta"].get("engines"),
            "verdict": (report.get("knowledge") or {}).get("verdict", {}).get("verdict"),
            "folder": folder}


def _answers(path: Path) -> list[tuple]:
    """(id, sample, completion) of every record, sorted by id and sample (the training rows
    may be labelled in another order)."""
    rows = [(str(r["id"]), r.get("sample", 0), r["completion"])
            for r in map(json.loads, path.read_text().splitlines())]
    return sorted(rows)


def _share(a: list, b: list) -> str:
    same = sum(x == y for x, y in zip(a, b))
    return f"{same}/{len(a)} ({100 * same / max(1, len(a)):.1f}%)" if len(a) == len(b) \
        else f"different lengths ({len(a)} vs {len(b)})"


def agreement(a: Path, b: Path) -> dict[str, str]:
    """Identical shares between two runs' base answers, training-row answers and trained
    answers (greedy everywhere in the main job)."""
    out = {}
    for name, file in (("base answers", "generations_base.jsonl"),
                       ("training-row answers (labels)", "train_knowledge.jsonl"),
                       ("trained answers", "generations_trained.jsonl")):
        if (a / file).is_file() and (b / file).is_file():
            out[name] = _share(_answers(a / file), _answers(b / file))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=2, help="A B pairs")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="passed to both arms' rlvr train")
    parser.add_argument("--out", default=None, help="folder for the runs (default: a temp dir)")
    parser.add_argument("--engines-only", action="store_true",
                        help="arm A differs from B only by the evaluation engine")
    args = parser.parse_args()
    out = Path(args.out or tempfile.mkdtemp(prefix="rlvr-main-job-engines-"))
    out.mkdir(parents=True, exist_ok=True)
    print(f"main job: rlvr train --config {CONFIG.relative_to(ROOT)} "
          f"{' '.join('--set ' + s for s in ['label_cache=false', *args.set])}; runs in {out}")
    runs = []
    for pair in range(args.repeats):
        for arm in ("A", "B"):
            arm_sets = [] if args.engines_only else ARM_SETS[arm]
            run = run_job(arm, out / f"{arm}{pair}", args.set, arm_sets)
            runs.append(run)
            stages = ", ".join(f"{k} {run['timings'][k]:.1f}" for k in STAGES
                               if k in run["timings"])
            name = ", ".join([ARMS[arm] or "default", *arm_sets])
            print(f"  {arm}{pair} ({name}): {run['wall_s']:.0f} s wall, "
                  f"peak RSS {run['rss_mb']:.0f} MB, {run['gflops']:.0f} GFLOP/s before; "
                  f"verdict {run['verdict']}; {stages}", flush=True)
    a = [r for r in runs if r["arm"] == "A"]
    b = [r for r in runs if r["arm"] == "B"]
    wall_a = statistics.median(r["wall_s"] for r in a)
    wall_b = statistics.median(r["wall_s"] for r in b)
    print(f"median wall: A (before) {wall_a:.0f} s, B (default) {wall_b:.0f} s; "
          f"B / A = {wall_b / wall_a:.2f}x; matmul {min(r['gflops'] for r in runs):.0f}-"
          f"{max(r['gflops'] for r in runs):.0f} GFLOP/s")
    for key in STAGES:
        if all(key in r["timings"] for r in runs):
            ta = statistics.median(r["timings"][key] for r in a)
            tb = statistics.median(r["timings"][key] for r in b)
            print(f"  {key}: A {ta:.1f} s, B {tb:.1f} s, A / B = {ta / tb:.2f}x")
    print(f"  B engines: {b[0]['engines']}")
    for pair in range(args.repeats):
        ra, rb = a[pair], b[pair]
        same = agreement(ra["folder"], rb["folder"])
        print(f"pair {pair}: identical " + "; ".join(f"{k} {v}" for k, v in same.items()) +
              f"; verdicts {ra['verdict']} / {rb['verdict']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
