"""The evaluation engine of a run: which engine `auto` names, what each stage generates
with on the transformers engine, and the merged weights a trained stage loads into vLLM
(the vLLM side itself: tests/test_vllm_slow.py)."""

from __future__ import annotations

import pytest

from rlvr.errors import RlvrError
from rlvr.eval.run_engine import RunGenerator
from rlvr.eval.settings import EvalSettings
from rlvr.eval.vllm_engine import merged_weights, resolve_engine


def _installed(name):
    return object()


def _missing(name):
    return None


def test_auto_is_vllm_when_installed_unless_the_environment_names_one():
    assert resolve_engine("auto", _installed, {}) == "vllm"
    assert resolve_engine("auto", _missing, {}) == "transformers"
    assert resolve_engine("auto", _installed, {"RLVR_EVAL_ENGINE": "transformers"}) == \
        "transformers"
    assert resolve_engine("transformers", _installed, {}) == "transformers"
    assert resolve_engine("vllm", _missing, {}) == "vllm"  # check_engine refuses it later
    with pytest.raises(RlvrError, match="RLVR_EVAL_ENGINE='gpu'"):
        resolve_engine("auto", _installed, {"RLVR_EVAL_ENGINE": "gpu"})


def test_settings_hold_the_resolved_engine(monkeypatch):
    monkeypatch.setenv("RLVR_EVAL_ENGINE", "transformers")
    assert EvalSettings().engine == "transformers"
    assert EvalSettings(engine="auto").engine == "transformers"


def test_the_transformers_engine_hands_every_stage_the_loaded_model():
    base, trained = object(), object()
    gen = RunGenerator("transformers", "unused-path")
    assert gen.base(base, "eval_base") is base
    assert gen.trained(trained, "eval_trained") is trained
    assert gen.stages == {"eval_base": "transformers", "eval_trained": "transformers"}
    gen.close()  # nothing built: nothing to close
    assert gen.startup_s is None and gen.reload_s is None


def test_a_multi_process_run_keeps_the_loaded_model(monkeypatch):
    monkeypatch.setenv("WORLD_SIZE", "2")
    base = object()
    gen = RunGenerator("vllm", "unused-path")
    assert gen.base(base, "eval_base") is base and gen.stages == {"eval_base": "transformers"}


def _tiny_llama():
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    config = LlamaConfig(vocab_size=64, hidden_size=16, intermediate_size=32,
                         num_hidden_layers=2, num_attention_heads=2, num_key_value_heads=1,
                         tie_word_embeddings=True)
    return LlamaForCausalLM(config)


def _tiny_peft():
    from peft import LoraConfig, get_peft_model

    base = _tiny_llama()
    names = [n for n, _ in base.named_parameters()]
    model = get_peft_model(base, LoraConfig(r=2, lora_alpha=4, target_modules=["q_proj"],
                                            init_lora_weights=False))
    return model, names


def test_merged_weights_are_base_plus_scaled_lora_under_the_base_names():
    import torch

    model, names = _tiny_peft()
    ids = torch.tensor([[1, 2, 3, 4]])
    before = model(input_ids=ids).logits.detach().clone()
    layer = model.base_model.model.model.layers[0].self_attn.q_proj
    w = layer.base_layer.weight.detach().clone()
    a, b = layer.lora_A["default"].weight.detach(), layer.lora_B["default"].weight.detach()
    scale = layer.scaling["default"]  # lora_alpha / r = 4 / 2 = 2.0
    assert scale == 2.0
    weights = dict(merged_weights(model))
    assert list(weights) == names  # no lora_ tensors, no PEFT prefixes
    torch.testing.assert_close(weights["model.layers.0.self_attn.q_proj.weight"],
                               w + scale * (b @ a))
    torch.testing.assert_close(weights["model.layers.0.self_attn.k_proj.weight"],
                               model.base_model.model.model.layers[0].self_attn.k_proj.weight)
    # the model is unmerged again: same weights, same outputs
    torch.testing.assert_close(layer.base_layer.weight, w)
    torch.testing.assert_close(model(input_ids=ids).logits, before)


def test_merged_weights_of_a_plain_model_are_its_parameters():
    import torch

    plain = _tiny_llama()
    plain_names = [n for n, _ in plain.named_parameters()]
    weights = merged_weights(plain)
    assert [n for n, _ in weights] == plain_names
    for (_, t), (_, p) in zip(weights, plain.named_parameters()):
        assert torch.equal(t, p) and t.data_ptr() != p.data_ptr()  # copies


# --- the labelling pool: label only what the run can draw ---

def test_label_pool_is_twice_the_draws_and_at_least_the_floor():
    from rlvr.eval.labelling import label_pool

    assert label_pool(None) is None  # epoch-based or curriculum: every row
    assert label_pool(20 * 8) == 320  # the main job: 2 x 160
    assert label_pool(2 * 8) == 64  # 2 x 16 = 32 < 64 -> the floor
    assert label_pool(100 * 8) == 1600  # 2 x 800
    assert label_pool(10, margin=3, floor=0) == 30


def test_prompts_drawn_counts_steps_times_prompts_per_step(monkeypatch):
    from rlvr.config import TrainConfig
    from rlvr.train.job import prompts_drawn

    monkeypatch.delenv("WORLD_SIZE", raising=False)
    cfg = TrainConfig(max_steps=20, per_device_train_batch_size=32, num_generations=4,
                      gradient_accumulation_steps=1)
    assert prompts_drawn(cfg) == 160  # 20 x 32 / 4
    monkeypatch.setenv("WORLD_SIZE", "2")
    assert prompts_drawn(cfg) == 320  # 20 x (32 x 1 x 2) / 4
    cfg.gradient_accumulation_steps = 2
    assert prompts_drawn(cfg) == 640  # 20 x (32 x 2 x 2) / 4
    assert prompts_drawn(TrainConfig(max_steps=-1)) is None
    assert prompts_drawn(TrainConfig(max_steps=5, curriculum=True)) is None


def _pool_case(tmp_path, monkeypatch, pool, train_answerable="known", n=600):
    """600 rows, every third unanswerable; an answerable row is known when its index is
    even. Generation is faked: records the labelled ids."""
    import rlvr.eval.labelling as labelling
    from rlvr.eval.settings import EvalSettings, KnowledgeSettings

    calls = []

    def fake_samples(model, tokenizer, task, rows, knowledge, generation, label):
        calls.append([r["id"] for r in rows])
        return [{"id": r["id"], "is_unanswerable": False,
                 "outcome": "correct" if r["id"] % 2 == 0 else "wrong", "reward": 1.0}
                for r in rows]

    monkeypatch.setattr(labelling, "_knowledge_samples", fake_samples)
    train = [{"question": f"q{i}", "answers": ["a"], "is_unanswerable": i % 3 == 0,
              "prompt": [{"role": "user", "content": f"q{i}"}], "source": "t"}
             for i in range(n)]
    kept, counts = labelling.known_training_rows(
        None, None, None, train, KnowledgeSettings(cache=False), EvalSettings(),
        train_answerable, tmp_path, pool=pool)
    return train, kept, counts, calls


def test_a_pool_labels_only_until_enough_rows_are_kept(tmp_path, monkeypatch):
    train, kept, counts, calls = _pool_case(tmp_path, monkeypatch, pool=150)  # 400 > 300
    labelled = [i for call in calls for i in call]
    assert all(len(call) <= 128 for call in calls)
    assert counts["labelled"] == len(labelled) < 400  # fewer than the 400 answerable rows
    assert len(kept) >= 150 and counts["left_out"] > 0
    # kept: reached unanswerable rows and known (even) labelled rows, in the data's order
    assert all(r["is_unanswerable"] or r["known"] for r in kept)
    indexes = [train.index(r) if r["is_unanswerable"] else None for r in kept]
    assert [i for i in indexes if i is not None] == sorted(i for i in indexes if i is not None)
    assert {int(r["question"][1:]) for r in kept if not r["is_unanswerable"]} == \
        {i for i in labelled if i % 2 == 0}
    # the mix follows the data: unanswerable rows are about 1/3 of the rows reached
    reached = counts["labelled"] + sum(r["is_unanswerable"] for r in kept)
    share = sum(r["is_unanswerable"] for r in kept) / reached
    assert 0.2 < share < 0.45


def test_the_pool_order_is_the_same_for_every_run(tmp_path, monkeypatch):
    _, kept_a, _, calls_a = _pool_case(tmp_path / "a", monkeypatch, pool=150)
    _, kept_b, _, calls_b = _pool_case(tmp_path / "b", monkeypatch, pool=150)
    assert calls_a == calls_b and kept_a == kept_b


def test_a_pool_the_data_cannot_fill_labels_every_row_in_one_call(tmp_path, monkeypatch):
    # 400 answerable rows, not more than 2 x 200: one call for all
    train, kept, counts, calls = _pool_case(tmp_path, monkeypatch, pool=200)
    assert len(calls) == 1 and calls[0] == [i for i in range(600) if i % 3]  # data order
    assert "left_out" not in counts and counts["known"] == 200


def test_label_mode_keeps_every_labelled_row_with_its_label(tmp_path, monkeypatch):
    _, kept, counts, calls = _pool_case(tmp_path, monkeypatch, pool=150,
                                        train_answerable="label")
    answerable = [r for r in kept if not r["is_unanswerable"]]
    assert len(answerable) == counts["labelled"]
    assert {r["known"] for r in answerable} == {True, False}
