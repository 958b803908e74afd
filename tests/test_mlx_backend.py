"""backend: mlx without MLX: config errors, settings mapping, rows, rewards, adapter conversion.

Everything here is pure Python (numpy and safetensors for the adapter files); the tests that
load a model under MLX are in test_mlx_slow.py.
"""

from __future__ import annotations

import importlib.util
import json

import numpy as np
import pytest

from rlvr.config import load_config
from rlvr.errors import ConfigError, RlvrError
from rlvr.rewards import make_trl_rewards
from rlvr.train.mlx.adapter import peft_config, peft_tensors, to_peft, write_mlx_config
from rlvr.train.mlx.backend import MetricSink, log_record
from rlvr.train.mlx.model import mlx_model_config
from rlvr.train.mlx.rows import answer_text, fill_unscored, mlx_reward, mlx_rows
from rlvr.config.backends import check_mlx_backend
from rlvr.train.mlx.settings import (grpo_kwargs, lora_keys,
                                     lora_parameters, lr_factor, total_steps, warmup_steps)

HAVE_MLX = all(importlib.util.find_spec(m) for m in ("mlx", "mlx_lm", "mlx_lm_lora"))
BLOCK = ["mlp.down_proj", "mlp.gate_proj", "mlp.up_proj", "self_attn.k_proj",
         "self_attn.o_proj", "self_attn.q_proj", "self_attn.v_proj"]


# --- config --------------------------------------------------------------------------------

def test_backend_defaults_to_trl_and_rejects_unknown_names():
    assert load_config(None).backend == "trl"
    with pytest.raises(ConfigError, match="backend must be trl or mlx, not 'jax'"):
        load_config(None, {"backend": "jax"})


def test_missing_mlx_packages_give_the_pip_line(monkeypatch):
    real = importlib.util.find_spec

    def without_lora(name, *args):
        return None if name == "mlx_lm_lora" else real(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", without_lora)
    with pytest.raises(ConfigError) as err:
        load_config(None, {"backend": "mlx"})
    message = str(err.value)
    # names mlx-lm-lora (and mlx, mlx-lm too on a machine without the extra)
    assert message.startswith("backend: mlx needs ") and "mlx-lm-lora" in message
    assert "pip install" in message
    assert "\n" not in message  # one line


@pytest.mark.skipif(not HAVE_MLX, reason="mlx, mlx-lm, mlx-lm-lora not installed")
def test_mlx_backend_loads_when_installed():
    assert load_config(None, {"backend": "mlx"}).backend == "mlx"


@pytest.mark.parametrize("override, fix", [
    ({"scale_rewards": "batch"}, "set scale_rewards: group"),
    ({"curriculum": True}, "does not support curriculum"),
    ({"mask_zero_std_groups": True}, "does not support mask_zero_std_groups"),
    ({"lr_scheduler_type": "polynomial"}, "lr_scheduler_type"),
])
def test_settings_the_mlx_trainer_cannot_honour_are_refused(override, fix):
    cfg = load_config(None, override)  # valid for TRL
    with pytest.raises(ConfigError, match=fix):
        check_mlx_backend(cfg, find_spec=lambda name: object())


# --- settings mapping ------------------------------------------------------------------------

def test_grpo_kwargs_set_every_risky_default():
    cfg = load_config(None, {"per_device_train_batch_size": 4, "gradient_accumulation_steps": 4,
                             "num_generations": 4, "max_steps": 20, "loss_type": "dapo"})
    kw = grpo_kwargs(cfg, num_rows=40, max_prompt_tokens=300, reward_weights=[1.0],
                     adapter_file="a.safetensors")
    assert kw["batch_size"] == 4  # 4 x 4 completions / G 4 = 4 prompts per step
    assert (kw["group_size"], kw["iters"], kw["gradient_accumulation_steps"]) == (4, 20, 1)
    assert kw["epsilon"] == kw["epsilon_high"] == 0.2  # not mlx-lm-lora's 1e-4
    assert (kw["top_k"], kw["top_p"], kw["min_p"]) == (0, 1.0, 0.0)  # not 20 / 0.95
    assert kw["grpo_loss_type"] == "bnpo"  # dapo = token mean over the whole step
    assert kw["max_seq_length"] == 300  # the longest prompt: nothing is cut
    assert (kw["beta"], kw["temperature"], kw["max_completion_length"]) == (0.1, 0.7, 128)


def test_steps_from_epochs():
    cfg = load_config(None, {"per_device_train_batch_size": 4, "gradient_accumulation_steps": 4,
                             "num_generations": 4, "num_train_epochs": 1.5})
    assert total_steps(cfg, 40) == 15  # ceil(1.5 x 40 / 4 prompts) = 15
    assert total_steps(cfg, 3) == 2    # ceil(1.5 x 3 / 4) = ceil(1.125) = 2
    assert warmup_steps(cfg, 15) == 1  # ceil(0.05 x 15) = ceil(0.75) = 1


def test_lr_factor_follows_transformers():
    # warmup 1, total 3: step 0 -> 0/1 = 0; cosine: p = (s - 1) / 2
    assert lr_factor(0, "cosine", 1, 3) == 0.0
    assert lr_factor(1, "cosine", 1, 3) == pytest.approx(1.0)   # p 0: 0.5 (1 + cos 0)
    assert lr_factor(2, "cosine", 1, 3) == pytest.approx(0.5)   # p 0.5: 0.5 (1 + cos pi/2)
    assert lr_factor(2, "linear", 1, 3) == pytest.approx(0.5)   # (3 - 2) / (3 - 1)
    assert lr_factor(0, "constant", 1, 3) == 1.0                # no warm-up
    assert lr_factor(0, "constant_with_warmup", 2, 3) == 0.0
    assert lr_factor(1, "constant_with_warmup", 2, 3) == 0.5    # 1 / 2


def test_lora_scale_is_alpha_over_r_and_targets_match_like_peft():
    cfg = load_config(None, {"lora_r": 8, "lora_alpha": 16, "lora_dropout": 0.1})
    assert lora_parameters(cfg) == {"rank": 8, "scale": 2.0, "dropout": 0.1}  # 16 / 8
    assert lora_keys(cfg, BLOCK) == BLOCK  # all-linear
    picked = load_config(None, {"lora_target_modules": ["q_proj", "v_proj"]})
    assert lora_keys(picked, BLOCK) == ["self_attn.q_proj", "self_attn.v_proj"]
    bad = load_config(None, {"lora_target_modules": ["qproj"]})
    with pytest.raises(ConfigError, match="'qproj' matches no linear layer"):
        lora_keys(bad, BLOCK)


# --- rows and rewards ------------------------------------------------------------------------

COLUMNS = {
    "prompt": [[{"role": "user", "content": "Capital of France?"}],
               [{"role": "user", "content": "What will I dream tonight?"}]],
    "expected_answer": [["Paris", "City of Light"], None],
    "is_unanswerable": [False, True],
    "final_answer": ["Paris", None],  # a reward field training_columns adds (any name)
}


def _rows():
    return mlx_rows(COLUMNS, render=lambda p: "<" + p[-1]["content"] + ">",
                    encode=lambda text: [ord(c) for c in text])


def test_rows_have_mlx_lm_lora_layout():
    rows = _rows()
    assert len(rows) == 2 and all(len(r) == 5 for r in rows)
    tokens, answer_tokens, prompt_text, gold, info = rows[0]
    assert prompt_text == "<Capital of France?>"
    assert tokens == [ord(c) for c in "<Capital of France?>"]
    assert gold == "Paris | City of Light" and answer_tokens[:5] == [ord(c) for c in "Paris"]
    assert info["_type"] == "answerable" and info["expected_answer"] == ["Paris", "City of Light"]
    assert rows[1][3] == "" and rows[1][1] == [] and rows[1][4]["_type"] == "unanswerable"
    assert answer_text(None) == "" and answer_text(["7"]) == "7"


def test_rows_refuse_uneven_columns():
    with pytest.raises(RlvrError, match="differ in length"):
        mlx_rows({**COLUMNS, "is_unanswerable": [False]}, str, lambda t: [1])


def _expand(rows, group_size):
    """What mlx-lm-lora hands each reward: every row's fields repeated G times in a row."""
    return {"prompts": [r[2] for r in rows for _ in range(group_size)],
            "answer": [r[3] for r in rows for _ in range(group_size)],
            "types": [r[4] for r in rows for _ in range(group_size)]}


def test_selfaware_reward_scores_mlx_rows_as_under_trl():
    funcs, _ = make_trl_rewards([{"name": "selfaware", "preset": "strict"}])
    reward = mlx_reward(funcs[0], group_size=2)
    assert reward.__name__ == "selfaware"
    completions = ["Paris.", "I don't know.", "I don't know.", "You will dream of cats."]
    # strict table: correct +1.0, abstained on answerable -0.5,
    # abstained on unanswerable +1.0, answered unanswerable -1.0
    assert reward(completions=completions, **_expand(_rows(), 2)) == [1.0, -0.5, 1.0, -1.0]


def test_unscored_samples_get_their_group_mean():
    # G 3: [1.0, None, -0.5] -> None becomes (1.0 - 0.5) / 2 = 0.25 (advantage 0);
    # an all-None group -> 0.0 (zero spread); NaN is treated like None
    assert fill_unscored([1.0, None, -0.5, None, None, float("nan")], 3) == \
        [1.0, 0.25, -0.5, 0.0, 0.0, 0.0]
    with pytest.raises(RlvrError, match="groups of 4"):
        fill_unscored([1.0, 2.0, 3.0], 4)


def test_reward_wrapper_passes_columns_and_fills_none():
    seen = {}

    def fake(completions, **kwargs):
        seen.update(kwargs)
        return [1.0, None, None, None]

    sink = MetricSink()
    reward = mlx_reward(fake, group_size=2, encode=lambda t: [len(t)], log_metric=sink)
    assert reward(completions=["ab", "c", "d", "e"], **_expand(_rows(), 2)) == [1.0, 1.0, 0.0, 0.0]
    assert seen["expected_answer"][0] == ["Paris", "City of Light"]
    assert seen["is_unanswerable"] == [False, False, True, True]
    assert seen["final_answer"] == ["Paris", "Paris", None, None]
    assert "_type" not in seen and "prompt" not in seen
    assert seen["prompts"][0] == COLUMNS["prompt"][0]  # chat messages, as TRL passes them
    assert seen["completion_ids"] == [[2], [1], [1], [1]]
    assert seen["log_metric"] is sink


def test_reward_wrapper_refuses_rows_out_of_group_order():
    funcs, _ = make_trl_rewards([{"name": "selfaware"}])
    reward = mlx_reward(funcs[0], group_size=2)
    rows = _rows()
    mixed = {"prompts": ["a"] * 4, "answer": [""] * 4,
             "types": [rows[0][4], rows[1][4], rows[0][4], rows[1][4]]}
    with pytest.raises(RlvrError, match="groups of 2"):
        reward(completions=["x"] * 4, **mixed)
    with pytest.raises(RlvrError, match="row columns travel"):
        reward(prompts=["a"], completions=["x"], answer=[""], types=["answerable"])


# --- logs --------------------------------------------------------------------------------------

def test_log_record_uses_trl_names_and_sink_means():
    record = log_record({"iteration": 2, "train_loss": 0.5, "train_total_rewards_mean": 0.25,
                         "train_selfaware_mean": 0.25, "train_kl": 0.0,
                         "train_hit_max_tokens_ratio": 0.5, "iterations_per_second": 0.25,
                         "train_grouped_rewards_std": 0.1}, ["selfaware"])
    assert record["step"] == 2 and record["loss"] == 0.5 and record["reward"] == 0.25
    assert record["rewards/selfaware/mean"] == 0.25
    assert record["completions/clipped_ratio"] == 0.5
    assert record["seconds_per_step"] == 4.0  # 1 / 0.25 it/s
    assert record["mlx/grouped_rewards_std"] == 0.1
    sink = MetricSink()
    sink("calibration/hedge_rate", 0.5)
    sink("calibration/hedge_rate", 0.0)
    assert sink.drain() == {"calibration/hedge_rate": 0.25} and sink.drain() == {}


# --- model config and adapter conversion -------------------------------------------------------

def test_transformers5_rope_parameters_become_rope_theta(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps(
        {"model_type": "llama", "rope_parameters": {"rope_theta": 100000.0,
                                                    "rope_type": "default"}}))
    assert mlx_model_config(tmp_path) == {"rope_theta": 100000.0}
    (tmp_path / "config.json").write_text(json.dumps({"rope_theta": 5e5}))
    assert mlx_model_config(tmp_path) == {}


def test_adapter_tensors_are_transposed_and_scale_becomes_alpha():
    # in 2, r 1, out 3: A (2, 1), B (1, 3), scale 2
    a = np.array([[1.0], [2.0]], dtype=np.float32)
    b = np.array([[3.0, 4.0, 5.0]], dtype=np.float32)
    tensors, modules = peft_tensors({"model.layers.0.self_attn.q_proj.lora_a": a,
                                     "model.layers.0.self_attn.q_proj.lora_b": b})
    assert modules == ["model.layers.0.self_attn.q_proj"]
    pa = tensors["base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight"]
    pb = tensors["base_model.model.model.layers.0.self_attn.q_proj.lora_B.weight"]
    assert pa.shape == (1, 2) and pb.shape == (3, 1)
    config = peft_config(modules, rank=1, scale=2.0, dropout=0.0)
    assert config["lora_alpha"] == 2 and config["r"] == 1
    x = np.array([1.0, 1.0], dtype=np.float32)
    mlx_delta = 2.0 * (x @ a) @ b                                          # s (x A) B
    peft_delta = (config["lora_alpha"] / config["r"]) * (pb @ (pa @ x))    # alpha/r B' A' x
    # x A = 1 + 2 = 3; 3 B = [9, 12, 15]; times 2 = [18, 24, 30]
    assert mlx_delta.tolist() == peft_delta.tolist() == [18.0, 24.0, 30.0]


def test_adapter_conversion_refuses_non_lora_tensors():
    with pytest.raises(RlvrError, match="not an mlx-lm LoRA tensor"):
        peft_tensors({"model.layers.0.self_attn.q_proj.m": np.zeros((2,), np.float32)})
    with pytest.raises(RlvrError, match="incomplete"):
        peft_tensors({"model.layers.0.mlp.up_proj.lora_a": np.zeros((2, 1), np.float32)})


def test_to_peft_writes_a_folder_peft_reads(tmp_path):
    from safetensors.numpy import load_file, save_file

    mlx_dir = tmp_path / "adapter_mlx"
    mlx_dir.mkdir()
    rng = np.random.default_rng(0)
    weights = {"model.layers.0.mlp.up_proj.lora_a": rng.normal(size=(4, 2)).astype(np.float32),
               "model.layers.0.mlp.up_proj.lora_b": rng.normal(size=(2, 6)).astype(np.float32)}
    save_file(weights, str(mlx_dir / "adapters.safetensors"))
    write_mlx_config(mlx_dir, {"rank": 2, "scale": 0.5, "dropout": 0.05,
                               "keys": ["mlp.up_proj"]}, num_layers=1)
    out = to_peft(mlx_dir, tmp_path / "adapter", base_model="m")
    config = json.loads((out / "adapter_config.json").read_text())
    assert (config["r"], config["lora_alpha"], config["lora_dropout"]) == (2, 1, 0.05)  # 0.5 x 2
    assert config["target_modules"] == ["model.layers.0.mlp.up_proj"]
    saved = load_file(str(out / "adapter_model.safetensors"))
    np.testing.assert_array_equal(
        saved["base_model.model.model.layers.0.mlp.up_proj.lora_B.weight"],
        weights["model.layers.0.mlp.up_proj.lora_b"].T)
    pytest.importorskip("peft")
    from peft import LoraConfig

    loaded = LoraConfig.from_pretrained(str(out))
    assert loaded.r == 2 and loaded.lora_alpha == 1
