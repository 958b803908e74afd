"""The likelihood cross-task check on the default model (slow: loads SmolLM2-135M)."""

from __future__ import annotations

import math

import pytest

from rlvr.eval import cross_check
from rlvr.eval.cross_check import CONTINUATIONS
from rlvr.tasks.sources import DataResolver

pytestmark = pytest.mark.slow

PACKAGED = DataResolver("packaged")


def test_default_model_numbers_are_finite_and_an_identity_adapter_changes_nothing():
    import torch
    from peft import LoraConfig, get_peft_model

    from rlvr.models import load_causal_lm

    model, tok = load_causal_lm(None)
    peft = get_peft_model(model, LoraConfig(r=4, lora_alpha=8, target_modules=["q_proj",
                                                                              "v_proj"]))
    check = cross_check.likelihood_check(None, peft, tok, list(CONTINUATIONS), limit=3,
                                         seed=0, bootstrap_samples=200, resolver=PACKAGED,
                                         distractors={"default": 4})  # rank every task here
    assert not check["skipped"]
    for name, r in check["tasks"].items():
        assert r["n"] == 3 and math.isfinite(r["base"]) and math.isfinite(r["trained"])
        assert -20 < r["base"] < 0, name
        assert r["difference"]["mean_difference"] == 0.0  # LoRA B = 0: exactly the base
        assert r["truncated_rows"] == 0
        assert r["ranking"]["candidates"] == 5 and r["ranking"]["base"] == r["ranking"]["trained"]
        assert r["abstention"]["difference"]["mean_difference"] == 0.0
    # HumanEval prompts end in "\n" and the canonical bodies start with indentation, which
    # SmolLM2's tokenizer joins into one token: scored, not dropped (rlvr.eval.likelihood)
    assert {n: r["boundary_merged"] for n, r in check["tasks"].items()} == {
        "gsm8k": 0, "triviaqa": 0, "humaneval": 3, "mbpp": 0}
    with torch.no_grad():  # a non-identity adapter moves the numbers
        for pname, param in peft.named_parameters():
            if "lora_B" in pname:
                param.normal_(0, 0.02, generator=torch.Generator().manual_seed(0))
    moved = cross_check.likelihood_check(None, peft, tok, ["triviaqa"], limit=3, seed=0,
                                         bootstrap_samples=200, resolver=PACKAGED)
    assert moved["tasks"]["triviaqa"]["difference"]["mean_difference"] != 0.0
