"""A reward model as a reward (`reward_model:` entries, `rlvr.models.reward`): a tiny random
one-label Llama sequence classifier with the default model's tokenizer, saved to tmp_path;
its scores must equal AutoModelForSequenceClassification's logits on the same text."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from rlvr.config import load_config
from rlvr.errors import ConfigError, ModelNotFoundError, RlvrError
from rlvr.rewards import REWARDS, make_trl_rewards, register_user_rewards, score_rows

pytestmark = pytest.mark.usefixtures("keep_rewards")


def _save_tiny_rm(folder, chat_template: bool = True):
    """A 1-layer Llama (hidden 16) with a one-label score head, seeded, and the default
    model's tokenizer (with or without its chat template), saved to `folder`."""
    import torch
    from transformers import AutoTokenizer, LlamaConfig, LlamaForSequenceClassification

    tokenizer = AutoTokenizer.from_pretrained(_tokenizer_folder())
    if not chat_template:
        tokenizer.chat_template = None
    torch.manual_seed(0)
    model = LlamaForSequenceClassification(LlamaConfig(
        vocab_size=len(tokenizer), hidden_size=16, intermediate_size=32, num_hidden_layers=1,
        num_attention_heads=2, num_key_value_heads=2, num_labels=1,
        pad_token_id=tokenizer.pad_token_id, max_position_embeddings=512))
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    if not chat_template:
        for name in ("chat_template.jinja", "chat_template.json"):
            (folder / name).unlink(missing_ok=True)
    return folder


def _tokenizer_folder() -> Path:
    """The default model's folder (its tokenizer has a chat template), converted from the
    packaged GGUF on first use as every run does."""
    from rlvr.models import resolve_model

    return Path(resolve_model(None))


@pytest.fixture(scope="module")
def rm_folder(tmp_path_factory):
    return _save_tiny_rm(tmp_path_factory.mktemp("rm") / "tiny-rm")


def _direct(folder, texts):
    """Each text's logit from AutoModelForSequenceClassification, one text at a time."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(folder)
    model = AutoModelForSequenceClassification.from_pretrained(folder).eval()
    with torch.inference_mode():
        return [model(**tokenizer(t, return_tensors="pt", add_special_tokens=False))
                .logits[0, 0].item() for t in texts]


ROWS = [  # (prompt, completion): text and chat prompts, completions of different lengths
    ("What is the capital of France?", "Paris."),
    ([{"role": "user", "content": "2 + 2 = ?"}], "It is 4, because two and two make four."),
    ("Name a prime.", "I don't know."),
]


def test_scores_equal_the_model_on_the_chat_rendered_text(rm_folder):
    from transformers import AutoTokenizer

    [entry] = register_user_rewards([{"name": "rm", "reward_model": str(rm_folder),
                                      "params": {"batch_size": 2}}])
    results = score_rows("rm", [{"prompt": p, "completion": c} for p, c in ROWS],
                         batch_size=2)  # two batches: one padded pair of 2, one single
    tokenizer = AutoTokenizer.from_pretrained(rm_folder)
    texts = [tokenizer.apply_chat_template(
        (p if isinstance(p, list) else [{"role": "user", "content": p}])
        + [{"role": "assistant", "content": c}], tokenize=False) for p, c in ROWS]
    assert [r.score for r in results] == pytest.approx(_direct(rm_folder, texts), abs=1e-5)
    assert {r.outcome for r in results} == {"scored"}
    assert entry["reward_model"] == str(rm_folder.resolve())


def test_without_a_chat_template_the_pair_is_encoded_as_a_text_pair(tmp_path, rm_folder):
    """As encoder reward models expect `tokenizer(question, answer)`, special tokens on."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    folder = _save_tiny_rm(tmp_path / "plain-rm", chat_template=False)
    register_user_rewards([{"name": "plain", "reward_model": str(folder)}])
    results = score_rows("plain", [{"prompt": p, "completion": c} for p, c in ROWS[::2]])
    tokenizer = AutoTokenizer.from_pretrained(folder)
    model = AutoModelForSequenceClassification.from_pretrained(folder).eval()
    with torch.inference_mode():
        direct = [model(**tokenizer(p, c, return_tensors="pt")).logits[0, 0].item()
                  for p, c in ROWS[::2]]
    assert [r.score for r in results] == pytest.approx(direct, abs=1e-5)


def test_max_length_cuts_the_prompt_not_the_completion(rm_folder):
    """Two completions after a long prompt, cut to 64 tokens: they still score apart (the
    cut falls on the prompt's start), and each equals the model on the last 64 tokens."""
    from rlvr.models.reward import load_reward_model, render_pair, score_pairs

    prompt = "Tell me about Paris. " * 40  # about 200 tokens
    scores = score_pairs(str(rm_folder), [prompt, prompt], ["Paris is big.", "No idea."],
                         max_length=64)
    assert scores[0] != pytest.approx(scores[1], abs=1e-6)
    model, tokenizer = load_reward_model(str(rm_folder))
    text = render_pair(tokenizer, prompt, "No idea.")
    ids = tokenizer(text, add_special_tokens=False, return_tensors="pt").input_ids[:, -64:]
    import torch

    with torch.inference_mode():
        assert model(input_ids=ids).logits[0, 0].item() == pytest.approx(scores[1], abs=1e-5)


def test_trl_reward_function_and_loaded_once(rm_folder):
    from rlvr.models import reward as reward_model

    funcs, weights = make_trl_rewards([{"name": "rm", "reward_model": str(rm_folder),
                                        "weight": 0.5}])
    first = funcs[0](["Paris.", "Rome."], prompts=["Capital of France?"] * 2)
    model = reward_model._LOADED[str(rm_folder.resolve())][0]
    again = funcs[0](["Paris.", "Rome."], prompts=["Capital of France?"] * 2)
    assert funcs[0].__name__ == "rm" and weights == [0.5]
    assert first == again and len(first) == 2 and all(isinstance(s, float) for s in first)
    assert reward_model.load_reward_model(str(rm_folder))[0] is model


def _config_file(folder, config: dict | None, files: tuple[str, ...] = ()):
    folder.mkdir(parents=True, exist_ok=True)
    if config is not None:
        (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    for name in files:
        (folder / name).write_text("", encoding="utf-8")
    return folder


BAD_MODELS = [
    # (folder name, config.json or None (no file), message)
    ("missing", "absent", "does not exist"),
    ("no-config", None, "has no config.json, so it is not a Hugging Face model folder"),
    ("causal", {"architectures": ["LlamaForCausalLM"]}, "is a LlamaForCausalLM, not a "
                                                        "sequence-classification model"),
    ("two-labels", {"architectures": ["LlamaForSequenceClassification"],
                    "id2label": {"0": "A", "1": "B"}}, "has 2 labels"),
]


@pytest.mark.parametrize("name,config,message", BAD_MODELS)
def test_a_bad_reward_model_fails_when_the_config_loads(tmp_path, name, config, message):
    if config != "absent":
        _config_file(tmp_path / "configs" / name, config)
    (tmp_path / "configs").mkdir(exist_ok=True)
    path = tmp_path / "configs" / "run.yaml"
    path.write_text(f"reward_funcs: [{{name: rm, reward_model: {name}}}]\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"^reward_funcs: reward_model .*" + message) as info:
        load_config(path)
    assert "\n" not in str(info.value)


def test_a_relative_folder_is_read_from_the_config_folder(tmp_path, monkeypatch):
    _config_file(tmp_path / "configs" / "rm", {"architectures": ["LlamaForSequenceClassification"],
                                              "id2label": {"0": "LABEL_0"}})
    (tmp_path / "configs" / "run.yaml").write_text(textwrap.dedent("""\
        reward_funcs:
          - {name: rm, reward_model: rm, score_range: [-5, 5], params: {batch_size: 4}}
          - {name: selfaware, preset: strict}
        """), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    cfg = load_config(tmp_path / "configs" / "run.yaml")
    assert cfg.reward_funcs[0]["reward_model"] == str((tmp_path / "configs" / "rm").resolve())
    assert REWARDS["rm"].score_range == (-5.0, 5.0)


ENTRY_ERRORS = [
    ({"reward_model": "x/y", "params": {"batch_sise": 2}}, "has no parameter 'batch_sise'"),
    ({"reward_model": "x/y", "params": {"model": "a/b"}}, "remove params.model"),
    ({"reward_model": "x/y", "function": "m:f"}, "has both function and reward_model"),
    ({"reward_model": "x/y", "batch": True}, "batch is for a function"),
    ({"reward_model": 3}, "reward_model must be a model folder or a hub id"),
]


@pytest.mark.parametrize("entry,message", ENTRY_ERRORS)
def test_bad_reward_model_entries(entry, message):
    with pytest.raises(RlvrError, match=message):
        make_trl_rewards([{"name": "rm", **entry}])


def test_a_hub_id_passes_config_load_and_fails_the_preflight_offline(tmp_path, monkeypatch):
    from rlvr.models.reward import check_reward_model

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    register_user_rewards([{"name": "rm", "reward_model": "someorg/some-rm"}])  # offline check
    with pytest.raises(ModelNotFoundError, match="'someorg/some-rm' is a hub id that is not in "
                                                 "the local cache .*HF_HUB_OFFLINE is set"):
        check_reward_model("someorg/some-rm", hub=True)
    from rlvr.train.checks import _check_judge

    with pytest.raises(ConfigError, match="^reward 'rm': model 'someorg/some-rm' is a hub id"):
        _check_judge({"name": "rm", "reward_model": "someorg/some-rm"})


def test_rlvr_score_with_a_reward_model(rm_folder, tmp_path, capsys):
    from rlvr.cli import main

    rows = [{"prompt": p, "completion": c} for p, c in ROWS]
    (tmp_path / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows),
                                         encoding="utf-8")
    out = tmp_path / "scored.jsonl"
    assert main(["score", "--reward-model", str(rm_folder), "--input",
                 str(tmp_path / "rows.jsonl"), "--output", str(out)]) == 0
    scored = [json.loads(line) for line in out.read_text().splitlines()]
    expected = [r.score for r in score_rows("reward_model", rows)]
    assert [r["reward"] for r in scored] == pytest.approx(expected)
    assert "3 rows scored with reward_model" in capsys.readouterr().out
    assert main(["score", "--reward-model", str(tmp_path / "nope"), "--input",
                 str(tmp_path / "rows.jsonl")]) == 2
    assert "reward_model " + str(tmp_path / "nope") + " does not exist" in capsys.readouterr().err


@pytest.mark.slow
def test_one_grpo_step_on_a_reward_model(rm_folder, tmp_path, monkeypatch):
    """The main job on the tiny model with a reward model as its only reward: the step's
    completions get the reward model's logits (rollout log) and TRL logs their mean."""
    import json

    from tiny_models import TINY_GRPO_STEP, tiny_chat_llama, use_tiny_model

    from rlvr.config import load_config
    from rlvr.train import job

    model, tokenizer = tiny_chat_llama()
    use_tiny_model(monkeypatch, job, tmp_path, tokenizer, lambda: model)
    cfg = load_config(None, {
        **TINY_GRPO_STEP, "output_dir": str(tmp_path / "run"), "reward_preset": None,
        "rollout_log": "jsonl",
        "reward_funcs": [{"name": "rm", "reward_model": str(rm_folder)}]})
    report = job.run(cfg)
    assert report["meta"]["optimizer_steps"] == 1
    rows = [json.loads(line) for line in (tmp_path / "run" / "rollouts.jsonl").open()]
    assert len(rows) == 4
    scores = [row["rewards"]["rm"] for row in rows]
    assert all(isinstance(x, float) for x in scores) and len(set(scores)) > 1  # logits vary
    logged = [json.loads(line) for line in (tmp_path / "run" / "metrics.jsonl").open()]
    (step,) = [rec for rec in logged if "rewards/rm/mean" in rec]
    assert step["rewards/rm/mean"] == pytest.approx(sum(scores) / 4, abs=1e-5)
