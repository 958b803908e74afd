"""`rlvr calc`: evaluate one objective formula and show it with the numbers filled in.

    rlvr calc advantages 0 0 1 1 [--std population] [--lengths 2 4 6 8]
    rlvr calc ppo --old-prob 0.2 --new-prob 0.3 0.1 --advantage 1 -1 [--epsilon 0.2]
    rlvr calc dpo --policy-chosen 0.2 --policy-rejected 0.1 --ref-chosen 0.1 --ref-rejected 0.2 --beta 0.5
    rlvr calc bt --score-chosen 2 --score-rejected 0
    rlvr calc ce 0.5 0.25 0.8            |  rlvr calc ce --logits 2 1 0.1 --target-id 0
    rlvr calc aggregate --lengths 2 8 --values 1 -1 [--aggregation token-mean]
    rlvr calc kl --policy-prob 0.5 --ref-prob 0.25
    rlvr calc passk -n 10 -c 3 -k 1 5

Every subcommand takes --json. The numbers come from `rlvr.objectives`; this module only
formats them. Invalid input becomes an RlvrError (one message, exit code 2).
"""

from __future__ import annotations

import argparse
import json
import math

from rlvr.errors import RlvrError


def _f(x: float) -> str:
    """A computed value: 6 decimals, no negative zero."""
    return f"{x + 0.0:.6f}"


def _g(x: float) -> str:
    """An input value as given (up to 6 significant digits), negatives in parentheses."""
    text = f"{x:.6g}" if isinstance(x, float) else str(x)
    return f"({text})" if text.startswith("-") else text


def _reward(text: str) -> float | None:
    if text.lower() in ("none", "null"):
        return None
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number or 'none'") from None


def _vector(values) -> str:
    return "[" + ", ".join(_f(v) for v in values) + "]"


def register(subparsers) -> None:
    calc = subparsers.add_parser("calc", help="evaluate an objective formula with numbers filled in",
                                 description=__doc__.split("\n\n")[0])
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--json", action="store_true", help="print inputs, result and steps as JSON")
    formulas = calc.add_subparsers(dest="formula", metavar="FORMULA", required=True)

    p = formulas.add_parser("advantages", parents=[common], help="GRPO group-relative advantages")
    p.add_argument("rewards", nargs="+", type=_reward, help="one reward per response; 'none' = unscored")
    p.add_argument("--std", dest="std_convention", choices=("sample", "population"), default="sample")
    p.add_argument("--no-std-scaling", action="store_true", help="A = r - mean (Dr. GRPO)")
    p.add_argument("--epsilon", type=float, default=0.0, help="added to std (TRL uses 1e-4)")
    p.add_argument("--lengths", nargs="+", type=int, help="response lengths in tokens, to broadcast")

    p = formulas.add_parser("ppo", parents=[common], help="PPO clipped surrogate, per token")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--ratio", nargs="+", type=float, help="importance ratio(s) pi/pi_old")
    source.add_argument("--new-prob", nargs="+", type=float, help="pi(token) now (with --old-prob)")
    source.add_argument("--new-logprob", nargs="+", type=float, help="ln pi(token) (with --old-logprob)")
    p.add_argument("--old-prob", type=float)
    p.add_argument("--old-logprob", type=float)
    p.add_argument("--advantage", nargs="+", type=float, required=True)
    p.add_argument("--epsilon", type=float, default=0.2, help="lower clip (TRL epsilon)")
    p.add_argument("--epsilon-high", type=float, help="upper clip (default: --epsilon)")

    p = formulas.add_parser("dpo", parents=[common], help="DPO margin, probability and loss")
    for name in ("policy-chosen", "policy-rejected", "ref-chosen", "ref-rejected"):
        p.add_argument(f"--{name}", type=float, required=True,
                       help="sequence probability (or log-probability with --logprobs)")
    p.add_argument("--beta", type=float, default=0.1)
    p.add_argument("--logprobs", action="store_true", help="the four values are log-probabilities")

    p = formulas.add_parser("bt", parents=[common], help="Bradley-Terry probability and loss")
    p.add_argument("--score-chosen", type=float, required=True)
    p.add_argument("--score-rejected", type=float, required=True)

    p = formulas.add_parser("ce", parents=[common], help="token cross-entropy")
    p.add_argument("probs", nargs="*", type=float, help="target-token probabilities")
    p.add_argument("--logits", nargs="+", type=float, help="logits of one position (with --target-id)")
    p.add_argument("--target-id", type=int)

    p = formulas.add_parser("aggregate", parents=[common], help="loss aggregation over tokens")
    p.add_argument("--lengths", nargs="+", type=int, required=True, help="response lengths in tokens")
    p.add_argument("--values", nargs="+", type=float, required=True,
                   help="per-token loss of each response (one value, or one per response)")
    p.add_argument("--aggregation", default="all",
                   help="sequence-mean, token-mean, dr-grpo (or a TRL loss_type), or all")
    p.add_argument("--max-completion-length", type=int, help="dr-grpo constant (default: longest)")

    p = formulas.add_parser("kl", parents=[common], help="k3 KL estimator, per token")
    p.add_argument("--policy-logprob", type=float)
    p.add_argument("--ref-logprob", type=float)
    p.add_argument("--policy-prob", type=float)
    p.add_argument("--ref-prob", type=float)

    p = formulas.add_parser("passk", parents=[common], help="unbiased pass@k")
    p.add_argument("-n", "--num-samples", type=int, required=True)
    p.add_argument("-c", "--num-correct", type=int, required=True)
    p.add_argument("-k", nargs="+", type=int, required=True)

    calc.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        out = _CALCULATORS[args.formula](args)
    except ValueError as exc:
        raise RlvrError(str(exc)) from None
    out = {"formula": args.formula, **out}
    print(json.dumps(out, indent=2) if args.json else "\n".join(out["steps"]))
    return 0


def _advantages(args) -> dict:
    from rlvr.objectives import broadcast_to_tokens, group_advantages

    rewards = args.rewards
    g = group_advantages(rewards, std_convention=args.std_convention,
                         scale_by_std=not args.no_std_scaling, epsilon=args.epsilon)
    scored = [r for r in rewards if r is not None]
    divisor = "G - 1" if args.std_convention == "sample" else "G"
    steps = [f"GRPO group-relative advantages ({args.std_convention} std: divide by {divisor})",
             f"scored rewards: {g.num_scored} of {len(rewards)} (None is left out and gets 0)"]
    if scored:
        steps.append(f"mean = ({' + '.join(_g(r) for r in scored)}) / {len(scored)} = {_f(g.mean)}")
    if g.std is not None:
        squares = " + ".join(f"({_g(r)} - {_f(g.mean)})^2" for r in scored)
        n = len(scored) - 1 if args.std_convention == "sample" else len(scored)
        steps.append(f"std = sqrt(({squares}) / {n}) = {_f(g.std)}")
    if g.num_scored < 2:
        steps.append("fewer than 2 scored rewards: every advantage is 0")
    elif g.zero_variance:
        steps.append("all scored rewards are equal (zero variance): every advantage is exactly 0")
    else:
        steps.append(f"A_i = (r_i - mean) / (std + epsilon), epsilon = {_g(args.epsilon)}"
                     if g.scale_by_std else "A_i = r_i - mean (no std scaling)")
        for i, (r, a) in enumerate(zip(rewards, g.advantages), start=1):
            steps.append(f"A_{i} = 0 (reward None)" if r is None else
                         f"A_{i} = ({_g(r)} - {_f(g.mean)}) / "
                         f"{_f(g.std + args.epsilon) if g.scale_by_std else '1'} = {_f(a)}")
    steps.append(f"advantages = {_vector(g.advantages)}")
    result = {"advantages": g.advantages, "mean": g.mean, "std": g.std,
              "zero_variance": g.zero_variance, "num_scored": g.num_scored,
              "num_unscored": g.num_unscored}
    if args.lengths:
        tokens = broadcast_to_tokens(g.advantages, lengths=args.lengths)
        result["per_token_advantages"] = tokens
        steps += [f"response {i} ({len(row)} tokens): {_vector(row)}"
                  for i, row in enumerate(tokens, start=1)]
    inputs = {"rewards": rewards, "std_convention": args.std_convention,
              "scale_by_std": not args.no_std_scaling, "epsilon": args.epsilon,
              "lengths": args.lengths}
    return {"inputs": inputs, "result": result, "steps": steps}


def _ppo(args) -> dict:
    from rlvr.objectives import importance_ratio, ppo_clip_terms

    if args.ratio:
        ratios = [(r, _g(r)) for r in args.ratio]
    elif args.new_prob:
        if args.old_prob is None:
            raise ValueError("--new-prob needs --old-prob")
        if args.old_prob <= 0 or min(args.new_prob) <= 0:
            raise ValueError("probabilities must be > 0")
        ratios = [(importance_ratio(new_logprob=math.log(p), old_logprob=math.log(args.old_prob)),
                   f"{_g(p)} / {_g(args.old_prob)}") for p in args.new_prob]
    else:
        if args.old_logprob is None:
            raise ValueError("--new-logprob needs --old-logprob")
        ratios = [(importance_ratio(new_logprob=lp, old_logprob=args.old_logprob),
                   f"exp({_g(lp)} - {_g(args.old_logprob)})") for lp in args.new_logprob]
    high = args.epsilon if args.epsilon_high is None else args.epsilon_high
    steps = [f"PPO clipped surrogate: J = min(r A, clip(r, 1 - {_g(args.epsilon)}, "
             f"1 + {_g(high)}) A); loss = -J"]
    rows = []
    for advantage in args.advantage:
        for ratio, shown in ratios:
            t = ppo_clip_terms(ratio=ratio, advantage=advantage, epsilon=args.epsilon,
                               epsilon_high=args.epsilon_high)
            clipped_ratio = min(max(t.ratio, 1 - t.epsilon), 1 + t.epsilon_high)
            steps.append(
                f"r = {shown} = {_f(t.ratio)}, A = {_g(advantage)}: r A = {_f(t.unclipped)}, "
                f"clip(r) A = {_f(clipped_ratio)} * {_g(advantage)} = {_f(t.clipped)}, "
                f"J = min = {_f(t.objective)}, loss = {_f(t.loss)}"
                + (" (clipped: no gradient)" if t.is_clipped else ""))
            rows.append({"ratio": t.ratio, "advantage": advantage, "unclipped": t.unclipped,
                         "clipped": t.clipped, "objective": t.objective, "loss": t.loss,
                         "is_clipped": t.is_clipped})
    inputs = {k: getattr(args, k) for k in ("ratio", "new_prob", "old_prob", "new_logprob",
                                            "old_logprob", "advantage", "epsilon")}
    inputs["epsilon_high"] = high
    return {"inputs": inputs, "result": {"rows": rows}, "steps": steps}


def _dpo(args) -> dict:
    from rlvr.objectives import dpo_terms, dpo_terms_from_probs

    values = {"policy_chosen": args.policy_chosen, "policy_rejected": args.policy_rejected,
              "ref_chosen": args.ref_chosen, "ref_rejected": args.ref_rejected}
    if args.logprobs:
        t = dpo_terms(beta=args.beta, **{f"{k}_logprob": v for k, v in values.items()})
        ratio = "{} - {}"
    else:
        t = dpo_terms_from_probs(beta=args.beta, **{f"{k}_prob": v for k, v in values.items()})
        ratio = "ln({} / {})"
    steps = [f"DPO (beta = {_g(args.beta)}); chosen y_w, rejected y_l",
             f"log-ratio chosen = {ratio.format(_g(args.policy_chosen), _g(args.ref_chosen))}"
             f" = {_f(t.chosen_log_ratio)}",
             f"log-ratio rejected = {ratio.format(_g(args.policy_rejected), _g(args.ref_rejected))}"
             f" = {_f(t.rejected_log_ratio)}",
             f"margin = {_g(args.beta)} * ({_f(t.chosen_log_ratio)} - ({_f(t.rejected_log_ratio)}))"
             f" = {_g(args.beta)} * {_f(t.log_ratio_difference)} = {_f(t.margin)}",
             f"P(chosen > rejected) = sigmoid({_f(t.margin)}) = {_f(t.preference_prob)}",
             f"loss = -ln sigmoid({_f(t.margin)}) = {_f(t.loss)}"]
    result = {"chosen_log_ratio": t.chosen_log_ratio, "rejected_log_ratio": t.rejected_log_ratio,
              "log_ratio_difference": t.log_ratio_difference, "margin": t.margin,
              "preference_prob": t.preference_prob, "loss": t.loss}
    return {"inputs": {**values, "beta": args.beta, "logprobs": args.logprobs},
            "result": result, "steps": steps}


def _bt(args) -> dict:
    from rlvr.objectives import bradley_terry_loss, bradley_terry_prob

    scores = {"score_chosen": args.score_chosen, "score_rejected": args.score_rejected}
    prob, loss = bradley_terry_prob(**scores), bradley_terry_loss(**scores)
    diff = f"{_g(args.score_chosen)} - {_g(args.score_rejected)}"
    steps = ["Bradley-Terry: P(chosen > rejected) = sigmoid(s_chosen - s_rejected)",
             f"P = sigmoid({diff}) = sigmoid({_f(args.score_chosen - args.score_rejected)}) = {_f(prob)}",
             f"loss = -ln P = {_f(loss)}"]
    return {"inputs": scores, "result": {"prob": prob, "loss": loss}, "steps": steps}


def _ce(args) -> dict:
    from rlvr.objectives import (mean_token_cross_entropy, token_cross_entropy,
                                 token_cross_entropy_from_logits)

    if args.logits:
        if args.probs or args.target_id is None:
            raise ValueError("--logits needs --target-id and no probabilities")
        ce = token_cross_entropy_from_logits(logits=[args.logits], target_ids=[args.target_id])[0]
        target = args.logits[args.target_id]
        steps = ["token cross-entropy from logits: CE = logsumexp(z) - z[target]",
                 f"CE = logsumexp({', '.join(_g(z) for z in args.logits)}) - {_g(target)} = "
                 f"{_f(ce + target)} - {_g(target)} = {_f(ce)}"]
        return {"inputs": {"logits": args.logits, "target_id": args.target_id},
                "result": {"per_token": [ce], "mean": ce}, "steps": steps}
    if not args.probs:
        raise ValueError("give target-token probabilities, or --logits with --target-id")
    per_token, mean = token_cross_entropy(args.probs), mean_token_cross_entropy(args.probs)
    steps = ["token cross-entropy: CE_t = -ln p_t (nats)"]
    steps += [f"CE_{i} = -ln {_g(p)} = {_f(c)}" for i, (p, c) in enumerate(zip(args.probs, per_token), 1)]
    steps.append(f"mean = ({' + '.join(_f(c) for c in per_token)}) / {len(per_token)} = {_f(mean)}")
    return {"inputs": {"probs": args.probs}, "result": {"per_token": per_token, "mean": mean},
            "steps": steps}


def _aggregate(args) -> dict:
    from rlvr.objectives import (AGGREGATIONS, aggregate_token_losses, aggregation_weights,
                                 resolve_aggregation)

    values = args.values * len(args.lengths) if len(args.values) == 1 else args.values
    if len(values) != len(args.lengths):
        raise ValueError(f"--values has {len(values)} numbers for {len(args.lengths)} lengths; "
                         "give one, or one per response")
    names = list(AGGREGATIONS) if args.aggregation == "all" else [resolve_aggregation(args.aggregation).name]
    per_token = [[v] * n for v, n in zip(values, args.lengths)]
    steps = [f"per-token loss {_g(v)} on each of {n} tokens" for v, n in zip(values, args.lengths)]
    modes = []
    for name in names:
        weights = aggregation_weights(args.lengths, aggregation=name,
                                      max_completion_length=args.max_completion_length)
        loss = aggregate_token_losses(per_token, aggregation=name,
                                      max_completion_length=args.max_completion_length)
        mode = AGGREGATIONS[name]
        shown = ", ".join(_f(w[0]) if w else "-" for w in weights)
        steps += [f"{name} (TRL loss_type {mode.trl_loss_type!r}): {mode.formula}",
                  f"  = {_filled(name, args.lengths, values, args.max_completion_length)} = {_f(loss)}",
                  f"  weight per token, by response: [{shown}]"]
        modes.append({"aggregation": name, "trl_loss_type": mode.trl_loss_type, "loss": loss,
                      "token_weights": weights})
    inputs = {"lengths": args.lengths, "values": values,
              "max_completion_length": args.max_completion_length}
    return {"inputs": inputs, "result": {"modes": modes}, "steps": steps}


def _filled(name: str, lengths: list[int], values: list[float], limit: int | None) -> str:
    """The aggregation formula with the lengths and per-token values substituted."""
    sums = " + ".join(f"{n}*{_g(v)}" for n, v in zip(lengths, values))
    if name == "sequence-mean":
        means = " + ".join(f"{n}*{_g(v)}/{n}" for n, v in zip(lengths, values) if n)
        return f"(1/{len(lengths)}) * ({means})"
    if name == "token-mean":
        return f"({sums}) / ({' + '.join(str(n) for n in lengths)})"
    return f"({sums}) / ({len(lengths)} * {limit or max(lengths)})"


def _kl(args) -> dict:
    from rlvr.objectives import kl_k3

    if args.policy_logprob is not None and args.ref_logprob is not None:
        policy, ref = args.policy_logprob, args.ref_logprob
        shown = f"{_g(ref)} - {_g(policy)}"
    elif args.policy_prob is not None and args.ref_prob is not None:
        if min(args.policy_prob, args.ref_prob) <= 0:
            raise ValueError("probabilities must be > 0")
        policy, ref = math.log(args.policy_prob), math.log(args.ref_prob)
        shown = f"ln {_g(args.ref_prob)} - ln {_g(args.policy_prob)}"
    else:
        raise ValueError("give --policy-logprob and --ref-logprob, or --policy-prob and --ref-prob")
    kl = kl_k3(policy_logprob=policy, ref_logprob=ref)
    d = ref - policy
    steps = ["k3 KL estimator: d = ln pi_ref - ln pi, KL3 = exp(d) - d - 1 (nats)",
             f"d = {shown} = {_f(d)}",
             f"KL3 = exp({_f(d)}) - ({_f(d)}) - 1 = {_f(kl)}"]
    return {"inputs": {"policy_logprob": policy, "ref_logprob": ref},
            "result": {"log_ratio": d, "kl_k3": kl}, "steps": steps}


def _passk(args) -> dict:
    from rlvr.objectives import pass_at_k

    n, c = args.num_samples, args.num_correct
    steps = [f"unbiased pass@k = 1 - C(n - c, k) / C(n, k), n = {n}, c = {c}"]
    values = {}
    for k in args.k:
        values[str(k)] = value = pass_at_k(num_samples=n, num_correct=c, k=k)
        if n - c < k:
            steps.append(f"pass@{k} = 1 (n - c = {n - c} < k: every draw holds a correct sample)")
        else:
            steps.append(f"pass@{k} = 1 - C({n - c}, {k}) / C({n}, {k}) = {_f(value)}")
    return {"inputs": {"num_samples": n, "num_correct": c, "k": args.k},
            "result": {"pass_at_k": values}, "steps": steps}


_CALCULATORS = {"advantages": _advantages, "ppo": _ppo, "dpo": _dpo, "bt": _bt, "ce": _ce,
                "aggregate": _aggregate, "kl": _kl, "passk": _passk}
