"""Abstentions measured against the group's answers (`rlvr.train.abstain_advantages`): the
outcome flags, TRL's weighted total, the config checks, and one real GRPO step whose loss
sees the rewritten advantages."""

from __future__ import annotations

import math

import pytest

from rlvr.config import load_config
from rlvr.errors import ConfigError
from rlvr.objectives import decoupled_advantages
from rlvr.train.abstain_advantages import abstained_flags, decoupled_trainer, weighted_rewards

# the user rewards these runs register are removed again (the registry is process-wide)
pytestmark = pytest.mark.usefixtures("keep_rewards")


@pytest.mark.parametrize("columns, size, expected", [
    # selfaware's labels, the last 3 of a longer column (the table keeps older batches)
    ({"outcome/selfaware": ["abstained", "correct", "abstained_unanswerable", "wrong"]}, 3,
     [False, True, False]),
    # the abstention reward's label; a None label (reward not applied) is not an abstention
    ({"outcome/abstention": ["abstain", None, "hedge"]}, 3, [True, False, False]),
    # two columns: either one saying "abstained" is enough
    ({"outcome/a": ["answer", "abstain"], "outcome/b": ["abstained", "correct"]}, 2,
     [True, True]),
    # columns that are not outcome labels are ignored
    ({"judge_note": ["abstain", "abstain"]}, 2, [False, False]),
])
def test_abstained_flags(columns, size, expected):
    assert abstained_flags(columns, size) == expected


def test_abstained_flags_refuses_a_short_column():
    with pytest.raises(ValueError, match="2 labels for 3"):
        abstained_flags({"outcome/selfaware": ["abstained", "wrong"]}, 3)


def test_weighted_rewards_is_trls_nansum():
    nan = float("nan")
    # row 0: 1.0*0.5 + 2.0*0.25 = 1.0; row 1: only the second scored, 2.0*1.0 = 2.0;
    # row 2: nothing scored -> None (TRL: NaN, advantage 0)
    assert weighted_rewards([[0.5, 0.25], [nan, 1.0], [nan, nan]], [1.0, 2.0]) == [1.0, 2.0, None]
    with pytest.raises(ValueError, match="3 rewards for 2 weights"):
        weighted_rewards([[0.0, 0.0, 0.0]], [1.0, 1.0])


def test_group_baseline_leaves_the_class_alone():
    class Base:
        pass

    assert decoupled_trainer("group", Base) is Base
    assert issubclass(decoupled_trainer("answers", Base), Base)
    with pytest.raises(ValueError, match="advantage_baseline"):
        decoupled_trainer("abstain", Base)


@pytest.mark.parametrize("overrides, message", [
    ({"advantage_baseline": "outcome"}, "advantage_baseline must be group or answers"),
    ({"advantage_baseline": "answers", "reward": "gsm8k_correctness", "reward_preset": "default",
      "train_answerable": "all"}, "calibration reward"),
    ({"advantage_baseline": "answers", "method": "sft"}, "calibration reward"),
    ({"advantage_baseline": "answers",
      "trl": {"multi_objective_aggregation": "normalize_then_sum"}}, "sum_then_normalize"),
])
def test_config_refuses_what_the_option_cannot_do(overrides, message):
    with pytest.raises(ConfigError, match=message):
        load_config(None, overrides)


def test_config_takes_the_option_with_the_selfaware_reward():
    assert load_config(None, {"advantage_baseline": "answers"}).advantage_baseline == "answers"


REWARD = '''
from rlvr.rewards import RewardResult

# two groups of 4: [1, 0, 0, 0.7 abstained] and [0.55, 0, 0.9 abstained, 0.9 abstained]
SCORES = [1.0, 0.0, 0.0, 0.7, 0.55, 0.0, 0.9, 0.9]
ABSTAINED = [False, False, False, True, False, False, True, True]


def fixed(completions, **kwargs):
    """The scores above by position in the batch, each labelled abstain or answer."""
    return [RewardResult(SCORES[i % 8], "abstain" if ABSTAINED[i % 8] else "answer")
            for i in range(len(completions))]
'''


def test_one_real_grpo_step_trains_on_the_answer_baseline(tmp_path, monkeypatch):
    """The loss receives `decoupled_advantages` of the batch's rewards, not TRL's.

    By hand, group 0 = [1, 0, 0, 0.7a]: answers' mean b = 1/3; sample std of the four is
    s = sqrt(((.575)^2 + 2 (.425)^2 + (.275)^2) / 3) = sqrt(0.7675 / 3) = 0.50580; the
    abstention's advantage is (0.7 - 1/3) / (s + 1e-4) = 0.72478 (TRL: (0.7 - 0.425) / s =
    0.54358). Group 1 = [0.55, 0, 0.9a, 0.9a]: b = 0.275, TRL's mean 0.5875, so the 0.55
    answer's advantage changes sign (+ here, - in TRL): 1 of 8 flips.
    """
    from tiny_models import tiny_chat_llama, use_tiny_model

    from rlvr.train import grpo, job

    model, tokenizer = tiny_chat_llama()
    use_tiny_model(monkeypatch, job, tmp_path, tokenizer, lambda: model)
    (tmp_path / "rewards.py").write_text(REWARD, encoding="utf-8")
    seen = []
    build = grpo.decoupled_trainer

    def recording(baseline, base):
        class Recording(build(baseline, base)):
            def compute_loss(self, model, inputs, *args, **kwargs):
                seen.append(inputs["advantages"].clone())
                return super().compute_loss(model, inputs, *args, **kwargs)
        return Recording

    monkeypatch.setattr(grpo, "decoupled_trainer", recording)
    run_dir = tmp_path / "run"
    cfg = load_config(None, {
        "output_dir": str(run_dir), "max_steps": 1, "max_completion_length": 4,
        "per_device_train_batch_size": 8, "num_generations": 4, "train_limit": 8,
        "gradient_accumulation_steps": 1, "skip_eval": True, "report_to": "none",
        "cross_check": "none", "diagnostics": False, "preflight": "off",
        "lora_target_modules": ["q_proj", "v_proj"], "advantage_baseline": "answers",
        "reward_funcs": [{"name": "selfaware", "weight": 0.0},
                         {"name": "fixed", "function": f"{tmp_path / 'rewards.py'}:fixed"}]})
    report = job.run(cfg)
    assert report["meta"]["optimizer_steps"] == 1
    (advantages,) = seen
    scores = [1.0, 0.0, 0.0, 0.7, 0.55, 0.0, 0.9, 0.9]
    flags = [False, False, False, True, False, False, True, True]
    expected = decoupled_advantages(scores, flags, num_generations=4)
    assert expected[3] == pytest.approx(0.72478, abs=1e-5)
    assert expected[4] > 0  # the flipped answer
    # rows are shuffled into the loss; compare as sorted values
    assert sorted(advantages.tolist()) == pytest.approx(sorted(expected), abs=1e-5)
    logged = [__import__("json").loads(line)
              for line in (run_dir / "metrics.jsonl").read_text().splitlines()]
    flips = [rec["advantage_sign_flips"] for rec in logged if "advantage_sign_flips" in rec]
    assert flips and math.isclose(flips[0], 1 / 8)
