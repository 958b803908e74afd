"""TrainConfig -> TRL GRPOConfig / PEFT LoraConfig / reward functions (no model loaded)."""

from __future__ import annotations

import pytest

from rlvr.config import load_config
from rlvr.errors import ConfigError, RlvrError
from rlvr.train.grpo import grpo_args, lora_config, reward_functions


def test_grpo_args_carry_the_reference_settings(tmp_path):
    cfg = load_config(None)
    args = grpo_args(cfg, tmp_path, [1.0])
    assert (args.per_device_train_batch_size, args.gradient_accumulation_steps) == (1, 16)
    assert (args.num_generations, args.max_completion_length) == (2, 128)
    assert (args.beta, args.temperature, args.learning_rate) == (0.1, 0.7, 5e-5)
    assert args.warmup_steps == 0.05  # transformers 5 reads a float < 1 as a ratio
    assert args.bf16 is False  # no GPU here
    # TRL: one generation batch per optimizer step = 1 x 16 completions = 8 prompts x 2
    assert args.generation_batch_size == 16


def test_lora_config():
    lora = lora_config(load_config(None))
    assert (lora.r, lora.lora_alpha, lora.lora_dropout) == (8, 8, 0.05)
    assert lora.target_modules == "all-linear"


def test_reward_functions_single_and_weighted():
    funcs, weights = reward_functions(load_config(None))
    assert [f.__name__ for f in funcs] == ["selfaware"] and weights == [1.0]
    cfg = load_config(None, {"reward_funcs": [
        {"name": "selfaware", "weight": 2.0},
        {"name": "selfaware", "preset": "seed", "params": {"wrong": -2.0}, "weight": 0.5,
         "log_name": "selfaware_harsh"}]})
    funcs, weights = reward_functions(cfg)
    assert weights == [2.0, 0.5]
    assert [f.__name__ for f in funcs] == ["selfaware", "selfaware_harsh"]
    kwargs = {"expected_answer": ["Paris"], "is_unanswerable": [False]}
    assert funcs[0](["Lyon"], **kwargs) == [-1.0]
    assert funcs[1](["Lyon"], **kwargs) == [-2.0]


def test_reward_funcs_validation():
    with pytest.raises(ConfigError, match="reward_funcs: .*needs a 'name'"):
        load_config(None, {"reward_funcs": ["selfaware"]})
    with pytest.raises(ConfigError, match="unknown key"):
        load_config(None, {"reward_funcs": [{"name": "selfaware", "wieght": 1}]})
    with pytest.raises(ConfigError, match="unknown reward 'gsm8k'"):
        load_config(None, {"reward_funcs": [{"name": "gsm8k"}]})
    with pytest.raises(ConfigError, match="log_name"):
        load_config(None, {"reward_funcs": [{"name": "selfaware"}, {"name": "selfaware"}]})
    with pytest.raises(RlvrError, match="unknown reward"):
        reward_functions(load_config(None, {"reward": "nope"}))
