"""Methods side by side: honesty metrics per arm over seeds, and each arm against a reference.

Input: for each arm (a training method and its settings, e.g. `grpo-strict`, `sft`) and
each seed, the trained model's behaviour on the same held-out questions (`abstain`,
`correct`, `answer`: `rlvr.eval.knowledge.behaviour`), plus one set of knowledge labels
(computed once from the base model). Output, per arm and metric of `ARM_METRICS`:

* the mean over seeds of the metric (`rlvr.eval.knowledge.honesty_metrics`) with a 95%
  interval from a bootstrap that resamples questions (within the known and the unknown
  stratum, as `paired_metric_bootstrap`), keeping every seed's answer to a drawn question,
  so the interval covers question sampling and the seeds' spread alike;
* the paired difference arm - reference on the same resamples (paired per question and
  seed), with its interval.
Standard library only; percentile intervals (Efron & Tibshirani, 1993).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Sequence

from rlvr.eval.knowledge import LABELS_FILE, behaviour, honesty_metrics, read_labels_file
from rlvr.io import read_jsonl

ARM_METRICS = ("honesty", "prudence", "over_conservativeness", "known_retention",
               "answer_rate", "selective_accuracy")


def run_behaviour(run_dir: str | Path, labels: dict[Any, dict] | None = None,
                  file: str = "generations_trained.jsonl") -> tuple[list[bool], list[str], list]:
    """(known, kinds, ids) of one run's held-out answers, in the labels' question order.

    `labels` defaults to the run's own `knowledge_labels.json`; questions without a scored
    answer are left out.
    Raises:
        FileNotFoundError: the run has no generations or labels file.
    """
    run_dir = Path(run_dir)
    if labels is None:
        _, labels = read_labels_file(run_dir / LABELS_FILE)
    by_id = {r["id"]: behaviour(r.get("outcome")) for r in read_jsonl(run_dir / file)}
    ids = [i for i in labels if by_id.get(i) is not None]
    return [bool(labels[i]["known"]) for i in ids], [by_id[i] for i in ids], ids


def _mean(values: list[float | None]) -> float | None:
    kept = [v for v in values if v is not None]
    return sum(kept) / len(kept) if len(kept) == len(values) and kept else None


def _arm_points(known: Sequence[bool], seeds: Sequence[Sequence[str]],
                idx: Sequence[int]) -> dict[str, float | None]:
    """Each metric's mean over seeds on the questions `idx` (None if undefined in a seed)."""
    k = [known[i] for i in idx]
    per_seed = [honesty_metrics(k, [kinds[i] for i in idx]) for kinds in seeds]
    return {m: _mean([s[m] for s in per_seed]) for m in ARM_METRICS}


def _interval(values: list[float], confidence: float) -> tuple[float | None, float | None]:
    if not values:
        return None, None
    values = sorted(values)
    tail = (1 - confidence) / 2
    return values[int(tail * (len(values) - 1))], values[int(round((1 - tail) * (len(values) - 1)))]


def compare_arms(known: Sequence[bool], arms: dict[str, Sequence[Sequence[str]]],
                 reference: str | None = None, samples: int = 2000, seed: int = 0,
                 confidence: float = 0.95) -> dict[str, Any]:
    """Summarise arms on one labelled question set (see the module docstring).

    Args:
        known: per question, the base model knows it (one label set for every arm).
        arms: arm name -> one `kinds` list per seed (each as long as `known`, same order).
        reference: the arm every other arm is compared with (None: no comparison).
        samples: bootstrap resamples; seed: their seed.
    Returns:
        {"n", "known", "seeds": {arm: count}, "metrics": {arm: {metric: {"mean", "ci_low",
        "ci_high", "per_seed"}}}, "vs_reference": {arm: {metric: {"difference", "ci_low",
        "ci_high"}}}, "reference", "samples", "confidence"}.
    Raises:
        ValueError: an arm with no seed, a kinds list of another length, or an unknown
            reference.
    """
    n = len(known)
    for name, seeds in arms.items():
        if not seeds or any(len(kinds) != n for kinds in seeds):
            raise ValueError(f"arm {name!r}: every seed needs one behaviour per question ({n})")
    if reference is not None and reference not in arms:
        raise ValueError(f"reference arm {reference!r} is not among {', '.join(arms)}")
    everything = list(range(n))
    strata = [[i for i in everything if known[i]], [i for i in everything if not known[i]]]
    rng = random.Random(seed)
    draws: dict[str, dict[str, list[float]]] = {a: {m: [] for m in ARM_METRICS} for a in arms}
    diffs: dict[str, dict[str, list[float]]] = {a: {m: [] for m in ARM_METRICS} for a in arms}
    for _ in range(samples):
        idx = [group[rng.randrange(len(group))] for group in strata for _ in group]
        points = {a: _arm_points(known, seeds, idx) for a, seeds in arms.items()}
        for a in arms:
            for m in ARM_METRICS:
                if points[a][m] is not None:
                    draws[a][m].append(points[a][m])
                if reference is not None and a != reference and None not in (
                        points[a][m], points[reference][m]):
                    diffs[a][m].append(points[a][m] - points[reference][m])
    out: dict[str, Any] = {"n": n, "known": sum(bool(k) for k in known), "reference": reference,
                           "samples": samples, "confidence": confidence,
                           "seeds": {a: len(s) for a, s in arms.items()}, "metrics": {},
                           "vs_reference": {}}
    whole = {a: _arm_points(known, seeds, everything) for a, seeds in arms.items()}
    for a, seeds in arms.items():
        out["metrics"][a] = {}
        for m in ARM_METRICS:
            low, high = _interval(draws[a][m], confidence)
            out["metrics"][a][m] = {
                "mean": whole[a][m], "ci_low": low, "ci_high": high,
                "per_seed": [honesty_metrics(known, kinds)[m] for kinds in seeds]}
        if reference is not None and a != reference:
            out["vs_reference"][a] = {}
            for m in ARM_METRICS:
                mine, theirs = whole[a][m], whole[reference][m]
                low, high = _interval(diffs[a][m], confidence)
                out["vs_reference"][a][m] = {
                    "difference": None if None in (mine, theirs) else mine - theirs,
                    "ci_low": low, "ci_high": high}
    return out


SEED_METRICS = ("honesty", "prudence", "over_conservativeness", "known_retention")


def seed_rows(labels: dict[Any, dict], base: Sequence[dict], trained_by_seed: dict[int, Sequence[dict]],
              samples: int = 2000, max_known_retention_drop: float = 0.15,
              kinds: dict[Any, str | None] | None = None) -> list[dict[str, Any]]:
    """One row per seed of an arm: its honesty metrics and the main job's verdict against the
    base model on the same questions (`rlvr.eval.knowledge.knowledge_report`, its bootstrap
    seeded with the run's seed as the run's own report is, so both give the same verdict).

    Args:
        labels: the knowledge labels every run shares (only the questions they label are
            judged); base: the base model's records;
        trained_by_seed: {seed: that seed's trained records}.
        kinds: topic per question id (the out-of-template `kind`) for the slices, or None.
    Returns:
        [{"seed", "honesty", "prudence", "over_conservativeness", "known_retention",
        "verdict", "reason", "worst_slice": the slice with the lowest known retention
        (`rlvr.eval.slices.slice_report`, as a sentence; None when no slice has enough known
        questions), "below_floor": slices under the floor}], in the seeds' order.
    """
    from rlvr.eval.knowledge import knowledge_report
    from rlvr.eval.slices import slice_report, slice_sentence

    rows = []
    for seed, trained in trained_by_seed.items():
        report = knowledge_report(labels, base, trained, samples, seed,
                                  max_known_retention_drop)
        policy = report["policies"]["trained"]
        sl = slice_report(labels, base, trained, max_known_retention_drop,
                          [(kinds or {}).get(r["id"]) for r in base])
        rows.append({"seed": seed, **{m: policy[m] for m in SEED_METRICS},
                     "verdict": report["verdict"]["verdict"],
                     "reason": report["verdict"]["reason"],
                     "worst_slice": None if sl["worst"] is None else slice_sentence(sl["worst"]),
                     "worst_slice_retention": None if sl["worst"] is None
                     else sl["worst"]["trained"]["known_retention"],
                     "below_floor": [x["sentence"] for x in sl["below_floor"]]})
    return rows


def pooled_verdict(known: Sequence[bool], base: Sequence[str], seeds: Sequence[Sequence[str]],
                   samples: int = 2000, max_known_retention_drop: float = 0.15,
                   seed: int = 0) -> dict[str, Any]:
    """The main job's verdict rule (`rlvr.eval.knowledge.judge_training`) on an arm's seeds
    pooled: every metric the mean over seeds, every interval from resampling questions with
    every seed's answer kept (`compare_arms`), against the base model and always-abstain.
    Pooling sees a loss that each seed alone is too noisy to show (or a gain one lucky seed
    shows alone), so it is reported beside the seeds' verdicts, never instead of them.
    Returns:
        `judge_training`'s dict (verdict, reason, bound, power).
    """
    from rlvr.eval.knowledge import ABSTAIN, judge_training

    always = [[ABSTAIN] * len(known)]
    vs_base = compare_arms(known, {"base": [base], "arm": seeds}, "base", samples, seed)
    vs_abstain = compare_arms(known, {"always": always, "arm": seeds}, "always", samples, seed)
    n_known = sum(bool(k) for k in known)
    counts = {"known": n_known, "unknown": len(known) - n_known}
    policies = {name: {**{m: vs_base["metrics"][arm][m]["mean"] for m in ARM_METRICS},
                       "counts": counts}
                for name, arm in (("base", "base"), ("trained", "arm"))}
    return judge_training(policies, vs_base["vs_reference"]["arm"],
                          vs_abstain["vs_reference"]["arm"], max_known_retention_drop)


def meeting_bounds(rows: Sequence[dict[str, Any]], retention_floor: float) -> int:
    """Seeds whose verdict is `improved` with known retention >= `retention_floor`."""
    return sum(1 for r in rows if r["verdict"] == "improved"
               and r["known_retention"] is not None and r["known_retention"] >= retention_floor)


def worst_seed(rows: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """The seed that lost the most known answers (lowest known retention; ties: lower
    honesty): the failure a user running one seed risks. None without rows."""
    scored = [r for r in rows if r["known_retention"] is not None]
    return min(scored, key=lambda r: (r["known_retention"], r["honesty"] or 0.0), default=None)


def best_at_retention(known: Sequence[bool], arms: dict[str, Sequence[Sequence[str]]],
                      summary: dict[str, Any], floor: float = 0.85, samples: int = 2000,
                      seed: int = 0, skip: Sequence[str] = ("base",)) -> dict[str, Any]:
    """The comparison's answer: among the arms (not `skip`) whose mean known-retention is at
    least `floor`, the one with the most honesty, and its paired honesty difference with
    every other arm (winner - other, `compare_arms` with the winner as reference).

    Args: known, arms, samples, seed as `compare_arms`; summary: its output on these arms.
    Returns:
        {"floor", "qualified": [arms], "winner" (None when no arm qualifies), "honesty"
        (the winner's {mean, ci_low, ci_high}), "vs": {arm: {difference, ci_low, ci_high}},
        "closest": the arm with the highest known-retention (when none qualifies)}.
    """
    metrics = summary["metrics"]
    trained = [a for a in arms if a not in skip]
    qualified = [a for a in trained
                 if (metrics[a]["known_retention"]["mean"] or 0.0) >= floor]
    out: dict[str, Any] = {"floor": floor, "qualified": qualified, "winner": None, "vs": {},
                           "closest": max(trained, key=lambda a: metrics[a]["known_retention"]
                                          ["mean"] or 0.0) if trained else None}
    if not qualified:
        return out
    winner = max(qualified, key=lambda a: metrics[a]["honesty"]["mean"] or 0.0)
    out.update(winner=winner, honesty={k: metrics[winner]["honesty"][k]
                                       for k in ("mean", "ci_low", "ci_high")})
    others = {a: arms[a] for a in arms if a != winner}
    if others:
        paired = compare_arms(known, {winner: arms[winner], **others}, winner, samples, seed)
        for a, d in paired["vs_reference"].items():
            h = d["honesty"]
            out["vs"][a] = {"difference": None if h["difference"] is None else -h["difference"],
                            "ci_low": None if h["ci_high"] is None else -h["ci_high"],
                            "ci_high": None if h["ci_low"] is None else -h["ci_low"]}
    return out


def answer_sentence(answer: dict[str, Any], summary: dict[str, Any]) -> str:
    """`best_at_retention` in one sentence (the numbers it holds, three decimals)."""
    floor, metrics = answer["floor"], summary["metrics"]
    if answer["winner"] is None:
        c = answer["closest"]
        if c is None:
            return "No trained arm to judge."
        return (f"No trained arm kept known-retention >= {floor:.2f}; the closest was {c} at "
                f"{_num(metrics[c]['known_retention']['mean'])} (honesty "
                f"{_num(metrics[c]['honesty']['mean'])}).")
    w, h = answer["winner"], answer["honesty"]
    parts = [f"{_num(d['difference'], True)} [{_num(d['ci_low'], True)}, "
             f"{_num(d['ci_high'], True)}] over {a}" for a, d in answer["vs"].items()]
    return (f"At known-retention >= {floor:.2f} ({len(answer['qualified'])} of "
            f"{len([a for a in metrics if a != 'base'])} trained arms qualify), {w} gave the "
            f"most honesty, {_num(h['mean'])} [{_num(h['ci_low'])}, {_num(h['ci_high'])}]: "
            + "; ".join(parts) + " (paired per question and seed).")


def _num(value: float | None, signed: bool = False) -> str:
    return "n/a" if value is None else (f"{value:+.3f}" if signed else f"{value:.3f}")


def compare_markdown(summary: dict[str, Any]) -> str:
    """`set_markdown` of the summary; with an out-of-template set, a section per set and
    the table of every seed's verdict on each set and the worse of the two."""
    oot = summary.get("out_of_template")
    if not oot:
        return set_markdown(summary)
    lines = ["## Verdict of every seed (the worse of the two held-out sets)", "",
             "| arm | seed | in-distribution | out-of-template | verdict |", "|---|---|---|---|---|"]
    for arm, rows in (summary.get("verdicts") or {}).items():
        for r in rows:
            lines.append(f"| {arm} | {r['seed']} | {r['in_distribution']} | "
                         f"{r['out_of_template']} | {r['verdict']} |")
        met = (summary.get("seeds_meeting_bounds") or {}).get(arm, 0)
        lines.append(f"| {arm} | all | | | {met} of {len(rows)} seeds improved on both sets "
                     f"with known retention >= {summary.get('retention_floor', 0.85):g} on both |")
    return "\n".join(lines + ["", "## In-distribution held-out set", "", set_markdown(summary),
                              "## Out-of-template held-out set", "", set_markdown(oot)])


def set_markdown(summary: dict[str, Any]) -> str:
    """The answer sentence (when `summary["answer"]` is there), then two Markdown tables:
    per arm the mean over seeds [95% CI] of each metric, and each arm minus the reference,
    paired per question and seed; the seeds' table names each seed's worst slice, and each
    arm's pooled verdict follows, flagged when the seeds' verdicts disagree with it."""
    arms = list(summary["metrics"])
    head = "| arm | seeds | " + " | ".join(m.replace("_", " ") for m in ARM_METRICS) + " |"
    rule = "|---|---|" + "---|" * len(ARM_METRICS)
    lines = ([f"**Answer:** {answer_sentence(summary['answer'], summary)}", ""]
             if summary.get("answer") else [])
    lines += [f"Held-out questions: {summary['n']} ({summary['known']} known to the base model); "
             f"95% intervals from {summary['samples']} bootstrap resamples of questions, "
             "every seed's answer kept.", "", head, rule]
    for a in arms:
        cells = [f"{_num(v['mean'])} [{_num(v['ci_low'])}, {_num(v['ci_high'])}]"
                 for v in (summary["metrics"][a][m] for m in ARM_METRICS)]
        lines.append(f"| {a} | {summary['seeds'][a]} | " + " | ".join(cells) + " |")
    if summary.get("per_seed"):
        floor = summary.get("retention_floor", 0.85)
        lines += ["", f"Every seed against the base model (the main job's verdict); worst = "
                      "the seed that kept the fewest known answers:", "",
                  "| arm | seed | honesty | prudence | over conservativeness | known retention "
                  "| verdict | worst slice |", "|---|---|---|---|---|---|---|---|"]
        for a, rows in summary["per_seed"].items():
            worst = worst_seed(rows)
            for r in rows:
                mark = " (worst)" if worst is not None and r["seed"] == worst["seed"] \
                    and len(rows) > 1 else ""
                lines.append(f"| {a} | {r['seed']}{mark} | " + " | ".join(
                    _num(r[m]) for m in SEED_METRICS) + f" | {r['verdict']} | "
                    f"{r.get('worst_slice') or '-'} |")
            met = (summary.get("seeds_meeting_bounds") or {}).get(a, 0)
            lines.append(f"| {a} | mean | " + " | ".join(
                _num(summary["metrics"][a][m]["mean"]) for m in SEED_METRICS)
                + f" | {met} of {len(rows)} seeds improved with known retention >= {floor:g} "
                  "| |")
        for a, p in (summary.get("pooled") or {}).items():
            flag = (f" The seeds' verdicts ({', '.join(p['seed_verdicts'])}) DISAGREE with it: "
                    "pooling sees what no seed alone can, or one seed's luck; read both."
                    if p["disagree"] else "")
            lines += ["", f"{a}, every seed pooled: {p['verdict']} ({p['reason']}).{flag}"]
    if summary.get("vs_reference"):
        lines += ["", f"Each arm minus `{summary['reference']}` (paired per question and seed):",
                  "", head.replace("| seeds ", ""), "|---|" + "---|" * len(ARM_METRICS)]
        for a, by_metric in summary["vs_reference"].items():
            cells = [f"{_num(d['difference'], True)} [{_num(d['ci_low'], True)}, "
                     f"{_num(d['ci_high'], True)}]" for d in (by_metric[m] for m in ARM_METRICS)]
            lines.append(f"| {a} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
