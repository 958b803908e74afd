"""Markdown tables of the likelihood cross-task check (`rlvr.eval.cross_check`): the gold
answers' log-likelihood under base and trained, and the knowledge-or-willingness table (the
gold's rank among distractors, "I don't know." against the gold) with its reading rule."""

from __future__ import annotations

import math
from typing import Any

from rlvr.eval.cross_check import ABSTENTION


def _cells(figure: dict[str, Any] | None) -> list[str]:
    """base, trained and 'difference [CI]' cells of a ranking/abstention figure."""
    d = figure and figure["difference"]
    return ["-"] * 3 if not d else [f"{figure['base']:.3f}", f"{figure['trained']:.3f}",
                                    f"{d['mean_difference']:+.3f} [{d['ci_low']:+.3f}, "
                                    f"{d['ci_high']:+.3f}]"]


SIZE_NOTE = ("How large is a change: any LoRA update moves these likelihoods a little, so on "
             "10-50 rows an interval clear of 0 says that the adapter changed the model's "
             "probabilities on that text, not that it harmed the task. The last column gives "
             "the size: exp(trained - base), the factor by which each gold token became more "
             "(above 1) or less (below 1) likely on average; 0.91 is 9% less likely per "
             "token. Whether the task's answers were lost shows in the ranking table below "
             "(is the gold still ranked above other rows' answers?), where it is measured.")
READING_RULE = ("Reading rule: gold rank held, gold likelihood fell, abstention rose: "
                "willingness lost, not knowledge; gold rank fell too: knowledge lost.")


def cross_check_table(check: dict[str, Any]) -> str:
    """Markdown: the likelihood table (per task n, base and trained nats/token, trained -
    base [95% CI], the per-token probability ratio exp(trained - base); skipped tasks with
    their reason) and `SIZE_NOTE`, then, when results have them, the
    knowledge-or-willingness table (gold rank accuracy and abstention-over-gold share: base,
    trained, trained - base [95% CI]) with `READING_RULE` under it."""
    lines = ["| task | n | gold continuation | base (nats/token) | trained (nats/token) | "
             "trained - base [95% CI] | per-token probability, trained / base |",
             "|---|---:|---|---:|---:|---:|---:|"]
    for name, r in check["tasks"].items():
        d = r["difference"]
        lines.append(f"| {name} | {r['n']} | {r['continuation']} | {r['base']:.4f} | "
                     f"{r['trained']:.4f} | {d['mean_difference']:+.4f} "
                     f"[{d['ci_low']:+.4f}, {d['ci_high']:+.4f}] | "
                     f"{math.exp(d['mean_difference']):.3f} |")
    for name, reason in check.get("skipped", {}).items():
        lines.append(f"| {name} | - | skipped: {reason} | - | - | - | - |")
    if check["tasks"]:
        lines += ["", SIZE_NOTE]
    figures = {k: r for k, r in check["tasks"].items() if r.get("ranking") or r.get("abstention")}
    if not figures:
        return "\n".join(lines)
    text = next((r["abstention"]["continuation"] for r in figures.values()
                 if r.get("abstention")), ABSTENTION)
    norm = check.get("meta", {}).get("ranking", {}).get("normalise", "token")
    unit = "mean log-likelihood per token" if norm == "token" else f"normalise={norm}"
    lines += ["", "Knowledge or willingness: the gold ranked first among its candidates "
              f"(it and other rows' gold answers, same prompt, {unit}; chance = 1 / "
              f'candidates); "{text}" scored above the gold (share of rows), and its margin '
              "over the gold (abstention - gold score, mean over rows).", "",
              "| task | n | candidates | gold ranked 1st: base | trained | trained - base "
              f'[95% CI] | "{text}" over gold: base | trained | trained - base [95% CI] | '
              "margin: trained - base [95% CI] |", "|---|---:|" + "---:|" * 8]
    for name, r in figures.items():
        ranking, abst = r.get("ranking"), r.get("abstention")
        lines.append(" | ".join([f"| {name}", str(r["n"]), str((ranking or {}).get(
            "candidates", "-")), *_cells(ranking), *_cells(abst),
            _cells(abst and {**abst["margin"], "base": 0, "trained": 0})[2]]) + " |")
    return "\n".join(lines + ["", READING_RULE])


