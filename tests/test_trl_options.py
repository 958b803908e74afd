"""Any TRL option: the `trl:` mapping reaches `trl.GRPOConfig` as given, after
rlvr's own settings; names are checked against the installed TRL before any model loads,
options rlvr sets are refused with the rlvr key, and a top-level GRPOConfig option is
pointed to `trl:`. Ends with one real GRPO step of a tiny model for GSPO and for DAPO's
clip-higher."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
import yaml

from rlvr.config import TrainConfig, load_config, parse_override
from rlvr.config.trl_keys import RLVR_SETS, SAME_NAME, flow, owned_reason
from rlvr.errors import ConfigError

ROOT = Path(__file__).resolve().parents[1]


# --- the config layer: when the config loads, without TRL ---

@pytest.mark.parametrize("overrides, message", [
    # a top-level GRPOConfig option rlvr leaves to TRL: "put it under trl:", not 'epsilon'
    ({"epsilon_high": 0.28}, "override: unknown key 'epsilon_high'; it is a trl.GRPOConfig "
                             "option: put it under trl: (e.g. trl: {epsilon_high: 0.28}, or "
                             "--set trl.epsilon_high=0.28)"),
    ({"importance_sampling_level": "sequence"},
     "put it under trl: (e.g. trl: {importance_sampling_level: sequence}, or --set "
     "trl.importance_sampling_level=sequence)"),
    ({"top_k": 5}, "unknown key 'top_k'; it is a trl.GRPOConfig option"),  # not 'top_p'
    ({"weight_decay": 0.01}, "trl: {weight_decay: 0.01}"),  # TrainingArguments' fields too
    # a misspelt TRL option: the closest one, under trl:
    ({"epsilon_hihg": 0.28}, "unknown key 'epsilon_hihg'; did you mean 'epsilon_high'? "
                             "(a trl.GRPOConfig option: put it under trl:, e.g. trl: "
                             "{epsilon_high: 0.28})"),
    # a misspelt rlvr key still gets the rlvr key
    ({"num_generation": 4}, "unknown key 'num_generation'; did you mean 'num_generations'?"),
    ({"learnig_rate": 1e-4}, "did you mean 'learning_rate'?"),
    # GRPOConfig options rlvr sets from another key, or itself
    ({"warmup_steps": 10}, "unknown key 'warmup_steps'; trl.GRPOConfig's warmup_steps: rlvr "
                           "sets it from warmup_ratio (a share of the steps); set "
                           "warmup_ratio instead"),
    ({"data_seed": 1}, "rlvr sets it from seed; set seed instead"),
    ({"use_cpu": True}, "use_cpu: rlvr sets it from the device it trains on"),
    # options rlvr sets, under trl: refused with the rlvr key
    ({"trl": {"learning_rate": 1e-4}}, "trl: learning_rate: it is an rlvr key, passed to "
                                       "trl.GRPOConfig as it is; set it at the top level, "
                                       "e.g. learning_rate: 0.0001"),
    ({"trl": {"num_generations": 8}}, "trl: num_generations: it is an rlvr key, passed to trl.GRPOConfig as it is; set it at the top level, e.g. num_generations: 8"),
    ({"trl": {"output_dir": "x"}}, "trl: output_dir: it is an rlvr key"),
    ({"trl": {"beta": 0.0}}, "trl: beta: it is an rlvr key"),
    ({"trl": {"warmup_steps": 5}}, "trl: warmup_steps: rlvr sets it from warmup_ratio"),
    ({"trl": {"reward_weights": [1.0]}}, "trl: reward_weights: rlvr sets it from the weight "
                                         "of each reward_funcs entry"),
    ({"trl": {"save_strategy": "no"}}, "trl: save_strategy: rlvr sets it to 'steps': a checkpoint every save_steps steps and "
                                       "every save_minutes minutes; remove it"),
    ({"trl": {"project": "mine"}}, "trl: project: rlvr sets it to 'rlvr'"),
    ({"trl.loss_type": "cispo"}, "trl: loss_type: it is an rlvr key"),
    # shape
    ({"trl": [1]}, "trl must be a mapping such as {epsilon_high: 0.28}, got [1]"),
    ({"trl": "epsilon_high=0.28"}, "trl must be a mapping"),
    ({"trl": {1: 2}}, "trl: keys are trl.GRPOConfig option names such as epsilon_high, got 1"),
    # dotted overrides need a mapping field holding a mapping
    ({"cross_check_limit.triviaqa": 50}, "override cross_check_limit.triviaqa: "
                                         "cross_check_limit is 10, not a mapping; set the "
                                         "whole value, e.g. --set 'cross_check_limit="
                                         "{default: 10, triviaqa: 50}'"),
    ({"beta.x": 1}, "unknown key 'beta.x'"),
])
def test_config_layer_refuses_with_the_fix(overrides, message):
    with pytest.raises(ConfigError) as info:
        load_config(None, overrides)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_a_dotted_key_in_a_file_is_told_to_nest(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("trl.epsilon_high: 0.28\n")
    with pytest.raises(ConfigError, match="key 'trl.epsilon_high': write it nested, trl: "
                                          "{epsilon_high: 0.28}"):
        load_config(path)


def test_trl_from_a_file_and_overrides(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("trl:\n  importance_sampling_level: sequence\n  epsilon_high: 0.3\n")
    cfg = load_config(path)
    assert cfg.trl == {"importance_sampling_level": "sequence", "epsilon_high": 0.3}
    # --set trl.KEY=VALUE adds to (or changes one entry of) the file's mapping
    cfg = load_config(path, dict(parse_override(s) for s in
                                 ["trl.epsilon_high=0.28", "trl.top_k=5"]))
    assert cfg.trl == {"importance_sampling_level": "sequence", "epsilon_high": 0.28,
                       "top_k": 5}
    # --set 'trl={...}' replaces it
    cfg = load_config(path, dict([parse_override("trl={epsilon_high: 0.28}")]))
    assert cfg.trl == {"epsilon_high": 0.28}
    # the last one wins, in command-line order
    cfg = load_config(path, dict(parse_override(s) for s in
                                 ["trl={delta: 2.0}", "trl.epsilon_high=0.28"]))
    assert cfg.trl == {"delta": 2.0, "epsilon_high": 0.28}
    # null and the empty default
    assert load_config(None, {"trl": None}).trl == {} and load_config(None).trl == {}
    # another mapping field works the same way
    assert load_config(None, {"reward_params.wrong": -1.0}).reward_params == {"wrong": -1.0}
    assert load_config(None, {"cross_check_limit": {"default": 5},
                              "cross_check_limit.triviaqa": 50}).cross_check_limit == {
        "default": 5, "triviaqa": 50}
    # the resolved config records it
    assert load_config(path).to_dict()["trl"] == {"importance_sampling_level": "sequence",
                                                  "epsilon_high": 0.3}


def test_backend_mlx_refuses_trl_options():
    from rlvr.config.backends import check_mlx_backend

    cfg = load_config(None, {"trl": {"epsilon_high": 0.28}})
    with pytest.raises(ConfigError, match="trl: epsilon_high: trl.GRPOConfig options, which "
                                          "backend: mlx does not read; remove trl: or set "
                                          "backend: trl"):
        check_mlx_backend(cfg, find_spec=lambda name: object())


def test_flow_and_owned_reason():
    assert flow(0.28) == "0.28" and flow("sequence") == "sequence"
    assert flow({"epsilon_high": 0.28}) == "{epsilon_high: 0.28}"
    assert flow(True) == "true" and flow(object).startswith("<class")
    assert owned_reason("epsilon_high") is None
    assert all(owned_reason(name) for name in RLVR_SETS)
    # every same-name option is an rlvr key
    assert set(SAME_NAME) <= {f.name for f in dataclasses.fields(TrainConfig)}


def test_schema_and_list_keys_know_trl():
    from rlvr.config.schema import json_schema

    spec = json_schema()["properties"]["trl"]
    assert spec["type"] == "object" and spec["default"] == {}
    assert "importance_sampling_level" in spec["description"]


# --- the train layer: against the installed TRL ---

def test_rlvr_sets_exactly_what_grpo_args_passes(tmp_path):
    from rlvr.train.grpo import grpo_kwargs

    assert set(grpo_kwargs(load_config(None), tmp_path, [1.0])) == RLVR_SETS


def test_the_field_snapshot_matches_the_installed_trl():
    from rlvr.config.trl_fields import GRPO_CONFIG_FIELDS
    from rlvr.train.trl_options import grpo_config_fields, snapshot_text

    committed = ROOT / "src" / "rlvr" / "config" / "trl_fields.py"
    assert set(grpo_config_fields()) == GRPO_CONFIG_FIELDS, (
        "TRL changed: regenerate src/rlvr/config/trl_fields.py with "
        "rlvr.train.trl_options.snapshot_text()")
    assert committed.read_text(encoding="utf-8") == snapshot_text()
    assert RLVR_SETS <= GRPO_CONFIG_FIELDS


STAND_IN = {"epsilon_high": float | None, "top_k": int, "mask_truncated_completions": bool,
            "importance_sampling_level": str, "generation_kwargs": dict | None,
            "learning_rate": float}


@pytest.mark.parametrize("options, message", [
    ({"epsilon_hgih": 0.28}, "trl: 'epsilon_hgih' is not an option of trl.GRPOConfig; did "
                             "you mean 'epsilon_high'\\?$"),
    ({"learnig_rate": 1e-4}, "trl: 'learnig_rate' is not an option of trl.GRPOConfig; did "
                             "you mean 'learning_rate'\\? \\(it is an rlvr key, passed to "
                             "trl.GRPOConfig as it is; set it at the top level, e.g. "
                             "learning_rate: 0.0001\\)"),
    ({"zzz": 1}, "trl: 'zzz' is not an option of trl.GRPOConfig$"),
    ({"epsilon_high": "high"}, "trl.epsilon_high must be a number \\(trl.GRPOConfig."
                               "epsilon_high: float \\| None\\), got 'high'"),
    ({"top_k": "5.5"}, "trl.top_k must be an integer"),
    ({"mask_truncated_completions": "yes"}, "must be true or false"),
])
def test_trl_options_refuse_with_the_fix(options, message):
    from rlvr.train.trl_options import trl_options

    cfg = load_config(None)
    cfg.trl = options  # past the config layer's checks, as a newer field would be
    with pytest.raises(ConfigError, match=message):
        trl_options(cfg, STAND_IN)


def test_trl_options_convert_text_as_rlvr_keys_do():
    from rlvr.train.trl_options import trl_options

    cfg = load_config(None, {"trl": {"epsilon_high": "1e-1", "top_k": "5",
                                     "mask_truncated_completions": "true",
                                     "importance_sampling_level": "sequence",
                                     "generation_kwargs": {"min_tokens": 1}}})
    assert trl_options(cfg, STAND_IN) == {
        "epsilon_high": 0.1, "top_k": 5, "mask_truncated_completions": True,
        "importance_sampling_level": "sequence", "generation_kwargs": {"min_tokens": 1}}
    assert cfg.trl["epsilon_high"] == "1e-1"  # the config is not changed
    assert trl_options(load_config(None), STAND_IN) == {}


def test_trl_options_name_the_installed_version():
    import trl

    from rlvr.train.grpo import grpo_args

    cfg = load_config(None, {"trl": {"epsilon_hgih": 0.28}})
    with pytest.raises(ConfigError, match=re.escape(
            f"trl: 'epsilon_hgih' is not an option of trl.GRPOConfig in TRL "
            f"{trl.__version__}; did you mean 'epsilon_high'?")):
        grpo_args(cfg, Path("unused"))


@pytest.mark.parametrize("trl_options", [
    {"importance_sampling_level": "sequence"},  # GSPO (Zheng et al., 2025)
    {"epsilon_high": 0.28},  # DAPO's clip-higher (Yu et al., 2025)
])
def test_grpo_args_carry_the_trl_options(tmp_path, trl_options):
    from rlvr.train.grpo import grpo_args

    args = grpo_args(load_config(None, {"trl": trl_options}), tmp_path, [1.0])
    for key, value in trl_options.items():
        assert getattr(args, key) == value
    assert (args.learning_rate, args.num_generations, args.epsilon) == (5e-5, 2, 0.2)


def test_trl_refusals_are_config_errors(tmp_path):
    from rlvr.train.grpo import grpo_args

    cfg = load_config(None, {"trl": {"generation_batch_size": 3}})
    with pytest.raises(ConfigError, match="trl: trl.GRPOConfig refused the settings with trl: "
                                          "{generation_batch_size: 3}: generation_batch_size "
                                          "\\(3\\) must be divisible by num_generations"):
        grpo_args(cfg, tmp_path)


# --- the main job: checked before the model loads; one real step each ---

def _tiny_job(monkeypatch, tmp_path, factory=None):
    from tiny_models import tiny_chat_llama, use_tiny_model

    from rlvr.train import job

    model, tokenizer = tiny_chat_llama()
    use_tiny_model(monkeypatch, job, tmp_path, tokenizer, factory or (lambda: model))
    return job


def _tiny_config(run_dir, **overrides):
    return load_config(None, {
        "output_dir": str(run_dir), "max_steps": 1, "max_completion_length": 4,
        "per_device_train_batch_size": 2, "gradient_accumulation_steps": 1, "train_limit": 4,
        "skip_eval": True, "report_to": "none", "cross_check": "none", "diagnostics": False,
        "lora_target_modules": ["q_proj", "v_proj"], **overrides})


def _record_trainers(monkeypatch) -> list:
    """The GRPO trainers the main job builds, appended as they are made."""
    from rlvr.train import grpo

    trainers = []
    build = grpo.curriculum_trainer

    def recording(cfg, base):
        class Recording(build(cfg, base)):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, **kwargs)
                trainers.append(self)
        return Recording

    monkeypatch.setattr(grpo, "curriculum_trainer", recording)
    return trainers


def test_a_bad_trl_option_fails_before_the_model_loads(tmp_path, monkeypatch):
    def no_model():
        raise AssertionError("the model loaded")

    job = _tiny_job(monkeypatch, tmp_path, no_model)
    with pytest.raises(ConfigError, match="did you mean 'epsilon_high'"):
        job.run(_tiny_config(tmp_path / "run", trl={"epsilon_hgih": 0.28}))
    with pytest.raises(ConfigError, match="generation_batch_size"):
        job.run(_tiny_config(tmp_path / "run", trl={"generation_batch_size": 3}))
    assert not (tmp_path / "run" / "resolved_config.yaml").exists()


def test_other_methods_ignore_trl_options_with_a_warning(tmp_path, monkeypatch, caplog):
    job = _tiny_job(monkeypatch, tmp_path)
    cfg = _tiny_config(tmp_path / "run", method="sft", trl={"epsilon_hgih": 0.28})
    with caplog.at_level("WARNING"):
        job.prepare(cfg, resume=False)
    assert "trl: epsilon_hgih reach trl.GRPOConfig only; method sft ignores them" in caplog.text


@pytest.mark.parametrize("trl_options, attribute, extra", [
    # GSPO, with the sequence-mean loss of its paper
    ({"importance_sampling_level": "sequence"}, "importance_sampling_level",
     {"loss_type": "grpo"}),
    ({"epsilon_high": 0.28}, "epsilon_high", {}),  # DAPO's clip-higher
])
def test_one_real_grpo_step_with_the_trl_option(tmp_path, monkeypatch, trl_options, attribute,
                                                extra):
    job = _tiny_job(monkeypatch, tmp_path)
    trainers = _record_trainers(monkeypatch)
    run_dir = tmp_path / "run"
    report = job.run(_tiny_config(run_dir, trl=trl_options, **extra))
    assert report["meta"]["optimizer_steps"] == 1
    (trainer,) = trainers
    value = trl_options[attribute]
    assert getattr(trainer.args, attribute) == value  # the GRPOConfig TRL trained with
    assert getattr(trainer, attribute) == value  # and the trainer read it
    assert trainer.state.global_step == 1
    resolved = yaml.safe_load((run_dir / "resolved_config.yaml").read_text(encoding="utf-8"))
    assert resolved["trl"] == trl_options


# --- every TRL loss, and values TRL accepts that cannot train ---

def test_loss_types_are_every_loss_trls_compute_loss_knows():
    import inspect

    from trl import GRPOTrainer

    from rlvr.config.checks import LOSS_TYPES

    source = inspect.getsource(GRPOTrainer._compute_loss)
    named = set(re.findall(r'loss_type == "(\w+)"', source))
    for group in re.findall(r"loss_type in \[([^\]]+)\]", source):
        named |= set(re.findall(r'"(\w+)"', group))
    assert named == set(LOSS_TYPES)


@pytest.mark.parametrize("option, value, message", [
    ("num_iterations", 0, "0 cannot train; it must be an integer >= 1"),
    ("num_iterations", 1.5, "must be an integer >= 1"),
    ("num_iterations", "0", "must be an integer >= 1"),  # text, as --set trl.num_iterations=0 gives
    ("steps_per_generation", 0, "null or an integer >= 1"),
    ("generation_batch_size", -4, "null or an integer >= 1"),
    ("epsilon_high", -0.1, "null or a number >= 0"),
    ("repetition_penalty", 0, "a number > 0"),
    ("min_p", 1.5, "null or a number in \\[0, 1\\]"),
])
def test_values_trl_accepts_but_cannot_train_are_refused_when_the_config_loads(option, value,
                                                                               message):
    with pytest.raises(ConfigError, match=f"trl: {option}: .*{message}"):
        load_config(None, {"trl": {option: value}})


@pytest.mark.parametrize("option, value", [("num_iterations", 2), ("steps_per_generation", None),
                                           ("epsilon_high", 0.28), ("min_p", 0.05)])
def test_workable_values_pass(option, value):
    assert load_config(None, {"trl": {option: value}}).trl == {option: value}


@pytest.mark.parametrize("loss_type, trl_options", [
    ("cispo", {"epsilon_high": 5.0}),  # CISPO clips the weight at epsilon_high (MiniMax-M1)
    ("sapo", {}),
    ("luspo", {"importance_sampling_level": "sequence"}),
    ("vespo", {}),
])
def test_one_real_grpo_step_with_each_newer_trl_loss(tmp_path, monkeypatch, loss_type,
                                                     trl_options):
    job = _tiny_job(monkeypatch, tmp_path)
    trainers = _record_trainers(monkeypatch)
    report = job.run(_tiny_config(tmp_path / "run", loss_type=loss_type, trl=trl_options))
    assert report["meta"]["optimizer_steps"] == 1
    (trainer,) = trainers
    assert trainer.args.loss_type == trainer.loss_type == loss_type
