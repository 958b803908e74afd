"""Record the collapsed real-data run as a small test fixture (tests/fixtures/collapsed_run).

The run: `rlvr train --config configs/selfaware_grpo_cpu.yaml --data SelfAware.json` as it
stood at commit 141091d (seed preset, 50 steps), which learned to abstain everywhere.

    .venv/bin/python benchmarks/record_collapsed_fixture.py RUN_DIR

Keeps per question only `id`, `is_unanswerable`, the model's `completion`, the recorded
`reward` and `outcome`; no question text or gold answer (SelfAware is CC-BY-SA and stays
outside the project; tests join on `id` with ../shared/data when they rescore). Prints the
report's headline numbers, which go into the fixture's meta.json.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KEEP = ("id", "is_unanswerable", "completion", "reward", "outcome")


def main() -> int:
    run = Path(sys.argv[1])
    out = ROOT / "tests" / "fixtures" / "collapsed_run"
    out.mkdir(parents=True, exist_ok=True)
    for name in ("base", "trained"):
        rows = [json.loads(x) for x in (run / f"generations_{name}.jsonl").read_text().splitlines()]
        with open(out / f"{name}.jsonl", "w", encoding="utf-8") as handle:
            for row in rows:
                handle.write(json.dumps({k: row.get(k) for k in KEEP}, ensure_ascii=False) + "\n")
    report = json.loads((run / "report.json").read_text())
    meta = {"source": "rlvr train --config configs/selfaware_grpo_cpu.yaml --data "
                      "SelfAware.json at commit 141091d (seed preset, v3 split, seed 42)",
            "base": report["base"]["selfaware"], "trained": report["trained"]["selfaware"],
            "difference": report["difference"], "optimizer_steps": report["meta"]["optimizer_steps"]}
    (out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
    for side in ("base", "trained"):
        m = report[side]["selfaware"]
        print(side, {k: m[k] for k in ("mean_reward", "answerable_accuracy",
                                        "answerable_abstention_rate",
                                        "unanswerable_abstention_recall")})
    print("difference", report["difference"]["mean_reward"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
