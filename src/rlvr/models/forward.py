"""What a model's forward takes: read from its signature, PEFT-unwrapped first.

Used by the likelihood scorer (`rlvr.eval.likelihood`) and the shared prompt prefix
(`rlvr.train.prefix_sharing`), which both pass a KV cache under the model's own keyword.
"""

from __future__ import annotations

import inspect


def forward_params(model) -> set[str]:
    """The (PEFT-unwrapped) model's forward parameter names (empty when the signature cannot
    be read): whether it takes `logits_to_keep`, and its KV cache keyword."""
    inner = model.get_base_model() if hasattr(model, "get_base_model") else model
    try:
        return set(inspect.signature(inner.forward).parameters)
    except (TypeError, ValueError):
        return set()


def cache_keyword(model) -> str | None:
    """The keyword the model's forward takes a KV cache under: "cache" (transformers >= 5.24),
    "past_key_values" (before), or None when it takes neither."""
    params = forward_params(model)
    return next((k for k in ("cache", "past_key_values") if k in params), None)
