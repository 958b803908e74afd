"""generate_completions batches longest-first but returns results in the caller's order."""

from __future__ import annotations

import torch

from rlvr.eval.generate import cut_at_stop, generate_completions


class EchoTokenizer:
    """Characters as token ids (offset 10); id 2 is EOS and padding."""

    eos_token_id = pad_token_id = 2
    eos_token = pad_token = "<eos>"
    padding_side = "left"

    def __call__(self, texts, return_tensors="pt", padding=True, add_special_tokens=False):
        width = max(len(t) for t in texts)
        ids = [[2] * (width - len(t)) + [ord(c) + 10 for c in t] for t in texts]
        mask = [[0] * (width - len(t)) + [1] * len(t) for t in texts]
        return {"input_ids": torch.tensor(ids), "attention_mask": torch.tensor(mask)}

    def decode(self, ids, skip_special_tokens=True):
        return "".join(chr(i - 10) for i in ids if i != 2)


class EchoModel:
    """'Generates' the prompt's last character twice, then EOS."""

    def generate(self, input_ids, attention_mask, max_new_tokens, num_return_sequences=1, **kw):
        last = input_ids[:, -1:]
        new = torch.cat([last, last, torch.full_like(last, 2)], dim=1)[:, :max_new_tokens]
        return torch.cat([input_ids, new], dim=1)


def test_results_follow_prompt_order_across_batches():
    prompts = ["a", "bbbbbbb", "cc", "dddddddddddd", "eee"]
    out = generate_completions(EchoModel(), EchoTokenizer(), prompts, max_new_tokens=5,
                               batch_size=2, progress=False)
    assert [r["completion"] for r in out] == ["aa", "bb", "cc", "dd", "ee"]
    assert all(r["num_tokens"] == 3 and not r["truncated"] for r in out)


def test_cut_at_stop():
    assert cut_at_stop("x = 1\ndef g():", ["\ndef ", "\nclass "]) == ("x = 1", "\ndef ")
    assert cut_at_stop("no stop here", ["\n"]) == ("no stop here", None)
