"""Before/after self-awareness report: compare scored generations, write JSON and Markdown."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from rlvr.data.out_of_template import SOURCE as OUT_OF_TEMPLATE
from rlvr.eval.knowledge import METRICS as KNOWLEDGE_METRICS
from rlvr.eval.knowledge import DEFAULT_RETENTION_DROP, knowledge_report, worse_verdict
from rlvr.eval.slices import slice_report, slice_table
from rlvr.metrics.calibration import METRIC_ROWS, calibration_metrics, paired_bootstrap
from rlvr.io import write_json, write_jsonl, write_text

SET_NAMES = {"in_distribution": "in-distribution", "out_of_template": "out-of-template"}


def build_report(base: Sequence[dict[str, Any]], trained: Sequence[dict[str, Any]],
                 meta: dict[str, Any], bootstrap_samples: int = 2000,
                 seed: int = 0, labels: dict[Any, dict] | None = None,
                 by: Sequence[str | None] | None = None,
                 kinds: Sequence[str | None] | None = None) -> dict[str, Any]:
    """The report of a held-out evaluation, with the out-of-template set apart.

    Questions whose source (`by`) is the out-of-template set
    (`rlvr.data.out_of_template.SOURCE`) are left out of the main sections and judged on
    their own in `out_of_template` (the same keys as the main report: `base`, `trained`,
    `difference`, `truncation`, `knowledge`); the main `knowledge.verdict` is then the worse
    of the two sets' verdicts (`rlvr.eval.knowledge.worse_verdict`), its reason naming both,
    and the in-distribution verdict alone stays as `knowledge.verdict_in_distribution`.
    Every knowledge section carries `slices` (`rlvr.eval.slices.slice_report`; `kinds`, one
    topic per question or None, adds the `kind` slices). The rest: `_build_one`.
    """
    oot = [x == OUT_OF_TEMPLATE for x in by] if by else []
    if not any(oot) or all(oot):
        return _build_one(base, trained, meta, bootstrap_samples, seed, labels, by, kinds)

    def part(seq: Sequence[Any] | None, want: bool) -> list[Any] | None:
        return None if seq is None else [x for x, o in zip(seq, oot, strict=True) if o == want]

    report = _build_one(part(base, False), part(trained, False), meta, bootstrap_samples, seed,
                        labels, part(by, False), part(kinds, False))
    section = _build_one(part(base, True), part(trained, True), meta, bootstrap_samples, seed,
                         labels, None, part(kinds, True))
    report["out_of_template"] = {k: section[k] for k in
                                 ("base", "trained", "difference", "truncation", "knowledge")
                                 if k in section}
    inside, outside = report.get("knowledge"), section.get("knowledge")
    if inside and outside:
        sets = {"in_distribution": inside["verdict"], "out_of_template": outside["verdict"]}
        worst = worse_verdict(*sets.values())
        untrained = meta.get("untrained")
        reason = "; ".join(
            f"{SET_NAMES[name]} set ({n} questions): {v['verdict']}"
            + ("" if untrained else f", {v['reason']}")
            for (name, v), n in zip(sets.items(), (inside["n"], outside["n"])))
        if untrained:  # the one reason that holds for both sets leads (rlvr.eval.unchanged)
            reason = f"{untrained} ({reason})"
        inside["verdict_in_distribution"] = inside["verdict"]
        inside["verdict"] = {**worst, "reason": reason,
                             "sets": {k: v["verdict"] for k, v in sets.items()}}
    return report


def _build_one(base: Sequence[dict[str, Any]], trained: Sequence[dict[str, Any]],
               meta: dict[str, Any], bootstrap_samples: int = 2000,
               seed: int = 0, labels: dict[Any, dict] | None = None,
               by: Sequence[str | None] | None = None,
               kinds: Sequence[str | None] | None = None) -> dict[str, Any]:
    """Assemble the report dict of one held-out set: `base.selfaware`, `trained.selfaware`, `difference` and,
    with knowledge `labels` (`rlvr.eval.knowledge.knowledge_labels`), `knowledge`
    (`rlvr.eval.knowledge.knowledge_report`: honesty metrics of always-abstain, base and
    trained, paired CIs and the verdict on what training changed against the base model,
    `judge_training`, with `meta["max_known_retention_drop"]` as its bound; a meta without
    it, a run from an older rlvr, gets the default). A `meta["untrained"]` reason (a run
    that changed nothing, `rlvr.eval.unchanged`) makes that verdict `unchanged` with it.

    The paired difference uses questions scored for both models, in the same order.
    `truncation` (`truncation_summary` of each model) says how many answers were cut at the
    evaluation token budget (`meta["eval_max_new_tokens"]`).
    `by` (one group name per question, e.g. its data source) adds `knowledge_by_source`:
    the knowledge section of each group, when there are two or more groups.
    """
    pairs = [(b["reward"], t["reward"]) for b, t in zip(base, trained, strict=True)
             if b["reward"] is not None and t["reward"] is not None]
    difference = None
    if pairs:
        boot = paired_bootstrap([p[0] for p in pairs], [p[1] for p in pairs],
                                samples=bootstrap_samples, seed=seed)
        difference = {"mean_reward": boot}
    report = {
        "meta": meta,
        "base": {"selfaware": calibration_metrics(base)},
        "trained": {"selfaware": calibration_metrics(trained)},
        "difference": difference,
        "truncation": {"max_new_tokens": meta.get("eval_max_new_tokens"),
                       "base": truncation_summary(base),
                       "trained": truncation_summary(trained)},
    }
    bound = meta.get("max_known_retention_drop")
    bound = DEFAULT_RETENTION_DROP if bound is None else float(bound)
    if labels:
        report["knowledge"] = knowledge_report(labels, base, trained, bootstrap_samples, seed,
                                               bound)
        report["knowledge"]["slices"] = slice_report(labels, base, trained, bound, kinds)
        groups = sorted({g for g in by or [] if g is not None})
        if len(groups) > 1:
            report["calibration_by_source"] = {
                g: {side: calibration_metrics([r for r, x in zip(records, by) if x == g])
                    for side, records in (("base", base), ("trained", trained))}
                for g in groups}
            report["knowledge_by_source"] = {
                g: knowledge_report(labels, [b for b, x in zip(base, by) if x == g],
                                    [t for t, x in zip(trained, by) if x == g],
                                    bootstrap_samples, seed, bound)
                for g in groups}
    if meta.get("untrained") and report.get("knowledge"):  # rlvr.eval.unchanged
        from rlvr.eval.unchanged import mark_untrained

        mark_untrained(report, meta["untrained"])
    return report


def truncation_summary(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """How many of one model's answers were cut at the token budget before they ended.

    Args:
        records: generation records with `truncated` (True: the token cap was hit before
            the end-of-turn token or a stop string, `rlvr.eval.generate`); a record without
            the field counts as not cut.
    Returns:
        {"n": records, "truncated": cut answers, "share": truncated / n (None when n = 0),
        "answerable": cut answers to answerable questions}.
    """
    cut = [r for r in records if r.get("truncated")]
    return {"n": len(records), "truncated": len(cut),
            "share": len(cut) / len(records) if records else None,
            "answerable": sum(1 for r in cut if not r.get("is_unanswerable"))}


def truncation_line(truncation: dict[str, Any]) -> str:
    """One Markdown sentence with the truncated share of base and trained answers."""
    budget = truncation.get("max_new_tokens")
    parts = []
    for side in ("base", "trained"):
        t = truncation[side]
        share = "-" if t["share"] is None else f"{t['share']:.1%}"
        parts.append(f"{side} {t['truncated']} of {t['n']} ({share})")
    return (f"Answers cut at the evaluation budget of {budget or '?'} tokens before they ended "
            f"(truncated): {', '.join(parts)}.")


VERDICT_WORDS = {"improved": "IMPROVED on the base model",
                 "unchanged": "is UNCHANGED from the base model",
                 "traded": "TRADED known answers for prudence",
                 "collapsed": "COLLAPSED to always abstaining",
                 "degraded": "is WORSE than the base model",
                 "undetermined": "cannot be judged",
                 # verdicts of reports written before the verdict compared with the base
                 "judgment": "shows judgment (against always-abstain only)",
                 "no_judgment": "shows NO judgment (against always-abstain only)"}


def verdict_line(report: dict[str, Any]) -> str:
    """One line: what training changed against the base model (`judge_training`)."""
    knowledge = report.get("knowledge")
    if not knowledge:
        return "Verdict: not judged (no knowledge labels)."
    v = knowledge["verdict"]
    return f"Verdict: the trained model {VERDICT_WORDS[v['verdict']]}: {v['reason']}."


def knowledge_table(knowledge: dict[str, Any]) -> str:
    """Markdown table of the knowledge-aware metrics for the reference policies, base and
    trained, with paired 95% bootstrap CIs of trained - base and trained - always-abstain."""
    pol, diffs = knowledge["policies"], knowledge["differences"]
    lines = ["| metric | always abstain | base | trained | trained - base (95% CI) | "
             "trained - always abstain (95% CI) |", "|---|---:|---:|---:|---:|---:|"]
    for key in KNOWLEDGE_METRICS:
        cells = [_fmt(pol[p][key]) for p in ("always_abstain", "base", "trained")]
        for name in ("trained_vs_base", "trained_vs_always_abstain"):
            d = diffs[name][key]
            cells.append("-" if d["difference"] is None or d["ci_low"] is None else
                         f"{d['difference']:+.3f} [{d['ci_low']:+.3f}, {d['ci_high']:+.3f}]")
        lines.append(f"| {key.replace('_', ' ')} | " + " | ".join(cells) + " |")
    c = pol["trained"]["counts"]
    lines += ["", f"{knowledge['n']} questions: {c['known']} known to the base model, "
                  f"{c['unknown']} unknown (unanswerable, or answered wrongly by the base model). "
                  "Prudence leaves out the unknown questions a model answers correctly (Yang "
                  f"et al., 2024; trained: {c.get('correct_unknown', 0)}); prudence all "
                  "unknown counts every unknown question.", "",
              "| known questions not answered correctly | base | trained |", "|---|---:|---:|"]
    for key, label in (("wrong_known", "wrong (answer finished)"),
                       ("abstained_known", "abstained"),
                       ("truncated_known", "cut off at the token budget (truncated)")):
        cells = [str(pol[p]["counts"].get(key, "-")) for p in ("base", "trained")]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines += ["", "A cut-off answer did not finish: known retention counts it as not correct, "
                  "but it is listed apart, since a larger `eval_max_new_tokens` may let it "
                  "finish correctly."]
    return "\n".join(lines)


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
    cut = report.get("truncation")
    if cut:
        b, t = cut["base"]["truncated"], cut["trained"]["truncated"]
        lines.append(f"| n truncated (cut at {cut.get('max_new_tokens') or '?'} tokens) | {b} | "
                     f"{t} | {t - b:+d} |")
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
    md = ["# Self-awareness: base vs trained", "", f"**{verdict_line(report)}**", ""]
    for alarm in meta.get("alarms") or []:
        md.append(f"- ALARM: {alarm['message']}")
    if report.get("truncation"):
        md += [truncation_line(report["truncation"]), ""]
    oot = report.get("out_of_template")
    if report.get("knowledge"):
        title = " on the in-distribution set" if oot else ""
        md += [f"## Knowledge-aware honesty{title} (Yang et al., 2024)", ""]
        if oot:
            md += ["Held-out questions cut from the same templates and sources as the "
                   "training rows. " + verdict_line(
                       {"knowledge": {"verdict": report["knowledge"].get(
                           "verdict_in_distribution", report["knowledge"]["verdict"])}}), ""]
        md += [knowledge_table(report["knowledge"]), ""]
    if oot and oot.get("knowledge"):
        md += ["## Knowledge-aware honesty on the out-of-template set", "",
               "Questions written apart from the training rows' templates, of kinds they lack "
               "(rlvr.data.out_of_template): a policy that learned the wording of the training "
               "questions instead of what it knows fails here. "
               + verdict_line({"knowledge": oot["knowledge"]}), "",
               knowledge_table(oot["knowledge"]), ""]
    for name, section in (("in-distribution set", report.get("knowledge")),
                          ("out-of-template set", (oot or {}).get("knowledge"))):
        if section and section.get("slices"):
            sl = section["slices"]
            md += [f"### Slices of the {name if oot else 'held-out set'} by question features",
                   ""]
            md += [f"- BELOW THE FLOOR: {s['sentence']}" for s in sl["below_floor"]]
            md += ["", slice_table(sl), ""]
    for source, section in (report.get("knowledge_by_source") or {}).items():
        md += [f"### Held-out questions from {source}", "", f"{verdict_line({'knowledge': section})}",
               "", knowledge_table(section), ""]
    if report.get("decision"):
        from rlvr.eval.decision_rule import decision_table

        md += ["## The reward's decision rule: is each greedy action the one it prefers?", "",
               decision_table(report["decision"]), ""]
    md += ["## Calibration metrics (SelfAware paper)", "", format_table(report), "",
           "## Run", ""]
    md += [f"- {k}: {v}" for k, v in meta.items() if not isinstance(v, (dict, list))]
    md += [""]
    if report.get("cross_eval"):
        from rlvr.eval.results import results_table

        md += ["## Cross-task evaluation (base vs trained)", "",
               results_table(report["cross_eval"]), ""]
    if report.get("cross_check"):
        from rlvr.eval.cross_check_table import cross_check_table

        md += ["## Cross-task check: likelihood of gold answers (base vs trained)", "",
               "Mean per-token log-likelihood of each task's gold continuation (nats/token; "
               "closer to 0 = more likely); trained - base below 0 means training made "
               "those answers less likely.", "", cross_check_table(report["cross_check"]), ""]
    return {
        "generations_base": write_jsonl(run_dir / "generations_base.jsonl", base),
        "generations_trained": write_jsonl(run_dir / "generations_trained.jsonl", trained),
        "report_json": write_json(run_dir / "report.json", report),
        "report_md": write_text(run_dir / "report.md", "\n".join(md)),
    }


def rebuild_report(run_dir: str | Path, bootstrap_samples: int | None = None,
                   seed: int | None = None) -> dict[str, Any]:
    """Rebuild a run's report offline from the files it wrote, and write it again.

    Reads `generations_base.jsonl`, `generations_trained.jsonl`, `knowledge_labels.json`,
    `heldout.jsonl` (for the per-source sections) and the old `report.json` (meta), so a
    changed metric or bootstrap setting needs no model.
    Raises:
        RlvrError: a file of the run is missing (names it).
    """
    import json

    from rlvr.errors import RlvrError
    from rlvr.eval.knowledge import LABELS_FILE, read_labels_file
    from rlvr.io import read_jsonl

    run_dir = Path(run_dir)
    needed = ["generations_base.jsonl", "generations_trained.jsonl", LABELS_FILE, "report.json"]
    missing = [n for n in needed if not (run_dir / n).is_file()]
    if missing:
        raise RlvrError(f"{run_dir}: missing {', '.join(missing)}; pass the directory of a "
                        "finished `rlvr train` run")
    base = read_jsonl(run_dir / "generations_base.jsonl")
    trained = read_jsonl(run_dir / "generations_trained.jsonl")
    labels = read_labels_file(run_dir / LABELS_FILE)[1]
    old = json.loads((run_dir / "report.json").read_text(encoding="utf-8"))
    sources = {}
    kinds = {}
    if (run_dir / "heldout.jsonl").is_file():
        rows = read_jsonl(run_dir / "heldout.jsonl")
        sources = {r["id"]: r.get("source") for r in rows}
        kinds = {r["id"]: r.get("kind") for r in rows}
    meta = old.get("meta", {})
    samples = bootstrap_samples or meta.get("bootstrap_samples") or 2000
    report = build_report(base, trained, meta, samples, meta.get("seed", 0) if seed is None
                          else seed, labels, by=[sources.get(r["id"]) for r in base],
                          kinds=[kinds.get(r["id"]) for r in base])
    for key in ("cross_eval", "cross_check"):
        if old.get(key):
            report[key] = old[key]
    write_report(run_dir, report, base, trained)
    return report
