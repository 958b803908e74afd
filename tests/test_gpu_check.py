"""The CPU rehearsal of benchmarks/gpu_check.py: the script a lent GPU runs, kept working.

It builds two tiny random-weight models (Llama- and Qwen2-shaped), trains 2 GRPO steps on
each through rlvr and through plain TRL, and records the CUDA-only branches as skipped with
their reasons (about a minute on 2 CPU cores).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_rehearsal_writes_figures_for_both_shapes(tmp_path):
    out = tmp_path / "x.json"
    done = subprocess.run([sys.executable, "benchmarks/gpu_check.py", "--rehearse",
                           "--out", str(out)], capture_output=True, text=True, cwd=ROOT,
                          timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result["mode"] == "rehearse" and result["failed"] is False
    assert set(result["shapes"]) == {"smollm2-135m-shaped", "qwen2.5-0.5b-shaped"}
    for name, shape in result["shapes"].items():
        for side in ("rlvr", "plain"):
            assert shape[side]["median_s"] > 0, (name, side)
            assert all(s > 0 for s in shape[side]["step_s"]), (name, side)
        assert shape["ratio"] > 0
        assert shape["settings_differ"] == {}, shape["settings_differ"]
    assert result["cuda_tests"]["status"] == "skipped: no CUDA"
    for branch in ("qlora", "vllm_colocate", "accelerate_2proc"):
        entry = result["extras"][branch]
        assert entry["config"] == "ok", (branch, entry)
        assert entry["status"].startswith("skipped: ") and "no CUDA" in entry["status"]
    assert "shape" in done.stdout and "rlvr/plain" in done.stdout
