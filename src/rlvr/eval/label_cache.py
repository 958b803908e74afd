"""The base model's answers to the training rows, kept across runs (`label_cache: true`).

With `train_answerable: known|label` a run answers every answerable training row with the
base model before its first step (`rlvr.eval.labelling.known_training_rows`): 389 built-in
rows, 2,141 on real SelfAware, K answers each. Those answers depend only on the base
model, the prompts, the tokenizer and the sampling settings, so a second run, another arm
of `rlvr compare` in a new folder, or a rerun after a change elsewhere in the config can
take them from this cache instead of generating them again.

Key (SHA-256 of a canonical JSON document, `answers_key`):
- the model's weights: SHA-256 over every state-dict tensor's name, dtype, shape and bytes
  (`weights_digest`; what is loaded, so a re-converted or quantized model is another key);
- the tokenizer's chat template and vocabulary size;
- the task's name and version, and each row in order with its rendered prompt;
- the generation settings: token cap, samples K, temperature, batch size, engine, dtype,
  and the seed when sampling (greedy answers do not depend on it).
Only the generated text is trusted from the cache: every answer is scored again with the
installed grader on reuse (`rlvr.eval.runner.rescore_records`), so a grader change never
serves stale outcomes. Files live in `$RLVR_CACHE_DIR/knowledge/` (default
`~/.cache/rlvr/knowledge/`), one JSONL file per key, written atomically; delete the folder
to empty the cache.
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Any, Sequence

from rlvr.io import read_jsonl, write_jsonl

logger = logging.getLogger(__name__)

SUBDIR = "knowledge"


def cache_folder() -> Path:
    """`$RLVR_CACHE_DIR/knowledge` (default `~/.cache/rlvr/knowledge`); may not exist yet."""
    from rlvr.models import cache_dir

    return cache_dir() / SUBDIR


def weights_digest(model) -> str:
    """SHA-256 (hex) over the model's state dict: each tensor's name, dtype, shape and raw
    bytes, in the state dict's order. About 1-2 s for a 135M-parameter fp32 model on a CPU.

    Args:
        model: a torch module (a PEFT model hashes its base and adapter weights alike).
    Returns:
        64 hex characters.
    """
    import torch

    digest = hashlib.sha256()
    with torch.no_grad():
        for name, tensor in model.state_dict().items():
            flat = tensor.detach().cpu().contiguous().reshape(-1)
            digest.update(f"{name}|{flat.dtype}|{tuple(tensor.shape)}|".encode())
            digest.update(flat.view(torch.uint8).numpy().tobytes())
    return digest.hexdigest()


def answers_key(weights: str, tokenizer, task, rows: Sequence[dict],
                settings: dict[str, Any]) -> str:
    """The cache key of one labelling call (module docstring).

    Args:
        weights: `weights_digest` of the base model.
        tokenizer: its tokenizer (chat template and vocabulary size enter the key).
        task: the `EvalTask` that renders and scores the rows (name, version, prompts).
        rows: the rows answered, in order.
        settings: `EvalSettings.generation()` of the call (`max_new_tokens`, `num_samples`,
            `temperature`, `seed`, `batch_size`) plus `engine` and `dtype`.
    Returns:
        64 hex characters.
    """
    sampled = bool(settings.get("temperature"))
    document = {
        "weights": weights,
        "chat_template": getattr(tokenizer, "chat_template", None),
        "vocab": len(tokenizer) if hasattr(tokenizer, "__len__") else None,
        "task": [task.name, getattr(task, "version", None)],
        "rows": [{"row": row, "prompt": task.build_prompt(row, [])} for row in rows],
        "settings": {**{k: settings.get(k) for k in
                        ("max_new_tokens", "num_samples", "temperature", "batch_size",
                         "engine", "dtype")},
                     "seed": settings.get("seed") if sampled else None},
    }
    text = json.dumps(document, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def cached_answers(key: str, expected: int) -> list[dict[str, Any]] | None:
    """The records saved under `key`, or None when there is no such file or it does not
    hold `expected` records (a file cut short is ignored, and replaced on the next write)."""
    path = cache_folder() / f"{key}.jsonl"
    if not path.is_file():
        return None
    try:
        records = read_jsonl(path)
    except (OSError, ValueError) as exc:
        logger.warning("ignoring unreadable label cache %s: %s", path, exc)
        return None
    return records if len(records) == expected else None


def save_answers(key: str, records: Sequence[dict[str, Any]]) -> Path | None:
    """Write `records` under `key` atomically; returns the path, or None (with a warning)
    when the cache folder cannot be written (the run goes on without the cache)."""
    path = cache_folder() / f"{key}.jsonl"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return write_jsonl(path, records)
    except OSError as exc:
        logger.warning("could not write the label cache %s: %s", path, exc)
        return None
