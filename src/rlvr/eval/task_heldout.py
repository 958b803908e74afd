"""Before/after evaluation of a task run (any reward but the calibration ones): the held-out
rows scored by the run's own rewards for the base and the trained model, with paired
intervals.

Every record (one sample of one held-out row) is scored by each of the run's reward entries
(`reward_funcs`, else `reward`: name, preset, params, weight, log_name) through the same
reward cores training used (`rlvr.rewards.score_rows`), and gets `rewards` {log_name: score},
`outcomes` {log_name: outcome} and `reward` = the weighted sum, a None score counting 0 as
in TRL's sum. Per model and per row (the mean over a row's samples):

| metric                  | per row                                                     |
|-------------------------|-------------------------------------------------------------|
| `reward`                | the weighted reward sum                                     |
| `reward/<log_name>`     | that reward's score                                         |
| `accuracy/<log_name>`   | share of samples with a correct outcome (`CORRECT`), for a  |
|                         | reward that declares one (GSM8K, MATH, QA, code)            |
| `pass@k/<log_name>`     | unbiased pass@k (Chen et al., 2021) from the row's samples, |
|                         | k = 2, 4, 8, ... up to `num_samples`, and `num_samples`     |

The difference trained - base is paired by row, its 95% interval a percentile bootstrap over
rows (`rlvr.metrics.calibration.paired_bootstrap`). Rewards that read token ids (length
guards) see none here and score as their `no_token_ids` outcome says.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Sequence

from rlvr.metrics.calibration import paired_bootstrap
from rlvr.objectives.selection import pass_at_k
from rlvr.config.reward_setup import CORRECT, entry_name, has_accuracy  # noqa: F401
from rlvr.rewards import register_user_rewards, score_rows

def score_with_entries(records: list[dict[str, Any]],
                       entries: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Add `rewards`, `outcomes` and `reward` (weighted sum) to each record in place (module
    docstring); `outcome` becomes the first entry's outcome. Returns the records. An entry
    with a `function` (a user's reward, `rlvr.rewards.user`) is registered first.

    Raises:
        RlvrError: a record lacks a field a reward needs (the message names the row), an
            unknown reward or preset, a user function that does not load or returns
            something other than a score.
    """
    entries = register_user_rewards(list(entries))
    for rec in records:
        rec["rewards"], rec["outcomes"] = {}, {}
    for entry in entries:
        name = entry_name(entry)
        results = score_rows(entry["name"], records, entry.get("preset"),
                             **(entry.get("params") or {}))
        for rec, result in zip(records, results):
            rec["rewards"][name] = result.score
            rec["outcomes"][name] = result.outcome
    for rec in records:
        rec["reward"] = sum(float(e.get("weight", 1.0)) * (rec["rewards"][entry_name(e)] or 0.0)
                            for e in entries)
        rec["outcome"] = rec["outcomes"][entry_name(entries[0])] if entries else None
    return records


def _by_row(records: Sequence[dict[str, Any]]) -> dict[Any, list[dict[str, Any]]]:
    rows: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for rec in records:
        rows[rec["id"]].append(rec)
    return rows


def row_values(records: Sequence[dict[str, Any]], entries: Sequence[dict[str, Any]],
               num_samples: int = 1) -> dict[str, dict[Any, float]]:
    """Per metric (module table), per row id: the row's value for one model."""
    out: dict[str, dict[Any, float]] = defaultdict(dict)
    ks = sorted({2 ** i for i in range(1, num_samples.bit_length())} | {num_samples} - {1})
    for row_id, recs in _by_row(records).items():
        n = len(recs)
        out["reward"][row_id] = sum(r["reward"] for r in recs) / n
        for entry in entries:
            name = entry_name(entry)
            scores = [r["rewards"][name] for r in recs if r["rewards"][name] is not None]
            if scores:
                out[f"reward/{name}"][row_id] = sum(scores) / len(scores)
            if has_accuracy(entry):
                correct = sum(r["outcomes"][name] in CORRECT for r in recs)
                out[f"accuracy/{name}"][row_id] = correct / n
                for k in ks:
                    if n >= k:
                        out[f"pass@{k}/{name}"][row_id] = pass_at_k(num_samples=n,
                                                                   num_correct=correct, k=k)
    return dict(out)


def heldout_summary(base: Sequence[dict[str, Any]], trained: Sequence[dict[str, Any]],
                    entries: Sequence[dict[str, Any]], num_samples: int = 1,
                    bootstrap_samples: int = 2000, seed: int = 0) -> dict[str, Any]:
    """Base vs trained on the held-out rows (module docstring), from scored records
    (`score_with_entries`) of the same rows.

    Returns:
        {"n_rows", "num_samples", "rewards": [log names], "metrics": {metric: {"n", "base",
        "trained", "difference": `paired_bootstrap` dict (trained - base, paired by row)}},
        "outcomes": {model: {log_name: {outcome: count}}}}; a metric is left out when no
        row has it for both models.
    Raises:
        ValueError: no rows.
    """
    values = {"base": row_values(base, entries, num_samples),
              "trained": row_values(trained, entries, num_samples)}
    metrics: dict[str, Any] = {}
    for metric, by_row in values["base"].items():
        other = values["trained"].get(metric, {})
        ids = [i for i in by_row if i in other]
        if not ids:
            continue
        b, t = [by_row[i] for i in ids], [other[i] for i in ids]
        metrics[metric] = {"n": len(ids), "base": sum(b) / len(b), "trained": sum(t) / len(t),
                           "difference": paired_bootstrap(b, t, bootstrap_samples, seed)}
    if not metrics:
        raise ValueError("no held-out row was scored for both models")
    outcomes: dict[str, dict[str, dict[str, int]]] = {}
    for model, records in (("base", base), ("trained", trained)):
        counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for rec in records:
            for name, outcome in rec["outcomes"].items():
                counts[name][outcome] += 1
        outcomes[model] = {k: dict(v) for k, v in counts.items()}
    return {"n_rows": len(_by_row(base)), "num_samples": num_samples,
            "rewards": [entry_name(e) for e in entries], "metrics": metrics,
            "outcomes": outcomes}


def heldout_table(summary: dict[str, Any]) -> str:
    """Markdown: one line per metric, base | trained | trained - base [95% CI], then the
    outcome counts per reward and model."""
    lines = [f"Held-out rows: {summary['n_rows']}, {summary['num_samples']} sample(s) per row "
             "(greedy when 1); trained - base paired by row, 95% bootstrap interval.", "",
             "| metric | n | base | trained | trained - base [95% CI] |",
             "|---|---:|---:|---:|---:|"]
    for metric, m in summary["metrics"].items():
        d = m["difference"]
        lines.append(f"| {metric} | {m['n']} | {m['base']:.3f} | {m['trained']:.3f} | "
                     f"{d['mean_difference']:+.3f} [{d['ci_low']:+.3f}, {d['ci_high']:+.3f}] |")
    lines += ["", "| reward | outcomes: base | outcomes: trained |", "|---|---|---|"]
    for name in summary["rewards"]:
        cells = [", ".join(f"{k} {v}" for k, v in sorted(
            summary["outcomes"].get(model, {}).get(name, {}).items())) or "-"
            for model in ("base", "trained")]
        lines.append(f"| {name} | {cells[0]} | {cells[1]} |")
    return "\n".join(lines)


def verdict_line(summary: dict[str, Any]) -> str:
    """One sentence: the first accuracy metric (else `reward`) base -> trained with its
    paired interval, and whether the interval excludes 0."""
    metric = next((m for m in summary["metrics"] if m.startswith("accuracy/")), "reward")
    m = summary["metrics"][metric]
    d = m["difference"]
    moved = ("rose" if d["ci_low"] > 0 else "fell" if d["ci_high"] < 0
             else "did not move beyond noise")
    return (f"Held-out {metric} (n={m['n']}): base {m['base']:.3f} -> trained "
            f"{m['trained']:.3f}, {d['mean_difference']:+.3f} [{d['ci_low']:+.3f}, "
            f"{d['ci_high']:+.3f}]: {moved}.")
