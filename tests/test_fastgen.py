"""The fast greedy path (rlvr.eval.fastgen) returns what one-prompt-at-a-time greedy
`generate` returns: same completions, token counts and truncation flags, with EOS, stop
strings and the token cap; sampling stays seeded."""

from __future__ import annotations

import pytest
import torch

from rlvr.eval.generate import generate_completions
from tiny_models import tiny_chat_llama

PROMPTS = ["a", "hello there", "the quick brown fox jumps", "xyz" * 9, "0123456789",
           [{"role": "user", "content": "What is 2 + 2?"}], "q", "long " * 12, "mid text"]


@pytest.fixture(scope="module")
def tiny():
    model, tokenizer = tiny_chat_llama()
    return model.eval(), tokenizer


def one_at_a_time(model, tokenizer, max_new_tokens, stop=()):
    """The reference: transformers' generate on each prompt alone (batch of one)."""
    out = []
    for prompt in PROMPTS:
        out += generate_completions(model, tokenizer, [prompt], max_new_tokens, batch_size=1,
                                    progress=False, stop=stop, engine="generate")
    return out


def most_common_bytes(model, tokenizer, count):
    """Tokens the tiny model emits most often (to make stop strings that do occur)."""
    outs = one_at_a_time(model, tokenizer, 12)
    text = "".join(r["completion"] for r in outs)
    return sorted(set(text), key=lambda c: -text.count(c))[:count]


@pytest.mark.parametrize("engine", ["refill", "loop"])
@pytest.mark.parametrize("batch_size", [1, 3, 4, 16])
def test_fast_path_equals_one_at_a_time_generate(tiny, engine, batch_size):
    model, tokenizer = tiny
    expected = one_at_a_time(model, tokenizer, 12)
    got = generate_completions(model, tokenizer, PROMPTS, 12, batch_size=batch_size,
                               progress=False, engine=engine)
    assert got == expected
    assert any(r["truncated"] for r in got)  # the token cap is exercised


def test_fast_path_eos(tiny):
    model, tokenizer = tiny
    # EOS takes the place of the model's most frequent output byte: its output row is that
    # byte's row scaled by 1.01, so it wins wherever the byte would (a positive logit)
    ids = tokenizer(["hello there"], return_tensors="pt", add_special_tokens=False)
    common = int(model.generate(**ids, max_new_tokens=3, do_sample=False,
                                pad_token_id=tokenizer.pad_token_id)[0, -1])
    bias_model, _ = tiny_chat_llama()
    with torch.no_grad():
        bias_model.lm_head.weight[tokenizer.eos_token_id] = 1.01 * bias_model.lm_head.weight[common]
    bias_model.eval()
    expected = one_at_a_time(bias_model, tokenizer, 20)
    got = generate_completions(bias_model, tokenizer, PROMPTS, 20, batch_size=4,
                               progress=False)
    assert got == expected
    assert any(not r["truncated"] and r["num_tokens"] < 20 for r in got)  # EOS exercised


def test_fast_path_stop_strings(tiny):
    model, tokenizer = tiny
    stop = most_common_bytes(model, tokenizer, 2)
    expected = one_at_a_time(model, tokenizer, 12, stop=stop)
    got = generate_completions(model, tokenizer, PROMPTS, 12, batch_size=4, progress=False,
                               stop=stop)
    assert [(r["completion"], r["truncated"]) for r in got] == \
        [(r["completion"], r["truncated"]) for r in expected]
    assert any(r["num_tokens"] < 12 for r in got)  # a stop string was hit


def test_sampling_is_seeded(tiny):
    model, tokenizer = tiny
    runs = [generate_completions(model, tokenizer, PROMPTS[:4], 8, batch_size=2,
                                 progress=False, num_samples=2, temperature=1.0, seed=3)
            for _ in range(2)]
    assert runs[0] == runs[1]


def test_unknown_engine(tiny):
    model, tokenizer = tiny
    with pytest.raises(ValueError, match="unknown engine"):
        generate_completions(model, tokenizer, PROMPTS, 4, progress=False, engine="vllm")


@pytest.mark.parametrize("setting,value", [("repetition_penalty", 1.05),
                                           ("no_repeat_ngram_size", 3),
                                           ("min_new_tokens", 2)])
def test_fast_engine_refuses_logits_processors(tiny, setting, value):
    # generate(do_sample=False) would apply these; the plain-argmax loop would not
    model, tokenizer = tiny
    old = getattr(model.generation_config, setting)
    setattr(model.generation_config, setting, value)
    try:
        with pytest.raises(ValueError, match=setting):
            generate_completions(model, tokenizer, PROMPTS[:2], 4, progress=False,
                                 engine="refill")
        # the default engine is transformers' generate, which applies them
        generate_completions(model, tokenizer, PROMPTS[:2], 4, progress=False)
    finally:
        setattr(model.generation_config, setting, old)
