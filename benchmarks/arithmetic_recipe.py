"""The arithmetic recipe: does GRPO measurably teach the default model on a 2-core CPU?

    .venv/bin/python benchmarks/arithmetic_recipe.py            # the recipe, timed
    .venv/bin/python benchmarks/arithmetic_recipe.py --probe    # difficulty per level

`--probe` answers "which level is matched to the model": for each level of
`rlvr.data.arithmetic`, the base model's greedy accuracy on `--n` held-out questions with
the training prompt, and with `--samples` samples per question at the training temperature
the share of questions solved sometimes but not always (a GRPO group with reward spread,
the only kind that gives a gradient), with the format rate ('#### N' line).

The default mode runs `rlvr train --config configs/arithmetic_grpo_cpu.yaml` in one process
(run it alone on the machine), then prints the machine's fp32 matmul throughput, the wall
time and each stage's seconds, the held-out before/after table, the k-shot table and the
verdict; the target is an accuracy gain whose paired 95% interval excludes 0 in at most
15 minutes.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import matmul_gflops  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "configs" / "arithmetic_grpo_cpu.yaml"


def probe(n: int, samples: int, max_new_tokens: int, temperature: float,
          config: Path, levels: list[str] | None = None) -> None:
    """Per level: greedy accuracy, format rate, and the share of questions with spread,
    with the recipe's prompt (its system prompt and `prompt_exemplars`)."""
    from rlvr.config import load_config
    from rlvr.data.arithmetic import LEVELS, arithmetic_splits
    from rlvr.eval.generate import generate_completions
    from rlvr.models import load_causal_lm
    from rlvr.rewards import score_rows
    from rlvr.tasks.resolve import with_system_prompt
    from rlvr.tasks.rows import gsm8k_example

    cfg = load_config(str(config))
    print(f"prompt: {len(cfg.prompt_exemplars or [])} exemplars from {config.name}")

    model, tokenizer = load_causal_lm(None)
    model.eval()
    print(f"{'level':8} {'greedy acc':>10} {'format':>7} {'sampled acc':>11} "
          f"{'spread':>7}  (n={n}, {samples} samples at T={temperature}, "
          f"{max_new_tokens} tokens)")
    for name in levels or LEVELS:
        rows = arithmetic_splits(10, n, name)["test"]
        examples = with_system_prompt([gsm8k_example(r["question"], r["answer"], {}, name, i)
                                       for i, r in enumerate(rows)], cfg.system_prompt,
                                      cfg.prompt_exemplars)
        prompts = [ex["prompt"] for ex in examples]
        golds = [ex["fields"]["final_answer"] for ex in examples]
        start = time.perf_counter()
        greedy = generate_completions(model, tokenizer, prompts, max_new_tokens,
                                      progress=False)
        sampled = generate_completions(model, tokenizer, prompts, max_new_tokens,
                                       progress=False, num_samples=samples,
                                       temperature=temperature)
        seconds = time.perf_counter() - start

        def correct(gens, k):
            scored = score_rows("gsm8k_correctness", [
                {"completion": g["completion"], "final_answer": golds[i // k]}
                for i, g in enumerate(gens)])
            return [s.outcome == "correct" for s in scored]

        g = correct(greedy, 1)
        s = correct(sampled, samples)
        formatted = score_rows("gsm8k_format", [{"completion": x["completion"]} for x in greedy])
        per_q = [s[i * samples:(i + 1) * samples] for i in range(n)]
        spread = sum(0 < sum(q) < samples for q in per_q) / n
        print(f"{name:8} {sum(g) / n:10.2f} {sum(f.score > 0 for f in formatted) / n:7.2f} "
              f"{sum(s) / len(s):11.2f} {spread:7.2f}  ({seconds:.0f} s); e.g. "
              f"{greedy[0]['completion'][:60]!r}")


def recipe(config: Path, output_dir: str) -> None:
    """The recipe, timed, with its tables."""
    from rlvr.config import load_config
    from rlvr.eval.kshot import kshot_markdown
    from rlvr.eval.task_heldout import heldout_table
    from rlvr.train.job import run
    from rlvr.eval.task_run import task_verdict_line

    print(f"machine: {matmul_gflops():.0f} GFLOP/s fp32 matmul", flush=True)
    cfg = load_config(str(config), {"output_dir": output_dir})
    start = time.perf_counter()
    report = run(cfg)
    wall = time.perf_counter() - start
    print(f"\nwall time: {wall:.0f} s = {wall / 60:.1f} min (target: 15 min)")
    print("stages (s):", json.dumps(report["meta"].get("timings", {})))
    print(f"optimizer steps: {report['meta']['optimizer_steps']}")
    if report.get("heldout"):
        print("\n" + heldout_table(report["heldout"]))
    if report.get("kshot"):
        print("\n" + kshot_markdown(report["kshot"]))
    print("\n" + task_verdict_line(report))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--probe", action="store_true", help="difficulty per level, no training")
    parser.add_argument("--n", type=int, default=40, help="probe: questions per level")
    parser.add_argument("--samples", type=int, default=4, help="probe: samples per question")
    parser.add_argument("--max-new-tokens", type=int, default=64)
    parser.add_argument("--temperature", type=float, default=0.7)
    parser.add_argument("--levels", help="probe: comma-separated levels (default: all)")
    parser.add_argument("--config", default=str(CONFIG))
    parser.add_argument("--output-dir", default=str(ROOT / "runs" / "bench_arithmetic"))
    args = parser.parse_args()
    if args.probe:
        print(f"machine: {matmul_gflops():.0f} GFLOP/s fp32 matmul", flush=True)
        probe(args.n, args.samples, args.max_new_tokens, args.temperature, Path(args.config),
              args.levels.split(",") if args.levels else None)
    else:
        recipe(Path(args.config), args.output_dir)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
