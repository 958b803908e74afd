"""A full checkpoint as the run's trained model (`trained_model:`, `rlvr eval --trained`).

What comes back from training elsewhere (verl or OpenRLHF after `rlvr handoff`, or a model
merged with `rlvr export --merge`) is a whole transformers folder, not a LoRA adapter. With
`trained_model` set, the main job skips its training stage and loads that folder in its
place; every other stage is the one an adapter run goes through: the same held-out rows
and prompt (system prompt, exemplars), the base model's answers and knowledge labels, the
trained answers, the cross-task check (base and checkpoint as two models) and the verdict.
The report's meta names the checkpoint (`trained_model`) and gives `optimizer_steps: null`
(the steps were taken elsewhere).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from rlvr.errors import ModelNotFoundError
from rlvr.train.state import RunState, Trained
from rlvr.train.trackers import Trackers

logger = logging.getLogger(__name__)


_WEIGHTS = ("*.safetensors", "*.bin", "*.pt", "*.pth")


def check_checkpoint(spec: str) -> None:
    """Refuse a `trained_model` that cannot be a full checkpoint, before any model loads: a
    local path that does not exist, is not a folder, or holds no `config.json` or no weight
    files (`*.safetensors`, `*.bin`, ...); a hub id goes through
    `rlvr.models.check_model_path`.

    Raises:
        ModelNotFoundError: one line naming `trained_model` (`--trained`) and the fix.
    """
    from rlvr.models import check_model_path, is_hub_id

    path = Path(spec).expanduser()
    if not path.exists() and is_hub_id(spec):
        check_model_path(spec)
        return
    fix = ("pass the folder the engine wrote for a step (a transformers folder: config.json "
           "and its weights), or `rlvr export RUN --merge DIR`'s")
    if not path.is_dir():
        raise ModelNotFoundError(f"trained_model (--trained) {spec!r} "
                                 f"{'is not a folder' if path.exists() else 'does not exist'}; "
                                 + fix)
    if not (path / "config.json").is_file():
        raise ModelNotFoundError(f"trained_model (--trained) {spec!r} has no config.json; {fix}")
    if not any(next(path.glob(pattern), None) for pattern in _WEIGHTS):
        raise ModelNotFoundError(f"trained_model (--trained) {spec!r} holds no weight files "
                                 f"({', '.join(_WEIGHTS)}); {fix}")
    if (path / "adapter_config.json").is_file():
        raise ModelNotFoundError(f"trained_model (--trained) {spec!r} is a LoRA adapter, not a "
                                 "full checkpoint: judge it with its run (rlvr report) or merge "
                                 "it first (rlvr export RUN --merge DIR)")


def load_trained_checkpoint(state: RunState) -> Trained:
    """Load `cfg.trained_model` as the run's trained model (eval mode, the base model's dtype
    and device), after checking that it reads the base model's tokens.

    Raises:
        ModelNotFoundError: the checkpoint does not resolve (`rlvr.models.resolve_model`),
            or its vocabulary size differs from the base model's (a checkpoint of another
            model: its answers would be read with the wrong tokenizer).
    """
    from transformers import AutoConfig

    from rlvr.models import load_for_training, resolve_model

    cfg = state.cfg
    path = resolve_model(cfg.trained_model)
    base_vocab = _vocab_size(AutoConfig.from_pretrained(state.model_path))
    vocab = _vocab_size(AutoConfig.from_pretrained(path))
    if base_vocab is not None and vocab is not None and base_vocab != vocab:
        raise ModelNotFoundError(
            f"trained_model {cfg.trained_model!r} has a vocabulary of {vocab} tokens, the base "
            f"model {state.model_path!r} {base_vocab}: it is not a checkpoint of that model; "
            "set model to the model it was trained from")
    state.train, state.train_counts = [], None  # no training rows: nothing is trained here
    if state.evaluation.cross_eval is not None:  # it needs an adapter folder
        logger.warning("eval_tasks: not run for a trained_model checkpoint (no adapter); run "
                       "rlvr eval --model %s --tasks %s", cfg.trained_model,
                       ",".join(state.evaluation.cross_eval.tasks))
    model = load_for_training(path, cfg)
    model.eval()
    return Trained(model=model, adapter_dir=None, steps=None, training_loss=None, main=True,
                   digests=[], interrupted=False, alarms=[], curriculum=None,
                   run_name=cfg.run_name or state.run_dir.name,
                   trackers=Trackers([], state.run_dir, "", cfg.reward), method="checkpoint")


def _vocab_size(config: Any) -> int | None:
    """The vocabulary size a model config declares (its text config's for multimodal ones)."""
    text = config.get_text_config() if hasattr(config, "get_text_config") else config
    return getattr(text, "vocab_size", None)
