"""`rlvr observe`: write the observation report (JSON) and print its exhibits as tables.

    rlvr observe [--output week-10-observations.json] [--collect-responses A B] [--plot DIR]
"""

from __future__ import annotations

import argparse

from rlvr.errors import RlvrError


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "observe", help="write the objectives observation report and print its tables",
        description="Compute the textbook exhibits (SFT, Bradley-Terry, PPO, DPO, GRPO, "
                    "aggregation, safety-weighted choice) with rlvr.objectives, optionally "
                    "collect real responses from two models, write JSON and print tables.")
    parser.add_argument("--output", default=None, metavar="FILE.json",
                        help="report path (default: week-10-observations.json)")
    parser.add_argument("--collect-responses", nargs=2, metavar=("MODEL_A", "MODEL_B"),
                        help="collect greedy responses from two model specs: 'default', a "
                             "local model folder or hub id, optionally '+ADAPTER_DIR' "
                             "(e.g. default default+runs/x/adapter); failures are recorded")
    parser.add_argument("--plot", metavar="DIR",
                        help="also draw advantage_broadcast.png and aggregation_weights.png "
                             "(needs matplotlib)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from rlvr.observe import exhibits as observe

    if args.plot:  # fail before any work if matplotlib is missing
        from rlvr.plots.common import require_pyplot

        require_pyplot()
    report = observe.build_report(collect_specs=args.collect_responses)
    target = args.output or observe.DEFAULT_OUTPUT
    try:
        path = observe.write_report(report, target)
    except OSError as exc:
        raise RlvrError(f"cannot write the report to {target}: {exc.strerror or exc}; "
                        "choose a writable --output path") from None
    print(render(report))
    print(f"\nwrote {path}")
    if args.plot:
        from rlvr.plots.observe import write_plots

        for plot in write_plots(report, args.plot):
            print(f"wrote {plot}")
    return 0


def _num(x) -> str:
    if x is None:
        return "-"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, int):
        return str(x)
    if isinstance(x, float):
        return f"{x + 0.0:.6f}"  # + 0.0 turns -0.0 into 0.0
    return str(x)


def _in(x) -> str:
    """An input value as given (short form)."""
    return f"{x:g}" if isinstance(x, float) else str(x)


def table(headers: list[str], rows: list[list]) -> list[str]:
    """Left-aligned text columns; numbers formatted with 6 decimals."""
    cells = [headers] + [[_num(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]
    return ["  " + line for line in [lines[0], "  ".join("-" * w for w in widths)] + lines[1:]]


def _short(values, limit: int = 4) -> str:
    items = [_num(v) for v in values]
    return "[" + ", ".join(items[:limit]) + (", ..." if len(items) > limit else "") + "]"


def render(report: dict) -> str:
    """The report as plain-text tables (what `rlvr observe` prints)."""
    meta, ex = report["metadata"], report["exhibits"]
    out = [f"rlvr observation report (rlvr {meta['rlvr_version']}, {meta['created_utc']}, "
           f"std convention: {meta['std_convention']})"]

    def head(key: str) -> None:
        out.extend(["", f"{ex[key]['title']}: {ex[key]['formula']}"])

    head("sft_cross_entropy")
    sft = ex["sft_cross_entropy"]
    rows = [[_in(p), ce] for p, ce in zip(sft["inputs"]["target_probs"], sft["outputs"]["per_token"])]
    out += table(["target p", "CE (nats)"], rows + [["mean", sft["outputs"]["mean"]]])
    out.append(f"  preset p = {sft['inputs']['preset_target_probs']}: per token "
               f"{_short(sft['outputs']['preset_per_token'])}, mean {_num(sft['outputs']['preset_mean'])}")

    head("bradley_terry")
    bt = ex["bradley_terry"]
    out += table(["s_V - s_U", "P(V > U)", "loss (V preferred)", f"P after +{bt['inputs']['shift_added_to_both']:g}"],
                 [[_in(r["score_difference"]), r["prob_v_preferred"], r["loss_label_v_preferred"],
                   r["prob_after_shift"]] for r in bt["outputs"]["rows"]])
    out.append(f"  adding a constant to both scores changes nothing: "
               f"{_num(bt['outputs']['shift_changes_nothing'])}")

    head("ppo_clip")
    ppo = ex["ppo_clip"]
    out += table(["new p", "ratio", "A", "r*A", "clip(r)*A", "min", "clipped"],
                 [[_in(r["new_prob"]), r["ratio"], _in(r["advantage"]), r["unclipped"], r["clipped"],
                   r["objective"], r["is_clipped"]] for r in ppo["outputs"]["rows"]])
    out.append(f"  old p = {ppo['inputs']['old_prob']}, epsilon = {ppo['inputs']['epsilon']}")

    head("dpo")
    d = ex["dpo"]
    out += table(["case", "pi(V)", "pi(U)", "log-ratio V", "log-ratio U", "difference",
                  "margin", "P", "loss"],
                 [[r["label"], _in(r["policy_v"]), _in(r["policy_u"]), r["log_ratio_v"], r["log_ratio_u"],
                   r["log_ratio_difference"], r["margin"], r["preference_prob"], r["loss"]]
                  for r in d["outputs"]["rows"]])
    out.append(f"  ref(V) = {d['inputs']['ref_v']}, ref(U) = {d['inputs']['ref_u']}, "
               f"beta = {d['inputs']['beta']}")

    head("grpo_advantages")
    g = ex["grpo_advantages"]
    out += table(["case", "rewards", "lengths", "std conv.", "mean", "variance", "std",
                  "advantages", "zero var.", "success"],
                 [[c["label"], c["inputs"]["rewards"], c["inputs"]["lengths_tokens"],
                   c["inputs"]["std_convention"], c["outputs"]["mean"], c["outputs"]["variance"],
                   c["outputs"]["std"],
                   _short(c["outputs"]["advantages"]), c["outputs"]["zero_variance"],
                   c["outputs"]["success_rate"]] for c in g["outputs"]["cases"]])
    first = g["outputs"]["cases"][0]
    for i, row in enumerate(first["outputs"]["per_token_advantages"]):
        out.append(f"  per-token advantages, response {i + 1} ({len(row)} tokens): {_short(row, 8)}")
    out.append(f"  changing the last length 8 -> 16 changes no per-token advantage: "
               f"{_num(g['outputs']['length_change_changes_no_token_advantage'])}")

    head("aggregation")
    a = ex["aggregation"]
    lengths = a["inputs"]["lengths_tokens"]
    out += table(["mode", "TRL loss_type", "loss"] + [f"w/token ({n} tok)" for n in lengths]
                 + [f"share ({n} tok)" for n in lengths],
                 [[m["aggregation"], m["trl_loss_type"], m["loss"]]
                  + [w[0] if w else None for w in m["token_weights"]]
                  + m["response_weight_totals"] for m in a["outputs"]["modes"]])
    out.append(f"  per-token values {a['inputs']['per_token_value']} for lengths {lengths}")

    head("safety_weighted_choice")
    s = ex["safety_weighted_choice"]
    names = [c["name"] for c in s["inputs"]["candidates"]]
    out += table(["w"] + names + ["best"],
                 [[_in(r["risk_weight"])] + [r["scores"][n] for n in names] + [r["best"]]
                  for r in s["outputs"]["rows"]])
    out.append("  candidates (utility, risk): " + ", ".join(
        f"{c['name']} ({c['utility']}, {c['risk']})" for c in s["inputs"]["candidates"])
        + f" [{s['inputs']['values_are']}]")
    out.append(f"  ranking flips at w = {_num(s['outputs']['flip_weight'])}")

    rc = ex["response_comparison"]
    out += ["", f"{rc['title']} ({rc['source']})", f"  prompt: {rc['prompt']!r}"]
    out += [f"  {r['name']}: {r['text']!r}" for r in rc["responses"]]

    col = ex["actual_response_collection"]
    out += ["", col["title"]]
    if not col["requested"]:
        out.append(f"  {col['note']}")
    for m in col["models"]:
        if m["collected"]:
            out.append(f"  {m['spec']}: collected, {m['num_output_tokens']} tokens in "
                       f"{m['generation_seconds']:.2f} s, token limit hit: "
                       f"{_num(m['hit_token_limit'])}")
            out.append(f"    output: {m['output_text']!r}")
        else:
            out.append(f"  {m['spec']}: NOT collected ({m['error']}); outputs null")
    if col["requested"]:
        out.append(f"  full_pair_comparable: {_num(col['full_pair_comparable'])}")
    return "\n".join(out)

