"""Load a Hugging Face model folder in MLX, add LoRA, generate greedily (mlx imported inside).

Why `mlx_model_config` exists: transformers 5 writes the RoPE base of a Llama model as
`rope_parameters: {rope_theta: ..., rope_type: default}` in `config.json` (the folder that
`rlvr.models.resolve_model(None)` converts from the GGUF has only that form). mlx-lm 0.32's
`llama.ModelArgs` reads `rope_theta` and silently ignores `rope_parameters`, so it falls back
to its default base 10000 instead of SmolLM2's 100000: every position is rotated at the
wrong frequencies and the model, loaded without any error, writes fluent but unrelated
text (French, for the default model). Passing `rope_theta` (and a non-default
`rope_scaling`) from `rope_parameters` as `model_config` fixes it; `load_mlx` does this for
every folder.
"""

from __future__ import annotations

import ctypes
import json
import logging
import os
import sys
from pathlib import Path
from typing import Any

from rlvr.errors import ModelNotFoundError

logger = logging.getLogger(__name__)

# Debian/Ubuntu's OpenBLAS builds of the reference BLAS interface (apt libopenblas0-pthread).
SYSTEM_BLAS = ("/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3",
               "/usr/lib/aarch64-linux-gnu/openblas-pthread/libblas.so.3")


def use_system_blas(candidates: tuple[str, ...] = SYSTEM_BLAS) -> str | None:
    """On Linux, make MLX's CPU matmuls use the system's OpenBLAS instead of the reference
    BLAS its wheel bundles (measured on 2 cores, one thread: 5.5 -> 97 GFLOP/s for fp32
    512^3). Loads the library with RTLD_GLOBAL before mlx is imported, so the dynamic
    linker resolves mlx's `cblas_*` symbols to it. Off with RLVR_MLX_BLAS=bundled; a no-op
    on other systems, when mlx is already imported, or when no candidate exists.

    Returns:
        the library loaded, or None.
    """
    if (not sys.platform.startswith("linux") or "mlx.core" in sys.modules
            or os.environ.get("RLVR_MLX_BLAS", "system") == "bundled"):
        return None
    for path in candidates:
        if os.path.isfile(path):
            ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
            logger.info("mlx: CPU matmuls through %s (RLVR_MLX_BLAS=bundled turns this off)",
                        path)
            return path
    logger.info("mlx: using the reference BLAS bundled with mlx (slow on CPU); "
                "`apt-get install libopenblas0-pthread` makes MLX's CPU matmuls ~15x faster")
    return None


def mlx_model_config(model_dir: str | Path) -> dict[str, Any]:
    """Config overrides mlx-lm needs for a transformers-5 `config.json` (see module doc).

    Returns:
        {"rope_theta": ...} (and "rope_scaling" for a non-default rope_type) when the
        config has `rope_parameters` but no top-level `rope_theta`; else {}.
    Raises:
        ModelNotFoundError: the folder has no config.json.
    """
    path = Path(model_dir) / "config.json"
    if not path.is_file():
        raise ModelNotFoundError(f"{model_dir} has no config.json; pass a Hugging Face model "
                                 "folder (rlvr.models.resolve_model gives one)")
    config = json.loads(path.read_text(encoding="utf-8"))
    rope = config.get("rope_parameters")
    if not isinstance(rope, dict) or "rope_theta" in config:
        return {}
    out: dict[str, Any] = {}
    if "rope_theta" in rope:
        out["rope_theta"] = rope["rope_theta"]
    if rope.get("rope_type", "default") != "default" and config.get("rope_scaling") is None:
        out["rope_scaling"] = {k: v for k, v in rope.items() if k != "rope_theta"}
    return out


def load_mlx(model_dir: str | Path, adapter_dir: str | Path | None = None):
    """Load a local Hugging Face model folder with mlx-lm (float32 weights stay float32).

    Args:
        model_dir: folder with config.json, safetensors weights and tokenizer files.
        adapter_dir: optional mlx-lm adapter folder (adapters.safetensors + config).
    Returns:
        (model, tokenizer): mlx-lm's model and `TokenizerWrapper`.
    """
    use_system_blas()
    from mlx_lm import load

    return load(str(model_dir), model_config=mlx_model_config(model_dir),
                adapter_path=str(adapter_dir) if adapter_dir else None)


def block_linear_names(model) -> list[str]:
    """Names of the linear layers inside one transformer block, e.g. "self_attn.q_proj"."""
    import mlx.nn as nn

    return sorted(name for name, module in model.layers[0].named_modules()
                  if isinstance(module, (nn.Linear, nn.QuantizedLinear)))


def add_lora(model, lora: dict[str, Any]) -> dict[str, Any]:
    """Freeze `model` and wrap the block linears `lora["keys"]` of every block with LoRA.

    Args:
        lora: {"rank", "scale", "dropout", "keys"} (`rlvr.train.mlx.settings`).
    Returns:
        the mlx-lm adapter config entry {"lora_parameters": lora, "num_layers": n}.
    """
    from mlx_lm.tuner.utils import linear_to_lora_layers

    model.freeze()
    num_layers = len(model.layers)
    linear_to_lora_layers(model, num_layers, dict(lora))
    return {"lora_parameters": dict(lora), "num_layers": num_layers}


def greedy_ids(model, prompt_ids: list[int], max_new_tokens: int,
               stop_ids: set[int] | None = None) -> list[int]:
    """Greedy continuation of one prompt with mlx-lm's `generate_step` (argmax sampler).

    Returns:
        the new token ids, up to and including the first of `stop_ids`.
    """
    import mlx.core as mx
    from mlx_lm.generate import generate_step

    out = []
    for token, _ in generate_step(mx.array(prompt_ids), model, max_tokens=max_new_tokens,
                                  sampler=lambda logprobs: mx.argmax(logprobs, axis=-1)):
        out.append(int(token))
        if stop_ids and out[-1] in stop_ids:
            break
    return out
