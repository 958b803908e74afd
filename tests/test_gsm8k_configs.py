"""The GSM8K recipes: configs/gsm8k_grpo.yaml (GPU) validates here up to
the hardware boundary; configs/gsm8k_grpo_cpu.yaml passes every check before the model."""

from __future__ import annotations

from pathlib import Path

import pytest

from rlvr.config import load_config
from rlvr.errors import ConfigError
from rlvr.hardware import Hardware, check_options

CONFIGS = Path(__file__).resolve().parents[1] / "configs"
CUDA_OFF = {"quantization": "none", "use_vllm": False}


@pytest.fixture(autouse=True)
def _offline(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # the packaged GSM8K subsets, no network
    monkeypatch.delenv("RLVR_DATA_DIR", raising=False)


@pytest.mark.parametrize("name", ["gsm8k_grpo.yaml", "gsm8k_grpo_cpu.yaml"])
def test_both_recipes_train_on_gsm8k_with_the_reference_weights(name):
    cfg = load_config(CONFIGS / name)
    assert cfg.data == "gsm8k" and cfg.reward == "gsm8k_correctness"
    assert [(e["name"], e["weight"]) for e in cfg.reward_funcs] == [
        ("gsm8k_correctness", 1.0), ("gsm8k_format", 0.5)]
    assert cfg.kshot_eval == [0, 2, 4, 8]


def test_gpu_recipe_is_refused_here_only_for_its_cuda_options():
    cfg = load_config(CONFIGS / "gsm8k_grpo.yaml")
    assert (cfg.quantization, cfg.use_vllm, cfg.model) == ("nf4", True,
                                                           "Qwen/Qwen2.5-1.5B-Instruct")
    no_gpu = Hardware(cuda_devices=0, packages=frozenset({"bitsandbytes", "vllm"}))
    with pytest.raises(ConfigError, match=r"quantization: nf4 \(QLoRA\) needs a CUDA GPU"):
        check_options(cfg)  # this machine
    with pytest.raises(ConfigError, match=r"quantization: nf4 \(QLoRA\) needs a CUDA GPU"):
        check_options(cfg, no_gpu)
    # colocated vLLM without CUDA runs vLLM's CPU build (rlvr.train.vllm_cpu)
    check_options(load_config(CONFIGS / "gsm8k_grpo.yaml", {"quantization": "none"}), no_gpu)
    check_options(load_config(CONFIGS / "gsm8k_grpo.yaml", CUDA_OFF))  # passes here
    check_options(cfg, Hardware(cuda_devices=1, bf16=True,
                                packages=frozenset({"bitsandbytes", "vllm"})))


def test_gpu_recipe_data_rewards_and_kshot_pass_before_the_model(tmp_path, monkeypatch):
    from rlvr import io
    from rlvr.errors import ModelNotFoundError
    from rlvr.train.checks import check_before_model

    cfg = load_config(CONFIGS / "gsm8k_grpo.yaml", {**CUDA_OFF,
                                                    "output_dir": str(tmp_path / "run")})
    # the hub id is neither cached nor reachable here: refused at once, with the fix
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(io, "endpoint_unreachable", lambda *a, **k: "no network (test)")
    with pytest.raises(ModelNotFoundError, match="Qwen/Qwen2.5-1.5B-Instruct' is a hub id"):
        check_before_model(cfg)
    # on a machine that has it cached: output dir, model, data, field check, preflight and
    # k-shot data pass; everything but the hardware
    (tmp_path / "hub" / "models--Qwen--Qwen2.5-1.5B-Instruct").mkdir(parents=True)
    check_before_model(cfg)


def test_cpu_recipe_passes_every_check_before_the_model(tmp_path):
    from rlvr.train.checks import check_before_model

    cfg = load_config(CONFIGS / "gsm8k_grpo_cpu.yaml", {"output_dir": str(tmp_path / "run")})
    assert cfg.model is None and cfg.quantization == "none" and not cfg.use_vllm
    check_before_model(cfg)
