"""A tiny random Llama and a word-level tokenizer for tests that drive TRL without the
default model (seconds, not minutes)."""

from __future__ import annotations


def tiny_llama(vocab_size: int = 20):
    """Return (model, tokenizer): 1 layer, hidden size 16, vocabulary `<pad>`, `<eos>` and
    `w0` ... `w{vocab_size-1}`; seeded, so every call builds the same weights."""
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    vocab = {"<pad>": 0, "<eos>": 1, **{f"w{i}": i + 2 for i in range(vocab_size)}}
    backend = Tokenizer(models.WordLevel(vocab, unk_token="<pad>"))
    backend.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=backend, pad_token="<pad>",
                                        eos_token="<eos>")
    torch.manual_seed(0)
    model = LlamaForCausalLM(LlamaConfig(
        vocab_size=len(vocab), hidden_size=16, intermediate_size=32, num_hidden_layers=1,
        num_attention_heads=2, num_key_value_heads=2, pad_token_id=0, eos_token_id=1,
        bos_token_id=1))
    return model, tokenizer


CHAT_TEMPLATE = ("{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<eos>{% endfor %}"
                 "{% if add_generation_prompt %}<|assistant|>{% endif %}")


def tiny_chat_llama():
    """Return (model, tokenizer) that can encode any text and chat: a byte-level tokenizer
    (the 256 bytes, no merges, so one token per byte) with special tokens `<pad>`, `<eos>`,
    role markers and a chat template, and a seeded 1-layer Llama (hidden size 16) over it."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    alphabet = pre_tokenizers.ByteLevel.alphabet()
    specials = ["<pad>", "<eos>", "<|system|>", "<|user|>", "<|assistant|>"]
    vocab = {tok: i for i, tok in enumerate(specials + sorted(alphabet))}
    backend = Tokenizer(models.BPE(vocab=vocab, merges=[]))
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    backend.decoder = decoders.ByteLevel()
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=backend, pad_token="<pad>",
                                        eos_token="<eos>",
                                        additional_special_tokens=specials[2:])
    tokenizer.chat_template = CHAT_TEMPLATE
    tokenizer.padding_side = "left"
    torch.manual_seed(0)
    model = LlamaForCausalLM(LlamaConfig(
        vocab_size=len(vocab), hidden_size=16, intermediate_size=32, num_hidden_layers=1,
        num_attention_heads=2, num_key_value_heads=2, pad_token_id=0, eos_token_id=1,
        bos_token_id=1, max_position_embeddings=4096))
    return model, tokenizer


def use_tiny_model(monkeypatch, job, folder, tokenizer, model_factory):
    """Point the main job (`rlvr.train.job`) at a tiny in-memory model: the model spec
    resolves to `folder`, the tokenizer is `tokenizer`, each `load_for_training` call returns
    `model_factory()`, and the free-space check is off (tmp folders are small)."""
    monkeypatch.setattr(job, "resolve_model", lambda spec: str(folder))
    monkeypatch.setattr(job, "load_tokenizer", lambda path: tokenizer)
    monkeypatch.setattr(job, "load_for_training", lambda path, cfg: model_factory())
    monkeypatch.setattr(job, "_check_space", lambda *args: None)


# the settings of a tiny GSM8K task run: one step, 4 completions, 3-token answers
TINY_TASK_RUN = {"max_steps": 1, "max_completion_length": 4, "per_device_train_batch_size": 4,
                 "num_generations": 2, "eval_max_new_tokens": 3, "report_to": "none",
                 "lora_target_modules": ["q_proj", "v_proj"], "bootstrap_samples": 20}


def tiny_task_run(monkeypatch, folder):
    """The main job offline (the packaged GSM8K subsets: HF_HUB_OFFLINE, no RLVR_DATA_DIR)
    on the tiny chat model (`use_tiny_model`); returns the `rlvr.train.job` module."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.delenv("RLVR_DATA_DIR", raising=False)
    from rlvr.train import job

    model, tokenizer = tiny_chat_llama()
    use_tiny_model(monkeypatch, job, folder, tokenizer, lambda: model)
    return job


# one GRPO step of the main job on the tiny model with the given rewards: 2 prompts x 2
# completions of 4 tokens, no evaluation, no preflight (tests of a reward's training path)
TINY_GRPO_STEP = {"max_steps": 1, "max_completion_length": 4, "per_device_train_batch_size": 4,
                  "num_generations": 2, "gradient_accumulation_steps": 1, "train_limit": 4,
                  "skip_eval": True, "report_to": "none", "cross_check": "none",
                  "diagnostics": False, "preflight": "off",
                  "lora_target_modules": ["q_proj", "v_proj"]}
