"""Batched greedy generation for evaluation (torch and transformers imported lazily)."""

from __future__ import annotations

from typing import Any, Sequence


def render_prompts(tokenizer, prompts: Sequence[Any]) -> list[str]:
    """Render prompts as text: chat message lists through the tokenizer's chat template
    (with the generation prompt added, as TRL does for conversational data); plain strings
    are kept as they are."""
    out = []
    for prompt in prompts:
        if isinstance(prompt, str):
            out.append(prompt)
        else:
            out.append(tokenizer.apply_chat_template(prompt, tokenize=False,
                                                     add_generation_prompt=True))
    return out


def generate_completions(model, tokenizer, prompts: Sequence[Any], max_new_tokens: int,
                         batch_size: int = 16, desc: str = "generating",
                         progress: bool = True) -> list[dict[str, Any]]:
    """Generate one greedy completion per prompt, in batches with left padding.

    Args:
        model: a causal LM (or PEFT model) in eval mode.
        tokenizer: its tokenizer; padding side is set to left here.
        prompts: chat message lists or raw strings.
        max_new_tokens: generation cap in tokens.
        batch_size: prompts per `generate` call.
    Returns:
        one dict per prompt, in order: `completion` (decoded text without special
        tokens), `num_tokens` (generated tokens up to and including EOS) and `truncated`
        (True when the cap was hit before EOS).
    """
    import torch
    from tqdm.auto import tqdm

    tokenizer.padding_side = "left"
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    texts = render_prompts(tokenizer, prompts)
    eos_ids = {tokenizer.eos_token_id}
    results: list[dict[str, Any]] = []
    bar = tqdm(total=len(texts), desc=desc, disable=not progress, unit="q")
    for start in range(0, len(texts), batch_size):
        batch = texts[start:start + batch_size]
        enc = tokenizer(batch, return_tensors="pt", padding=True, add_special_tokens=False)
        with torch.no_grad():
            out = model.generate(**enc, max_new_tokens=max_new_tokens, do_sample=False,
                                 pad_token_id=tokenizer.pad_token_id,
                                 eos_token_id=tokenizer.eos_token_id)
        new_tokens = out[:, enc["input_ids"].shape[1]:]
        for row in new_tokens.tolist():
            end = next((i for i, t in enumerate(row) if t in eos_ids), None)
            kept = row if end is None else row[:end + 1]
            results.append({
                "completion": tokenizer.decode(kept, skip_special_tokens=True).strip(),
                "num_tokens": len(kept),
                "truncated": end is None,
            })
        bar.update(len(batch))
    bar.close()
    return results
