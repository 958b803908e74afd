"""The reference project's JSON config layout: mapped key by key, unknown keys
refused with the closest match."""

from __future__ import annotations

import json

import pytest

from rlvr.config import load_config
from rlvr.errors import ConfigError

REFERENCE = {
    "selfaware_grpo": {
        "batch_size": 1, "grad_accumulation_steps": 16, "lr_schedule": "cosine_decay",
        "lora_rank": 8, "lora_scale": 2.0, "target_modules": ["q_proj", "v_proj"],
        "num_generations": 2, "max_completion_length": 128, "beta": 0.1, "temperature": 0.7,
        "learning_rate": 5e-6, "warmup_ratio": 0.1, "num_train_epochs": 2,
    },
    "gsm8k_grpo": {"batch_size": 4},  # another experiment's section: ignored
}


def _write(tmp_path, obj):
    path = tmp_path / "reference.json"
    path.write_text(json.dumps(obj), encoding="utf-8")
    return path


def test_reference_json_maps_every_key(tmp_path):
    cfg = load_config(_write(tmp_path, REFERENCE))
    assert cfg.per_device_train_batch_size == 1 and cfg.gradient_accumulation_steps == 16
    assert cfg.lr_scheduler_type == "cosine"  # MLX's cosine_decay
    assert cfg.lora_r == 8 and cfg.lora_alpha == 16  # alpha = rank 8 x scale 2.0
    assert cfg.lora_target_modules == ["q_proj", "v_proj"]
    assert (cfg.num_generations, cfg.max_completion_length, cfg.beta, cfg.temperature) == \
        (2, 128, 0.1, 0.7)
    assert (cfg.learning_rate, cfg.warmup_ratio, cfg.num_train_epochs) == (5e-6, 0.1, 2)


def test_reference_json_with_rlvr_keys_and_data_variant_flag(tmp_path):
    from rlvr.cli import build_parser
    from rlvr.commands.train import FLAG_KEYS

    obj = {"selfaware_grpo": {"lora_scale": 0.5, "reward_preset": "strict"},
           "output_dir": str(tmp_path / "run")}
    cfg = load_config(_write(tmp_path, obj), {"selfaware_variant": "v1"})
    assert cfg.lora_alpha == 4 and cfg.reward_preset == "strict"  # default rank 8 x 0.5
    assert cfg.output_dir == str(tmp_path / "run") and cfg.selfaware_variant == "v1"
    args = build_parser().parse_args(["train", "--data-variant", "v2"])
    assert args.data_variant == "v2" and FLAG_KEYS["data_variant"] == "selfaware_variant"


@pytest.mark.parametrize("section, message", [
    ({"lora_rnk": 8}, "unknown key 'lora_rnk' in 'selfaware_grpo'; did you mean 'lora_rank'"),
    ({"batchsize": 2}, "did you mean 'batch_size'"),
    ({"lora_scale": 0}, "lora_scale must be a positive number"),
    ({"lora_scale": "2"}, "lora_scale must be a positive number"),
    ({"num_generations": 1}, "num_generations must be >= 2"),
])
def test_reference_json_refuses_bad_keys(tmp_path, section, message):
    with pytest.raises(ConfigError, match=message):
        load_config(_write(tmp_path, {"selfaware_grpo": section}))


def test_reference_section_must_be_a_mapping(tmp_path):
    with pytest.raises(ConfigError, match="'selfaware_grpo' must be a mapping"):
        load_config(_write(tmp_path, {"selfaware_grpo": [1, 2]}))
