"""Rollouts follow the adapter (run by tests/test_vllm_slow.py in a process of its own,
since vLLM's in-process engine holds process-wide state; needs vLLM's CPU build).

A vLLM engine on the default model, built through the `LLM` of TRL's module as patched
by `rlvr.train.vllm_cpu.patch_trl_vllm_for_cpu` (float32, eager), gets its weights from a
PEFT model through TRL's own `VLLMGeneration._iter_named_params` (LoRA merged into the base
weights) and the patched `sync_weights`. After each sync with a changed LoRA, vLLM's greedy answers must
change and equal transformers + PEFT greedy answers. Prints one JSON line.
"""

from __future__ import annotations

import contextlib
import json
import sys
import types

QUESTIONS = ["What is the capital of France?", "What is 7 times 8?",
             "Who wrote Romeo and Juliet?", "How many legs does a spider have?",
             "What is the largest planet in the solar system?", "What is 15 plus 27?"]


def main() -> int:
    import torch
    from peft import LoraConfig, get_peft_model
    from trl.generation import vllm_generation

    from rlvr.eval.generate import generate_completions
    from rlvr.eval.vllm_engine import VllmEngine
    from rlvr.models import load_causal_lm, resolve_model
    from rlvr.train.vllm_cpu import patch_trl_vllm_for_cpu

    patch_trl_vllm_for_cpu("float32")
    path = resolve_model(None)
    model, tokenizer = load_causal_lm(None)
    torch.manual_seed(0)  # lora_A's initialisation: unseeded, a small change sometimes left
    # every greedy answer as the base model's and the test failed by chance
    peft_model = get_peft_model(model, LoraConfig(r=8, lora_alpha=16,
                                                  target_modules=["q_proj", "v_proj"]))
    peft_model.eval()
    prompts = [[{"role": "user", "content": q}] for q in QUESTIONS]
    # the engine as TRL's colocate mode builds it: through the patched `LLM` of its module
    llm = vllm_generation.LLM(model=path, max_model_len=2048, seed=0)
    engine = VllmEngine(path, "float32")
    engine._llm = llm  # rlvr's generation helper on TRL's engine
    model_config = llm.llm_engine.vllm_config.model_config

    generation = types.SimpleNamespace(mode="colocate", enable_sleep_mode=False, llm=llm,
                                       model=peft_model)
    generation._dist = types.SimpleNamespace(gather_params=lambda p: contextlib.nullcontext(),
                                             is_fsdp=False)
    cls = vllm_generation.VLLMGeneration
    generation._fix_param_name_to_vllm = lambda name, extra_prefixes=None: \
        cls._fix_param_name_to_vllm(generation, name, extra_prefixes)
    generation._iter_named_params = lambda: cls._iter_named_params(generation)

    def answers(which):
        if which == "vllm":
            return [r["completion"] for r in engine.generate_completions(
                tokenizer, prompts, 24, progress=False)]
        return [r["completion"] for r in generate_completions(
            peft_model, tokenizer, prompts, 24, progress=False)]

    out = {"dtype": str(model_config.dtype), "enforce_eager": model_config.enforce_eager,
           "base": answers("vllm")}
    for round_ in (1, 2):
        torch.manual_seed(round_)
        with torch.no_grad():
            for name, param in peft_model.named_parameters():
                if "lora_B" in name:
                    param.normal_(0, 0.05)
        cls.sync_weights(generation)  # the patched sync
        out[f"vllm_{round_}"], out[f"hf_{round_}"] = answers("vllm"), answers("hf")
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
