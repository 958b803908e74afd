"""Checks of the settings that name a backend or a tracker, run when a config loads.

`check_mlx_backend` refuses a `backend: mlx` config that the MLX trainer cannot run (how
the settings then map onto mlx-lm-lora is `rlvr.train.mlx.settings`); `check_report_to`
normalises `report_to` against the trackers transformers supports (how rlvr sets them up is
`rlvr.train.trackers`). Both live here, under training, because `TrainConfig` runs them
before any data or model loads.
"""

from __future__ import annotations

import difflib
import importlib.util
from typing import Any

from rlvr.errors import ConfigError

MLX_MODULES = {"mlx": "mlx", "mlx_lm": "mlx-lm", "mlx_lm_lora": "mlx-lm-lora"}
MLX_PIP = ("pip install -e '.[mlx]' (or: pip install 'mlx[cpu]==0.32.4' mlx-lm==0.32.2 "
           "mlx-lm-lora==5.10.2; plain `mlx` on Apple silicon)")

# TRL loss_type -> mlx-lm-lora grpo_loss_type. "dapo" (token mean over the whole generation
# batch) is mlx-lm-lora's "bnpo": one MLX iteration is one optimizer step over all
# completions, and its micro-batches are weighted by their share of the step's tokens.
LOSS_TYPES = {"grpo": "grpo", "bnpo": "bnpo", "dapo": "bnpo", "dr_grpo": "dr_grpo"}
SCHEDULES = ("cosine", "linear", "constant", "constant_with_warmup")

# tracker name -> the module it needs (import name, pip name); names transformers supports.
TRACKERS = {
    "tensorboard": ("tensorboard", "tensorboard"), "wandb": ("wandb", "wandb"),
    "trackio": ("trackio", "trackio"), "mlflow": ("mlflow", "mlflow"),
    "comet_ml": ("comet_ml", "comet-ml"), "clearml": ("clearml", "clearml"),
    "dvclive": ("dvclive", "dvclive"), "swanlab": ("swanlab", "swanlab"),
    "neptune": ("neptune", "neptune"), "azure_ml": ("azureml", "azureml-core"),
    "codecarbon": ("codecarbon", "codecarbon"),
}


def check_mlx_backend(cfg: Any, find_spec=None) -> None:
    """Refuse a `backend: mlx` config that cannot run (called by TrainConfig on load).

    Args:
        cfg: a TrainConfig (read only).
        find_spec: module lookup (default `importlib.util.find_spec`; tests pass a
            stand-in).
    Raises:
        ConfigError: a missing package (the message has the pip line), or a setting the MLX
            trainer does not implement (the message says what to set instead), `trl:`
            options among them.
    """
    find_spec = find_spec or importlib.util.find_spec
    missing = [pip for module, pip in MLX_MODULES.items() if find_spec(module) is None]
    if missing:
        raise ConfigError(f"backend: mlx needs {', '.join(missing)}; install with {MLX_PIP}, "
                          "or set backend: trl")
    if cfg.loss_type not in LOSS_TYPES:
        raise ConfigError(f"backend: mlx supports loss_type {', '.join(LOSS_TYPES)}, not "
                          f"{cfg.loss_type!r}")
    if cfg.scale_rewards != "group":
        raise ConfigError("backend: mlx scales advantages by the group std only (mlx-lm-lora); "
                          "set scale_rewards: group or backend: trl")
    if cfg.lr_scheduler_type not in SCHEDULES:
        raise ConfigError(f"backend: mlx supports lr_scheduler_type {', '.join(SCHEDULES)}, "
                          f"not {cfg.lr_scheduler_type!r}")
    unsupported = {"curriculum": cfg.curriculum,
                   "mask_zero_std_groups": getattr(cfg, "mask_zero_std_groups", False),
                   "use_vllm": getattr(cfg, "use_vllm", False),
                   "quantization": getattr(cfg, "quantization", "none") != "none"}
    for key, on in unsupported.items():
        if on:
            raise ConfigError(f"backend: mlx does not support {key}; turn it off or set "
                              "backend: trl")
    if getattr(cfg, "trl", None):
        raise ConfigError(f"trl: {', '.join(map(str, cfg.trl))}: trl.GRPOConfig options, "
                          "which backend: mlx does not read; remove trl: or set backend: trl")


def check_report_to(report_to: Any, check_installed: bool = True) -> list[str]:
    """Normalise and check `report_to`.

    Args:
        report_to: a tracker name, a comma-separated string, a list of names, or
            "none"/None/[] for no tracker.
        check_installed: also check that each tracker's package can be imported.
    Returns:
        The tracker names as a list ([] for none).
    Raises:
        ConfigError: an unknown name (with the closest match), "all" (it would report to
            every installed tracker, some online), or a tracker whose package is missing
            (with the pip command and `report_to: none`).
    """
    if report_to is None:
        return []
    names = report_to.split(",") if isinstance(report_to, str) else report_to
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ConfigError(f"report_to must be a tracker name or a list of names such as "
                          f"[tensorboard], got {report_to!r}")
    names = [n.strip() for n in names if n.strip() and n.strip() != "none"]
    for name in names:
        if name == "all":
            raise ConfigError("report_to: 'all' would report to every installed tracker, "
                              "some of them online; name them, e.g. [tensorboard, wandb]")
        if name not in TRACKERS:
            close = difflib.get_close_matches(name, TRACKERS, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise ConfigError(f"report_to: unknown tracker {name!r}{hint} Known: "
                              f"{', '.join(sorted(TRACKERS))}, none")
        module, package = TRACKERS[name]
        if check_installed and importlib.util.find_spec(module) is None:
            raise ConfigError(f"report_to: {name} needs the {package!r} package, which is "
                              f"not installed; run `pip install {package}` or set "
                              f"report_to: none (metrics.jsonl is written either way)")
    return list(dict.fromkeys(names))
