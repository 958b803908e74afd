"""backend: mlx on the default model (slow; skipped when mlx is not installed).

1. MLX greedy generation equals transformers' token for token (and, without rlvr's RoPE fix,
   it does not: the cause of the "French text" seen before).
2. An MLX LoRA adapter converted to PEFT gives transformers + PEFT the same logits.
3. Two GRPO steps through mlx-lm-lora, the adapter converted, evaluated by `rlvr eval`.
"""

from __future__ import annotations

import importlib.util
import json
import os

import numpy as np
import pytest

MISSING = [m for m in ("mlx", "mlx_lm", "mlx_lm_lora") if importlib.util.find_spec(m) is None]
pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    bool(MISSING), reason=f"{', '.join(MISSING)} not installed (pip install -e '.[mlx]')")]

PROMPTS = [
    [{"role": "user", "content": "What is the capital of France?"}],
    [{"role": "system", "content": "Answer in one short sentence."},
     {"role": "user", "content": "How many legs does a spider have?"}],
    [{"role": "user", "content": "Who wrote Romeo and Juliet?"}],
]
NEW_TOKENS = 16


@pytest.fixture(scope="module")
def models():
    """(model folder, transformers model, tokenizer) of the default model."""
    from rlvr.models import load_causal_lm, resolve_model
    from rlvr.train.mlx.model import use_system_blas

    use_system_blas()  # as the backend runs (mlx is not imported yet)
    model, tokenizer = load_causal_lm(None)
    return resolve_model(None), model, tokenizer


def _prompt_ids(tokenizer, messages):
    from rlvr.eval.generate import render_prompts

    return tokenizer.encode(render_prompts(tokenizer, [messages])[0], add_special_tokens=False)


def _hf_greedy(model, tokenizer, ids):
    import torch

    with torch.no_grad():
        out = model.generate(torch.tensor([ids]), max_new_tokens=NEW_TOKENS, do_sample=False,
                             eos_token_id=tokenizer.eos_token_id,
                             pad_token_id=tokenizer.pad_token_id)
    return out[0, len(ids):].tolist()


def test_mlx_greedy_equals_transformers(models):
    from rlvr.train.mlx.model import greedy_ids, load_mlx

    path, hf_model, tokenizer = models
    mlx_model, mlx_tokenizer = load_mlx(path)
    for messages in PROMPTS:
        ids = _prompt_ids(tokenizer, messages)
        assert _prompt_ids(mlx_tokenizer._tokenizer, messages) == ids  # same prompt tokens
        expected = _hf_greedy(hf_model, tokenizer, ids)
        got = greedy_ids(mlx_model, ids, NEW_TOKENS, {tokenizer.eos_token_id})
        assert got == expected, (tokenizer.decode(got), tokenizer.decode(expected))


def test_without_the_rope_fix_mlx_writes_something_else(models):
    """mlx-lm reads `rope_theta`, not transformers 5's `rope_parameters`: loaded as it is,
    the folder runs at RoPE base 10000 instead of 100000 and the answers change."""
    from mlx_lm import load

    from rlvr.train.mlx.model import greedy_ids, mlx_model_config

    path, hf_model, tokenizer = models
    assert mlx_model_config(path) == {"rope_theta": 100000.0}
    raw, _ = load(path)
    assert raw.args.rope_theta == 10000  # mlx-lm's default, silently
    differs = 0
    for messages in PROMPTS:
        ids = _prompt_ids(tokenizer, messages)
        differs += greedy_ids(raw, ids, NEW_TOKENS, {tokenizer.eos_token_id}) != \
            _hf_greedy(hf_model, tokenizer, ids)
    assert differs >= 1


def test_converted_adapter_gives_peft_the_same_logits(models, tmp_path):
    import mlx.core as mx
    import torch
    from mlx.utils import tree_flatten

    from rlvr.models import apply_adapter, load_causal_lm
    from rlvr.train.mlx.adapter import to_peft, write_mlx_config
    from rlvr.train.mlx.model import add_lora, block_linear_names, load_mlx

    path, hf_model, tokenizer = models
    mlx_model, _ = load_mlx(path)
    lora = {"rank": 4, "scale": 2.0, "dropout": 0.0, "keys": block_linear_names(mlx_model)}
    entry = add_lora(mlx_model, lora)
    mx.random.seed(0)
    lora_b = [(k, 0.05 * mx.random.normal(v.shape)) for k, v in
              tree_flatten(mlx_model.trainable_parameters()) if k.endswith("lora_b")]
    mlx_model.load_weights(lora_b, strict=False)  # B = 0 at init: make the adapter matter
    mlx_model.eval()
    mlx_dir = tmp_path / "adapter_mlx"
    mlx_dir.mkdir()
    mx.save_safetensors(str(mlx_dir / "adapters.safetensors"),
                        dict(tree_flatten(mlx_model.trainable_parameters())))
    write_mlx_config(mlx_dir, entry["lora_parameters"], entry["num_layers"])
    peft_dir = to_peft(mlx_dir, tmp_path / "adapter", base_model=path)

    ids = _prompt_ids(tokenizer, PROMPTS[0])
    mlx_logits = np.array(mlx_model(mx.array([ids]))[0])
    base, _ = load_causal_lm(None)
    with torch.no_grad():
        base_logits = base(torch.tensor([ids])).logits[0].numpy()
        peft_logits = apply_adapter(base, str(peft_dir))(torch.tensor([ids])).logits[0].numpy()
    effect = np.abs(peft_logits - base_logits).max()
    gap = np.abs(mlx_logits - peft_logits).max()
    # measured: effect 5.4, gap 8.5e-5 (the base models alone differ by 1.4e-4: fp32 noise)
    assert effect > 0.1  # the adapter changes the logits, so a wrong conversion would show
    assert gap < 5e-4, f"MLX+adapter vs PEFT: max |logit gap| {gap:.2e} (effect {effect:.2f})"


def test_two_mlx_steps_then_rlvr_eval(tmp_path, capsys):
    import yaml
    from peft import PeftModel

    from rlvr.cli import main
    from rlvr.config import load_config
    from rlvr.tasks.heldout import write_run_data
    from rlvr.models import load_causal_lm, resolve_model
    from rlvr.train.data_prep import prepare_data, training_columns
    from rlvr.train.mlx.backend import MlxTrainer

    run_dir = tmp_path / "run"
    cfg = load_config(None, {
        "backend": "mlx", "max_steps": 2, "per_device_train_batch_size": 4,
        "gradient_accumulation_steps": 1, "num_generations": 2, "max_completion_length": 16,
        "train_limit": 8, "eval_limit": 4, "beta": 0.1, "warmup_ratio": 0.0,
        "learning_rate": 1e-3, "temperature": 1.0, "output_dir": str(run_dir),
        "report_to": "none"})
    data, train, heldout = prepare_data(cfg)
    run_dir.mkdir()
    (run_dir / "resolved_config.yaml").write_text(yaml.safe_dump(cfg.to_dict()))
    write_run_data(run_dir, train, heldout)
    base, _ = load_causal_lm(None)
    trainer = MlxTrainer(cfg, base, training_columns(train), run_dir, resolve_model(None),
                         run_dir / "metrics.jsonl")  # as rlvr.train.job.run builds it
    output = trainer.train()
    result = trainer.result
    assert trainer.state.global_step == 2 and np.isfinite(output.training_loss)
    assert isinstance(trainer.model, PeftModel)  # the converted adapter on the base model
    assert result.global_step == 2 and [h["step"] for h in result.log_history] == [1, 2]
    for record in result.log_history:
        assert -1.0 <= record["rewards/selfaware/mean"] <= 1.0
        assert np.isfinite(record["loss"]) and record["seconds_per_step"] > 0
        assert "calibration/over_abstention" in record or "calibration/hedge_rate" in record
    assert len((run_dir / "metrics.jsonl").read_text().splitlines()) == 2
    assert (result.mlx_adapter_dir / "adapters.safetensors").is_file()
    from safetensors.numpy import load_file

    lora_b = [v for k, v in load_file(str(result.mlx_adapter_dir / "adapters.safetensors")).items()
              if k.endswith("lora_b")]
    if any(h["mlx/grouped_rewards_std"] > 0 for h in result.log_history):  # a group with spread
        assert max(float(np.abs(b).max()) for b in lora_b) > 0
    config = json.loads((result.adapter_dir / "adapter_config.json").read_text())
    assert (config["r"], config["lora_alpha"]) == (cfg.lora_r, cfg.lora_alpha)

    out_dir = tmp_path / "eval"
    code = main(["eval", "--adapter", str(result.adapter_dir), "--tasks", "selfaware",
                 "--limit", "4", "--batch-size", "4", "--max-new-tokens", "16",
                 "--output-dir", str(out_dir)])
    assert code == 0
    results = json.loads((out_dir / "results.json").read_text())
    text = json.dumps(results)
    assert "selfaware" in text and "adapter" in text
    assert os.path.isfile(out_dir / "samples_adapter_selfaware.jsonl")
