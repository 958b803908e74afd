"""Before/after self-awareness report: score generations, compare, write JSON and Markdown."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from rlvr.eval.metrics import calibration_metrics, paired_bootstrap
from rlvr.io import write_json, write_jsonl, write_text
from rlvr.rewards import score_rows

METRIC_ROWS = (
    ("mean_reward", "mean reward"),
    ("answerable_accuracy", "answerable accuracy"),
    ("answerable_abstention_rate", "answerable abstention rate"),
    ("unanswerable_abstention_recall", "unanswerable abstention recall"),
    ("abstention_precision", "abstention precision"),
    ("abstention_f1", "abstention F1"),
)


def score_generations(examples: Sequence[dict[str, Any]], generations: Sequence[dict[str, Any]],
                      reward: str = "selfaware", preset: str | None = None,
                      reward_params: dict | None = None) -> list[dict[str, Any]]:
    """Join examples with their generations and score them with a registered reward.

    The reward sees each example's fields plus `prompt` = the question text (rewards that
    detect restatements of the question use it).
    Returns:
        per-question records: `id`, `question`, `is_unanswerable`, `expected_answer`,
        `completion`, `num_tokens`, `truncated`, `reward`, `outcome`.
    """
    rows = [{**ex, "prompt": ex.get("question", ""), "completion": gen["completion"]}
            for ex, gen in zip(examples, generations, strict=True)]
    results = score_rows(reward, rows, preset, **(reward_params or {}))
    records = []
    for i, (ex, gen, result) in enumerate(zip(examples, generations, results)):
        records.append({
            "id": ex.get("id", i), "question": ex.get("question"),
            "is_unanswerable": ex.get("is_unanswerable"),
            "expected_answer": ex.get("expected_answer"),
            "completion": gen["completion"], "num_tokens": gen.get("num_tokens"),
            "truncated": gen.get("truncated"),
            "reward": result.score, "outcome": result.outcome,
        })
    return records


def build_report(base: Sequence[dict[str, Any]], trained: Sequence[dict[str, Any]],
                 meta: dict[str, Any], bootstrap_samples: int = 2000,
                 seed: int = 0) -> dict[str, Any]:
    """Assemble the report dict: `base.selfaware`, `trained.selfaware`, `difference`.

    The paired difference uses questions scored for both models, in the same order.
    """
    pairs = [(b["reward"], t["reward"]) for b, t in zip(base, trained, strict=True)
             if b["reward"] is not None and t["reward"] is not None]
    difference = None
    if pairs:
        boot = paired_bootstrap([p[0] for p in pairs], [p[1] for p in pairs],
                                samples=bootstrap_samples, seed=seed)
        difference = {"mean_reward": boot}
    return {
        "meta": meta,
        "base": {"selfaware": calibration_metrics(base)},
        "trained": {"selfaware": calibration_metrics(trained)},
        "difference": difference,
    }


def _fmt(value: Any) -> str:
    return "-" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)


def format_table(report: dict[str, Any]) -> str:
    """Render the before/after table as Markdown (also readable in a terminal)."""
    base, trained = report["base"]["selfaware"], report["trained"]["selfaware"]
    lines = ["| metric | base | trained | trained - base |", "|---|---:|---:|---:|"]
    for key, label in METRIC_ROWS:
        b, t = base[key], trained[key]
        delta = f"{t - b:+.3f}" if b is not None and t is not None else "-"
        lines.append(f"| {label} | {_fmt(b)} | {_fmt(t)} | {delta} |")
    for key in ("answerable", "unanswerable", "correct", "wrong", "abstained",
                "abstained_unanswerable", "answered_unanswerable", "hedged"):
        b, t = base["counts"][key], trained["counts"][key]
        lines.append(f"| n {key} | {b} | {t} | {t - b:+d} |")
    diff = (report.get("difference") or {}).get("mean_reward")
    if diff:
        lines.append("")
        lines.append(f"Paired difference of mean reward (trained - base) over {diff['n']} "
                     f"questions: {diff['mean_difference']:+.3f}, "
                     f"{int(diff['confidence'] * 100)}% bootstrap CI "
                     f"[{diff['ci_low']:+.3f}, {diff['ci_high']:+.3f}] "
                     f"({diff['samples']} resamples).")
    return "\n".join(lines)


def write_report(run_dir: str | Path, report: dict[str, Any], base: Sequence[dict],
                 trained: Sequence[dict]) -> dict[str, Path]:
    """Write report.json, report.md and the per-question generations of both models."""
    run_dir = Path(run_dir)
    meta = report.get("meta", {})
    md = ["# Self-awareness: base vs trained", ""]
    md += [f"- {k}: {v}" for k, v in meta.items() if not isinstance(v, (dict, list))]
    md += ["", format_table(report), ""]
    if report.get("cross_eval"):
        from rlvr.eval.results import results_table

        md += ["## Cross-task evaluation (base vs trained)", "",
               results_table(report["cross_eval"]), ""]
    return {
        "generations_base": write_jsonl(run_dir / "generations_base.jsonl", base),
        "generations_trained": write_jsonl(run_dir / "generations_trained.jsonl", trained),
        "report_json": write_json(run_dir / "report.json", report),
        "report_md": write_text(run_dir / "report.md", "\n".join(md)),
    }
