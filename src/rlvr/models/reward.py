"""Reward models: a Hugging Face sequence-classification model (one label) whose logit is
the reward of a (prompt, completion) pair, as TRL's `GRPOTrainer` uses a model id given as
a reward function.

`check_reward_model` refuses a spec that cannot load without loading anything (a missing
path, a folder that is not a one-label sequence-classification model, a hub id neither
cached nor reachable); `score_pairs` loads the model once per process (`load_reward_model`)
and scores on the CPU in batches. Each pair is rendered with the model tokenizer's chat
template when it has one (the prompt's messages, or the prompt text as a user turn, then
the completion as the assistant turn), else as prompt text + completion; both are tokenized
without added special tokens and right-padded (TRL's `GRPOTrainer._calculate_rewards`).

It is part of `rlvr.models`, below `rlvr.rewards` (which calls it and stays pure): torch and
transformers are imported inside the functions that load and run the model.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from rlvr.errors import ModelNotFoundError
from rlvr.models import check_hub_model, is_hub_id

logger = logging.getLogger(__name__)

_LOADED: dict[str, tuple[Any, Any]] = {}  # spec -> (model, tokenizer), once per process


def check_reward_model(spec: Any, *, hub: bool = False, probe=None) -> str:
    """Refuse a reward-model spec that cannot load, reading only its `config.json`.

    Args:
        spec: a local folder or a hub id "org/name".
        hub: also check that a hub id is in the local cache or the hub answers
            (`rlvr.models.check_hub_model`; one HEAD request); False at config load, which
            stays offline.
        probe: the reachability check passed to `check_hub_model` (tests).
    Returns:
        the spec (a folder made absolute, `~` expanded; or the hub id).
    Raises:
        ModelNotFoundError: not text; a path that does not exist or has no config.json;
            a config whose architectures hold no `...ForSequenceClassification` or whose
            labels are not exactly one; an unreachable, uncached hub id (with `hub`).
    """
    if not isinstance(spec, str) or not spec.strip():
        raise ModelNotFoundError(f"reward_model must be a model folder or a hub id such as "
                                 f"org/name, got {spec!r}")
    if is_hub_id(spec):
        if hub:
            check_hub_model(spec, probe)
        return spec
    path = Path(spec).expanduser()
    if not path.exists():
        raise ModelNotFoundError(f"reward_model {spec} does not exist; give a folder saved "
                                 "with AutoModelForSequenceClassification.save_pretrained "
                                 "(num_labels=1) or a hub id such as org/name")
    config_file = path / "config.json"
    if not config_file.is_file():
        raise ModelNotFoundError(f"reward_model {spec} has no config.json, so it is not a "
                                 "Hugging Face model folder")
    try:
        config = json.loads(config_file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelNotFoundError(f"reward_model {config_file} cannot be read: {exc}") from None
    arch = config.get("architectures") or []
    if arch and not any(str(a).endswith("ForSequenceClassification") for a in arch):
        raise ModelNotFoundError(f"reward_model {spec} is a {', '.join(arch)}, not a sequence-"
                                 "classification model: its score head would be random; "
                                 "train or download a reward model (num_labels=1)")
    labels = len(config["id2label"]) if config.get("id2label") else config.get("num_labels", 2)
    if labels != 1:
        raise ModelNotFoundError(f"reward_model {spec} has {labels} labels; a reward model "
                                 "has one (its logit is the score): num_labels=1")
    return str(path.resolve())


def load_reward_model(spec: str):
    """The (model, tokenizer) of a reward model, loaded on the CPU in float32 the first
    time and reused afterwards. The tokenizer pads on the right; a model without a pad
    token pads with its eos token (as TRL does).

    Raises:
        ModelNotFoundError: as `check_reward_model` (hub ids included).
    """
    key = check_reward_model(spec, hub=True)
    if key not in _LOADED:
        import torch
        from transformers import AutoModelForSequenceClassification, AutoTokenizer

        logger.info("loading reward model %s", key)
        tokenizer = AutoTokenizer.from_pretrained(key)
        model = AutoModelForSequenceClassification.from_pretrained(key, dtype=torch.float32)
        if tokenizer.pad_token_id is None:
            tokenizer.pad_token = tokenizer.eos_token
        model.config.pad_token_id = tokenizer.pad_token_id
        tokenizer.padding_side = "right"
        model.to("cpu")
        model.eval()
        _LOADED[key] = (model, tokenizer)
    return _LOADED[key]


def render_pair(tokenizer, prompt: Any, completion: str) -> str | tuple[str, str]:
    """What a reward model reads for one pair: with a chat template, the conversation
    rendered as one text (the template brings its own special tokens); without one, the
    pair (prompt text, completion), which the tokenizer encodes as a text pair with its
    special tokens ([CLS] prompt [SEP] completion [SEP] for BERT-like encoders, as
    `OpenAssistant/reward-model-deberta-v3-large` expects `tokenizer(question, answer)`).

    Args:
        prompt: None, text, or chat messages `[{"role": ..., "content": ...}]`.
        completion: the completion text.
    """
    if getattr(tokenizer, "chat_template", None):
        if isinstance(prompt, list):
            messages = [m for m in prompt if isinstance(m, dict)]
        else:
            messages = [{"role": "user", "content": str(prompt)}] if prompt else []
        messages = messages + [{"role": "assistant", "content": completion}]
        return tokenizer.apply_chat_template(messages, tokenize=False)
    if isinstance(prompt, list):
        prompt = "".join(str(m.get("content", "")) for m in prompt if isinstance(m, dict))
    return (prompt or "", completion)


def score_pairs(spec: str, prompts: list[Any], completions: list[str], *, batch_size: int = 8,
                max_length: int | None = None) -> list[float]:
    """The reward model's logit for each (prompt, completion) pair.

    Args:
        spec: the reward model (`check_reward_model`).
        prompts, completions: one per pair (a prompt may be None).
        batch_size: pairs per forward pass.
        max_length: tokens kept per pair, cut from the left (the prompt's start goes
            first, so the completion is always read); None = all.
    Returns:
        one float per pair, the logit of the model's single label (unbounded).
    """
    import torch

    model, tokenizer = load_reward_model(spec)
    texts = [render_pair(tokenizer, p, c) for p, c in zip(prompts, completions)]
    tokenizer.truncation_side = "left"
    scores: list[float] = []
    with torch.inference_mode():
        for start in range(0, len(texts), batch_size):
            chunk = texts[start:start + batch_size]
            pairs = isinstance(chunk[0], tuple)
            args = ([t[0] for t in chunk], [t[1] for t in chunk]) if pairs else (chunk,)
            batch = tokenizer(*args, return_tensors="pt", padding=True,
                              add_special_tokens=pairs,
                              truncation=max_length is not None, max_length=max_length)
            scores.extend(model(**batch).logits[:, 0].float().tolist())
    return scores
