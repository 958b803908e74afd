"""Measure reward throughput: completions/s per pure reward, programs/s for the sandbox.

    .venv/bin/python benchmarks/rewards.py                 # ~1 s per pure reward
    .venv/bin/python benchmarks/rewards.py --seconds 3 --programs 40

Pure rewards are timed by calling their per-sample core in one thread (one core), after
one untimed warm-up pass (pattern compilation, gold caches), on
completions built from the shared real data (../shared/data): SelfAware questions with
answers, abstentions and hedges; GSM8K reference solutions; TriviaQA answers. Each corpus
mixes short and long texts as a model would produce them; the mean length is printed.
The code sandbox is timed on MBPP reference solutions, each job built by the `code` reward's
`build_job` from its row, with its default worker count (the first call also probes the
machine's isolation once: time a few hundred programs, not the default 24, for a rate);
per-program overhead is the mean wall time of a program that does nothing, run alone.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from rlvr.rewards import get_reward
from rlvr.rewards.code import build_job
from rlvr.sandbox import SandboxLimits, network_isolation, run_many, run_tests

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
IDK = ["I don't know.", "I'm not sure anyone can answer that.", "That is beyond my knowledge.",
       "There is no way to know that.", "No one knows for certain.", "I honestly don't know."]


def selfaware_rows() -> list[tuple[str, dict]]:
    """(completion, fields) pairs: answers, wrong answers, abstentions, hedges."""
    data = json.loads((DATA / "selfaware" / "SelfAware.json").read_text())["example"]
    rows = []
    for i, ex in enumerate(data):
        answers = ex.get("answer") or []
        fields = {"expected_answer": answers or None, "is_unanswerable": not ex["answerable"]}
        kind = i % 4
        if kind == 0 and answers:
            text = f"The answer is {answers[0]}."
        elif kind == 1:
            text = IDK[i % len(IDK)]
        elif kind == 2:
            text = f"I'm not sure, but I think it is {answers[0] if answers else 'Paris'}."
        else:
            text = (f"{ex['question']} This is a well-studied question; most sources agree "
                    "that the usual explanation holds, so I would go with the common view.")
        rows.append((text, fields))
    return rows


def gsm8k_rows() -> list[tuple[str, dict]]:
    rows = [json.loads(line) for line in (DATA / "gsm8k" / "test.jsonl").open()]
    return [(r["answer"], {"final_answer": r["answer"].rsplit("####", 1)[1].strip()}) for r in rows]


def qa_rows() -> list[tuple[str, dict]]:
    rows = [json.loads(line) for line in (DATA / "triviaqa" / "triviaqa_sm_sub.jsonl").open()]
    return [(f"<answer>{r['answer']}</answer>" if i % 2 else r["answer"], {"aliases": r["aliases"]})
            for i, r in enumerate(rows)]


def measure(name: str, preset: str | None, rows: list[tuple[str, dict]], seconds: float,
            keep_fields: bool = True) -> tuple[float, float]:
    """Completions per second of the reward's core over `rows`, for about `seconds`."""
    spec = get_reward(name)
    params = spec.params(preset)
    core = spec.core
    calls = [(text, fields if keep_fields else {}) for text, fields in rows]
    for text, fields in calls:  # warm-up: compiled patterns and caches, not timed
        core(text, **fields, **params)
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for text, fields in calls:
            core(text, **fields, **params)
        done += len(calls)
    elapsed = time.perf_counter() - start
    return done / elapsed, sum(len(t) for t, _ in rows) / len(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per pure reward")
    parser.add_argument("--programs", type=int, default=24, help="sandbox programs to run")
    args = parser.parse_args()

    selfaware, gsm8k, qa = selfaware_rows(), gsm8k_rows(), qa_rows()
    mixed = [(t, {}) for t, _ in selfaware[:1000]] + [(t, {}) for t, _ in gsm8k[:1000]]
    think = [(f"<think>\n{t}\n</think>\n<answer>{f['final_answer']}</answer>", {})
             for t, f in gsm8k[:1000]]
    math_rows = [(f"So the total is \\boxed{{{f['final_answer']}}}.",
                  {"solution": f["final_answer"]}) for _, f in gsm8k[:200]]
    cases = [
        ("abstention", None, mixed, False),
        ("abstention", "seed", mixed, False),
        ("selfaware", "seed", selfaware, True),
        ("selfaware", "strict", selfaware, True),
        ("gsm8k_correctness", None, gsm8k, True),
        ("gsm8k_format", None, [(t, {}) for t, _ in gsm8k], False),
        ("qa", None, qa, True),
        ("think_format", None, think, False),
        ("math", None, math_rows, True),
    ]
    print(f"pure rewards, one thread, ~{args.seconds:g} s each (completions/s, mean chars)")
    for name, preset, rows, keep in cases:
        rate, chars = measure(name, preset, rows, args.seconds, keep)
        label = name + (f" ({preset})" if preset else "")
        print(f"  {label:28} {rate:>12,.0f} /s   {chars:6.0f} chars")

    mbpp = [json.loads(line) for line in (DATA / "mbpp" / "mbpp.jsonl").open()]
    # jobs built as the `code` reward builds them from an MBPP row (its reference `code` names
    # the functions the tests may take from the program: MBPP 126's own `sum`)
    jobs = [build_job(f"```python\n{r['code']}\n```", r) for r in mbpp[10:10 + args.programs]]
    workers = os.cpu_count() or 1
    limits = SandboxLimits(timeout_s=5.0)
    start = time.perf_counter()
    results = run_many(jobs, workers=workers, limits=limits)
    elapsed = time.perf_counter() - start
    empty = [run_tests("pass\n", "pass\n", limits=limits).duration_s for _ in range(8)]
    print(f"code sandbox ({network_isolation()}), MBPP reference solutions:")
    print(f"  {len(jobs)} programs in {elapsed:.2f} s with {workers} workers: "
          f"{len(jobs) / elapsed:.1f} programs/s, {sum(r.passed for r in results)} passed")
    print(f"  per-program overhead (empty program, alone): {1000 * sum(empty) / len(empty):.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
