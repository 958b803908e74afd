"""Hidden states of a causal LM as features: the mean over a response's tokens, per layer.

The features of the learned decline reader (`rlvr.rewards.abstention_head`): a question and
a response framed as

    Question: <question>
    Response: <response>

(the question's first 48 tokens, the response's first 80: a decline opens a response), one
forward pass, the hidden states of each asked layer averaged over the response's tokens.
"""

from __future__ import annotations

from typing import Sequence

from rlvr.errors import RlvrError

MAX_QUESTION_TOKENS = 48   # tokens of the question kept (its start)
MAX_RESPONSE_TOKENS = 80   # tokens of the response kept (its start: a decline opens it)


def _framed(tokenizer, question: str, response: str) -> tuple[list[int], int]:
    """(token ids of the framed pair, index of the response's first token)."""
    def ids(text: str) -> list[int]:
        return tokenizer(text, add_special_tokens=False)["input_ids"]

    head = ids("Question: ") + ids(question or "")[:MAX_QUESTION_TOKENS] + ids("\nResponse:")
    body = ids(" " + (response or "").strip())[:MAX_RESPONSE_TOKENS] or ids(" ")
    return head + body, len(head)


def response_features(model, tokenizer, pairs: Sequence[tuple[str, str]],
                      layers: Sequence[int], batch_size: int = 32):
    """Mean hidden state over each response's tokens, per layer.

    Args:
        model: a causal LM (transformers) in eval mode; tokenizer: its tokenizer.
        pairs: (question, response) texts; the question may be "".
        layers: hidden-state indices (0 = embeddings, i = after block i).
    Returns:
        float32 array of shape (len(layers), len(pairs), hidden_size).
    Raises:
        RlvrError: a layer beyond the model's depth.
    """
    import numpy as np
    import torch

    depth = model.config.num_hidden_layers
    if any(not 0 <= layer <= depth for layer in layers):
        raise RlvrError(f"abstention head: layers {list(layers)} outside 0..{depth}, the "
                        "model's hidden states")
    encoded = [_framed(tokenizer, q, r) for q, r in pairs]
    out = np.zeros((len(layers), len(pairs), model.config.hidden_size), dtype=np.float32)
    order = sorted(range(len(pairs)), key=lambda i: len(encoded[i][0]))  # less padding
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
    with torch.no_grad():
        for start in range(0, len(order), batch_size):
            batch = order[start:start + batch_size]
            width = max(len(encoded[i][0]) for i in batch)
            ids = torch.full((len(batch), width), pad, dtype=torch.long)
            mask = torch.zeros((len(batch), width), dtype=torch.long)
            for row, i in enumerate(batch):  # right padding: positions start at 0
                seq = encoded[i][0]
                ids[row, :len(seq)] = torch.tensor(seq)
                mask[row, :len(seq)] = 1
            states = model(input_ids=ids, attention_mask=mask,
                           output_hidden_states=True).hidden_states
            for row, i in enumerate(batch):
                end, first = len(encoded[i][0]), encoded[i][1]
                for k, layer in enumerate(layers):
                    out[k, i] = states[layer][row, first:end].float().mean(0).numpy()
    return out
