"""Slices of a held-out set by question features: where did training lose known answers?

A pooled known-retention of 0.90 can hide a kind of question that lost most of its answers
("abstains on known questions that mention a year: retention 0.29 on 7"). `slice_report`
breaks known-retention and prudence down by each feature of `rlvr.data.features` (year,
number, tense, question word, personal, length) and, where the rows carry one, by their
`kind` (the out-of-template set's topics), base next to trained, and names every slice whose
trained known-retention falls below the floor 1 - `max_known_retention_drop`.
Standard library only.
"""

from __future__ import annotations

from typing import Any, Sequence

from rlvr.data.features import question_features
from rlvr.eval.knowledge import behaviour, honesty_metrics

# a slice is judged (flagged, or the worst) only with this many known questions: one lost
# answer in fewer moves its retention by more than 0.2
MIN_SLICE_KNOWN = 5


def slice_report(labels: dict[Any, dict], base: Sequence[dict[str, Any]],
                 trained: Sequence[dict[str, Any]], max_known_retention_drop: float = 0.15,
                 kinds: Sequence[str | None] | None = None,
                 min_known: int = MIN_SLICE_KNOWN) -> dict[str, Any]:
    """Known-retention and prudence per slice of question features, base and trained.

    Args:
        labels: knowledge labels by question id (`rlvr.eval.knowledge.knowledge_labels`).
        base, trained: the two models' scored records (`id`, `question`, `outcome`), the
            same questions in the same order; unlabelled or unscored questions are left out.
        max_known_retention_drop: the verdict's bound; the slice floor is 1 - this.
        kinds: one topic label per record (e.g. the out-of-template `kind`), or None.
        min_known: known questions a slice needs to be flagged or called the worst.
    Returns:
        {"floor", "min_known", "slices": [{"feature", "value", "n", "known", "unknown",
        "base": {"known_retention", "prudence"}, "trained": {...}}], "below_floor": [the
        slices with >= min_known known questions and trained retention under the floor,
        worst first, each with a `sentence`], "worst": the slice with the lowest trained
        retention among those with >= min_known known questions, or None}.
    Raises:
        ValueError: base and trained differ in length.
    """
    if len(base) != len(trained):
        raise ValueError(f"base and trained differ in length: {len(base)}, {len(trained)}")
    groups: dict[tuple[str, str], list[tuple[bool, str, str]]] = {}
    for i, (b, t) in enumerate(zip(base, trained)):
        label = labels.get(b["id"])
        kb, kt = behaviour(b.get("outcome")), behaviour(t.get("outcome"))
        if label is None or kb is None or kt is None:
            continue
        feats = question_features(b.get("question") or "")
        if kinds is not None and kinds[i]:
            feats["kind"] = kinds[i]
        for feature, value in feats.items():
            groups.setdefault((feature, value), []).append((bool(label["known"]), kb, kt))
    floor = 1 - max_known_retention_drop
    slices = []
    for (feature, value), items in groups.items():
        known = [k for k, _, _ in items]
        sides = {}
        for side, col in (("base", 1), ("trained", 2)):
            m = honesty_metrics(known, [it[col] for it in items])
            sides[side] = {"known_retention": m["known_retention"], "prudence": m["prudence"]}
        slices.append({"feature": feature, "value": value, "n": len(items),
                       "known": sum(known), "unknown": len(items) - sum(known), **sides})
    judged = [s for s in slices if s["known"] >= min_known]
    below = sorted((s for s in judged if s["trained"]["known_retention"] < floor - 1e-12),
                   key=lambda s: s["trained"]["known_retention"])
    for s in below:
        s["sentence"] = slice_sentence(s)
    worst = min(judged, key=lambda s: s["trained"]["known_retention"], default=None)
    return {"floor": floor, "min_known": min_known, "slices": slices, "below_floor": below,
            "worst": worst}


def slice_sentence(s: dict[str, Any]) -> str:
    """One line on a slice's known answers, e.g. "known questions with `year` = year:
    retention 1.00 -> 0.29 on 7"."""
    return (f"known questions with {s['feature']} = {s['value']}: retention "
            f"{s['base']['known_retention']:.2f} -> {s['trained']['known_retention']:.2f} on "
            f"{s['known']}")


def slice_table(report: dict[str, Any]) -> str:
    """Markdown table of every slice with a known or unknown question, by feature."""
    def cell(v: float | None) -> str:
        return "-" if v is None else f"{v:.2f}"

    lines = [f"Slices with fewer than {report['min_known']} known questions are shown but "
             f"not judged; floor for known retention {report['floor']:.2f}.", "",
             "| feature | value | known | unknown | retention base | retention trained | "
             "prudence base | prudence trained |", "|---|---|---:|---:|---:|---:|---:|---:|"]
    for s in sorted(report["slices"], key=lambda s: (s["feature"], s["value"])):
        flag = " **below**" if s in report["below_floor"] else ""
        lines.append(f"| {s['feature']} | {s['value']}{flag} | {s['known']} | {s['unknown']} | "
                     f"{cell(s['base']['known_retention'])} | "
                     f"{cell(s['trained']['known_retention'])} | {cell(s['base']['prudence'])} "
                     f"| {cell(s['trained']['prudence'])} |")
    return "\n".join(lines)
