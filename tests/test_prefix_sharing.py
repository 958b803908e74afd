"""The shared prompt prefix (`share_prompt_prefix`): the prefix found, the rows cut, the same
log-probs and gradients as the full pass on a real (tiny, random) Llama with LoRA, the
dropout rule, and the trainer's first-batch check and fallbacks."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("trl")

from rlvr.train import prefix_sharing as ps  # noqa: E402


def _batch(prompts, completions, pad=0):
    """TRL's layout: prompts left-padded to one width, completions right-padded (mask 0
    after the end)."""
    width = max(len(p) for p in prompts)
    span = max(len(c) for c in completions)
    ids, mask = [], []
    for p, c in zip(prompts, completions):
        ids.append([pad] * (width - len(p)) + p + c + [pad] * (span - len(c)))
        mask.append([0] * (width - len(p)) + [1] * len(p) + [1] * len(c) + [0] * (span - len(c)))
    return torch.tensor(ids), torch.tensor(mask), width


def test_common_prefix_counts_equal_leading_real_tokens():
    # rows 5 9 9 7 | 5 9 9 8 6 | 5 9 9 7: the first 3 real tokens agree, the 4th differs
    ids, mask, width = _batch([[5, 9, 9, 7], [5, 9, 9, 8, 6], [5, 9, 9, 7]], [[3], [3], [4]])
    assert ps.common_prefix_length(ids, mask, width) == 3


def test_common_prefix_leaves_one_prompt_token_per_row():
    # identical prompts of 4 tokens: at most 4 - 1 = 3 shared, the 4th predicts the answer
    ids, mask, width = _batch([[5, 6, 7, 8]] * 3, [[3, 2], [4], [2, 2]])
    assert ps.common_prefix_length(ids, mask, width) == 3
    # the shortest prompt (2 tokens) bounds it: 2 - 1 = 1
    ids, mask, width = _batch([[5, 6, 7, 8], [5, 6]], [[3], [4]])
    assert ps.common_prefix_length(ids, mask, width) == 1


@pytest.mark.parametrize("case", ["one row", "gap in a prompt"])
def test_common_prefix_refuses_what_it_cannot_share(case):
    if case == "one row":
        ids, mask, width = _batch([[5, 6, 7, 8]], [[3]])
    else:  # a pad between real prompt tokens: positions would not match the full pass
        ids, mask, width = _batch([[5, 6, 7, 8], [5, 6, 7, 9]], [[3], [3]])
        mask[0, 1] = 0
    assert ps.common_prefix_length(ids, mask, width) == 0


def test_split_batch_keeps_each_rows_remainder_and_positions():
    # prompts [5 6 7] and [5 6 8 9] (width 4), completions [3 1] and [4] + pad; P = 2
    ids, mask, width = _batch([[5, 6, 7], [5, 6, 8, 9]], [[3, 1], [4]])
    parts = ps.split_batch(ids, mask, width, 2, pad_token_id=0)
    # remainders: row 0 = 7 | 3 1 (3 tokens), row 1 = 8 9 | 4 pad (4 columns); width 4
    assert parts.prefix.tolist() == [[5, 6]]
    assert parts.input_ids.tolist() == [[0, 7, 3, 1], [8, 9, 4, 0]]
    assert parts.attention_mask.tolist() == [[1, 1, 0, 1, 1, 1], [1, 1, 1, 1, 1, 0]]
    # positions continue the prefix: 2, 3, ... for the row's own columns (pads: 2)
    assert parts.position_ids.tolist() == [[2, 2, 3, 4], [2, 3, 4, 5]]


def _peft_llama(dropout=0.0, layers=2):
    """A tiny random Llama with TRL's fused LM head and a LoRA adapter whose B is not zero
    (so the adapter changes the numbers)."""
    from peft import LoraConfig, get_peft_model
    from transformers import LlamaConfig, LlamaForCausalLM
    from trl.trainer.utils import add_fused_lm_head

    torch.manual_seed(0)
    model = LlamaForCausalLM(LlamaConfig(
        vocab_size=40, hidden_size=32, intermediate_size=64, num_hidden_layers=layers,
        num_attention_heads=4, num_key_value_heads=2, pad_token_id=0))
    add_fused_lm_head(model, outputs=("log_probs", "entropy"))
    model = get_peft_model(model, LoraConfig(r=4, lora_alpha=8, lora_dropout=dropout,
                                             target_modules=["q_proj", "v_proj"]))
    for name, param in model.named_parameters():
        if "lora_B" in name:
            torch.nn.init.normal_(param, std=0.5)
    return model


def _full_logps(model, ids, mask, keep):
    labels = ids.masked_fill(mask == 0, -100)
    labels[:, :-keep] = -100
    return model(input_ids=ids, attention_mask=mask, labels=labels,
                 fused_lm_head=True).log_probs[:, -keep:]


def _random_batch(rows=6, shared=20, seed=1):
    gen = torch.Generator().manual_seed(seed)
    head = torch.randint(2, 40, (shared,), generator=gen).tolist()
    prompts = [head + torch.randint(2, 40, (int(n),), generator=gen).tolist()
               for n in torch.randint(1, 6, (rows,), generator=gen)]
    completions = [torch.randint(2, 40, (int(n),), generator=gen).tolist()
                   for n in torch.randint(1, 5, (rows,), generator=gen)]
    return _batch(prompts, completions)


@pytest.mark.parametrize("chunk", [None, 4])
def test_shared_pass_gives_the_full_pass_log_probs_and_gradients(chunk):
    model = _peft_llama()
    model.train()
    ids, mask, width = _random_batch()
    keep = ids.size(1) - width
    prefix = ps.common_prefix_length(ids, mask, width)
    assert prefix >= 20
    completion = mask[:, -keep:].float()

    full = _full_logps(model, ids, mask, keep)
    (full * completion).sum().backward()
    grads_full = {n: p.grad.clone() for n, p in model.named_parameters() if p.grad is not None}
    model.zero_grad()
    shared, entropy = ps.shared_prefix_logps(model, ids, mask, keep, prefix, 0, chunk,
                                             compute_entropy=True)
    (shared * completion).sum().backward()
    assert shared.shape == full.shape == entropy.shape
    # equal up to the order of float sums (masked positions are never scored)
    assert torch.allclose(shared * completion, full * completion, atol=1e-5)
    assert grads_full  # the LoRA weights got gradients in both passes
    for name, grad in grads_full.items():
        other = dict(model.named_parameters())[name].grad
        assert torch.allclose(other, grad, atol=1e-5, rtol=1e-4), name


def test_a_wrong_position_would_be_caught():
    """The check above can fail: positions that restart at 0 after the prefix change the
    rotary distances, and the log-probs with them."""
    model = _peft_llama().eval()
    ids, mask, width = _random_batch()
    keep = ids.size(1) - width
    prefix = ps.common_prefix_length(ids, mask, width)
    original = ps.split_batch

    def restart(*args, **kwargs):
        parts = original(*args, **kwargs)
        parts.position_ids = parts.position_ids - prefix
        return parts

    with torch.no_grad():
        full = _full_logps(model, ids, mask, keep)
        ps.split_batch = restart
        try:
            wrong, _ = ps.shared_prefix_logps(model, ids, mask, keep, prefix, 0)
        finally:
            ps.split_batch = original
    completion = mask[:, -keep:].bool()
    assert (wrong - full).abs()[completion].max() > 1e-3


def test_dropout_rule():
    model = _peft_llama(dropout=0.1)
    model.train()
    assert ps.stochastic_forward(model)  # LoRA dropout draws masks in training
    with model.disable_adapter():  # TRL's reference pass: the adapter (and its dropout) off
        assert not ps.stochastic_forward(model)
    model.eval()
    assert not ps.stochastic_forward(model)
    plain = _peft_llama(dropout=0.0).train()
    assert not ps.stochastic_forward(plain)
    plain.base_model.model.model.layers[0].mlp.add_module("drop", torch.nn.Dropout(0.2))
    assert ps.stochastic_forward(plain)  # any other active dropout counts too


class _FakeTRL:
    """Stands in for GRPOTrainer: TRL's full pass, an accelerator with autocast."""

    class _Accelerator:
        @staticmethod
        def autocast():
            import contextlib
            return contextlib.nullcontext()

    class _Tokenizer:
        pad_token_id = 0

    def __init__(self):
        self.accelerator = self._Accelerator()
        self.processing_class = self._Tokenizer()
        self.full_calls = 0

    def _get_per_token_logps_and_entropies(self, model, input_ids, attention_mask,
                                           logits_to_keep, batch_size=None,
                                           compute_entropy=False, compute_aux_loss=False,
                                           **extra):
        self.full_calls += 1
        return _full_logps(model, input_ids, attention_mask, logits_to_keep), None, None


def test_trainer_checks_the_first_batch_then_shares():
    trainer = ps.prefix_sharing_trainer(True, _FakeTRL)()
    model = _peft_llama().train()
    ids, mask, width = _random_batch()
    keep = ids.size(1) - width
    with torch.no_grad():
        first = trainer._get_per_token_logps_and_entropies(model, ids, mask, keep)[0]
    assert trainer.full_calls == 1  # the check's full pass, once
    assert trainer.prefix_sharing.max_difference < 1e-5
    second = trainer._get_per_token_logps_and_entropies(model, ids, mask, keep)[0]
    assert trainer.full_calls == 1 and trainer.prefix_sharing.batches == 2
    assert torch.allclose(first, second.detach(), atol=1e-6)


def test_trainer_uses_the_full_pass_under_dropout_and_when_off():
    ids, mask, width = _random_batch()
    keep = ids.size(1) - width
    trainer = ps.prefix_sharing_trainer(True, _FakeTRL)()
    trainer._get_per_token_logps_and_entropies(_peft_llama(dropout=0.1).train(), ids, mask,
                                               keep)
    assert trainer.full_calls == 1 and trainer.prefix_sharing.batches == 0
    assert ps.prefix_sharing_trainer(False, _FakeTRL) is _FakeTRL
    # a prefix under MIN_PREFIX tokens is not worth the extra pass
    ids, mask, width = _random_batch(shared=ps.MIN_PREFIX - 5)
    trainer._get_per_token_logps_and_entropies(_peft_llama().train(), ids, mask,
                                               ids.size(1) - width)
    assert trainer.prefix_sharing.batches == 0


def test_trainer_turns_sharing_off_when_the_check_fails(monkeypatch, caplog):
    trainer = ps.prefix_sharing_trainer(True, _FakeTRL)()
    model = _peft_llama().train()
    ids, mask, width = _random_batch()
    keep = ids.size(1) - width

    def off_by_one(*args, **kwargs):
        logps, entropy = real(*args, **kwargs)
        return logps + 0.01, entropy

    real = ps.shared_prefix_logps
    monkeypatch.setattr(ps, "shared_prefix_logps", off_by_one)
    with caplog.at_level("WARNING"):
        out = trainer._get_per_token_logps_and_entropies(model, ids, mask, keep)[0]
    assert not trainer.prefix_sharing.enabled
    assert "differ by 1.00e-02" in caplog.text
    assert torch.allclose(out, _full_logps(model, ids, mask, keep))  # TRL's numbers
    trainer._get_per_token_logps_and_entropies(model, ids, mask, keep)
    assert trainer.prefix_sharing.batches == 0  # off for the rest of the run

    def no_cache(*args, **kwargs):
        raise TypeError("the model returned no cache")

    other = ps.prefix_sharing_trainer(True, _FakeTRL)()
    monkeypatch.setattr(ps, "shared_prefix_logps", no_cache)
    other._get_per_token_logps_and_entropies(model, ids, mask, keep)
    assert not other.prefix_sharing.enabled
    assert "TypeError" in other.prefix_sharing.reasons[0]


def test_trainer_uses_the_full_pass_with_activation_checkpointing():
    ids, mask, width = _random_batch()
    model = _peft_llama().train()
    enable = getattr(model, "activation_checkpointing_enable", None) or \
        model.gradient_checkpointing_enable
    enable()
    assert ps._checkpointing(model)
    trainer = ps.prefix_sharing_trainer(True, _FakeTRL)()
    trainer._get_per_token_logps_and_entropies(model, ids, mask, ids.size(1) - width)
    assert trainer.full_calls == 1 and trainer.prefix_sharing.batches == 0
    assert not ps._checkpointing(_peft_llama())


def _prompts(rows=6, shared=20, seed=3):
    gen = torch.Generator().manual_seed(seed)
    head = torch.randint(2, 40, (shared,), generator=gen).tolist()
    prompts = [head + torch.randint(2, 40, (int(n),), generator=gen).tolist()
               for n in torch.randint(1, 6, (rows,), generator=gen)]
    ids, mask, _ = _batch(prompts, [[]] * rows)
    return ids, mask


@pytest.mark.parametrize("sample", [False, True])
def test_shared_generation_gives_the_same_tokens(sample):
    model = _peft_llama().eval()
    ids, mask = _prompts()
    kwargs = dict(max_new_tokens=6, do_sample=sample, pad_token_id=0, eos_token_id=None)
    with torch.no_grad():
        torch.manual_seed(7)
        full = model.generate(input_ids=ids, attention_mask=mask, **kwargs)
        torch.manual_seed(7)
        shared = ps.shared_prefix_generate(model, model.generate, input_ids=ids,
                                           attention_mask=mask, **kwargs)
    width = ids.size(1)
    assert shared.shape == full.shape
    assert torch.equal(shared[:, width:], full[:, width:])


def test_shared_generation_leaves_short_prefixes_alone():
    calls = []

    def generate(**kwargs):
        calls.append(kwargs)
        return kwargs["input_ids"]

    ids, mask = _prompts(shared=ps.MIN_PREFIX - 4)
    ps.shared_prefix_generate(None, generate, input_ids=ids, attention_mask=mask)
    assert calls and not {"past_key_values", "cache"} & set(calls[0])
    assert calls[0]["input_ids"] is ids


class _FakeGenerating(_FakeTRL):
    """TRL's transformers generation path: left-padded prompts into the unwrapped model's
    `generate`, completions as lists of ids."""

    use_vllm = False

    def __init__(self, model, agreement_noise=False):
        super().__init__()
        self.model_wrapped = model
        self.generation_config = None
        self.noise = agreement_noise
        self.accelerator.unwrap_model = lambda m: m

    def _generate_single_turn(self, prompt_ids, images, multimodal_fields, num_generations,
                              has_tool_images=False):
        ids, mask, _ = _batch(prompt_ids, [[]] * len(prompt_ids))
        model = self.accelerator.unwrap_model(self.model_wrapped)
        with torch.no_grad():
            out = model.generate(input_ids=ids, attention_mask=mask, max_new_tokens=5,
                                 do_sample=True, pad_token_id=0, eos_token_id=None)
        completions = out[:, ids.size(1):].tolist()
        if self.noise and "generate" in model.__dict__:  # a shared path that went wrong
            completions = [[t + 1 for t in c] for c in completions]
        return completions, None


def test_trainer_generation_check_then_shared():
    model = _peft_llama().eval()
    prompts = [row[row != 0].tolist() for row in _prompts()[0]]
    cls = ps.prefix_sharing_trainer(True, _FakeGenerating)
    trainer = cls(model)
    torch.manual_seed(5)
    first, _ = trainer._generate_single_turn(prompts, None, {}, 1)
    after_check = torch.get_rng_state()
    torch.manual_seed(5)
    plain, _ = _FakeGenerating(model)._generate_single_turn(prompts, None, {}, 1)
    assert first == plain  # TRL's own tokens, and the random state moved as TRL's did
    assert torch.equal(after_check, torch.get_rng_state())
    assert trainer.prefix_sharing.generation_identical == 1.0
    trainer._generate_single_turn(prompts, None, {}, 1)
    assert trainer.prefix_sharing.generations == 1 and "generate" not in model.__dict__


def test_trainer_generation_falls_back_when_rows_disagree():
    model = _peft_llama().eval()
    prompts = [row[row != 0].tolist() for row in _prompts()[0]]
    trainer = ps.prefix_sharing_trainer(True, _FakeGenerating)(model, agreement_noise=True)
    trainer._generate_single_turn(prompts, None, {}, 1)
    assert not trainer.prefix_sharing.generation
    assert trainer.prefix_sharing.generation_identical == 0.0
    trainer._generate_single_turn(prompts, None, {}, 1)
    assert trainer.prefix_sharing.generations == 0
    # dropout while sampling: TRL's generation, no check spent
    drop = ps.prefix_sharing_trainer(True, _FakeGenerating)(_peft_llama(dropout=0.1).train())
    drop._generate_single_turn(prompts, None, {}, 1)
    assert not drop.prefix_sharing.generation_checked


def test_several_processes_keep_trls_pass():
    ids, mask, width = _random_batch()
    trainer = ps.prefix_sharing_trainer(True, _FakeTRL)()
    trainer.accelerator.num_processes = 2
    trainer._get_per_token_logps_and_entropies(_peft_llama().train(), ids, mask,
                                               ids.size(1) - width)
    assert trainer.full_calls == 1 and trainer.prefix_sharing.batches == 0


def test_summary_says_what_sharing_did():
    trainer = ps.prefix_sharing_trainer(True, _FakeTRL)()
    model = _peft_llama().train()
    ids, mask, width = _random_batch()
    for _ in range(2):
        trainer._get_per_token_logps_and_entropies(model, ids, mask, ids.size(1) - width)
    out = ps.summary(trainer)
    assert out["shared_passes"] == 2 and out["prefix_tokens"] >= 20
    assert out["first_batch_max_logprob_difference"] < 1e-5 and out["off_because"] == []
    assert ps.summary(_FakeTRL()) is None  # a trainer built without the option
