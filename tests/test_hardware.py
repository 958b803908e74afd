"""The hardware probe and the CUDA-path options, tested up to the hardware
boundary with stand-in machines."""

from __future__ import annotations

import pytest

from rlvr.config import TrainConfig, load_config
from rlvr.errors import ConfigError
from rlvr.hardware import (Hardware, attn_implementation, check_options, device,
                           model_load_kwargs, use_bf16)

CPU = Hardware()
MAC = Hardware(mps=True)
GPU = Hardware(cuda_devices=1, bf16=True, packages=frozenset({"bitsandbytes", "vllm"}))
GPU_FLASH = Hardware(cuda_devices=8, bf16=True, packages=frozenset({"flash_attn"}))
OLD_GPU = Hardware(cuda_devices=1, bf16=False, packages=frozenset({"bitsandbytes"}))


def test_device_rule():
    assert [device(h) for h in (CPU, MAC, GPU)] == ["cpu", "mps", "cuda"]


def test_bf16_rule():
    assert use_bf16(None, GPU) and not use_bf16(None, CPU) and not use_bf16(None, OLD_GPU)
    assert use_bf16(True, CPU) is True and use_bf16(False, GPU) is False


@pytest.mark.parametrize("hw, half, expected, reason", [
    (CPU, False, "sdpa", "no CUDA GPU"),
    (GPU, True, "sdpa", "flash-attn not installed"),
    (GPU_FLASH, False, "sdpa", "32-bit weights"),
    (GPU_FLASH, True, "flash_attention_2", "flash-attn installed"),
])
def test_attention_choice(hw, half, expected, reason):
    implementation, why = attn_implementation("auto", hw, half)
    assert implementation == expected and reason in why


def test_flash_attention_where_it_cannot_run_is_refused():
    with pytest.raises(ConfigError, match="flash_attention_2 needs a CUDA GPU.*auto"):
        attn_implementation("flash_attention_2", CPU)
    assert attn_implementation("eager", CPU) == ("eager", "set in the config")


@pytest.mark.parametrize("settings, hw, message", [
    ({"quantization": "nf4"}, CPU, "nf4 \\(QLoRA\\) needs a CUDA GPU.*quantization: none"),
    ({"quantization": "nf4"}, GPU_FLASH, "pip install bitsandbytes"),
    ({"use_vllm": True}, CPU, "pip install vllm"),
    ({"use_vllm": True, "vllm_mode": "server"}, Hardware(packages=frozenset({"vllm"})),
     "vllm_mode: server needs a CUDA GPU in the training process.*vllm_mode: colocate"),
    ({"bf16": True}, CPU, "bf16: true needs a GPU"),
    ({"bf16": True}, OLD_GPU, "bf16: true needs a GPU"),
    ({"attn_implementation": "flash_attention_2"}, GPU, "flash-attn package"),
])
def test_cuda_only_options_are_refused_with_the_fix(settings, hw, message):
    with pytest.raises(ConfigError, match=message):
        check_options(TrainConfig(**settings), hw)


def test_options_the_machine_can_run_pass():
    check_options(TrainConfig(quantization="nf4", use_vllm=True), GPU)
    check_options(TrainConfig(use_vllm=True, vllm_mode="server"),
                  Hardware(cuda_devices=1, packages=frozenset({"vllm"})))
    check_options(TrainConfig(), CPU)
    # colocate without CUDA: vLLM's CPU build (rlvr.train.vllm_cpu patches TRL's weight sync)
    check_options(TrainConfig(use_vllm=True), Hardware(packages=frozenset({"vllm"})))


@pytest.mark.parametrize("key, value", [
    ("quantization", "int8"), ("attn_implementation", "flash"), ("vllm_mode", "remote"),
    ("vllm_gpu_memory_utilization", 0.0), ("vllm_gpu_memory_utilization", 1.5),
    ("eval_engine", "sglang"), ("eval_dtype", "float16"),
])
def test_hardware_settings_are_checked_when_the_config_loads(key, value):
    with pytest.raises(ConfigError, match=key):
        load_config(None, {key: value})


def test_load_kwargs_on_cpu_are_fp32_and_sdpa():
    import torch

    assert model_load_kwargs(TrainConfig(), CPU) == {"dtype": torch.float32,
                                                     "attn_implementation": "sdpa"}


def test_load_kwargs_for_qlora(monkeypatch):
    import torch

    monkeypatch.setenv("LOCAL_RANK", "3")
    kwargs = model_load_kwargs(TrainConfig(quantization="nf4"), GPU)
    quant = kwargs["quantization_config"]
    assert quant.load_in_4bit and quant.bnb_4bit_quant_type == "nf4"
    assert quant.bnb_4bit_use_double_quant and quant.bnb_4bit_compute_dtype == torch.bfloat16
    assert kwargs["dtype"] == torch.bfloat16 and kwargs["device_map"] == {"": 3}
    assert kwargs["attn_implementation"] == "sdpa"  # no flash-attn on this stand-in
    older = model_load_kwargs(TrainConfig(quantization="nf4"), OLD_GPU)
    assert older["quantization_config"].bnb_4bit_compute_dtype == torch.float16


def test_this_machine_refuses_qlora_before_any_data_or_model(tmp_path):
    from rlvr.hardware import probe
    from rlvr.train.job import run

    if probe().cuda:
        pytest.skip("this machine has a CUDA GPU")
    cfg = load_config(None, {"quantization": "nf4", "output_dir": str(tmp_path / "run"),
                             "data": str(tmp_path / "missing.jsonl")})
    with pytest.raises(ConfigError, match="needs a CUDA GPU"):  # not a missing-data error
        run(cfg)


def test_vllm_settings_reach_trl(tmp_path):
    from rlvr.train.grpo import grpo_args

    cfg = TrainConfig(use_vllm=True, vllm_mode="server", vllm_server_port=8123,
                      vllm_gpu_memory_utilization=0.5)
    args = grpo_args(cfg, tmp_path)
    assert (args.use_vllm, args.vllm_mode, args.vllm_server_port) == (True, "server", 8123)
    assert args.vllm_gpu_memory_utilization == 0.5
