"""MLX LoRA adapters <-> PEFT adapters (numpy and safetensors only; no mlx, no torch).

mlx-lm's `LoRALinear` computes y = W x + s (dropout(x) A) B with A of shape (in, r), B of
shape (r, out) and scale s; PEFT's LoRA computes y = W x + (alpha / r) B' A' dropout(x) with
`lora_A.weight` A' of shape (r, in) and `lora_B.weight` B' of shape (out, r). So
A' = A^T, B' = B^T and alpha = s r reproduce the same function exactly (PEFT's scaling
alpha / r = s). Module names are the same on both sides for mlx-lm models that load
Hugging Face weights as they are (e.g. `model.layers.0.self_attn.q_proj`); PEFT stores
them under `base_model.model.`.

An mlx-lm adapter folder holds `adapters.safetensors` (keys `<module>.lora_a` /
`<module>.lora_b`) and `adapter_config.json` (`fine_tune_type`, `num_layers`,
`lora_parameters` {rank, scale, dropout, keys}); `mlx_lm.load(model, adapter_path=...)`
reads it. `to_peft(mlx_dir, peft_dir)` writes `adapter_config.json` +
`adapter_model.safetensors` that `peft.PeftModel.from_pretrained` (and so `rlvr eval
--adapter`) loads.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rlvr.errors import RlvrError
from rlvr.io import write_folder

MLX_WEIGHTS = "adapters.safetensors"
MLX_CONFIG = "adapter_config.json"
PEFT_WEIGHTS = "adapter_model.safetensors"
PEFT_PREFIX = "base_model.model."


def write_mlx_config(folder: str | Path, lora: dict[str, Any], num_layers: int) -> Path:
    """Write mlx-lm's `adapter_config.json` (lora: rank, scale, dropout, keys)."""
    path = Path(folder) / MLX_CONFIG
    path.write_text(json.dumps({"fine_tune_type": "lora", "num_layers": num_layers,
                                "lora_parameters": lora}, indent=2), encoding="utf-8")
    return path


def peft_tensors(weights: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Map mlx-lm LoRA tensors to PEFT's names and layout.

    Args:
        weights: {"<module>.lora_a": (in, r), "<module>.lora_b": (r, out)} numpy arrays.
    Returns:
        ({"base_model.model.<module>.lora_A.weight": (r, in), "...lora_B.weight": (out, r)},
        sorted module names).
    Raises:
        RlvrError: a key that is not a LoRA tensor, a module with only one of A and B, or
            shapes that do not chain (A's r != B's r).
    """
    import numpy as np

    modules: dict[str, dict[str, Any]] = {}
    for key, value in weights.items():
        module, _, leaf = key.rpartition(".")
        if leaf not in ("lora_a", "lora_b") or not module:
            raise RlvrError(f"{key!r} is not an mlx-lm LoRA tensor (<module>.lora_a|lora_b); "
                            "DoRA and full fine-tunes cannot become PEFT LoRA adapters")
        modules.setdefault(module, {})[leaf] = value
    out = {}
    for module, pair in sorted(modules.items()):
        if set(pair) != {"lora_a", "lora_b"}:
            raise RlvrError(f"module {module!r} has only {sorted(pair)}; the adapter is "
                            "incomplete")
        a, b = pair["lora_a"], pair["lora_b"]
        if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[0]:
            raise RlvrError(f"module {module!r}: lora_a {a.shape} and lora_b {b.shape} do not "
                            "chain as (in, r) x (r, out)")
        out[f"{PEFT_PREFIX}{module}.lora_A.weight"] = np.ascontiguousarray(a.T)
        out[f"{PEFT_PREFIX}{module}.lora_B.weight"] = np.ascontiguousarray(b.T)
    return out, sorted(modules)


def peft_config(modules: list[str], rank: int, scale: float, dropout: float,
                base_model: str | None = None) -> dict[str, Any]:
    """PEFT `adapter_config.json` for exactly these modules; lora_alpha = scale x rank
    (an int when it is whole), so PEFT's alpha / r equals mlx-lm's scale."""
    alpha = scale * rank
    return {
        "peft_type": "LORA", "task_type": "CAUSAL_LM", "r": rank,
        "lora_alpha": int(alpha) if float(alpha).is_integer() else alpha,
        "lora_dropout": dropout, "target_modules": modules, "bias": "none",
        "fan_in_fan_out": False, "inference_mode": True, "use_rslora": False,
        "use_dora": False, "init_lora_weights": True, "modules_to_save": None,
        "base_model_name_or_path": base_model,
    }


def to_peft(mlx_dir: str | Path, peft_dir: str | Path, base_model: str | None = None) -> Path:
    """Convert an mlx-lm LoRA adapter folder into a PEFT adapter folder (atomically).

    Args:
        mlx_dir: folder with `adapters.safetensors` and `adapter_config.json`.
        peft_dir: output folder (replaced if it exists).
        base_model: recorded as `base_model_name_or_path`.
    Returns:
        peft_dir as a Path.
    Raises:
        RlvrError: missing files, a non-LoRA adapter, or mismatched tensors.
    """
    from safetensors.numpy import load_file, save_file

    mlx_dir, peft_dir = Path(mlx_dir), Path(peft_dir)
    for name in (MLX_WEIGHTS, MLX_CONFIG):
        if not (mlx_dir / name).is_file():
            raise RlvrError(f"{mlx_dir / name} is missing; pass the folder the MLX backend "
                            "wrote (RUN_DIR/adapter_mlx)")
    config = json.loads((mlx_dir / MLX_CONFIG).read_text(encoding="utf-8"))
    if config.get("fine_tune_type", "lora") != "lora":
        raise RlvrError(f"{mlx_dir}: fine_tune_type {config['fine_tune_type']!r} cannot become "
                        "a PEFT LoRA adapter")
    lora = config["lora_parameters"]
    tensors, modules = peft_tensors(load_file(str(mlx_dir / MLX_WEIGHTS)))
    rank = next(iter(tensors.values())).shape[0] if tensors else lora["rank"]
    if rank != lora["rank"]:
        raise RlvrError(f"{mlx_dir}: tensors have rank {rank}, the config says {lora['rank']}")
    def fill(tmp: Path) -> None:
        save_file(tensors, str(tmp / PEFT_WEIGHTS), metadata={"format": "pt"})
        (tmp / "adapter_config.json").write_text(json.dumps(peft_config(
            modules, rank, float(lora["scale"]), float(lora.get("dropout", 0.0)), base_model),
            indent=2), encoding="utf-8")

    return write_folder(peft_dir, fill)
