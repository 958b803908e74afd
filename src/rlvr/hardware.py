"""What this machine can run, probed in one place, and the one device-placement rule.

`probe()` looks once at the accelerators (CUDA and its bf16 support, Apple MPS) and at the
optional packages that need them (bitsandbytes, flash-attn, vLLM, DeepSpeed, MLX). Every
other module asks `probe()` instead of calling `torch.cuda` itself, so tests stand in for
any machine with `Hardware(...)` (or by patching `probe`).

The rules built on it, used by training, evaluation and response collection alike:

| choice | rule |
|---|---|
| device | `cuda` when a CUDA GPU is visible, else `mps` on Apple silicon, else `cpu` |
| dtype | bf16 on a GPU that supports it (or `bf16: true`), else fp32; fp32 on CPU |
| attention | `flash_attention_2` when flash-attn is installed, the device is CUDA and the dtype is 16-bit; else `sdpa`; the choice and its reason are logged |
| `quantization: nf4` | 4-bit NF4 with double quantization and bf16/fp16 compute (QLoRA, Dettmers et al., 2023), through bitsandbytes; CUDA only |
| `use_vllm` | TRL's vLLM generation (`vllm_mode` colocate or server); without CUDA, colocate runs vLLM's CPU build in float32 with the weight sync of `rlvr.train.vllm_cpu` |

A CUDA-only option on a machine without CUDA is a ConfigError that says what is missing
and what to set instead, raised before any model loads (`check_options`).
"""

from __future__ import annotations

import functools
import importlib.util
import logging
import os
from dataclasses import dataclass, field
from typing import Any

from rlvr.errors import ConfigError

logger = logging.getLogger(__name__)

OPTIONAL_PACKAGES = ("bitsandbytes", "flash_attn", "vllm", "deepspeed", "mlx")


@dataclass(frozen=True)
class Hardware:
    """A machine's accelerators and optional packages.

    Attributes:
        cuda_devices: visible CUDA GPUs (0 = none).
        bf16: the GPU supports bfloat16.
        mps: Apple's Metal backend is available.
        packages: the importable optional packages (names from OPTIONAL_PACKAGES).
    """

    cuda_devices: int = 0
    bf16: bool = False
    mps: bool = False
    packages: frozenset = field(default_factory=frozenset)

    @property
    def cuda(self) -> bool:
        """A CUDA GPU is visible."""
        return self.cuda_devices > 0

    def has(self, package: str) -> bool:
        """`package` (an OPTIONAL_PACKAGES name) is installed."""
        return package in self.packages


@functools.lru_cache(maxsize=1)
def probe() -> Hardware:
    """Probe this machine once (imports torch; the packages are only located, not imported)."""
    import torch

    cuda = torch.cuda.device_count() if torch.cuda.is_available() else 0
    mps = bool(getattr(torch.backends, "mps", None) and torch.backends.mps.is_available())
    packages = frozenset(p for p in OPTIONAL_PACKAGES if importlib.util.find_spec(p) is not None)
    hw = Hardware(cuda_devices=cuda, bf16=bool(cuda and torch.cuda.is_bf16_supported()),
                  mps=mps, packages=packages)
    logger.debug("hardware: %s", hw)
    return hw


def available_cores(affinity=None, quota_file: str = "/sys/fs/cgroup/cpu.max") -> int:
    """CPU cores this process may run on: its affinity mask (`os.sched_getaffinity`, which a
    container or `taskset` narrows) capped by a cgroup v2 CPU quota (`cpu.max`: quota /
    period, rounded up), else `os.cpu_count()`; at least 1.

    Args:
        affinity: a set of core ids (default: this process's mask); quota_file: the cgroup
            file to read (missing or "max" = no quota).
    """
    cores = len(affinity if affinity is not None else
                os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity")
                else range(os.cpu_count() or 1))
    try:
        quota, period = open(quota_file, encoding="ascii").read().split()[:2]
        if quota != "max":
            cores = min(cores, -(-int(quota) // int(period)))
    except (OSError, ValueError):
        pass
    return max(1, cores)


def device(hw: Hardware | None = None) -> str:
    """The device models are placed on: "cuda", "mps" or "cpu" (see the module table)."""
    hw = hw or probe()
    return "cuda" if hw.cuda else "mps" if hw.mps else "cpu"


def use_bf16(setting: bool | None, hw: Hardware | None = None) -> bool:
    """bf16 for `bf16: setting` (None = on exactly when a bf16-capable GPU is present)."""
    hw = hw or probe()
    return hw.cuda and hw.bf16 if setting is None else bool(setting)


def attn_implementation(setting: str, hw: Hardware | None = None,
                        half_precision: bool = False) -> tuple[str, str]:
    """Choose the attention kernel: (implementation, reason).

    Args:
        setting: "auto", "sdpa", "eager" or "flash_attention_2".
        half_precision: the model runs in bf16/fp16 (flash attention needs it).
    Raises:
        ConfigError: "flash_attention_2" asked for where it cannot run.
    """
    hw = hw or probe()
    usable = hw.cuda and hw.has("flash_attn") and half_precision
    if setting == "flash_attention_2" and not usable:
        raise ConfigError("attn_implementation: flash_attention_2 needs a CUDA GPU, the "
                          "flash-attn package and bf16/fp16 weights; set attn_implementation: "
                          "auto (sdpa here)")
    if setting != "auto":
        return setting, "set in the config"
    if usable:
        return "flash_attention_2", "flash-attn installed, CUDA, 16-bit weights"
    missing = "no CUDA GPU" if not hw.cuda else "flash-attn not installed" \
        if not hw.has("flash_attn") else "32-bit weights"
    return "sdpa", f"flash attention 2 not used: {missing}"


def check_options(cfg: Any, hw: Hardware | None = None) -> None:
    """Refuse CUDA-only options on a machine that cannot run them, before any model loads.

    Args:
        cfg: a TrainConfig (reads quantization, use_vllm, vllm_mode, bf16,
            attn_implementation).
    Raises:
        ConfigError: naming the option, what is missing and what to set instead.
    """
    hw = hw or probe()
    if cfg.quantization == "nf4":
        if not hw.cuda:
            raise ConfigError("quantization: nf4 (QLoRA) needs a CUDA GPU, and none is visible; "
                              "set quantization: none to train LoRA in full precision")
        if not hw.has("bitsandbytes"):
            raise ConfigError("quantization: nf4 needs bitsandbytes; run `pip install "
                              "bitsandbytes` or set quantization: none")
    if cfg.use_vllm:
        if not hw.has("vllm"):
            raise ConfigError("use_vllm: vLLM is not installed; run `pip install vllm` (CUDA) "
                              "or `bash scripts/install.sh --vllm` (CPU build), or set "
                              "use_vllm: false (transformers generates)")
        if cfg.vllm_mode == "server" and not hw.cuda:
            # TRL 1.16's VLLMClient.init_communicator raises NotImplementedError for a CPU
            # trainer (measured; docs/vllm_cpu.md), after the model has loaded
            raise ConfigError("vllm_mode: server needs a CUDA GPU in the training process: "
                              "TRL pushes the weights to the server over vLLM's NCCL "
                              "weight-transfer engine; without CUDA set vllm_mode: colocate "
                              "(vLLM's CPU build) or use_vllm: false")
    if cfg.bf16 and not (hw.cuda and hw.bf16):
        raise ConfigError("bf16: true needs a GPU with bfloat16 support; set bf16: null "
                          "(automatic) or false")
    attn_implementation(cfg.attn_implementation, hw, half_precision=use_bf16(cfg.bf16, hw)
                        or cfg.quantization == "nf4")


def model_load_kwargs(cfg: Any, hw: Hardware | None = None) -> dict[str, Any]:
    """Keyword arguments for `AutoModelForCausalLM.from_pretrained` under the module rules.

    Returns:
        {"dtype", "attn_implementation"} and, for nf4, "quantization_config" (a
        `transformers.BitsAndBytesConfig`: load_in_4bit, nf4, double quantization, the
        compute dtype) and "device_map" (the process's GPU). Without quantization the
        caller moves the model with `.to(device())` (the Trainer does it in training).
    """
    import torch

    hw = hw or probe()
    half = use_bf16(cfg.bf16, hw)
    dtype = torch.bfloat16 if half else torch.float32
    kwargs: dict[str, Any] = {"dtype": dtype}
    if cfg.quantization == "nf4":
        from transformers import BitsAndBytesConfig

        compute = torch.bfloat16 if hw.bf16 else torch.float16
        kwargs["quantization_config"] = BitsAndBytesConfig(
            load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_use_double_quant=True,
            bnb_4bit_compute_dtype=compute)
        kwargs["dtype"] = compute
        kwargs["device_map"] = {"": _local_rank()}
        half = True
    implementation, reason = attn_implementation(cfg.attn_implementation, hw, half)
    kwargs["attn_implementation"] = implementation
    logger.info("attention: %s (%s); weights %s%s", implementation, reason,
                str(kwargs["dtype"]).replace("torch.", ""),
                ", 4-bit NF4 (QLoRA)" if cfg.quantization == "nf4" else "")
    return kwargs


def _local_rank() -> int:
    return int(os.environ.get("LOCAL_RANK", "0"))


def is_main_process() -> bool:
    """True in a single process and on rank 0 of an `accelerate launch`/`torchrun` job
    (read from the RANK environment variable the launchers set)."""
    return int(os.environ.get("RANK", "0")) == 0
