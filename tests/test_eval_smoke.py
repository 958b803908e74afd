"""A small end-to-end `rlvr eval` on the default model with an adapter (slow)."""

from __future__ import annotations

import json

import pytest

from conftest import SHARED_DATA

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def adapter_dir(tmp_path_factory):
    """A freshly initialised LoRA adapter on the default model (B = 0, so it changes
    nothing yet; enough to exercise adapter loading)."""
    from peft import LoraConfig, get_peft_model

    from rlvr.models import load_causal_lm

    model, tokenizer = load_causal_lm(None)
    peft_model = get_peft_model(model, LoraConfig(r=2, lora_alpha=2, target_modules="all-linear",
                                                  task_type="CAUSAL_LM"))
    out = tmp_path_factory.mktemp("adapter")
    peft_model.save_pretrained(out)
    return out


def test_eval_base_and_adapter(tmp_path, adapter_dir, capsys):
    from rlvr.cli import main

    out = tmp_path / "eval"
    code = main(["eval", "--tasks", "selfaware,gsm8k,triviaqa,humaneval,mbpp", "--limit", "2",
                 "--max-new-tokens", "16", "--batch-size", "2", "--data-dir", str(SHARED_DATA),
                 "--adapter", str(adapter_dir), "--output-dir", str(out)])
    assert code == 0
    results = json.loads((out / "results.json").read_text())
    runs = results["meta"]["runs"]
    assert runs[0] == "base" and len(runs) == 2
    for run in runs:
        for task in ("selfaware", "gsm8k", "triviaqa", "humaneval", "mbpp"):
            lines = (out / f"samples_{run}_{task}.jsonl").read_text().splitlines()
            assert len(lines) == 2
            record = json.loads(lines[0])
            assert {"task", "id", "prompt", "completion", "reward", "outcome"} <= set(record)
    # a zero-initialised adapter does not change greedy outputs
    for task in ("selfaware", "gsm8k"):
        a = [json.loads(x)["completion"] for x in (out / f"samples_base_{task}.jsonl").open()]
        b = [json.loads(x)["completion"] for x in (out / f"samples_{runs[1]}_{task}.jsonl").open()]
        assert a == b
    assert "cross_eval/base_on_gsm8k" in results["tracker"]
    assert results["meta"]["packages"]["trl"]
    assert "| gsm8k | accuracy |" in capsys.readouterr().out
