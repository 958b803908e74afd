"""Batched generation for evaluation (torch and transformers imported lazily).

Greedy by default; seeded sampling with several samples per prompt when asked. Prompts are
left-padded; generation stops at the end-of-turn token and, when given, at task stop
strings (the text is cut before the first stop string). Decoding is transformers'
`generate` (a home-made greedy loop with early exit and slot refilling measured within
run-to-run noise of it end to end and was removed; docs/measured.md has the figures).
"""

from __future__ import annotations

from typing import Any, Sequence


def render_prompts(tokenizer, prompts: Sequence[Any]) -> list[str]:
    """Render prompts as text: chat message lists through the tokenizer's chat template
    (with the generation prompt added, as TRL does for conversational data); plain strings
    are kept as they are (raw prompts, no template)."""
    out = []
    for prompt in prompts:
        if isinstance(prompt, str):
            out.append(prompt)
        else:
            out.append(tokenizer.apply_chat_template(prompt, tokenize=False,
                                                     add_generation_prompt=True))
    return out


def cut_at_stop(text: str, stop: Sequence[str]) -> tuple[str, str | None]:
    """Cut `text` before the earliest stop string; return (text, the stop string or None)."""
    best, hit = len(text), None
    for s in stop:
        i = text.find(s)
        if i != -1 and i < best:
            best, hit = i, s
    return text[:best], hit



def _result(tokenizer, kept: list[int], stop: Sequence[str], max_new_tokens: int,
            sample: int) -> dict[str, Any]:
    """One completion record from its generated tokens (up to and including EOS)."""
    text = tokenizer.decode(kept, skip_special_tokens=True)
    text, hit = cut_at_stop(text, stop)
    ended = bool(kept) and kept[-1] == tokenizer.eos_token_id
    return {"completion": text.strip(), "sample": sample, "num_tokens": len(kept),
            "truncated": not ended and hit is None and len(kept) >= max_new_tokens}


def generate_completions(model, tokenizer, prompts: Sequence[Any], max_new_tokens: int,
                         batch_size: int = 16, desc: str = "generating",
                         progress: bool = True, stop: Sequence[str] = (),
                         num_samples: int = 1, temperature: float = 0.0,
                         top_p: float = 1.0, seed: int = 0) -> list[dict[str, Any]]:
    """Generate completions for each prompt, in batches with left padding.

    Args:
        model: a causal LM (or PEFT model) in eval mode.
        tokenizer: its tokenizer; padding side is set to left here.
        prompts: chat message lists or raw strings.
        max_new_tokens: generation cap in tokens.
        batch_size: rows decoded together; prompts are batched longest first (by
            characters) to limit padding, and returned in the given order.
        stop: task stop strings; generation halts once one appears and the text is cut
            before it.
        num_samples: completions per prompt (K); K > 1 needs temperature > 0.
        temperature: 0 = greedy; > 0 = sampling, seeded with `seed` per batch.
    Returns:
        len(prompts) * num_samples dicts, prompt-major (all samples of prompt 0 first):
        `completion` (decoded text, special tokens removed, cut at a stop string),
        `sample` (0..K-1), `num_tokens` (generated tokens up to and including EOS) and
        `truncated` (the token cap was hit before EOS or a stop string).
    Raises:
        ValueError: num_samples > 1 with greedy decoding (the samples would be identical).
    """
    import torch
    from tqdm.auto import tqdm

    if num_samples > 1 and temperature <= 0:
        raise ValueError("num_samples > 1 needs sampling: set a temperature > 0")
    tokenizer.padding_side = "left"
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    texts = render_prompts(tokenizer, prompts)
    sampling = {"do_sample": True, "temperature": temperature, "top_p": top_p} \
        if temperature > 0 else {"do_sample": False}
    if stop:
        sampling.update(stop_strings=list(stop), tokenizer=tokenizer)
    # Longest prompts first, so each batch holds prompts of similar length (less padding);
    # results are put back in the caller's order at the end.
    order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
    results: list[dict[str, Any]] = []
    bar = tqdm(total=len(texts), desc=desc, disable=not progress, unit="q")
    for start in range(0, len(texts), batch_size):
        batch = [texts[i] for i in order[start:start + batch_size]]
        enc = tokenizer(batch, return_tensors="pt", padding=True, add_special_tokens=False)
        if getattr(model, "device", None) is not None:  # the model's device (rlvr.hardware)
            enc = enc.to(model.device)
        torch.manual_seed(seed + start)
        with torch.no_grad():
            out = model.generate(**enc, max_new_tokens=max_new_tokens,
                                 num_return_sequences=num_samples,
                                 pad_token_id=tokenizer.pad_token_id,
                                 eos_token_id=tokenizer.eos_token_id, **sampling)
        new_tokens = out[:, enc["input_ids"].shape[1]:]
        for index, row in enumerate(new_tokens.tolist()):
            end = next((i for i, t in enumerate(row) if t == tokenizer.eos_token_id), None)
            kept = row if end is None else row[:end + 1]
            while kept and kept[-1] == tokenizer.pad_token_id and end is None:
                kept = kept[:-1]  # padding after a stop-string halt
            results.append(_result(tokenizer, kept, stop, max_new_tokens, index % num_samples))
        bar.update(len(batch))
    bar.close()
    by_prompt = {}
    for position, index in enumerate(order):
        by_prompt[index] = results[position * num_samples:(position + 1) * num_samples]
    return [r for i in range(len(texts)) for r in by_prompt[i]]
