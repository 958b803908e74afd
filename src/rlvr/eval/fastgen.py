"""Greedy batched decoding with per-row early stop (torch and transformers imported lazily).

`greedy_tokens` is the fast path of `rlvr.eval.generate.generate_completions` for greedy
decoding. It runs the same computation as transformers' `generate(do_sample=False)` on a
left-padded batch (same inputs, attention mask, position ids and KV cache, logits taken
in float32, argmax), but checks the stop conditions itself after every step:

- a row that emits the end-of-turn token, contains a stop string in its decoded text or
  reaches the token cap leaves the batch at once (its rows of the KV cache are dropped),
  while `generate` keeps computing finished rows until the whole batch is done;
- stop strings are checked on the decoded completion, once per new token, instead of
  transformers' `StopStringCriteria`;
- with `refill=True` (continuous batching), the slot of a finished row is given to the
  next waiting prompt: the newcomers are prefilled together and their KV cache joins the
  running batch, left-padded to a common length (the padding is masked out).

Prompts are batched longest first by token count. Greedy outputs equal those of
one-prompt-at-a-time `generate` up to float rounding: a batch of a different size or
padding can change the last bits of the logits and so, rarely, an argmax between two
near-equal tokens (the same holds between batched and unbatched `generate`).
"""

from __future__ import annotations

import inspect
from typing import Callable, Sequence


def _forward_kwargs(model) -> tuple[str, dict]:
    """(name of the KV-cache argument, extra arguments) for the unwrapped model's forward:
    `cache` where it exists (transformers >= 5.2x), else `past_key_values`; and
    `logits_to_keep=1` when supported (only the last position's logits, as `generate`)."""
    base = model.get_base_model() if hasattr(model, "get_base_model") else model
    params = inspect.signature(base.forward).parameters
    name = "cache" if "cache" in params else "past_key_values"
    return name, ({"logits_to_keep": 1} if "logits_to_keep" in params else {})


def _pad_left(tensor, width: int, dim: int, value=0):
    """`tensor` left-padded with `value` along `dim` to length `width`."""
    import torch

    missing = width - tensor.shape[dim]
    if missing <= 0:
        return tensor
    shape = list(tensor.shape)
    shape[dim] = missing
    return torch.cat([torch.full(shape, value, dtype=tensor.dtype, device=tensor.device),
                      tensor], dim=dim)


class _Running:
    """The rows being decoded: prompt index per row, attention mask (rows x length), last
    position id per row, the KV cache and the token each row predicted last."""

    def __init__(self, rows, mask, last_pos, cache, next_tokens):
        self.rows, self.mask, self.last_pos = rows, mask, last_pos
        self.cache, self.next_tokens = cache, next_tokens

    def select(self, keep: list[int]) -> None:
        """Keep only the rows at positions `keep` (in that order)."""
        import torch

        index = torch.tensor(keep, dtype=torch.long, device=self.mask.device)
        self.rows = [self.rows[k] for k in keep]
        self.mask, self.last_pos = self.mask[index], self.last_pos[index]
        self.next_tokens = self.next_tokens[index]
        self.cache.batch_select_indices(index)

    def merge(self, other: "_Running") -> None:
        """Append the rows of `other`; both KV caches are left-padded to the longer length,
        then columns masked out in every row are trimmed from the left."""
        import torch

        width = max(self.mask.shape[1], other.mask.shape[1])
        self.mask = torch.cat([_pad_left(self.mask, width, 1), _pad_left(other.mask, width, 1)])
        for mine, theirs in zip(self.cache.layers, other.cache.layers):
            mine.keys = torch.cat([_pad_left(mine.keys, width, 2),
                                   _pad_left(theirs.keys, width, 2)])
            mine.values = torch.cat([_pad_left(mine.values, width, 2),
                                     _pad_left(theirs.values, width, 2)])
        self.rows = self.rows + other.rows
        self.last_pos = torch.cat([self.last_pos, other.last_pos])
        self.next_tokens = torch.cat([self.next_tokens, other.next_tokens])
        lead = int(self.mask.any(0).long().argmax())
        if lead > 0:
            self.mask = self.mask[:, lead:]
            for layer in self.cache.layers:
                layer.keys, layer.values = layer.keys[:, :, lead:], layer.values[:, :, lead:]


# generation-config settings that make `generate(do_sample=False)` differ from a plain
# argmax, with their neutral values (None always counts as neutral)
_PROCESSORS = {"repetition_penalty": 1.0, "encoder_repetition_penalty": 1.0,
               "no_repeat_ngram_size": 0, "bad_words_ids": None, "suppress_tokens": None,
               "begin_suppress_tokens": None, "forced_bos_token_id": None,
               "forced_eos_token_id": None, "min_length": 0, "min_new_tokens": 0,
               "sequence_bias": None, "exponential_decay_length_penalty": None}


def check_plain_greedy(model) -> None:
    """Refuse a model whose `generation_config` would make transformers' greedy
    `generate` apply logits processors (e.g. Qwen2.5-Instruct's repetition_penalty 1.05):
    the fast loop takes the plain argmax and would silently decode something else.

    Raises:
        ValueError: naming the setting and the fix (engine="generate").
    """
    config = getattr(model, "generation_config", None)
    for name, neutral in _PROCESSORS.items():
        value = getattr(config, name, None)
        if value is not None and value != neutral and value != []:
            raise ValueError(f"the model's generation_config sets {name}={value!r}, which "
                             "the fast greedy loop does not apply; use engine='generate'")


def _can_merge(cache) -> bool:
    """Continuous batching joins caches by hand: only plain full-attention layers."""
    from transformers.cache_utils import DynamicLayer

    return all(type(layer) is DynamicLayer for layer in cache.layers)


def greedy_tokens(model, tokenizer, texts: Sequence[str], max_new_tokens: int,
                  batch_size: int, stop: Sequence[str] = (), refill: bool = False,
                  on_done: Callable[[int], None] | None = None,
                  ) -> list[tuple[list[int], str | None]]:
    """Greedy completions of `texts` (already rendered), batch_size rows at a time.

    Args:
        model: a causal LM (or PEFT model) whose forward takes `input_ids`,
            `attention_mask`, `position_ids`, `past_key_values`, `use_cache`.
        tokenizer: its tokenizer (`eos_token_id`, `pad_token_id`, `decode`).
        max_new_tokens: generation cap per row, in tokens.
        batch_size: rows decoded together (at most).
        stop: stop strings; a row stops at the first new token after which its decoded
            completion (special tokens removed) contains one of them.
        refill: continuous batching (a freed slot takes the next waiting prompt).
        on_done: called with the number of prompts finished, as they finish.
    Returns:
        per text, in the given order: (generated token ids, up to and including EOS or
        the token that completed a stop string; the stop string that stopped it or None).
    Raises:
        ValueError: max_new_tokens < 1 or batch_size < 1.
    """
    import torch
    from transformers import DynamicCache

    if max_new_tokens < 1 or batch_size < 1:
        raise ValueError("max_new_tokens and batch_size must be at least 1")
    eos, pad = tokenizer.eos_token_id, tokenizer.pad_token_id
    device = getattr(model, "device", None) or torch.device("cpu")
    encoded = [tokenizer(t, add_special_tokens=False)["input_ids"] for t in texts]
    queue = sorted(range(len(texts)), key=lambda i: -len(encoded[i]))
    cache_arg, keep_last = _forward_kwargs(model)
    generated: dict[int, list[int]] = {i: [] for i in range(len(texts))}
    hits: dict[int, str | None] = {}

    def prefill(rows: list[int]) -> _Running:
        width = max(len(encoded[i]) for i in rows)
        ids = torch.full((len(rows), width), pad, dtype=torch.long)
        mask = torch.zeros((len(rows), width), dtype=torch.long)
        for r, i in enumerate(rows):
            if encoded[i]:
                ids[r, width - len(encoded[i]):] = torch.tensor(encoded[i])
                mask[r, width - len(encoded[i]):] = 1
        ids, mask = ids.to(device), mask.to(device)
        positions = (mask.cumsum(-1) - 1).masked_fill(mask == 0, 0)  # as generate does
        cache = DynamicCache(config=model.config)
        out = model(input_ids=ids, attention_mask=mask, position_ids=positions,
                    use_cache=True, **{cache_arg: cache}, **keep_last)
        return _Running(rows, mask, positions[:, -1], cache,
                        out.logits[:, -1, :].float().argmax(-1))

    def record(batch: _Running) -> None:
        """Append each row's new token; drop the rows that are done."""
        keep = []
        for r, (i, token) in enumerate(zip(batch.rows, batch.next_tokens.tolist())):
            tokens = generated[i]
            tokens.append(token)
            hit = None
            if stop and token != eos:
                text = tokenizer.decode(tokens, skip_special_tokens=True)
                hit = next((s for s in stop if s in text), None)
            if token == eos or hit is not None or len(tokens) >= max_new_tokens:
                hits[i] = hit
            else:
                keep.append(r)
        if len(keep) < len(batch.rows):
            if on_done is not None:
                on_done(len(batch.rows) - len(keep))
            if keep:
                batch.select(keep)
            else:
                batch.rows = []

    running: _Running | None = None
    with torch.no_grad():
        while queue or running is not None:
            free = batch_size - (len(running.rows) if running is not None else 0)
            if queue and free > 0 and (running is None or refill):
                newcomers = prefill(queue[:free])
                queue = queue[free:]
                record(newcomers)
                if newcomers.rows:
                    if running is None:
                        running = newcomers
                        refill = refill and _can_merge(running.cache)
                    else:
                        running.merge(newcomers)
                continue
            if running is None:
                continue
            running.mask = torch.cat([running.mask, running.mask.new_ones(
                (running.mask.shape[0], 1))], dim=1)
            running.last_pos = running.last_pos + 1
            out = model(input_ids=running.next_tokens[:, None], attention_mask=running.mask,
                        position_ids=running.last_pos[:, None], use_cache=True,
                        **{cache_arg: running.cache}, **keep_last)
            running.next_tokens = out.logits[:, -1, :].float().argmax(-1)
            record(running)
            if not running.rows:
                running = None
    return [(generated[i], hits.get(i)) for i in range(len(texts))]
