"""Training config: YAML loading, overrides, unknown keys, shipped configs."""

from __future__ import annotations

from pathlib import Path

import pytest

from rlvr.config import TrainConfig, load_config, parse_override
from rlvr.errors import ConfigError

CONFIGS = Path(__file__).resolve().parents[1] / "configs"


def test_defaults_match_reference_settings():
    cfg = TrainConfig()
    assert (cfg.per_device_train_batch_size, cfg.gradient_accumulation_steps) == (1, 16)
    assert (cfg.learning_rate, cfg.lr_scheduler_type, cfg.warmup_ratio) == (5e-5, "cosine", 0.05)
    assert (cfg.num_generations, cfg.max_completion_length, cfg.beta) == (2, 128, 0.1)
    assert (cfg.lora_r, cfg.lora_alpha, cfg.lora_dropout) == (8, 8, 0.05)


def test_yaml_and_overrides(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("learning_rate: 5e-5\nnum_generations: 4\nmax_steps: 10\n")
    cfg = load_config(path, {"max_steps": 3, "beta": 0.0})
    assert cfg.learning_rate == 5e-5 and isinstance(cfg.learning_rate, float)  # YAML reads 5e-5 as text
    assert cfg.num_generations == 4 and cfg.max_steps == 3 and cfg.beta == 0.0


def test_unknown_key_names_closest(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("num_generation: 4\n")
    with pytest.raises(ConfigError, match="unknown key 'num_generation'; did you mean 'num_generations'"):
        load_config(path)
    with pytest.raises(ConfigError, match="did you mean 'learning_rate'"):
        load_config(None, {"learning_rat": 1e-4})


@pytest.mark.parametrize("overrides,message", [
    ({"num_generations": 1}, "num_generations must be >= 2"),
    ({"loss_type": "ppo"}, "loss_type"),
    ({"warmup_ratio": 1.5}, "warmup_ratio"),
    ({"max_steps": "many"}, "max_steps must be an integer such as -1, got .many."),
])
def test_invalid_values(overrides, message):
    with pytest.raises(ConfigError, match=message):
        load_config(None, overrides)


def test_parse_override():
    assert parse_override("beta=0.0") == ("beta", 0.0)
    assert parse_override("lora_target_modules=[q_proj, v_proj]") == (
        "lora_target_modules", ["q_proj", "v_proj"])
    assert parse_override("model=") == ("model", None)
    with pytest.raises(ConfigError, match="key=value"):
        parse_override("beta")


def test_missing_config_file(tmp_path):
    with pytest.raises(ConfigError, match="not found"):
        load_config(tmp_path / "nope.yaml")


@pytest.mark.parametrize("name", ["selfaware_grpo.yaml", "selfaware_grpo_cpu.yaml",
                                  "selfaware_mix_cpu.yaml"])
def test_shipped_configs_load(name):
    cfg = load_config(CONFIGS / name)
    assert cfg.reward == "selfaware"


def test_reference_config_is_reference():
    """The reference settings are the TrainConfig defaults, except the reward table: the
    reference's own (`seed`), kept with `preflight: warn` because always-hedge games it."""
    cfg = load_config(CONFIGS / "selfaware_grpo.yaml")
    assert (cfg.reward_preset, cfg.preflight) == ("seed", "warn")
    assert cfg == TrainConfig(**{**TrainConfig().to_dict(), "output_dir": cfg.output_dir,
                                 "data": cfg.data, "reward_preset": "seed",
                                 "preflight": "warn"})


def test_cli_flags_override_file(tmp_path, monkeypatch):
    from rlvr.commands import train as train_cmd

    seen = {}

    def fake_run(cfg, resume=False, overwrite=False):
        seen["cfg"] = cfg
        return {"meta": {"optimizer_steps": 2, "timings": {}}}

    monkeypatch.setattr("rlvr.train.job.run", fake_run)
    # x.jsonl does not exist: skip the file checks, this test is about the flag mapping
    monkeypatch.setattr("rlvr.train.checks.check_before_model", lambda cfg: None)
    from rlvr.cli import main

    code = main(["train", "--config", str(CONFIGS / "selfaware_grpo_cpu.yaml"), "--max-steps",
                 "2", "--eval-limit", "3", "--output-dir", str(tmp_path), "--seed", "5",
                 "--set", "beta=0.5", "--data", "x.jsonl"])
    assert code == 0
    cfg = seen["cfg"]
    assert (cfg.max_steps, cfg.eval_limit, cfg.output_dir, cfg.seed, cfg.beta, cfg.data) == (
        2, 3, str(tmp_path), 5, 0.5, "x.jsonl")
    assert train_cmd.FLAG_KEYS["max_steps"] == "max_steps"


def test_cli_unknown_set_key(capsys):
    from rlvr.cli import main

    assert main(["train", "--set", "betta=0.1"]) == 2
    assert "did you mean 'beta'" in capsys.readouterr().err


@pytest.mark.parametrize("override, message", [
    # refused when the config loads, with the fix in the message
    ({"num_generations": 3}, r"generation batch .* = 16\) must be divisible by num_generations "
                             r"\(3\).*per_device_train_batch_size: 3 or num_generations: 2"),
    ({"lora_r": 0}, "lora_r must be > 0"),
    ({"temperature": -0.5}, "temperature must be > 0"),
    ({"beta": -0.1}, "beta must be >= 0"),
    ({"scale_rewards": "grup"}, "scale_rewards must be group, batch or none"),
    ({"max_steps": 0}, "max_steps must be >= 1, or -1"),
    ({"lora_dropout": 1.5}, r"lora_dropout must be in \[0, 1\)"),
    ({"eval_tasks": ["gsm8k", "trivia"]}, "eval_tasks: unknown task 'trivia'"),
])
def test_ranges_and_the_batch_rule_are_checked_at_load(override, message):
    with pytest.raises(ConfigError, match=message):
        load_config(None, override)


def test_eval_tasks_as_a_string_is_a_list_of_names():
    # `eval_tasks: gsm8k` used to become ["g", "s", "m", ...] and fail after training
    assert load_config(None, {"eval_tasks": "gsm8k"}).eval_tasks == ["gsm8k"]
    assert load_config(None, {"eval_tasks": "gsm8k, triviaqa"}).eval_tasks == ["gsm8k", "triviaqa"]


def test_json_schema_is_generated_from_the_dataclass_and_checks_the_configs():
    import json

    import yaml

    from rlvr.config.schema import json_schema, schema_text

    root = Path(__file__).resolve().parents[1]
    committed = root / "configs" / "config.schema.json"
    # the committed file is the generated one (regenerate: rlvr train --print-schema)
    assert committed.read_text(encoding="utf-8") == schema_text()
    schema = json_schema()
    assert schema["additionalProperties"] is False
    assert set(schema["properties"]) == {f.name for f in __import__("dataclasses").fields(TrainConfig)}
    assert schema["properties"]["num_generations"] == {
        "description": "completions per prompt (G, the group size)", "type": "integer",
        "default": 2}
    json_types = {"string": str, "integer": int, "number": (int, float), "boolean": bool,
                  "array": list, "object": dict, "null": type(None)}
    for config in sorted((root / "configs").glob("*.yaml")):
        assert "$schema=config.schema.json" in config.read_text(encoding="utf-8").splitlines()[0]
        for key, value in (yaml.safe_load(config.read_text(encoding="utf-8")) or {}).items():
            assert key in schema["properties"], (config.name, key)
            kinds = schema["properties"][key].get("type")
            kinds = [kinds] if isinstance(kinds, str) else kinds or []
            assert not kinds or isinstance(value, tuple(json_types[k] for k in kinds)), (key, value)
    assert json.loads(committed.read_text(encoding="utf-8"))["title"] == "rlvr train config"
