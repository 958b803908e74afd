"""Print the calibration reward's preflight tables on the SelfAware v3 train and test splits.

    .venv/bin/python benchmarks/preflight_tables.py [--source ../shared/data/selfaware/SelfAware.json]

For each split (built with `rlvr data selfaware --variant v3`, the same command a user
runs) and each preset (`reference`, `seed`, `strict`), scores the gold answers and the
degenerate policies of `rlvr.rewards.preflight` (always abstain, always hedge, list
candidates, empty, repeat the question) and prints the mean reward of each, with the
warnings a training run would get. No model is loaded.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from rlvr.cli import main as rlvr_main
from rlvr.rewards.preflight import format_preflight, preflight

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", default=str(ROOT.parent / "shared" / "data" / "selfaware"
                                                / "SelfAware.json"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if rlvr_main(["data", "selfaware", "--source", args.source, "--variant", "v3",
                      "--output-dir", tmp]) != 0:
            raise SystemExit("could not build the v3 splits")
        for split in ("train", "test"):
            rows = [json.loads(line) for line in (Path(tmp) / f"{split}.jsonl").open()]
            for preset in ("reference", "seed", "strict"):
                start = time.perf_counter()
                report = preflight("selfaware", rows, preset)
                seconds = time.perf_counter() - start
                print(f"\n=== v3 {split} ({len(rows)} rows), preset {preset} "
                      f"({seconds:.2f} s) ===")
                print(format_preflight(report))


if __name__ == "__main__":
    main()
