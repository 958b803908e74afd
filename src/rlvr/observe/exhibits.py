"""The observation report of `rlvr observe`: textbook exhibits of the objectives, computed,
plus real responses.

`build_report()` returns a JSON-ready dict; `write_report()` writes it atomically. Every
number in an exhibit is computed at run time by `rlvr.objectives` from the inputs stored
beside it (floats are stored unrounded). Example answers written by us are labelled
"authored"; model outputs appear only under `actual_response_collection`, which records
a failure as not collected (error, null outputs) and never substitutes text.

Run it with `rlvr observe --output week-10-observations.json [--collect-responses A B]`.
"""

from __future__ import annotations

import datetime as _dt
import math
import platform
from pathlib import Path
from typing import Sequence

from rlvr import __version__
from rlvr import objectives as obj

DEFAULT_OUTPUT = "week-10-observations.json"
REPORT_SCHEMA = 1
STD_CONVENTION = "sample"

# The prompt used for the authored comparison and for real collection (raw text, no chat
# template). The answers and their utility/risk numbers are illustrative presets.
PROMPT = "Our town issued a boil-water notice yesterday. Is the tap water safe to drink today?\n"
PRESET_LABEL = "illustrative preset defined in rlvr.observe.exhibits; not measured, not model output"
AUTHORED_LABEL = "authored example written by the rlvr authors; not model output"
CANDIDATES = (
    {"name": "confident_unchecked", "utility": 1.0, "risk": 0.3,
     "answer": "Yes, it is safe now. Notices like that are usually lifted after a day."},
    {"name": "check_official_notice", "utility": 0.5, "risk": 0.05,
     "answer": "I can't know whether the notice has been lifted. Please check the official "
               "notice from your water utility, and boil the water until it says otherwise."},
)
RISK_WEIGHTS = (0.0, 1.0, 3.0)


def _exhibit(title: str, formula: str, source: str, inputs: dict, outputs: dict) -> dict:
    return {"title": title, "formula": formula, "source": source,
            "inputs": inputs, "outputs": outputs}


def sft_cross_entropy() -> dict:
    """SFT token cross-entropy for a few target-token probabilities and a flat preset."""
    probs, preset = [0.5, 0.25, 0.8], [0.8, 0.8, 0.8]
    return _exhibit(
        "SFT token cross-entropy", "CE_t = -ln p_t; CE = mean_t CE_t (nats per token)",
        "maximum-likelihood next-token training",
        {"target_probs": probs, "preset_target_probs": preset},
        {"per_token": obj.token_cross_entropy(probs),
         "mean": obj.mean_token_cross_entropy(probs),
         "preset_per_token": obj.token_cross_entropy(preset),
         "preset_mean": obj.mean_token_cross_entropy(preset)})


def bradley_terry(shift: float = 10.0) -> dict:
    """Bradley-Terry probability and loss for answer V preferred over U, and shift invariance."""
    rows = []
    for diff in (0.0, 2.0, -2.0):
        score_v, score_u = diff, 0.0
        prob = obj.bradley_terry_prob(score_chosen=score_v, score_rejected=score_u)
        shifted = obj.bradley_terry_prob(score_chosen=score_v + shift, score_rejected=score_u + shift)
        rows.append({"score_v": score_v, "score_u": score_u, "score_difference": score_v - score_u,
                     "prob_v_preferred": prob,
                     "loss_label_v_preferred": obj.bradley_terry_loss(score_chosen=score_v,
                                                                      score_rejected=score_u),
                     "prob_after_shift": shifted, "shift_change": shifted - prob})
    return _exhibit(
        "Bradley-Terry preference", "P(V > U) = sigmoid(s_V - s_U); loss = -ln P(V > U)",
        "Bradley & Terry 1952; Ouyang et al. 2022, eq. (1)",
        {"score_differences": [r["score_difference"] for r in rows], "shift_added_to_both": shift},
        {"rows": rows,
         "shift_changes_nothing": all(math.isclose(r["prob_after_shift"], r["prob_v_preferred"],
                                                   rel_tol=1e-12) for r in rows)})


def ppo_clip(old_prob: float = 0.20, new_probs: Sequence[float] = (0.30, 0.10),
             advantages: Sequence[float] = (1.0, -1.0), epsilon: float = 0.2) -> dict:
    """The four PPO clip cases: ratio above/below the range, positive/negative advantage."""
    rows = []
    for advantage in advantages:
        for new_prob in new_probs:
            ratio = obj.importance_ratio(new_logprob=math.log(new_prob),
                                         old_logprob=math.log(old_prob))
            terms = obj.ppo_clip_terms(ratio=ratio, advantage=advantage, epsilon=epsilon)
            rows.append({"new_prob": new_prob, "ratio": terms.ratio, "advantage": advantage,
                         "unclipped": terms.unclipped, "clipped": terms.clipped,
                         "objective": terms.objective, "loss": terms.loss,
                         "is_clipped": terms.is_clipped})
    return _exhibit(
        "PPO clipped surrogate", "J = min(r A, clip(r, 1 - eps, 1 + eps) A); loss = -J",
        "Schulman et al. 2017, eq. (7)",
        {"old_prob": old_prob, "new_probs": list(new_probs), "advantages": list(advantages),
         "epsilon": epsilon}, {"rows": rows})


def dpo(beta: float = 0.5, ref_v: float = 0.10, ref_u: float = 0.20) -> dict:
    """DPO terms for a policy that favours V, one equal to the reference, one that favours U."""
    policies = (("policy favours V", 0.20, 0.10), ("policy equals reference", ref_v, ref_u),
                ("policy favours U", 0.05, 0.40))
    rows = []
    for label, pol_v, pol_u in policies:
        terms = obj.dpo_terms_from_probs(policy_chosen_prob=pol_v, policy_rejected_prob=pol_u,
                                         ref_chosen_prob=ref_v, ref_rejected_prob=ref_u, beta=beta)
        rows.append({"label": label, "policy_v": pol_v, "policy_u": pol_u,
                     "log_ratio_v": terms.chosen_log_ratio, "log_ratio_u": terms.rejected_log_ratio,
                     "log_ratio_difference": terms.log_ratio_difference, "margin": terms.margin,
                     "preference_prob": terms.preference_prob, "loss": terms.loss})
    return _exhibit(
        "DPO (V chosen, U rejected)",
        "m = beta [ln(pi(V)/ref(V)) - ln(pi(U)/ref(U))]; P = sigmoid(m); loss = -ln sigmoid(m)",
        "Rafailov et al. 2023, eq. (7)",
        {"ref_v": ref_v, "ref_u": ref_u, "beta": beta}, {"rows": rows})


def success_rate(rewards: Sequence[float | None]) -> float | None:
    """Fraction of scored rewards that are positive (for 0/1 rewards: the solve rate)."""
    scored = [r for r in rewards if r is not None]
    return sum(r > 0 for r in scored) / len(scored) if scored else None


def _grpo_case(label: str, rewards: list, lengths: list, std_convention: str) -> dict:
    group = obj.group_advantages(rewards, std_convention=std_convention)
    return {"label": label,
            "inputs": {"rewards": rewards, "lengths_tokens": lengths, "std_convention": std_convention},
            "outputs": {"mean": group.mean, "variance": None if group.std is None else group.std ** 2,
                        "std": group.std, "advantages": group.advantages,
                        "per_token_advantages": obj.broadcast_to_tokens(group.advantages,
                                                                        lengths=lengths),
                        "zero_variance": group.zero_variance, "success_rate": success_rate(rewards)}}


def grpo_advantages(std_convention: str = STD_CONVENTION) -> dict:
    """Group-relative advantages and their per-token broadcast for the textbook groups."""
    cases = [
        _grpo_case("mixed group", [0, 0, 1, 1], [2, 4, 6, 8], std_convention),
        _grpo_case("mixed group, population std", [0, 0, 1, 1], [2, 4, 6, 8], "population"),
        _grpo_case("mixed group, last response 16 tokens", [0, 0, 1, 1], [2, 4, 6, 16],
                   std_convention),
        _grpo_case("one success in four", [0, 0, 0, 1], [2, 4, 6, 8], std_convention),
        _grpo_case("all solved", [1, 1, 1, 1], [2, 4, 6, 8], std_convention),
        _grpo_case("none solved", [0, 0, 0, 0], [2, 4, 6, 8], std_convention),
    ]
    before, after = cases[0]["outputs"], cases[2]["outputs"]
    unchanged = before["advantages"] == after["advantages"] and all(
        set(row) <= {adv} for row, adv in zip(after["per_token_advantages"], after["advantages"]))
    return _exhibit(
        "GRPO group-relative advantages",
        "A_i = (r_i - mean(r)) / std(r), repeated on every token of response i",
        "Shao et al. 2024 (DeepSeekMath), section 4.1.2",
        {"std_convention": std_convention},
        {"cases": cases, "length_change_changes_no_token_advantage": unchanged})


def aggregation(lengths: Sequence[int] = (2, 8), values: Sequence[float] = (1.0, -1.0)) -> dict:
    """Each aggregation mode's loss and per-token weights for a short and a long response."""
    per_token = [[v] * n for v, n in zip(values, lengths)]
    modes = []
    for name, mode in obj.AGGREGATIONS.items():
        weights = obj.aggregation_weights(lengths, aggregation=name)
        modes.append({"aggregation": name, "trl_loss_type": mode.trl_loss_type,
                      "formula": mode.formula,
                      "loss": obj.aggregate_token_losses(per_token, aggregation=name),
                      "token_weights": weights,
                      "response_weight_totals": [math.fsum(row) for row in weights]})
    return _exhibit(
        "Loss aggregation over tokens", "loss = sum_i sum_t w_it l_it",
        "GRPO (Shao et al. 2024), DAPO (Yu et al. 2025), Dr. GRPO (Liu et al. 2025)",
        {"lengths_tokens": list(lengths), "per_token_value": list(values),
         "max_completion_length": "longest response"}, {"modes": modes})


def safety_weighted_choice(weights: Sequence[float] = RISK_WEIGHTS) -> dict:
    """Which candidate answer wins as the weight on risk grows, and where the order flips."""
    rows = []
    for w in weights:
        scores = {c["name"]: obj.risk_weighted_score(utility=c["utility"], risk=c["risk"],
                                                     risk_weight=w) for c in CANDIDATES}
        rows.append({"risk_weight": w, "scores": scores, "best": max(scores, key=scores.get)})
    a, b = CANDIDATES
    flip = obj.ranking_flip_weight(utility_a=a["utility"], risk_a=a["risk"],
                                   utility_b=b["utility"], risk_b=b["risk"])
    return _exhibit(
        "Safety-weighted choice", "score = utility - w * risk",
        "weighted-sum penalty (linear scalarisation)",
        {"candidates": [{k: c[k] for k in ("name", "utility", "risk")} for c in CANDIDATES],
         "risk_weights": list(weights), "values_are": PRESET_LABEL},
        {"rows": rows, "flip_weight": flip})


def response_comparison() -> dict:
    """The authored candidate answers to PROMPT, side by side (never model output)."""
    return {"title": "Response comparison (authored)", "prompt": PROMPT, "source": AUTHORED_LABEL,
            "responses": [{"name": c["name"], "text": c["answer"], "source": AUTHORED_LABEL}
                          for c in CANDIDATES]}


def build_report(*, collect_specs: Sequence[str] | None = None, load=None,
                 now: _dt.datetime | None = None) -> dict:
    """Return the whole observation report as a JSON-ready dict.

    Args:
        collect_specs: model specs to collect real responses from (see
            `rlvr.observe.collect.collect_responses`); None or empty skips collection.
        load: model loader override for collection (tests); default `load_causal_lm`.
        now: report timestamp (UTC); default the current time.
    """
    from rlvr.observe.collect import collect_responses, not_requested

    created = (now or _dt.datetime.now(_dt.timezone.utc)).isoformat(timespec="seconds")
    collection = (collect_responses(list(collect_specs), prompt=PROMPT, load=load)
                  if collect_specs else not_requested(PROMPT))
    return {
        "metadata": {"report": "rlvr observation report", "schema": REPORT_SCHEMA,
                     "rlvr_version": __version__, "created_utc": created,
                     "std_convention": STD_CONVENTION,
                     "std_convention_detail": obj.STD_CONVENTIONS[STD_CONVENTION],
                     "python_version": platform.python_version(),
                     "numbers": "computed at run time by rlvr.objectives; floats unrounded"},
        "exhibits": {
            "sft_cross_entropy": sft_cross_entropy(),
            "bradley_terry": bradley_terry(),
            "ppo_clip": ppo_clip(),
            "dpo": dpo(),
            "grpo_advantages": grpo_advantages(),
            "aggregation": aggregation(),
            "safety_weighted_choice": safety_weighted_choice(),
            "response_comparison": response_comparison(),
            "actual_response_collection": collection,
        },
    }


def write_report(report: dict, path: str | Path) -> Path:
    """Write the report as indented JSON, atomically (temp file in the folder, then rename)."""
    from rlvr.io import write_json

    return write_json(path, report)
