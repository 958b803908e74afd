"""Hand-computed values and properties of rlvr.objectives (arithmetic in the comments)."""

from __future__ import annotations

import math
import random

import pytest

from rlvr import objectives as obj

TOL = 5e-7  # the reference values are given to 6 decimals


def approx(x):
    return pytest.approx(x, abs=TOL)


# --- token cross-entropy -------------------------------------------------------------

def test_token_cross_entropy_issue_values():
    # -ln 0.5 = 0.693147, -ln 0.25 = 2 ln 2 = 1.386294, -ln 0.8 = 0.223144
    assert obj.token_cross_entropy([0.5, 0.25, 0.8]) == [approx(0.693147), approx(1.386294),
                                                         approx(0.223144)]
    # (0.693147 + 1.386294 + 0.223144) / 3 = 2.302585 / 3 = 0.767528 (= ln 10 / 3)
    assert obj.mean_token_cross_entropy([0.5, 0.25, 0.8]) == approx(0.767528)
    # all-0.8 preset: every token -ln 0.8 = 0.223144, so the mean is 0.223144 too
    assert obj.mean_token_cross_entropy([0.8, 0.8, 0.8]) == approx(0.223144)


def test_token_cross_entropy_from_logits_matches_probabilities():
    # logits (2, 1, 0.1): softmax[0] = e^2 / (e^2 + e + e^0.1) = 7.389056 / 11.212509 = 0.659001
    # CE = -ln 0.659001 = 0.417030
    assert obj.token_cross_entropy_from_logits(logits=[[2.0, 1.0, 0.1]], target_ids=[0]) == [
        approx(0.417030)]
    # equal logits over 4 entries: p = 1/4, CE = ln 4 = 1.386294; shifting logits changes nothing
    assert obj.token_cross_entropy_from_logits(logits=[[0, 0, 0, 0], [1000, 1000, 1000, 1000]],
                                               target_ids=[3, 1]) == [approx(1.386294)] * 2


@pytest.mark.parametrize("bad", [[0.0], [1.5], [-0.1], [float("nan")], [True]])
def test_token_cross_entropy_rejects_non_probabilities(bad):
    with pytest.raises(ValueError, match="target_probs"):
        obj.token_cross_entropy(bad)


def test_cross_entropy_errors():
    with pytest.raises(ValueError, match="at least one"):
        obj.mean_token_cross_entropy([])
    with pytest.raises(ValueError, match="only 2 entries"):
        obj.token_cross_entropy_from_logits(logits=[[1.0, 2.0]], target_ids=[2])
    with pytest.raises(ValueError, match="1 items but target_ids has 2"):
        obj.token_cross_entropy_from_logits(logits=[[1.0, 2.0]], target_ids=[0, 1])


def test_log_sigmoid_is_stable_at_extremes():
    # log sigma(-1000) = -1000 - log(1 + e^-1000) = -1000; log sigma(1000) = -log(1 + e^-1000) = 0
    assert obj.log_sigmoid(-1000.0) == -1000.0
    assert obj.log_sigmoid(1000.0) == 0.0
    assert obj.sigmoid(-1000.0) == 0.0 and obj.sigmoid(1000.0) == 1.0


# --- Bradley-Terry ----------------------------------------------------------------------

@pytest.mark.parametrize("diff, prob, loss", [
    (0.0, 0.500000, 0.693147),   # sigma(0) = 1/2; -ln(1/2) = ln 2
    (2.0, 0.880797, 0.126928),   # 1 / (1 + e^-2) = 1 / 1.135335; ln(1 + e^-2) = ln 1.135335
    (-2.0, 0.119203, 2.126928),  # 1 / (1 + e^2) = 1 / 8.389056; ln(1 + e^2) = ln 8.389056
])
def test_bradley_terry_issue_values(diff, prob, loss):
    assert obj.bradley_terry_prob(score_chosen=diff, score_rejected=0.0) == approx(prob)
    assert obj.bradley_terry_loss(score_chosen=diff, score_rejected=0.0) == approx(loss)
    # adding 10 to both scores leaves s_V - s_U, hence P and the loss, unchanged
    assert obj.bradley_terry_prob(score_chosen=diff + 10, score_rejected=10.0) == approx(prob)
    assert obj.bradley_terry_loss(score_chosen=diff + 10, score_rejected=10.0) == approx(loss)


def test_bradley_terry_arguments_are_keyword_only():
    with pytest.raises(TypeError):
        obj.bradley_terry_loss(2.0, 0.0)  # chosen/rejected cannot be swapped by position


# --- PPO ------------------------------------------------------------------------------

@pytest.mark.parametrize("new_prob, advantage, unclipped, clipped, objective, is_clipped", [
    (0.30, +1, 1.5, 1.2, 1.2, True),     # r = 0.3/0.2 = 1.5 > 1.2: min(1.5, 1.2) = 1.2
    (0.10, +1, 0.5, 0.8, 0.5, False),    # r = 0.1/0.2 = 0.5: min(0.5, 0.8) = 0.5
    (0.30, -1, -1.5, -1.2, -1.5, False),  # min(-1.5, -1.2) = -1.5 (no clip for a bad, likelier token)
    (0.10, -1, -0.5, -0.8, -0.8, True),  # min(-0.5, -0.8) = -0.8
])
def test_ppo_clip_issue_rows(new_prob, advantage, unclipped, clipped, objective, is_clipped):
    ratio = obj.importance_ratio(new_logprob=math.log(new_prob), old_logprob=math.log(0.20))
    terms = obj.ppo_clip_terms(ratio=ratio, advantage=advantage, epsilon=0.2)
    assert (terms.unclipped, terms.clipped, terms.objective) == (approx(unclipped), approx(clipped),
                                                                 approx(objective))
    assert terms.loss == approx(-objective)
    assert terms.is_clipped is is_clipped
    assert obj.ppo_clipped_objective(ratio=ratio, advantage=advantage) == approx(objective)
    assert obj.ppo_clipped_loss(ratio=ratio, advantage=advantage) == approx(-objective)


def test_ppo_separate_upper_clip():
    # DAPO clip-higher: epsilon 0.2, epsilon_high 0.28: r = 1.5, A = 1 -> min(1.5, 1.28) = 1.28
    assert obj.ppo_clipped_objective(ratio=1.5, advantage=1.0, epsilon=0.2,
                                     epsilon_high=0.28) == approx(1.28)
    # the lower clip still uses epsilon: r = 0.5, A = -1 -> min(-0.5, -0.8) = -0.8
    assert obj.ppo_clipped_objective(ratio=0.5, advantage=-1.0, epsilon=0.2,
                                     epsilon_high=0.28) == approx(-0.8)


def test_ppo_loss_is_minus_ratio_times_advantage_inside_clip_range():
    rng = random.Random(4)
    for _ in range(200):
        ratio = rng.uniform(0.8, 1.2)  # inside [1 - 0.2, 1 + 0.2]
        advantage = rng.uniform(-3, 3)
        assert obj.ppo_clipped_loss(ratio=ratio, advantage=advantage) == pytest.approx(
            -ratio * advantage, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("kwargs, match", [
    ({"ratio": 0.0, "advantage": 1.0}, "ratio must be > 0"),
    ({"ratio": 1.0, "advantage": float("inf")}, "advantage must be finite"),
    ({"ratio": 1.0, "advantage": 1.0, "epsilon": 1.0}, "epsilon must be < 1"),
    ({"ratio": 1.0, "advantage": 1.0, "epsilon_high": -0.1}, "epsilon_high must be >= 0"),
])
def test_ppo_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        obj.ppo_clip_terms(**kwargs)


# --- DPO ------------------------------------------------------------------------------

def test_dpo_policy_favours_chosen():
    t = obj.dpo_terms_from_probs(policy_chosen_prob=0.20, policy_rejected_prob=0.10,
                                 ref_chosen_prob=0.10, ref_rejected_prob=0.20, beta=0.5)
    assert t.chosen_log_ratio == approx(0.693147)  # ln(0.2 / 0.1) = ln 2
    assert t.rejected_log_ratio == approx(-0.693147)  # ln(0.1 / 0.2) = -ln 2
    assert t.log_ratio_difference == approx(1.386294)  # ln 2 - (-ln 2) = 2 ln 2
    assert t.margin == approx(0.693147)  # 0.5 * 2 ln 2 = ln 2
    assert t.preference_prob == approx(0.666667)  # sigma(ln 2) = 2 / (2 + 1)
    assert t.loss == approx(0.405465)  # -ln(2/3) = ln 1.5


def test_dpo_policy_equal_to_reference_gives_ln2():
    # both log-ratios are 0, margin 0, P = 1/2, loss = ln 2 = 0.693147
    t = obj.dpo_terms_from_probs(policy_chosen_prob=0.10, policy_rejected_prob=0.20,
                                 ref_chosen_prob=0.10, ref_rejected_prob=0.20, beta=0.5)
    assert (t.margin, t.preference_prob, t.loss) == (0.0, 0.5, approx(0.693147))


def test_dpo_policy_favours_rejected():
    t = obj.dpo_terms_from_probs(policy_chosen_prob=0.05, policy_rejected_prob=0.40,
                                 ref_chosen_prob=0.10, ref_rejected_prob=0.20, beta=0.5)
    # ln(0.05/0.1) = -ln 2, ln(0.4/0.2) = ln 2: margin = 0.5 * (-2 ln 2) = -ln 2 = -0.693147
    assert t.margin == approx(-0.693147)
    assert t.preference_prob == approx(0.333333)  # sigma(-ln 2) = 1 / (1 + 2)
    assert t.loss == approx(1.098612)  # -ln(1/3) = ln 3
    assert obj.dpo_loss(policy_chosen_logprob=math.log(0.05), policy_rejected_logprob=math.log(0.40),
                        ref_chosen_logprob=math.log(0.10), ref_rejected_logprob=math.log(0.20),
                        beta=0.5) == approx(1.098612)


def test_dpo_errors():
    with pytest.raises(ValueError, match="beta must be > 0"):
        obj.dpo_terms(policy_chosen_logprob=-1, policy_rejected_logprob=-1, ref_chosen_logprob=-1,
                      ref_rejected_logprob=-1, beta=0)
    with pytest.raises(ValueError, match="policy_chosen_logprob is a log-probability"):
        obj.dpo_terms(policy_chosen_logprob=0.5, policy_rejected_logprob=-1, ref_chosen_logprob=-1,
                      ref_rejected_logprob=-1)
    with pytest.raises(ValueError, match="ref_rejected_prob must be a probability"):
        obj.dpo_terms_from_probs(policy_chosen_prob=0.5, policy_rejected_prob=0.5,
                                 ref_chosen_prob=0.5, ref_rejected_prob=0.0)


# --- GRPO advantages ----------------------------------------------------------------------

def test_group_advantages_mixed_group_sample_std():
    g = obj.group_advantages([0, 0, 1, 1])
    assert g.mean == 0.5  # (0 + 0 + 1 + 1) / 4
    # sample variance = (0.25 + 0.25 + 0.25 + 0.25) / (4 - 1) = 1/3; std = 0.577350
    assert g.std ** 2 == pytest.approx(1 / 3)
    assert g.std == approx(0.577350)
    # A = +-0.5 / 0.577350 = +-0.866025 (= sqrt(3)/2)
    assert g.advantages == [approx(-0.866025)] * 2 + [approx(0.866025)] * 2
    assert not g.zero_variance and g.std_convention == "sample"


def test_group_advantages_population_std():
    # population std = sqrt(1 / 4) = 0.5, so A = +-0.5 / 0.5 = +-1 exactly
    g = obj.group_advantages([0, 0, 1, 1], std_convention="population")
    assert g.std == 0.5 and g.advantages == [-1.0, -1.0, 1.0, 1.0]


def test_group_advantages_one_success_in_four():
    g = obj.group_advantages([0, 0, 0, 1])
    assert g.mean == 0.25  # 1 / 4
    # sample variance = (3 * 0.0625 + 0.5625) / 3 = 0.75 / 3 = 0.25; std = 0.5
    assert g.std == approx(0.5)
    # A = -0.25 / 0.5 = -0.5 for the failures, 0.75 / 0.5 = 1.5 for the success
    assert g.advantages == [approx(-0.5)] * 3 + [approx(1.5)]


@pytest.mark.parametrize("rewards, mean", [([1, 1, 1, 1], 1.0), ([0, 0, 0, 0], 0.0)])
def test_zero_variance_groups_give_exact_zeros(rewards, mean):
    g = obj.group_advantages(rewards)
    assert g.advantages == [0.0, 0.0, 0.0, 0.0]  # exact: no 0/0, no NaN
    assert all(a == 0.0 and math.copysign(1, a) == 1 for a in g.advantages)
    assert g.zero_variance and g.mean == mean  # success rate 1.0 vs 0.0


def test_zero_variance_with_non_representable_reward_is_still_exact():
    # 0.1 is not exact in binary: a computed mean may differ from 0.1 in the last bit
    assert obj.group_advantages([0.1, 0.1, 0.1]).advantages == [0.0, 0.0, 0.0]


def test_group_of_one_and_none_rewards():
    assert obj.group_advantages([0.7]).advantages == [0.0]
    assert obj.group_advantages([0.7], std_convention="population").advantages == [0.0]
    # None is left out: scored [0, 1] -> mean 0.5, sample std sqrt(0.5) = 0.707107,
    # A = -+0.5 / 0.707107 = -+0.707107; the None sample gets 0
    g = obj.group_advantages([0, None, 1])
    assert g.advantages == [approx(-0.707107), 0.0, approx(0.707107)]
    assert (g.num_scored, g.num_unscored) == (2, 1)
    # a single scored reward beside None: nothing to compare with, advantage 0
    assert obj.group_advantages([None, 1, None]).advantages == [0.0, 0.0, 0.0]
    empty = obj.group_advantages([None, None])
    assert empty.mean is None and empty.advantages == [0.0, 0.0]


def test_group_advantages_errors():
    with pytest.raises(ValueError, match="use None"):
        obj.group_advantages([0.0, float("nan")])
    with pytest.raises(ValueError, match="std_convention"):
        obj.group_advantages([0, 1], std_convention="unbiased")


def test_unscaled_advantages_and_epsilon():
    # Dr. GRPO: A = r - mean = -0.5, -0.5, 0.5, 0.5
    assert obj.group_advantages([0, 0, 1, 1], scale_by_std=False).advantages == [-0.5, -0.5, 0.5, 0.5]
    # TRL-style epsilon 1e-4: 0.5 / (0.577350 + 0.0001) = 0.865875
    assert obj.group_advantages([0, 0, 1, 1], epsilon=1e-4).advantages[3] == approx(0.865875)


def _random_groups(seed=0, count=100):
    rng = random.Random(seed)
    for _ in range(count):
        size = rng.randint(2, 8)
        rewards = [rng.choice([0.0, 1.0, rng.uniform(-2, 2)]) for _ in range(size)]
        if len(set(rewards)) > 1:
            yield rewards


@pytest.mark.parametrize("std_convention", ["sample", "population"])
def test_advantage_properties(std_convention):
    for rewards in _random_groups():
        base = obj.group_advantages(rewards, std_convention=std_convention).advantages
        assert math.fsum(base) == pytest.approx(0.0, abs=1e-12)  # sum to zero
        shifted = obj.group_advantages([r + 3.7 for r in rewards], std_convention=std_convention)
        assert shifted.advantages == pytest.approx(base, abs=1e-9)  # shift invariant
        scaled = obj.group_advantages([r * 2.5 for r in rewards], std_convention=std_convention)
        assert scaled.advantages == pytest.approx(base, abs=1e-9)  # positive-scale invariant
        unscaled = obj.group_advantages([r * 2.5 for r in rewards], scale_by_std=False)
        assert math.fsum(unscaled.advantages) == pytest.approx(0.0, abs=1e-12)


def test_batch_advantages_groups_consecutively():
    b = obj.batch_advantages([0, 0, 1, 1, 1, 1, 1, 1], num_generations=4)
    assert b.advantages[:4] == [approx(-0.866025)] * 2 + [approx(0.866025)] * 2
    assert b.advantages[4:] == [0.0] * 4
    assert b.frac_reward_zero_std == 0.5  # 1 of 2 groups
    with pytest.raises(ValueError, match="multiple of num_generations"):
        obj.batch_advantages([0, 1, 1], num_generations=2)


def test_broadcast_to_tokens_and_length_independence():
    adv = obj.group_advantages([0, 0, 1, 1]).advantages
    tokens = obj.broadcast_to_tokens(adv, lengths=[2, 4, 6, 8])
    assert [len(row) for row in tokens] == [2, 4, 6, 8]
    assert all(set(row) == {a} for row, a in zip(tokens, adv))
    longer = obj.broadcast_to_tokens(adv, lengths=[2, 4, 6, 16])
    assert longer[3] == [adv[3]] * 16 and longer[:3] == tokens[:3]
    with pytest.raises(ValueError, match="4 items but lengths has 3"):
        obj.broadcast_to_tokens(adv, lengths=[2, 4, 6])


# --- aggregation -------------------------------------------------------------------------

def test_aggregation_issue_example():
    per_token = [[1.0] * 2, [-1.0] * 8]
    # sequence-mean: (1/2) * (2*1/2 + 8*(-1)/8) = (1/2) * (1 - 1) = 0
    assert obj.aggregate_token_losses(per_token, aggregation="sequence-mean") == approx(0.0)
    # token-mean: (2*1 + 8*(-1)) / 10 = -6 / 10 = -0.6
    assert obj.aggregate_token_losses(per_token, aggregation="token-mean") == approx(-0.6)
    # dr-grpo: (2 - 8) / (2 responses * 8 max length) = -6 / 16 = -0.375
    assert obj.aggregate_token_losses(per_token, aggregation="dr-grpo") == approx(-0.375)
    # weights: sequence-mean 1/(2*2) = 0.25 and 1/(2*8) = 0.0625; token-mean 1/10; dr-grpo 1/16
    assert obj.aggregation_weights([2, 8], aggregation="sequence-mean") == [[0.25] * 2, [0.0625] * 8]
    assert obj.aggregation_weights([2, 8], aggregation="token-mean") == [[0.1] * 2, [0.1] * 8]
    assert obj.aggregation_weights([2, 8], aggregation="dr-grpo") == [[0.0625] * 2, [0.0625] * 8]
    # with TRL's max_completion_length = 16 instead: -6 / (2 * 16) = -0.1875
    assert obj.aggregate_token_losses(per_token, aggregation="dr_grpo",
                                      max_completion_length=16) == approx(-0.1875)


def test_aggregation_trl_names():
    assert {name: a.trl_loss_type for name, a in obj.AGGREGATIONS.items()} == {
        "sequence-mean": "grpo", "token-mean": "dapo", "dr-grpo": "dr_grpo"}
    assert obj.resolve_aggregation("bnpo").name == "token-mean"
    with pytest.raises(ValueError, match="did you mean 'token-mean'"):
        obj.resolve_aggregation("token_mean")


def test_aggregation_modes_agree_when_lengths_are_equal():
    rng = random.Random(7)
    for _ in range(50):
        batch, length = rng.randint(1, 5), rng.randint(1, 9)
        losses = [[rng.uniform(-1, 1) for _ in range(length)] for _ in range(batch)]
        values = {name: obj.aggregate_token_losses(losses, aggregation=name)
                  for name in obj.AGGREGATIONS}
        assert values["token-mean"] == pytest.approx(values["sequence-mean"], abs=1e-12)
        assert values["dr-grpo"] == pytest.approx(values["sequence-mean"], abs=1e-12)


def test_aggregation_weights_sum_to_one_and_errors():
    for name in ("sequence-mean", "token-mean"):
        weights = obj.aggregation_weights([3, 1, 5], aggregation=name)
        assert math.fsum(w for row in weights for w in row) == pytest.approx(1.0)
    # an empty response has no token; sequence-mean still counts it in B (as TRL's mean does):
    # weights 1/(3*3) on 3 tokens + 1/(3*5) on 5 tokens = 1/3 + 1/3 = 2/3
    weights = obj.aggregation_weights([3, 0, 5], aggregation="sequence-mean")
    assert weights[1] == [] and math.fsum(w for row in weights for w in row) == pytest.approx(2 / 3)
    assert obj.aggregation_weights([3, 0, 5], aggregation="token-mean")[0] == [0.125] * 3  # 1/8
    with pytest.raises(ValueError, match="shorter than the longest"):
        obj.aggregation_weights([3, 9], aggregation="dr-grpo", max_completion_length=8)
    with pytest.raises(ValueError, match="lengths\\[1\\] must be >= 0"):
        obj.aggregation_weights([3, -1], aggregation="token-mean")


# --- k3 KL, pass@k, risk-weighted score ------------------------------------------------------

def test_kl_k3_values():
    # pi = 0.5, pi_ref = 0.25: d = ln 0.25 - ln 0.5 = -ln 2; e^-ln2 + ln 2 - 1 = 0.5 + 0.693147 - 1
    assert obj.kl_k3(policy_logprob=math.log(0.5), ref_logprob=math.log(0.25)) == approx(0.193147)
    assert obj.kl_k3(policy_logprob=-1.3, ref_logprob=-1.3) == 0.0


def test_kl_k3_is_unbiased_and_non_negative():
    # E_{x~p}[q/p - ln(q/p) - 1] = sum q - sum p ln(q/p) - 1 = KL(p || q) exactly
    p, q = [0.5, 0.3, 0.2], [0.2, 0.2, 0.6]
    expected = math.fsum(pi * obj.kl_k3(policy_logprob=math.log(pi), ref_logprob=math.log(qi))
                         for pi, qi in zip(p, q))
    exact = math.fsum(pi * math.log(pi / qi) for pi, qi in zip(p, q))
    assert expected == pytest.approx(exact, rel=1e-12)
    rng = random.Random(1)
    assert all(obj.kl_k3(policy_logprob=-rng.uniform(0, 9), ref_logprob=-rng.uniform(0, 9)) >= 0
               for _ in range(500))


def test_pass_at_k_values():
    # n = 10, c = 3, k = 1: 1 - C(7,1)/C(10,1) = 1 - 7/10 = 0.3
    assert obj.pass_at_k(num_samples=10, num_correct=3, k=1) == approx(0.3)
    # k = 5: 1 - C(7,5)/C(10,5) = 1 - 21/252 = 0.916667
    assert obj.pass_at_k(num_samples=10, num_correct=3, k=5) == approx(0.916667)
    # n - c = 7 < k = 8: every draw of 8 holds a correct sample
    assert obj.pass_at_k(num_samples=10, num_correct=3, k=8) == 1.0
    assert obj.pass_at_k(num_samples=10, num_correct=0, k=5) == 0.0


def test_pass_at_k_matches_chen_product_form():
    # Chen et al. 2021 compute 1 - prod_{i=n-c+1}^{n} (1 - k / i)
    for n, c, k in [(200, 13, 1), (200, 13, 10), (200, 13, 100), (50, 1, 7)]:
        product = math.prod(1.0 - k / i for i in range(n - c + 1, n + 1))
        assert obj.pass_at_k(num_samples=n, num_correct=c, k=k) == pytest.approx(1 - product, rel=1e-9)


@pytest.mark.parametrize("kwargs, match", [
    ({"num_samples": 5, "num_correct": 6, "k": 1}, "cannot exceed num_samples"),
    ({"num_samples": 5, "num_correct": 2, "k": 6}, "k = 6 cannot exceed"),
    ({"num_samples": 5, "num_correct": 2, "k": 0}, "k must be >= 1"),
    ({"num_samples": 5.0, "num_correct": 2, "k": 1}, "must be an integer"),
])
def test_pass_at_k_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        obj.pass_at_k(**kwargs)


def test_risk_weighted_score_and_flip():
    # 1.0 - 3 * 0.3 = 0.1 ; 0.5 - 3 * 0.05 = 0.35
    assert obj.risk_weighted_score(utility=1.0, risk=0.3, risk_weight=3) == approx(0.1)
    assert obj.risk_weighted_score(utility=0.5, risk=0.05, risk_weight=3) == approx(0.35)
    # tie where 1 - 0.3 w = 0.5 - 0.05 w  =>  w = 0.5 / 0.25 = 2
    assert obj.ranking_flip_weight(utility_a=1.0, risk_a=0.3, utility_b=0.5,
                                   risk_b=0.05) == approx(2.0)
    assert obj.ranking_flip_weight(utility_a=1, risk_a=0.1, utility_b=0.5, risk_b=0.1) is None
    # a dominates b (more useful, less risky): no flip for w >= 0
    assert obj.ranking_flip_weight(utility_a=1, risk_a=0.1, utility_b=0.5, risk_b=0.3) is None
    with pytest.raises(ValueError, match="risk_weight must be >= 0"):
        obj.risk_weighted_score(utility=1, risk=1, risk_weight=-1)


def test_objectives_import_only_the_standard_library():
    import os
    import subprocess
    import sys
    from pathlib import Path

    import rlvr

    env = {**os.environ, "PYTHONPATH": str(Path(rlvr.__file__).parents[1])}
    code = ("import sys, rlvr.objectives; heavy = {'torch', 'numpy', 'transformers', 'trl'};"
            "print(sorted(heavy & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env=env)
    assert out.stdout.strip() == "[]"


# --- differential test against TRL's GRPOTrainer ---------------------------------------------

TRL_EPSILON = 1e-4  # TRL: advantages = (r - mean) / (std + 1e-4), std Bessel-corrected


def test_advantages_match_trl_grpo_trainer(tmp_path):
    """Feed fixed rewards through TRL's own GRPOTrainer and compare its advantages.

    TRL 1.16 (`_generate_and_score_completions`, scale_rewards="group") divides by
    std + 1e-4, so each of its advantages is ours times std / (std + 1e-4): for the
    [0, 0, 1, 1] group 0.866025 -> 0.865875, a relative difference of 1e-4 / 0.577450
    = 1.7e-4. With epsilon=1e-4 we match TRL to float32 precision; with the exact formula
    (epsilon 0) the gap is at most |A| * 1e-4 / (std + 1e-4).
    """
    pytest.importorskip("torch")
    pytest.importorskip("trl")
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    from tiny_models import tiny_llama

    model, tokenizer = tiny_llama(20)
    # four groups of 4: mixed, zero variance, one None (left out), mixed non-binary
    rewards = [0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, None, 1.0, 0.5, 0.2, 0.9, 0.4, 0.4]

    def fixed_rewards(completions, **kwargs):
        return list(rewards)

    args = GRPOConfig(output_dir=str(tmp_path), num_generations=4, per_device_train_batch_size=16,
                      max_completion_length=2, report_to="none", use_cpu=True, save_strategy="no")
    trainer = GRPOTrainer(model=model, reward_funcs=[fixed_rewards], args=args,
                          processing_class=tokenizer,
                          train_dataset=Dataset.from_dict({"prompt": ["w1 w2"] * 16}))
    model.train()
    batch = trainer._generate_and_score_completions([{"prompt": "w1 w2"}] * 16)
    trl_advantages = batch["advantages"].tolist()

    ours = obj.batch_advantages(rewards, num_generations=4, epsilon=TRL_EPSILON)
    assert trl_advantages == pytest.approx(ours.advantages, abs=1e-6)
    exact = obj.batch_advantages(rewards, num_generations=4)
    for group, start in zip(exact.groups, range(0, 16, 4)):
        for k, a in enumerate(group.advantages):
            bound = abs(a) * TRL_EPSILON / (group.std + TRL_EPSILON) + 1e-6 if group.std else 1e-6
            assert abs(trl_advantages[start + k] - a) <= bound
    assert exact.advantages[3] == approx(0.866025) and trl_advantages[3] == approx(0.865875)
    assert trainer._metrics["train"]["frac_reward_zero_std"][-1] == exact.frac_reward_zero_std


# --- answers-only baseline (decoupled_advantages) --------------------------------------

def test_decoupled_advantages_hand_computed():
    # group [right 1, wrong 0, abstain 0.3, abstain 0.3], scale none:
    # b = mean of the answers = (1 + 0) / 2 = 0.5 -> A = [0.5, -0.5, -0.2, -0.2]
    # (plain GRPO: b = 1.6 / 4 = 0.4 -> [0.6, -0.4, -0.1, -0.1])
    flags = [False, False, True, True]
    assert obj.decoupled_advantages([1, 0, 0.3, 0.3], flags, num_generations=4,
                                    scale="none") == [approx(0.5), approx(-0.5),
                                                      approx(-0.2), approx(-0.2)]
    # scale group: sample std of [1, 0, 0.3, 0.3]: mean 0.4, squares .36+.16+.01+.01 = .54,
    # /3 = .18, sqrt = 0.424264; + 1e-4 = 0.424364; 0.5 / 0.424364 = 1.178234,
    # 0.2 / 0.424364 = 0.471293
    assert obj.decoupled_advantages([1, 0, 0.3, 0.3], flags, num_generations=4) == [
        approx(1.178234), approx(-1.178234), approx(-0.471293), approx(-0.471293)]
    # unknown question, three wrong answers and one abstention at 0.3: b = 0, so the
    # abstention gets +0.3 and the wrong answers 0 (plain GRPO: b = 0.075, -0.075 each)
    assert obj.decoupled_advantages([0, 0, 0, 0.3], [False, False, False, True],
                                    num_generations=4, scale="none") == [0, 0, 0, approx(0.3)]
    # every completion abstained: b falls back to the group mean (1 + 0.3) / 2 = 0.65
    assert obj.decoupled_advantages([1, 0.3], [True, True], num_generations=2,
                                    scale="none") == [approx(0.35), approx(-0.35)]
    # an unscored completion gets 0 and is out of b: b = (1 + 0) / 2 = 0.5
    assert obj.decoupled_advantages([None, 1, 0, 0.3], [False, False, False, True],
                                    num_generations=4, scale="none") == [
        0, approx(0.5), approx(-0.5), approx(-0.2)]
    # tied group: all 0 (never 0/0)
    assert obj.decoupled_advantages([0.3] * 4, [True] * 4, num_generations=4) == [0.0] * 4
    # scale batch, two groups of 2, epsilon 0: batch std of [1, 0, 0.3, 0]: mean .325,
    # squares .455625 + .105625 + .000625 + .105625 = .6675, /3 = .2225, sqrt = .471699;
    # group 1: b = .5 -> +-.5 / .471699 = +-1.059998; group 2: b = 0 (the one answer)
    # -> [.3 / .471699, 0] = [.635999, 0]
    assert obj.decoupled_advantages([1, 0, 0.3, 0], [False, False, True, False],
                                    num_generations=2, scale="batch", epsilon=0.0) == [
        approx(1.059998), approx(-1.059998), approx(0.635999), 0]


def test_decoupled_advantages_refuse_bad_input():
    with pytest.raises(ValueError, match="abstained flags"):
        obj.decoupled_advantages([1, 0], [True], num_generations=2)
    with pytest.raises(ValueError, match="multiple of num_generations"):
        obj.decoupled_advantages([1, 0, 1], [False] * 3, num_generations=2)
    with pytest.raises(ValueError, match="scale"):
        obj.decoupled_advantages([1, 0], [False] * 2, num_generations=2, scale="grp")
    with pytest.raises(ValueError, match="None"):
        obj.decoupled_advantages([1, float("nan")], [False] * 2, num_generations=2)


def test_decoupled_abstention_advantage_does_not_fade_with_the_abstain_share():
    # property: with scale none, an abstention's advantage is r_abstain - mean answer reward
    # for any number k of abstentions, the answers' advantages sum to 0, and with no
    # abstention the result is plain GRPO (group_advantages)
    rng = random.Random(7)
    for _ in range(300):
        g = rng.randint(2, 8)
        answers = [rng.choice([0.0, 1.0, -1.0, 0.5]) for _ in range(g)]
        k = rng.randint(0, g - 1)
        value = rng.choice([0.3, 0.5, 1.0])
        rewards = answers[:g - k] + [value] * k
        flags = [False] * (g - k) + [True] * k
        out = obj.decoupled_advantages(rewards, flags, num_generations=g, scale="none")
        if max(rewards) == min(rewards):
            assert out == [0.0] * g
            continue
        mean_answers = sum(answers[:g - k]) / (g - k)
        assert all(a == approx(value - mean_answers) for a in out[g - k:])
        assert sum(out[:g - k]) == approx(0.0)
        if k == 0:
            plain = obj.group_advantages(rewards, scale_by_std=False).advantages
            assert out == [approx(a) for a in plain]
