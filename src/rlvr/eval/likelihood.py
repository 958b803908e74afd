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

Shared contexts (`score_groups`). Continuations of one context (a multiple-choice row; the
cross-check's gold, distractors and "I don't know.") share their prefix when the model takes
a KV cache: the prefix runs once, the continuations on copies of its cache, so C of them cost
one context + C continuations, not C of each; the numbers are the full pass's (to ~1e-6).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

from rlvr.models.forward import cache_keyword, forward_params

NORMALISATIONS = ("token", "none", "char", "byte")
# padding tokens a shared-prefix batch may carry before its rows go to separate passes: about
# what one more forward pass costs on 2 CPU cores with the default model (~50 ms, measured)
PAD_SLACK = 32


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


def _batches(pairs: Sequence[EncodedPair], batch_size: int, max_batch_tokens: int,
             pad_slack: int | None = None):
    """Row indices in batches, longest first; a batch holds at most `batch_size` rows and
    `max_batch_tokens` padded tokens (rows x longest row), and always at least one row;
    with `pad_slack`, at most that many padding tokens (rows of very different lengths go
    to separate passes: on CPU a padding token costs what a real one does)."""
    order = sorted(range(len(pairs)), key=lambda i: -len(pairs[i].ids))
    batch: list[int] = []
    real = 0
    for i in order:
        longest = len(pairs[batch[0]].ids) if batch else len(pairs[i].ids)
        padded, real = (len(batch) + 1) * longest, real + len(pairs[i].ids)
        if batch and (len(batch) == batch_size or padded > max_batch_tokens
                      or (pad_slack is not None and padded - real > pad_slack)):
            yield batch
            batch, real = [], len(pairs[i].ids)
        batch.append(i)
    if batch:
        yield batch


def _padded(rows: Sequence[Sequence[int]], pad_id: int):
    """(ids, attention mask), LongTensors (rows, longest row): the rows padded on the right."""
    import torch

    longest = max(len(r) for r in rows)
    ids = torch.full((len(rows), longest), pad_id, dtype=torch.long)
    mask = torch.zeros((len(rows), longest), dtype=torch.long)
    for i, r in enumerate(rows):
        ids[i, :len(r)] = torch.tensor(list(r), dtype=torch.long)
        mask[i, :len(r)] = 1
    return ids, mask


def _score_batch(model, pairs: Sequence[EncodedPair], pad_id: int, keep: bool) -> list[list[float]]:
    """Per-token log-probabilities (nats, fp32) of each pair's scored tokens."""
    import torch

    longest = max(len(p.ids) for p in pairs)
    ids, mask = _padded([p.ids for p in pairs], pad_id)
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
    """Log-likelihood of each row's continuation given its context (rows with the same
    context share its forward pass, `score_groups`).

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
    groups = [(context, [continuation]) for context, continuation in rows]
    return [recs[0] for recs in score_groups(model, tokenizer, groups, batch_size,
                                             max_batch_tokens, max_length)]


def _record(pair: EncodedPair, values: Sequence[float]) -> dict[str, Any]:
    """One row's output dict (`continuation_logprobs` Returns) from its token log-probs."""
    total = math.fsum(values)
    return {"sum_logprob": total, "num_tokens": len(values), "mean_logprob": total / len(values),
            "boundary_merged": pair.boundary_merged, "truncated_tokens": pair.truncated}


def _score_shared(model, pairs: Sequence[EncodedPair], groups: Sequence[list[int]], pad_id: int,
                  keyword: str, keep: bool, batch_size: int,
                  max_batch_tokens: int) -> dict[int, list[float]] | None:
    """Per-token log-probs of pairs, by `groups` of pair indices sharing `ids[:start]` (start
    >= 2). Each group's head `ids[:start - 1]` runs once (right-padded batches of groups); each
    pair's tail `ids[start - 1:-1]` runs on its head's cache rows, positions continuing from
    the head, head padding masked: its logits predict the scored `ids[start:]`. None when the
    model returns no cache whose batch rows can be selected (the caller uses full passes)."""
    import copy

    import torch

    device, values = _device(model), {}
    heads = [EncodedPair(pairs[g[0]].ids[:pairs[g[0]].start - 1], 0) for g in groups]
    for head_batch in _batches(heads, batch_size, max_batch_tokens):
        ids, mask = _padded([heads[h].ids for h in head_batch], pad_id)
        out = model(input_ids=ids.to(device), attention_mask=mask.to(device), use_cache=True,
                    **({"logits_to_keep": 1} if keep else {}))
        cache = getattr(out, "cache", None)
        cache = getattr(out, "past_key_values", None) if cache is None else cache
        if cache is None or not hasattr(cache, "batch_select_indices"):
            return None
        members = [(row, i) for row, h in enumerate(head_batch) for i in groups[h]]
        tails = [EncodedPair(pairs[i].ids[pairs[i].start - 1:-1], 0) for _, i in members]
        for batch in _batches(tails, batch_size, max_batch_tokens, pad_slack=PAD_SLACK):
            t_ids, t_mask = _padded([tails[b].ids for b in batch], pad_id)
            # positions continue from each head's own length (start - 1), not the padded one
            positions = torch.stack([torch.arange(t_ids.shape[1]) + pairs[members[b][1]].start - 1
                                     for b in batch])
            rows = torch.tensor([members[b][0] for b in batch], dtype=torch.long)
            picked = copy.deepcopy(cache)
            picked.batch_select_indices(rows.to(device))
            logits = model(input_ids=t_ids.to(device),
                           attention_mask=torch.cat([mask[rows], t_mask], dim=1).to(device),
                           position_ids=positions.to(device), use_cache=True,
                           **{keyword: picked}).logits
            for row, b in enumerate(batch):
                i = members[b][1]
                targets = torch.tensor(pairs[i].ids[pairs[i].start:], device=device)
                rows_lp = logits[row, :len(targets)].float().log_softmax(dim=-1)
                values[i] = rows_lp.gather(-1, targets[:, None])[:, 0].tolist()
    return values


def score_groups(model, tokenizer, groups: Sequence[tuple[Any, Sequence[str]]],
                 batch_size: int = 8, max_batch_tokens: int = 2048,
                 max_length: int | None = None,
                 share_prefix: bool = True) -> list[list[dict[str, Any]]]:
    """Log-likelihood of several continuations per context, the context's forward pass
    shared between them when the model takes a KV cache (module docstring).

    Args:
        model, tokenizer, batch_size, max_batch_tokens, max_length: as
            `continuation_logprobs`.
        groups: (context, continuations); a context is text or chat messages.
        share_prefix: False = every continuation in a full pass of its own.
    Returns:
        per group, per continuation in order, the `continuation_logprobs` dict.
    Raises:
        ValueError: a continuation `encode_pair` refuses (the message names its group).
    Source: the quantity of lm-evaluation-harness's `loglikelihood` requests; the shared
        prefix is the KV cache reuse `generate` does, not a different number.
    """
    import torch

    if max_length is None:
        max_length = getattr(getattr(model, "config", None), "max_position_embeddings", None)
    pairs: list[EncodedPair] = []
    where: list[tuple[int, int]] = []
    for g, (context, continuations) in enumerate(groups):
        text = render_context(tokenizer, context)
        for c, continuation in enumerate(continuations):
            try:
                pairs.append(encode_pair(tokenizer, text, continuation, max_length))
            except ValueError as exc:
                which = f", continuation {c + 1}" if len(continuations) > 1 else ""
                raise ValueError(f"row {g + 1}{which}: {exc}") from None
            where.append((g, c))
    prefixes: dict[tuple[int, ...], list[int]] = {}
    for i, pair in enumerate(pairs):
        prefixes.setdefault(tuple(pair.ids[:pair.start]), []).append(i)
    pad_id = tokenizer.pad_token_id if getattr(tokenizer, "pad_token_id", None) is not None else 0
    params = forward_params(model)
    keep = "logits_to_keep" in params
    keyword = cache_keyword(model) if share_prefix else None
    logprobs: list[list[float]] = [[] for _ in pairs]
    was_training = getattr(model, "training", False)
    model.eval()
    try:
        with torch.no_grad():
            # a prefix shared by 2+ continuations runs once (with a head to cache); the
            # rest, or all when the model takes no cache, in full passes
            groups_ = [m for m in prefixes.values() if len(m) > 1 and pairs[m[0]].start > 1]
            shared = _score_shared(model, pairs, groups_, pad_id, keyword, keep, batch_size,
                                   max_batch_tokens) if keyword and groups_ else None
            for i, values in (shared or {}).items():
                logprobs[i] = values
            full = [i for i in range(len(pairs)) if shared is None or i not in shared]
            for batch in _batches([pairs[i] for i in full], batch_size, max_batch_tokens):
                members = [full[b] for b in batch]
                for i, values in zip(members, _score_batch(model, [pairs[i] for i in members],
                                                           pad_id, keep)):
                    logprobs[i] = values
    finally:
        model.train(was_training)
    out: list[list[dict[str, Any]]] = [[] for _ in groups]
    for (g, _), pair, values in zip(where, pairs, logprobs):
        out[g].append(_record(pair, values))
    return out


def choice_score(scored: dict[str, Any], choice: str, normalise: str = "token") -> float:
    """The score a choice is ranked by: `token` = mean log-prob per token (nats/token),
    `none` = summed log-prob (nats; lm-evaluation-harness's `acc`; favours short choices),
    `char` = summed log-prob per character of the choice (its `acc_norm`: `lls /
    len(choice)`), `byte` = per UTF-8 byte (the same as `char` for ASCII).

    Raises: ValueError for another `normalise`."""
    if normalise == "token":
        return scored["mean_logprob"]
    if normalise == "none":
        return scored["sum_logprob"]
    if normalise == "char":
        return scored["sum_logprob"] / max(1, len(choice))
    if normalise == "byte":
        return scored["sum_logprob"] / max(1, len(choice.encode("utf-8")))
    raise ValueError(f"normalise must be one of {', '.join(NORMALISATIONS)}, got {normalise!r}")


def gold_rank(scores: Sequence[float], gold: int) -> int:
    """The gold choice's rank (1 = first) when choices are ordered by score, highest first,
    ties to the earlier choice: 1 + the choices scoring above the gold + the earlier choices
    scoring the same. Rank 1 exactly when the argmax (first index on ties) is the gold.

    Raises: IndexError for a gold index outside `scores`.
    Source: lm-evaluation-harness multiple-choice `acc` (`np.argmax`, first index on ties).
    """
    if not 0 <= gold < len(scores):
        raise IndexError(f"gold index {gold} outside {len(scores)} choices")
    mine = scores[gold]
    return 1 + sum(s > mine or (s == mine and k < gold) for k, s in enumerate(scores))


def multiple_choice_accuracy(model, tokenizer, rows: Sequence[dict[str, Any]],
                             normalise: str = "token", batch_size: int = 8) -> dict[str, Any]:
    """Multiple-choice accuracy by log-likelihood: each row's prediction is the choice with
    the highest `choice_score` (ties go to the earlier choice). The choices of a row share
    the context's forward pass (`score_groups`).

    Args:
        rows: dicts with `context` (text or chat messages), `choices` (two or more
            strings) and `gold` (index of the right choice).
        normalise: "token" (default), "none", "char" or "byte" (`choice_score`).
    Returns:
        {"accuracy", "correct", "n", "ci95" (Wilson), "normalise", "predictions" (index
        per row), "ranks" (the gold's `gold_rank` per row), "scores" (per row, per choice),
        "records" (per row, per choice, the `continuation_logprobs` dict)}.
    Raises:
        ValueError: a row with fewer than two choices or a gold index outside them.
    Source: lm-evaluation-harness multiple-choice tasks (`acc`, `acc_norm`).
    """
    from rlvr.metrics.stats import wilson_interval

    if normalise not in NORMALISATIONS:
        raise ValueError(f"normalise must be one of {', '.join(NORMALISATIONS)}, got "
                         f"{normalise!r}")
    for i, row in enumerate(rows):
        choices = list(row["choices"])
        if len(choices) < 2 or not 0 <= int(row["gold"]) < len(choices):
            raise ValueError(f"row {i + 1}: needs two or more choices and a gold index among "
                             f"them, got {len(choices)} choices and gold {row['gold']!r}")
    records = score_groups(model, tokenizer, [(r["context"], list(r["choices"])) for r in rows],
                           batch_size=batch_size)
    scores = [[choice_score(rec, c, normalise) for rec, c in zip(recs, row["choices"])]
              for recs, row in zip(records, rows)]
    predictions = [max(range(len(v)), key=lambda k: (v[k], -k)) for v in scores]
    ranks = [gold_rank(v, int(r["gold"])) for v, r in zip(scores, rows)]
    correct = sum(rank == 1 for rank in ranks)
    return {"accuracy": correct / len(rows) if rows else None, "correct": correct,
            "n": len(rows), "ci95": wilson_interval(correct, len(rows)),
            "normalise": normalise, "predictions": predictions, "ranks": ranks,
            "scores": scores, "records": records}
