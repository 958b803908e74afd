"""Log-likelihood of gold continuations under a causal LM (torch imported inside functions).

The quantity lm-evaluation-harness reports for small models (its `loglikelihood` requests):
for a row (context, continuation), the sum over the continuation's tokens of
ln p(token | everything before it), and the token count; their ratio is the mean per-token
log-likelihood in nats/token (0 = certain, more negative = less likely).

Tokenization boundary. The context is tokenized alone and context + continuation
together (`add_special_tokens=False`, as `rlvr.eval.generate` tokenizes prompts). The
scored tokens are those of the joint tokenization after the longest common prefix of the
two token lists. Usually that prefix is the whole context, so the scored tokens are
exactly what the model reads after the context as it is used. When a token merges across
the boundary (e.g. context "...x" + continuation "y..." tokenized as "xy"), the merged
token is scored too (`boundary_merged`): no continuation character is ever dropped and the
tokens stay the model's own tokenization of the joined text. lm-evaluation-harness
instead moves trailing context whitespace into the continuation and slices the joint
tokens at the length of the context's tokens, which drops or misaligns tokens when they
merge; rlvr's chat contexts end in "<|im_start|>assistant\\n", where that move would score a
template newline, so it is not done.

Batching. Rows are sorted longest first and padded on the right by hand (the
tokenizer's padding side does not matter): a causal model's real tokens never attend to
later positions, so right padding cannot change them and positions need no shifting.
Logits are computed only for the positions that predict continuation tokens when the model
takes `logits_to_keep` (transformers >= 4.50), and turned into log-probabilities in fp32.
"""

from __future__ import annotations

import inspect
import math
from dataclasses import dataclass
from typing import Any, Sequence

NORMALISATIONS = ("token", "none", "byte")


@dataclass(frozen=True)
class EncodedPair:
    """One row's tokens. `ids` is the joint tokenization (left-truncated to the model's
    length limit); tokens `ids[start:]` are scored. `boundary_merged`: the first scored
    token also covers the end of the context. `truncated`: context tokens dropped."""

    ids: list[int]
    start: int
    boundary_merged: bool = False
    truncated: int = 0


def encode_pair(tokenizer, context: str, continuation: str,
                max_length: int | None = None) -> EncodedPair:
    """Tokenize (context, continuation) as the module docstring describes.

    Args:
        tokenizer: called as `tokenizer(text, add_special_tokens=False)["input_ids"]`.
        context: the rendered prompt text (non-empty).
        continuation: the text whose likelihood is measured (non-empty).
        max_length: the model's length limit in tokens; longer rows lose context tokens
            from the left (the continuation is never cut).
    Raises:
        ValueError: an empty context or continuation, a continuation that adds no token,
            or one that alone does not fit in `max_length`.
    """
    if not context:
        raise ValueError("the context is empty; a continuation needs a context to condition on")
    if not continuation:
        raise ValueError("the continuation is empty; there is nothing to score")
    ctx = list(tokenizer(context, add_special_tokens=False)["input_ids"])
    whole = list(tokenizer(context + continuation, add_special_tokens=False)["input_ids"])
    start = 0
    while start < min(len(ctx), len(whole)) and ctx[start] == whole[start]:
        start += 1
    if start == len(whole):
        raise ValueError(f"the continuation {continuation[:40]!r} adds no token to the context")
    if start == 0:
        raise ValueError("the first token already covers the continuation; give a context "
                         "that tokenizes on its own")
    drop = max(0, len(whole) - max_length) if max_length else 0
    if drop >= start:
        raise ValueError(f"the continuation alone has {len(whole) - start + 1} tokens, more "
                         f"than the model's {max_length}")
    return EncodedPair(whole[drop:], start - drop, start < len(ctx), drop)


def render_context(tokenizer, prompt: Any) -> str:
    """A prompt as text: chat messages through the chat template with the generation
    prompt (as `rlvr.eval.generate.render_prompts` does for generation), strings as is."""
    from rlvr.eval.generate import render_prompts

    return render_prompts(tokenizer, [prompt])[0]


def _device(model):
    device = getattr(model, "device", None)
    return device if device is not None else next(model.parameters()).device


def _takes_logits_to_keep(model) -> bool:
    """Whether the (PEFT-unwrapped) model's forward accepts `logits_to_keep`."""
    inner = model.get_base_model() if hasattr(model, "get_base_model") else model
    try:
        return "logits_to_keep" in inspect.signature(inner.forward).parameters
    except (TypeError, ValueError):
        return False


def _batches(pairs: Sequence[EncodedPair], batch_size: int, max_batch_tokens: int):
    """Row indices in batches, longest first; a batch holds at most `batch_size` rows and
    `max_batch_tokens` padded tokens (rows x longest row), and always at least one row."""
    order = sorted(range(len(pairs)), key=lambda i: -len(pairs[i].ids))
    batch: list[int] = []
    for i in order:
        longest = len(pairs[batch[0]].ids) if batch else len(pairs[i].ids)
        if batch and (len(batch) == batch_size or (len(batch) + 1) * longest > max_batch_tokens):
            yield batch
            batch = []
        batch.append(i)
    if batch:
        yield batch


def _score_batch(model, pairs: Sequence[EncodedPair], pad_id: int, keep: bool) -> list[list[float]]:
    """Per-token log-probabilities (nats, fp32) of each pair's scored tokens."""
    import torch

    longest = max(len(p.ids) for p in pairs)
    ids = torch.full((len(pairs), longest), pad_id, dtype=torch.long)
    mask = torch.zeros((len(pairs), longest), dtype=torch.long)
    for row, pair in enumerate(pairs):
        ids[row, :len(pair.ids)] = torch.tensor(pair.ids)
        mask[row, :len(pair.ids)] = 1
    # the logits at position t predict token t + 1: scored tokens ids[start:] come from
    # positions start - 1 ... len - 2
    first = min(p.start for p in pairs) - 1
    last = max(len(p.ids) for p in pairs) - 1  # exclusive
    device = _device(model)
    kwargs = {"logits_to_keep": torch.arange(first, last, device=device)} if keep else {}
    logits = model(input_ids=ids.to(device), attention_mask=mask.to(device), use_cache=False,
                   **kwargs).logits
    # a wrapper that drops `logits_to_keep` returns every position: tell the two apart
    # (last - first < longest always), never index the wrong positions
    if logits.shape[1] == longest:
        offset = 0
    elif logits.shape[1] == last - first:
        offset = first
    else:
        raise RuntimeError(f"the model returned logits for {logits.shape[1]} positions; "
                           f"expected {longest} or {last - first}")
    out = []
    for row, pair in enumerate(pairs):
        positions = torch.arange(pair.start - 1, len(pair.ids) - 1, device=device)
        rows = logits[row, positions - offset].float().log_softmax(dim=-1)
        targets = torch.tensor(pair.ids[pair.start:], device=device)
        out.append(rows.gather(-1, targets[:, None])[:, 0].tolist())
    return out


def continuation_logprobs(model, tokenizer, rows: Sequence[tuple[Any, str]],
                          batch_size: int = 8, max_batch_tokens: int = 2048,
                          max_length: int | None = None) -> list[dict[str, Any]]:
    """Log-likelihood of each row's continuation given its context.

    Args:
        model: a causal LM (transformers or PEFT) returning `.logits` (B, T, V); it is put
            in eval mode for the call (its mode is restored) and run under `no_grad` on its
            own device.
        tokenizer: its tokenizer (also renders chat contexts, `render_context`).
        rows: (context, continuation); a context is text or chat messages.
        batch_size, max_batch_tokens: rows per forward pass and padded tokens per pass
            (rows x longest row), bounding memory.
        max_length: tokens per row (default: the model config's
            `max_position_embeddings`, when it has one).
    Returns:
        one dict per row, in order: `sum_logprob` (nats, <= 0), `num_tokens` (scored
        tokens), `mean_logprob` (sum / tokens, nats/token), `boundary_merged`,
        `truncated_tokens` (see `encode_pair`).
    Raises:
        ValueError: a row `encode_pair` refuses (the message names the row).
    """
    import torch

    if max_length is None:
        max_length = getattr(getattr(model, "config", None), "max_position_embeddings", None)
    pairs = []
    for i, (context, continuation) in enumerate(rows):
        try:
            pairs.append(encode_pair(tokenizer, render_context(tokenizer, context),
                                     continuation, max_length))
        except ValueError as exc:
            raise ValueError(f"row {i + 1}: {exc}") from None
    pad_id = tokenizer.pad_token_id if getattr(tokenizer, "pad_token_id", None) is not None else 0
    keep = _takes_logits_to_keep(model)
    logprobs: list[list[float]] = [[] for _ in pairs]
    was_training = getattr(model, "training", False)
    model.eval()
    try:
        with torch.no_grad():
            for batch in _batches(pairs, batch_size, max_batch_tokens):
                for i, values in zip(batch, _score_batch(model, [pairs[i] for i in batch],
                                                         pad_id, keep)):
                    logprobs[i] = values
    finally:
        model.train(was_training)
    out = []
    for pair, values in zip(pairs, logprobs):
        total = math.fsum(values)
        out.append({"sum_logprob": total, "num_tokens": len(values),
                    "mean_logprob": total / len(values), "boundary_merged": pair.boundary_merged,
                    "truncated_tokens": pair.truncated})
    return out


def choice_score(scored: dict[str, Any], choice: str, normalise: str = "token") -> float:
    """The score a choice is ranked by: `token` = mean log-prob per token (nats/token),
    `none` = summed log-prob (nats; favours short choices), `byte` = summed log-prob per
    UTF-8 byte of the choice (lm-evaluation-harness's `acc_norm`).

    Raises: ValueError for another `normalise`."""
    if normalise == "token":
        return scored["mean_logprob"]
    if normalise == "none":
        return scored["sum_logprob"]
    if normalise == "byte":
        return scored["sum_logprob"] / max(1, len(choice.encode("utf-8")))
    raise ValueError(f"normalise must be one of {', '.join(NORMALISATIONS)}, got {normalise!r}")


def multiple_choice_accuracy(model, tokenizer, rows: Sequence[dict[str, Any]],
                             normalise: str = "token", batch_size: int = 8) -> dict[str, Any]:
    """Multiple-choice accuracy by log-likelihood: each row's prediction is the choice with
    the highest `choice_score` (ties go to the earlier choice).

    Args:
        rows: dicts with `context` (text or chat messages), `choices` (two or more
            strings) and `gold` (index of the right choice).
        normalise: "token" (default), "none" or "byte" (`choice_score`).
    Returns:
        {"accuracy", "correct", "n", "ci95" (Wilson), "normalise", "predictions" (index
        per row), "scores" (per row, per choice)}.
    Raises:
        ValueError: a row with fewer than two choices or a gold index outside them.
    Source: lm-evaluation-harness multiple-choice tasks (`acc`, `acc_norm`).
    """
    from rlvr.metrics.stats import wilson_interval

    if normalise not in NORMALISATIONS:
        raise ValueError(f"normalise must be one of {', '.join(NORMALISATIONS)}, got "
                         f"{normalise!r}")
    flat = []
    for i, row in enumerate(rows):
        choices = list(row["choices"])
        if len(choices) < 2 or not 0 <= int(row["gold"]) < len(choices):
            raise ValueError(f"row {i + 1}: needs two or more choices and a gold index among "
                             f"them, got {len(choices)} choices and gold {row['gold']!r}")
        flat += [(row["context"], c) for c in choices]
    scored = iter(continuation_logprobs(model, tokenizer, flat, batch_size=batch_size))
    predictions, scores = [], []
    for row in rows:
        values = [choice_score(next(scored), c, normalise) for c in row["choices"]]
        scores.append(values)
        predictions.append(max(range(len(values)), key=lambda k: (values[k], -k)))
    correct = sum(p == int(r["gold"]) for p, r in zip(predictions, rows))
    return {"accuracy": correct / len(rows) if rows else None, "correct": correct,
            "n": len(rows), "ci95": wilson_interval(correct, len(rows)),
            "normalise": normalise, "predictions": predictions, "scores": scores}
